//! Reads a `Timeline` object (`docs/scenario-format.md`) into [`Timeline`], every error naming
//! its path (`spec.changes[2].at: invalid duration "5x"`).

use super::validate::{self, facts, Check, RefusedBy};
use super::{join, typed_value as typed, Diagnostic};
use crate::model::timeline::{Change, DraKind, DraObject, TimedChange, Timeline};
use crate::model::Millis;
use crate::model::{Labels, Node, Pod, Taint};
use serde_json::Value;

/// The apiVersion of schedlab's own kinds.
pub const API_VERSION: &str = crate::model::SCHEDLAB_API_VERSION;

/// The longest time a timeline may name: one year of virtual time.
pub const MAX_TIME: Millis = Millis::secs(366 * 24 * 3600);
/// The most pods one `createPods` may create.
pub const MAX_REPLICAS: u64 = 100_000;

/// The change keys, in the order the documentation lists them.
pub const VERBS: &[&str] = &[
    "addNode",
    "updateNode",
    "deleteNode",
    "cordonNode",
    "uncordonNode",
    "setNodeLabels",
    "setNodeTaints",
    "createPod",
    "createPods",
    "deletePod",
    "failBinding",
    "applyDeviceClass",
    "applyResourceSlice",
    "applyResourceClaim",
    "deleteDeviceClass",
    "deleteResourceSlice",
    "deleteResourceClaim",
];

/// Parses a duration: a number of seconds (`90`, `0.5`) or a Go duration string (`"90s"`,
/// `"1m30s"`, `"500ms"`, `"2h"`). Milliseconds are the finest unit; at most [`MAX_TIME`].
pub fn parse_duration(v: &Value) -> Result<Millis, String> {
    let ms: f64 = match v {
        Value::Number(n) => n.as_f64().map(|s| s * 1000.0).unwrap_or(f64::NAN),
        Value::String(s) => parse_go_duration(s)?,
        other => {
            return Err(format!(
                "expected seconds (a number) or a duration such as \"90s\", found {}",
                kind_of(other)
            ))
        }
    };
    let shown = || match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    };
    if ms.is_nan() {
        return Err(format!(
            "invalid duration {}: not a number (use seconds, or e.g. \"90s\", \"1m30s\", \"500ms\")",
            shown()
        ));
    }
    if ms < 0.0 {
        return Err(format!(
            "invalid duration {}: must not be negative",
            shown()
        ));
    }
    if ms > MAX_TIME.0 as f64 {
        return Err(format!(
            "duration {} is more than a year of virtual time",
            shown()
        ));
    }
    let rounded = ms.round();
    if (ms - rounded).abs() > 1e-6 {
        return Err(format!("duration {} is finer than a millisecond", shown()));
    }
    Ok(Millis(rounded as u64))
}

fn parse_go_duration(s: &str) -> Result<f64, String> {
    let bad =
        || format!("invalid duration {s:?} (use seconds, or e.g. \"90s\", \"1m30s\", \"500ms\")");
    let text = s.trim();
    if text.is_empty() {
        return Err(bad());
    }
    if let Ok(secs) = text.parse::<f64>() {
        // "NaN" and "inf" parse as numbers but are no durations.
        return if secs.is_finite() {
            Ok(secs * 1000.0)
        } else {
            Err(bad())
        };
    }
    let mut total = 0.0;
    let mut rest = text;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 {
            return Err(bad());
        }
        let number: f64 = rest[..num_len].parse().map_err(|_| bad())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = match &rest[..unit_len] {
            "ms" => 1.0,
            "s" => 1000.0,
            "m" => 60_000.0,
            "h" => 3_600_000.0,
            _ => return Err(bad()),
        };
        rest = &rest[unit_len..];
        total += number * factor;
    }
    Ok(total)
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a map",
    }
}

struct Reader<'a> {
    file: &'a str,
    errors: Vec<Diagnostic>,
    warnings: &'a mut Vec<Diagnostic>,
    versioned: &'a mut Vec<(RefusedBy, Diagnostic)>,
}

/// `unknown field "x"`, with the nearest known field when one is close, and the known ones.
fn unknown_field(key: &str, known: &[&str], near: &[(&str, &str)]) -> String {
    let hint = near
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, s)| s.to_string())
        .or_else(|| crate::model::words::nearest(key, known.iter().copied()).map(str::to_string))
        .map(|s| format!("; did you mean {s}?"))
        .unwrap_or_default();
    format!(
        "unknown field {key:?}{hint} (expected {})",
        known.join(", ")
    )
}

impl<'a> Reader<'a> {
    fn error(&mut self, path: &str, message: impl Into<String>) {
        self.errors.push(Diagnostic::new(self.file, path, message));
    }

    /// kube-apiserver's validation of an object a change creates or sets, at `path`.
    fn check<'c>(&'c mut self, path: &'c str) -> Check<'c> {
        Check::with_versions(
            self.file,
            path,
            &mut self.errors,
            self.warnings,
            self.versioned,
        )
    }

    /// An error at each key of the map `v` that is not in `known`.
    fn strict(&mut self, path: &str, v: &Value, known: &[&str]) {
        if let Value::Object(m) = v {
            for key in m.keys().filter(|k| !known.contains(&k.as_str())) {
                self.error(&join(path, key), unknown_field(key, known, &[]));
            }
        }
    }

    fn string(&mut self, path: &str, v: &Value, what: &str) -> Option<String> {
        match v.as_str() {
            Some(s) if !s.is_empty() => Some(s.to_string()),
            _ => {
                self.error(path, format!("expected {what} (a non-empty string)"));
                None
            }
        }
    }

    /// A pod reference: `namespace/name`, or `name` in `default`.
    fn pod_name(&mut self, path: &str, v: &Value) -> Option<String> {
        let s = self.string(path, v, "a pod name (namespace/name)")?;
        Some(if s.contains('/') {
            s
        } else {
            format!("default/{s}")
        })
    }

    fn node_ref(&mut self, path: &str, v: &Value, known: &[&str]) -> Option<String> {
        // A bare name, or a map with `node` (written either way).
        self.strict(path, v, known);
        match v {
            Value::Object(m) => match m.get("node") {
                Some(n) => self.string(&join(path, "node"), n, "a node name"),
                None => {
                    self.error(path, "expected a node name");
                    None
                }
            },
            other => self.string(path, other, "a node name"),
        }
    }

    fn typed<T: serde::de::DeserializeOwned>(&mut self, path: &str, v: &Value) -> Option<T> {
        typed(self.file, path, v.clone(), &mut self.errors)
    }

    fn change(&mut self, path: &str, verb: &str, v: &Value) -> Option<Change> {
        let p = join(path, verb);
        Some(match verb {
            "addNode" | "updateNode" => {
                let node: Node = self.typed(&p, v)?;
                if node.metadata.name.is_empty() {
                    self.error(
                        &join(&p, "metadata.name"),
                        "required: the node needs a name",
                    );
                    return None;
                }
                let facts: facts::NodeFacts = self.typed(&p, v)?;
                validate::node(&mut self.check(&p), &node, &facts);
                if verb == "addNode" {
                    Change::AddNode(node)
                } else {
                    Change::UpdateNode(node)
                }
            }
            "deleteNode" => Change::DeleteNode(self.node_ref(&p, v, &["node"])?),
            "cordonNode" => Change::CordonNode(self.node_ref(&p, v, &["node"])?),
            "uncordonNode" => Change::UncordonNode(self.node_ref(&p, v, &["node"])?),
            "setNodeLabels" => {
                let node = self.node_ref(&p, v, &["node", "labels", "remove"])?;
                let labels: Labels = match v.get("labels") {
                    Some(l) => self.typed(&join(&p, "labels"), l)?,
                    None => Labels::new(),
                };
                let remove: Vec<String> = match v.get("remove") {
                    Some(r) => self.typed(&join(&p, "remove"), r)?,
                    None => Vec::new(),
                };
                let at = join(&p, "labels");
                validate::node_labels(&mut self.check(&at), &labels, "");
                if labels.is_empty() && remove.is_empty() {
                    self.error(&p, "expected `labels` to set or `remove` to delete");
                    return None;
                }
                Change::SetNodeLabels {
                    node,
                    labels,
                    remove,
                }
            }
            "setNodeTaints" => {
                let node = self.node_ref(&p, v, &["node", "taints"])?;
                let taints: Vec<Taint> = match v.get("taints") {
                    Some(t) => self.typed(&join(&p, "taints"), t)?,
                    None => Vec::new(),
                };
                validate::taints(&mut self.check(&p), &taints, "taints");
                Change::SetNodeTaints { node, taints }
            }
            "createPod" => {
                let pod: Pod = self.typed(&p, v)?;
                if pod.metadata.name.is_empty() {
                    self.error(&join(&p, "metadata.name"), "required: the pod needs a name");
                    return None;
                }
                let facts: facts::PodFacts = self.typed(&p, v)?;
                validate::pod(&mut self.check(&p), &pod, &facts);
                Change::CreatePod(Box::new(pod))
            }
            "createPods" => {
                self.strict(&p, v, &["replicas", "template"]);
                let replicas = match v.get("replicas").map(Value::as_u64) {
                    Some(Some(n)) if (1..=MAX_REPLICAS).contains(&n) => n as u32,
                    _ => {
                        self.error(
                            &join(&p, "replicas"),
                            format!("expected a whole number from 1 to {MAX_REPLICAS}"),
                        );
                        return None;
                    }
                };
                let Some(t) = v.get("template") else {
                    self.error(&join(&p, "template"), "required: the pod template");
                    return None;
                };
                let template: Pod = self.typed(&join(&p, "template"), t)?;
                if template.metadata.name.is_empty() {
                    self.error(
                        &join(&p, "template.metadata.name"),
                        "required: the name prefix of the pods",
                    );
                    return None;
                }
                let at = join(&p, "template");
                let facts: facts::PodFacts = self.typed(&at, t)?;
                validate::pod(&mut self.check(&at), &template, &facts);
                Change::CreatePods {
                    replicas,
                    template: Box::new(template),
                }
            }
            "deletePod" => Change::DeletePod(self.pod_name(&p, v)?),
            "failBinding" => Change::FailBinding(self.pod_name(&p, v)?),
            "applyDeviceClass" | "applyResourceSlice" | "applyResourceClaim" => {
                self.only_v135(&p);
                Change::ApplyDra(Box::new(self.dra_object(&p, verb, v)?))
            }
            "deleteDeviceClass" | "deleteResourceSlice" | "deleteResourceClaim" => {
                self.only_v135(&p);
                let (kind, name) = match verb {
                    "deleteDeviceClass" => (DraKind::DeviceClass, self.string(&p, v, "a name")?),
                    "deleteResourceSlice" => {
                        (DraKind::ResourceSlice, self.string(&p, v, "a name")?)
                    }
                    _ => (DraKind::ResourceClaim, self.pod_name(&p, v)?),
                };
                Change::DeleteDra { kind, name }
            }
            _ => unreachable!("verbs are checked by the caller"),
        })
    }

    /// Dynamic Resource Allocation is v1.35's: its verbs are errors under v1.17.
    fn only_v135(&mut self, path: &str) {
        self.check(path).error_in(
            RefusedBy::V1_17,
            crate::model::field::FieldError::plain(
                "",
                "Dynamic Resource Allocation (resource.k8s.io/v1) is kube-scheduler v1.35's; v1.17 has no DynamicResources",
            ),
        );
    }

    /// The object of an `apply…` verb, named, defaulted and validated as in an input file.
    fn dra_object(&mut self, p: &str, verb: &str, v: &Value) -> Option<DraObject> {
        use crate::model::dra::{DeviceClass, ResourceClaim, ResourceSlice};
        let named = |this: &mut Self, name: &str| {
            if name.is_empty() {
                this.error(
                    &join(p, "metadata.name"),
                    "required: the object needs a name",
                );
                false
            } else {
                true
            }
        };
        Some(match verb {
            "applyDeviceClass" => {
                let c: DeviceClass = self.typed(p, v)?;
                if !named(self, &c.metadata.name) {
                    return None;
                }
                validate::dra::device_class(&mut self.check(p), &c);
                DraObject::DeviceClass(c)
            }
            "applyResourceSlice" => {
                let s: ResourceSlice = self.typed(p, v)?;
                if !named(self, &s.metadata.name) {
                    return None;
                }
                validate::dra::resource_slice(&mut self.check(p), &s);
                DraObject::ResourceSlice(s)
            }
            _ => {
                let mut c: ResourceClaim = self.typed(p, v)?;
                if !named(self, &c.metadata.name) {
                    return None;
                }
                crate::model::dra::apply_request_defaults(&mut c.spec);
                validate::dra::claim_spec(&mut self.check(p), "spec", &c.spec, &c.metadata);
                DraObject::ResourceClaim(c)
            }
        })
    }
}

/// The fields of a `Timeline` and of its `spec`.
const TIMELINE_FIELDS: [&str; 4] = ["apiVersion", "kind", "metadata", "spec"];
const SPEC_FIELDS: [&str; 3] = ["bindLatency", "bindFailurePercent", "changes"];

/// An error at each unknown top-level field (a field of `spec` there: "did you mean spec.x?").
fn top_level_fields(r: &mut Reader, path: &str, value: &Value) {
    let misplaced: Vec<(&str, String)> = SPEC_FIELDS
        .iter()
        .map(|f| (*f, format!("spec.{f}")))
        .collect();
    let near: Vec<(&str, &str)> = misplaced.iter().map(|(k, s)| (*k, s.as_str())).collect();
    if let Value::Object(m) = value {
        for key in m.keys().filter(|k| !TIMELINE_FIELDS.contains(&k.as_str())) {
            let message = unknown_field(key, &TIMELINE_FIELDS, &near);
            r.error(&join(path, key), message);
        }
    }
}

/// Reads one `Timeline` object found at `path` of `file`; the objects its changes create are
/// validated as input objects are (warnings and one version's errors go to `warnings` and
/// `versioned`).
pub fn read(
    file: &str,
    path: &str,
    value: &Value,
    warnings: &mut Vec<Diagnostic>,
    versioned: &mut Vec<(RefusedBy, Diagnostic)>,
) -> Result<Timeline, Vec<Diagnostic>> {
    let mut r = Reader {
        file,
        errors: Vec::new(),
        warnings,
        versioned,
    };
    top_level_fields(&mut r, path, value);
    let mut timeline = Timeline::default();
    let spec_path = join(path, "spec");
    let spec = match value.get("spec") {
        Some(Value::Object(m)) => m.clone(),
        None => serde_json::Map::new(),
        Some(other) => {
            r.error(
                &spec_path,
                format!("expected a map, found {}", kind_of(other)),
            );
            return Err(r.errors);
        }
    };
    for key in spec.keys() {
        if !SPEC_FIELDS.contains(&key.as_str()) {
            r.error(
                &join(&spec_path, key),
                unknown_field(key, &SPEC_FIELDS, &[]),
            );
        }
    }
    if let Some(v) = spec.get("bindLatency") {
        match parse_duration(v) {
            Ok(d) => timeline.bind_latency = d,
            Err(e) => r.error(&join(&spec_path, "bindLatency"), e),
        }
    }
    if let Some(v) = spec.get("bindFailurePercent") {
        match v.as_f64() {
            Some(p) if (0.0..=100.0).contains(&p) => timeline.bind_failure_percent = p,
            _ => r.error(
                &join(&spec_path, "bindFailurePercent"),
                format!("expected a number from 0 to 100, found {v}"),
            ),
        }
    }
    let changes = match spec.get("changes") {
        None => Vec::new(),
        Some(Value::Array(a)) => a.clone(),
        Some(other) => {
            r.error(
                &join(&spec_path, "changes"),
                format!("expected a list, found {}", kind_of(other)),
            );
            Vec::new()
        }
    };
    for (i, c) in changes.iter().enumerate() {
        let cpath = join(&spec_path, &format!("changes[{i}]"));
        let Value::Object(m) = c else {
            r.error(
                &cpath,
                format!(
                    "expected a map with `at` and one change, found {}",
                    kind_of(c)
                ),
            );
            continue;
        };
        let at = match m.get("at") {
            Some(v) => match parse_duration(v) {
                Ok(t) => Some(t),
                Err(e) => {
                    r.error(&join(&cpath, "at"), e);
                    None
                }
            },
            None => {
                r.error(
                    &join(&cpath, "at"),
                    "required: when the change happens (seconds or \"90s\")",
                );
                None
            }
        };
        let mut verbs = Vec::new();
        for key in m.keys().filter(|k| k.as_str() != "at") {
            if VERBS.contains(&key.as_str()) {
                verbs.push(key.as_str());
            } else {
                let hint = crate::model::words::nearest(key, VERBS.iter().copied())
                    .map(|s| format!("; did you mean {s}?"))
                    .unwrap_or_default();
                r.error(
                    &join(&cpath, key),
                    format!(
                        "unknown change{hint} (expected one of {})",
                        VERBS.join(", ")
                    ),
                );
            }
        }
        let verb = match verbs.as_slice() {
            [v] => *v,
            [] => {
                if m.keys().all(|k| k == "at" || VERBS.contains(&k.as_str())) {
                    r.error(
                        &cpath,
                        format!("expected one change: one of {}", VERBS.join(", ")),
                    );
                }
                continue;
            }
            many => {
                r.error(
                    &cpath,
                    format!(
                        "expected exactly one change per entry, found {}",
                        many.join(" and ")
                    ),
                );
                continue;
            }
        };
        let change = r.change(&cpath, verb, &m[verb]);
        if let (Some(at), Some(change)) = (at, change) {
            timeline.changes.push(TimedChange {
                at,
                change,
                file: file.to_string(),
                path: cpath,
            });
        }
    }
    if r.errors.is_empty() {
        timeline.changes.sort_by_key(|c| c.at);
        Ok(timeline)
    } else {
        Err(r.errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn durations_in_seconds_and_go_syntax() {
        let ms = |v: Value| parse_duration(&v).map(|m| m.0);
        assert_eq!(ms(json!(90)), Ok(90_000));
        assert_eq!(ms(json!(0.5)), Ok(500));
        assert_eq!(ms(json!("90s")), Ok(90_000));
        assert_eq!(ms(json!("1m30s")), Ok(90_000));
        assert_eq!(ms(json!("1h2m3.5s")), Ok(3_723_500));
        assert_eq!(ms(json!("250ms")), Ok(250));
        assert_eq!(ms(json!("12")), Ok(12_000));
        assert!(ms(json!("5x"))
            .unwrap_err()
            .contains("invalid duration \"5x\""));
        assert!(ms(json!(-1)).unwrap_err().contains("negative"));
        assert!(ms(json!("0.0001s")).unwrap_err().contains("millisecond"));
        assert!(ms(json!("9999h")).unwrap_err().contains("year"));
        assert!(ms(json!(true)).unwrap_err().contains("a boolean"));
        // Parsed as floats, but not durations: said so, not "negative".
        for text in ["NaN", "inf", "-inf"] {
            assert_eq!(
                ms(json!(text)),
                Err(format!(
                    "invalid duration {text:?} (use seconds, or e.g. \"90s\", \"1m30s\", \"500ms\")"
                ))
            );
        }
    }

    fn errors(v: Value) -> Vec<String> {
        read("t.yaml", "", &v, &mut Vec::new(), &mut Vec::new())
            .err()
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn changes_are_sorted_by_time_keeping_file_order() {
        let t = read(
            "t.yaml",
            "",
            &json!({"spec": {"bindLatency": "2s", "changes": [
                {"at": 60, "cordonNode": "a"},
                {"at": "30s", "deletePod": "web"},
                {"at": 60, "uncordonNode": {"node": "a"}},
            ]}}),
            &mut Vec::new(),
            &mut Vec::new(),
        )
        .expect("valid");
        assert_eq!(t.bind_latency, Millis(2000));
        let got: Vec<(u64, String)> = t
            .changes
            .iter()
            .map(|c| (c.at.0, c.change.object()))
            .collect();
        assert_eq!(
            got,
            [
                (30_000, "pod/default/web".to_string()),
                (60_000, "node/a".to_string()),
                (60_000, "node/a".to_string())
            ]
        );
        assert_eq!(t.changes[1].change.verb(), "cordonNode");
        assert_eq!(t.changes[0].path, "spec.changes[1]");
    }

    #[test]
    fn every_mistake_names_its_path() {
        let e = errors(json!({"spec": {"bindFailurePercent": 120, "changes": [
            {"at": "5x", "cordonNode": "a"},
            {"cordonNode": "a"},
            {"at": 1, "cordnNode": "a"},
            {"at": 1, "cordonNode": "a", "deleteNode": "b"},
            {"at": 1, "createPods": {"replicas": 0, "template": {"metadata": {"name": "w"}}}},
            {"at": 1, "addNode": {"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "12x"}}}},
            "oops",
        ]}}));
        let want = [
            "t.yaml: spec.bindFailurePercent: expected a number from 0 to 100, found 120",
            "t.yaml: spec.changes[0].at: invalid duration \"5x\"",
            "t.yaml: spec.changes[1].at: required",
            "t.yaml: spec.changes[2].cordnNode: unknown change; did you mean cordonNode?",
            "t.yaml: spec.changes[3]: expected exactly one change per entry, found cordonNode and deleteNode",
            "t.yaml: spec.changes[4].createPods.replicas: expected a whole number from 1 to 100000",
            "t.yaml: spec.changes[5].addNode.status.allocatable.cpu: invalid quantity \"12x\"",
            "t.yaml: spec.changes[6]: expected a map with `at` and one change, found a string",
        ];
        assert_eq!(e.len(), want.len(), "{e:#?}");
        for (got, want) in e.iter().zip(want) {
            assert!(got.starts_with(want), "{got}\n  should start with\n{want}");
        }
    }

    #[test]
    fn unknown_fields_are_errors_with_the_nearest_known_one() {
        let e = errors(json!({"changes": [], "spec": {"bindLatncy": 1, "changes": [
            {"at": 1, "createPods": {"replica": 2, "template": {"metadata": {"name": "w"},
                "spec": {"containers": [{"name": "c"}]}}}},
            {"at": 1, "setNodeLabels": {"node": "n", "label": {"a": "b"}}},
        ]}}));
        assert_eq!(
            e,
            [
                "t.yaml: changes: unknown field \"changes\"; did you mean spec.changes? \
                 (expected apiVersion, kind, metadata, spec)",
                "t.yaml: spec.bindLatncy: unknown field \"bindLatncy\"; did you mean \
                 bindLatency? (expected bindLatency, bindFailurePercent, changes)",
                "t.yaml: spec.changes[0].createPods.replica: unknown field \"replica\"; did you \
                 mean replicas? (expected replicas, template)",
                "t.yaml: spec.changes[0].createPods.replicas: expected a whole number from 1 to \
                 100000",
                "t.yaml: spec.changes[1].setNodeLabels.label: unknown field \"label\"; did you \
                 mean labels? (expected node, labels, remove)",
                "t.yaml: spec.changes[1].setNodeLabels: expected `labels` to set or `remove` to \
                 delete",
            ]
        );
    }
}
