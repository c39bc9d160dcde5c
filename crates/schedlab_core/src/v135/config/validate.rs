//! Validation of a defaulted configuration (`ValidateKubeSchedulerConfiguration`, reference
//! §2.3), in upstream's order and words. Every error is reported, not just the first.

use super::defaults::{Defaulted, ProfileConfig};
use super::merge::PluginSet;
use super::{profile_path, V1};
use crate::model::field::{FieldError, Value};
use crate::model::resources::is_extended_resource;
use crate::v135::plugin::{PluginSpec, Point};
use crate::v135::registry;
use serde_json::Value as Json;

/// Every validation error of `c`.
pub(crate) fn validate(c: &Defaulted) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if c.parallelism <= 0 {
        errs.push(FieldError::invalid(
            "parallelism",
            Value::Int(c.parallelism.into()),
            "should be an integer value greater than zero",
        ));
    }
    if c.profiles.is_empty() {
        errs.push(FieldError::required("profiles", ""));
    } else {
        // `existingProfiles[name] = i`: a name remembers the last profile that had it.
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for (i, p) in c.profiles.iter().enumerate() {
            validate_profile(i, p, &mut errs);
            let name = p.scheduler_name.as_str();
            match seen.iter_mut().find(|(n, _)| *n == name) {
                Some((_, idx)) => {
                    // Upstream's value is the earlier profile's field path (a Go struct
                    // printed with %#v, pointer included); schedlab prints the path itself.
                    errs.push(FieldError::duplicate(
                        format!("{}.schedulerName", profile_path(i)),
                        Value::Str(&format!("{}.schedulerName", profile_path(*idx))),
                    ));
                    *idx = i;
                }
                None => seen.push((name, i)),
            }
        }
        validate_common_queue_sort(&c.profiles, &mut errs);
    }
    validate_percentage(
        "percentageOfNodesToScore",
        Some(c.percentage_of_nodes_to_score),
        &mut errs,
    );
    if c.pod_initial_backoff_seconds <= 0 {
        errs.push(FieldError::invalid(
            "podInitialBackoffSeconds",
            Value::Int(c.pod_initial_backoff_seconds),
            "must be greater than 0",
        ));
    }
    if c.pod_max_backoff_seconds < c.pod_initial_backoff_seconds {
        errs.push(FieldError::invalid(
            "podMaxBackoffSeconds",
            Value::Int(c.pod_max_backoff_seconds),
            "must be greater than or equal to PodInitialBackoffSeconds",
        ));
    }
    validate_extenders(c, &mut errs);
    errs
}

fn validate_percentage(path: &str, p: Option<i32>, errs: &mut Vec<FieldError>) {
    if let Some(p) = p.filter(|p| !(0..=100).contains(p)) {
        errs.push(FieldError::invalid(
            path,
            Value::Int(p.into()),
            "not in valid range [0-100]",
        ));
    }
}

/// `was invalid in version "…v1" (KubeSchedulerConfiguration is version "…v1")`.
fn removed_detail() -> String {
    format!("was invalid in version {V1:?} (KubeSchedulerConfiguration is version {V1:?})")
}

fn is_removed(name: &str) -> bool {
    registry::REMOVED_PLUGINS.contains(&name)
}

fn validate_profile(i: usize, p: &ProfileConfig, errs: &mut Vec<FieldError>) {
    let path = profile_path(i);
    if p.scheduler_name.is_empty() {
        errs.push(FieldError::required(format!("{path}.schedulerName"), ""));
    }
    validate_percentage(
        &format!("{path}.percentageOfNodesToScore"),
        p.percentage_of_nodes_to_score,
        errs,
    );
    // Removed plugins in the per-point lists (not in multiPoint, which upstream's map leaves
    // out: there they fail at framework build, as unknown plugins).
    for point in Point::ALL {
        for (j, e) in p.plugins.at(point).enabled.iter().enumerate() {
            if is_removed(&e.name) {
                let index = e.index.unwrap_or(j);
                errs.push(FieldError::invalid(
                    format!("{path}.plugins.{}.enabled[{index}]", point.field()),
                    Value::Str(&e.name),
                    &removed_detail(),
                ));
            }
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for (j, pc) in p.plugin_config.iter().enumerate() {
        let pc_path = format!("{path}.pluginConfig[{j}]");
        if seen.contains(&pc.name.as_str()) {
            errs.push(FieldError::duplicate(pc_path.clone(), Value::Str(&pc.name)));
        } else {
            seen.push(&pc.name);
        }
        if is_removed(&pc.name) {
            errs.push(FieldError::invalid(
                pc_path,
                Value::Str(&pc.name),
                &removed_detail(),
            ));
            continue;
        }
        let Some(spec) = registry::lookup(&pc.name) else {
            // Out-of-tree plugin: its args stay raw and are never checked.
            continue;
        };
        let args_path = format!("{pc_path}.args");
        if let Some(err) = kind_mismatch(spec, pc.args.as_ref(), &args_path) {
            errs.push(err);
        } else if spec.args_checked_by_validation {
            if let Err(e) = (spec.build)(plugin_args(spec, pc.args.as_ref()).as_ref()) {
                errs.extend(e.into_iter().map(|e| e.under(&args_path)));
            }
        }
    }
}

/// `has to match plugin args`: `args.kind` names another kind than the plugin's.
fn kind_mismatch(spec: &PluginSpec, args: Option<&Json>, path: &str) -> Option<FieldError> {
    let expected = spec.args_kind?;
    let kind = args?.get("kind")?;
    if kind.as_str() == Some(expected) {
        return None;
    }
    Some(FieldError::invalid(
        path,
        Value::Raw(args?.to_string()),
        "has to match plugin args",
    ))
}

/// The args a plugin's `build` gets: none for a plugin that takes none, else the given ones
/// without `apiVersion` and `kind` (upstream's `TypeMeta`, already checked).
pub(crate) fn plugin_args(spec: &PluginSpec, args: Option<&Json>) -> Option<Json> {
    spec.args_kind?;
    let mut args = args?.clone();
    if let Some(o) = args.as_object_mut() {
        o.remove("apiVersion");
        o.remove("kind");
    }
    Some(args)
}

/// `validateCommonQueueSort`: every profile has profile 0's queueSort set and args.
fn validate_common_queue_sort(profiles: &[ProfileConfig], errs: &mut Vec<FieldError>) {
    let canon = profiles[0].plugins.at(Point::QueueSort);
    let queue_sort_name = canon.enabled.first().map_or("", |e| e.name.as_str());
    if canon.enabled.len() > 1 {
        errs.push(FieldError::invalid(
            format!("{}.plugins.queueSort.Enabled", profile_path(0)),
            Value::Int(canon.enabled.len() as i64),
            "only one queue sort plugin can be enabled",
        ));
    }
    // Upstream's loop keeps the last matching entry.
    let canon_args = profiles[0]
        .plugin_config
        .iter()
        .rfind(|c| !queue_sort_name.is_empty() && c.name == queue_sort_name)
        .and_then(|c| c.args.as_ref());
    for (i, p) in profiles.iter().enumerate().skip(1) {
        let curr = p.plugins.at(Point::QueueSort);
        if !same_plugin_set(canon, curr) {
            errs.push(FieldError::invalid(
                format!("{}.plugins.queueSort", profile_path(i)),
                Value::Raw(go_plugin_set(curr)),
                "queueSort must be the same for all profiles",
            ));
        }
        for c in &p.plugin_config {
            if c.name == queue_sort_name && c.args.as_ref() != canon_args {
                errs.push(FieldError::invalid(
                    format!("{}.pluginConfig.args", profile_path(i)),
                    Value::Raw(c.args.as_ref().map_or("null".into(), Json::to_string)),
                    "queueSort must be the same for all profiles",
                ));
            }
        }
    }
}

/// `apiequality.Semantic.DeepEqual` on two internal `PluginSet`s (a missing weight is 0).
fn same_plugin_set(a: &PluginSet, b: &PluginSet) -> bool {
    let enabled = |s: &PluginSet| -> Vec<(String, i64)> {
        s.enabled
            .iter()
            .map(|e| (e.name.clone(), e.weight.unwrap_or(0)))
            .collect()
    };
    enabled(a) == enabled(b) && a.disabled == b.disabled
}

/// How Go's `%#v` prints an internal `config.PluginSet`.
fn go_plugin_set(s: &PluginSet) -> String {
    fn list<'a>(items: impl ExactSizeIterator<Item = (&'a str, i64)>) -> String {
        if items.len() == 0 {
            return "[]config.Plugin(nil)".into();
        }
        let items: Vec<String> = items
            .map(|(n, w)| format!("config.Plugin{{Name:{n:?}, Weight:{w}}}"))
            .collect();
        format!("[]config.Plugin{{{}}}", items.join(", "))
    }
    format!(
        "config.PluginSet{{Enabled:{}, Disabled:{}}}",
        list(
            s.enabled
                .iter()
                .map(|e| (e.name.as_str(), e.weight.unwrap_or(0)))
        ),
        list(s.disabled.iter().map(|d| (d.as_str(), 0))),
    )
}

/// `validateExtenders`.
fn validate_extenders(c: &Defaulted, errs: &mut Vec<FieldError>) {
    let mut binders = 0;
    let mut managed: Vec<&str> = Vec::new();
    for (i, e) in c.extenders.iter().enumerate() {
        let path = format!("extenders[{i}]");
        if !e.prioritize_verb.is_empty() && e.weight <= 0 {
            errs.push(FieldError::invalid(
                format!("{path}.weight"),
                Value::Int(e.weight),
                "must have a positive weight applied to it",
            ));
        }
        if !e.bind_verb.is_empty() {
            binders += 1;
        }
        for (j, r) in e.managed_resources.iter().enumerate() {
            let name_path = format!("{path}.managedResources[{j}].name");
            if !is_extended_resource(&r.name) {
                errs.push(FieldError::invalid(
                    name_path.clone(),
                    Value::Str(&r.name),
                    "is an invalid extended resource name",
                ));
            }
            if managed.contains(&r.name.as_str()) {
                errs.push(FieldError::invalid(
                    name_path,
                    Value::Str(&r.name),
                    "duplicate extender managed resource name",
                ));
            }
            managed.push(&r.name);
        }
    }
    if binders > 1 {
        errs.push(FieldError::invalid(
            "extenders",
            Value::Str(&format!("found {binders} extenders implementing bind")),
            "only one extender can implement bind",
        ));
    }
}
