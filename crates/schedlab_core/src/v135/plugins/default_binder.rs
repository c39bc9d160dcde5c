//! `DefaultBinder` (v1.35, `defaultbinder/default_binder.go`; reference §4.18): Bind only.
//!
//! There is nothing to compute here: upstream POSTs a `v1.Binding` (`{namespace, name, uid}` of
//! the pod, target `{kind: Node, name: <node>}`); an API error becomes an Error status and the
//! pod goes back through backoff. The simulator binds the pod in its cluster model itself; this
//! plugin only has to be present (a profile needs at least one Bind plugin).

use crate::model::field::FieldError;
use crate::v135::plugin::Plugin;
use crate::v135::plugin::{PluginSpec, Point, Points};

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "DefaultBinder",
    points: Points::of(&[Point::Bind]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// The plugin: a marker for the bind step described above.
pub(crate) struct DefaultBinder;

impl Plugin for DefaultBinder {
    fn name(&self) -> &'static str {
        SPEC.name
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(DefaultBinder))
}
