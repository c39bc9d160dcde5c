//! Custom plugins: plugins an author brings (a kube-scheduler-wasm-extension guest today),
//! enabled by name in a v1 configuration like any in-tree plugin (`multiPoint` or per point,
//! `weight`, `pluginConfig.args` handed to its factory).
//!
//! The registry ([`super::registry`]) is static; custom plugins are in scope while a
//! configuration is read ([`with_custom_plugins`]): then [`lookup`] finds their specs and the
//! profile builder builds them through their factories. A spec is made once per distinct
//! name and set of points and kept for the life of the process (a few bytes each).

pub mod script;
pub mod wasm_guest;

use super::plugin::{Plugin, PluginSpec, Points};
use crate::model::field::FieldError;
use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};

/// What builds a custom plugin's instance from its `pluginConfig` args (as given, `None`
/// without any). Err: the message after `initializing plugin "NAME": `.
pub type Factory =
    dyn Fn(Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, String> + Send + Sync;

/// A custom plugin, ready to be enabled by name.
#[derive(Clone)]
pub struct CustomPlugin {
    /// Its name in the configuration.
    pub name: String,
    /// The extension points it implements.
    pub points: Points,
    /// Builds an instance.
    pub factory: Arc<Factory>,
}

impl std::fmt::Debug for CustomPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CustomPlugin")
            .field("name", &self.name)
            .field("points", &self.points)
            .finish()
    }
}

thread_local! {
    /// The custom plugins in scope, each with its spec.
    static IN_SCOPE: RefCell<Vec<(&'static PluginSpec, CustomPlugin)>> = const { RefCell::new(Vec::new()) };
}

/// Every spec made so far (one per name and points).
static SPECS: Mutex<Vec<&'static PluginSpec>> = Mutex::new(Vec::new());

/// Never called: a custom plugin is built by its factory ([`build`]).
fn no_build(_: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Err(vec![FieldError::plain(
        "",
        "a custom plugin is built by its factory",
    )])
}

/// The spec of a custom plugin with this name and these points.
fn spec_for(name: &str, points: Points) -> &'static PluginSpec {
    let mut specs = SPECS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(s) = specs.iter().find(|s| s.name == name && s.points == points) {
        return s;
    }
    let spec: &'static PluginSpec = Box::leak(Box::new(PluginSpec {
        name: Box::leak(name.to_string().into_boxed_str()),
        points,
        default_enabled: false,
        default_weight: None,
        args_kind: None,
        args_checked_by_validation: false,
        build: no_build,
    }));
    specs.push(spec);
    spec
}

/// Runs `f` with `plugins` in scope, beside those already in scope (an inner plugin of one
/// name wins): a configuration read inside it may enable them. A custom plugin named like an
/// in-tree plugin is never found (the in-tree one wins).
pub fn with_custom_plugins<R>(plugins: &[CustomPlugin], f: impl FnOnce() -> R) -> R {
    let mut scoped: Vec<(&'static PluginSpec, CustomPlugin)> = plugins
        .iter()
        .map(|p| (spec_for(&p.name, p.points), p.clone()))
        .collect();
    IN_SCOPE.with(|s| {
        for outer in s.borrow().iter() {
            if !scoped.iter().any(|(spec, _)| spec.name == outer.0.name) {
                scoped.push(outer.clone());
            }
        }
    });
    let before = IN_SCOPE.with(|s| std::mem::replace(&mut *s.borrow_mut(), scoped));
    let out = f();
    IN_SCOPE.with(|s| *s.borrow_mut() = before);
    out
}

/// The spec of the custom plugin `name`, when one is in scope.
pub(crate) fn lookup(name: &str) -> Option<&'static PluginSpec> {
    IN_SCOPE.with(|s| {
        s.borrow()
            .iter()
            .find(|(spec, _)| spec.name == name)
            .map(|(spec, _)| *spec)
    })
}

/// The specs of the custom plugins in scope.
pub(crate) fn specs_in_scope() -> Vec<&'static PluginSpec> {
    IN_SCOPE.with(|s| s.borrow().iter().map(|(spec, _)| *spec).collect())
}

/// Builds the custom plugin of `spec` with `args`; `None` when `spec` is not a custom plugin
/// in scope.
pub(crate) fn build(
    spec: &'static PluginSpec,
    args: Option<&serde_json::Value>,
) -> Option<Result<Box<dyn Plugin>, String>> {
    let factory = IN_SCOPE.with(|s| {
        s.borrow()
            .iter()
            .find(|(s, _)| std::ptr::eq(*s, spec))
            .map(|(_, p)| Arc::clone(&p.factory))
    })?;
    Some(factory(args))
}

/// The name a custom plugin's instance reports ([`Plugin::name`]): the spec's, which lives as
/// long as the process.
pub(crate) fn static_name(name: &str) -> &'static str {
    let specs = SPECS.lock().unwrap_or_else(PoisonError::into_inner);
    match specs.iter().find(|s| s.name == name) {
        Some(s) => s.name,
        None => {
            drop(specs);
            spec_for(name, Points::NONE).name
        }
    }
}
