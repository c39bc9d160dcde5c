//! kube-apiserver's validation of the objects schedlab reads, after they are typed.
//!
//! What the API server checks (`pkg/apis/core/validation`, `pkg/apis/storage/validation`,
//! `pkg/apis/scheduling/validation`, `pkg/apis/policy/validation`, apimachinery's name, label and
//! object-meta formats) for the fields schedlab reads, for input files and timeline changes
//! alike. What the typed objects leave out is read beside them (`facts`); fields only v1.35
//! knows are checked in `versioned`, and their errors count under that version only
//! ([`RefusedBy`]). Messages are upstream's `field.Error` bodies; the per-kind table of what is
//! and is not checked is in `docs/fidelity.md`, the rules in `docs/scenario-format.md`.
//!
//! Where schedlab deliberately differs:
//!
//! - Paths name the offending entry itself (`metadata.labels["app name"]`,
//!   `spec.tolerations[0].value`), where upstream names the map or a neighbouring field.
//! - Values are quoted as Go's `%q` quotes them; a value upstream prints as a Go struct dump
//!   (`core.Toleration{...}`, `intstr.IntOrString{...}`) is printed as the field's own value.
//! - Quantities in messages are printed in canonical form from the amount (`500m`, `2`,
//!   `128Mi`), not in the suffix the input used.
//! - Three rules are warnings, not errors: what real clusters may still hold (a negative
//!   `terminationGracePeriodSeconds`, which upstream accepts with a warning and treats as 1; two
//!   `globalDefault` PriorityClasses, which admission refuses but a race can store), and an
//!   extended resource requested without a limit (hand-written scenarios and real-world
//!   examples give requests only, and the scheduler reads nothing else).
//!
//! Every check is linear in the size of the object (sets, never pairwise comparisons).

pub(crate) mod dra;
pub(crate) mod facts;
mod pod;
mod resources;
mod selector;
mod storage;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_api;
mod versioned;

pub(crate) use crate::model::names::{
    dns1123_label, dns1123_subdomain, label_value, qualified_name,
};
pub(crate) use storage::{persistent_volume, persistent_volume_claim, storage_class};

use super::parse::push_key;
use super::{join, Diagnostic, Origin};
use crate::model::field::{FieldError, Value};
pub(crate) use crate::model::words::go_quote;
use crate::model::workload::IntOrString;
use crate::model::{
    Labels, Node, ObjectMeta, Pod, PodDisruptionBudget, PriorityClass, Service, Taint,
};
use std::collections::HashSet;

/// The highest priority a PriorityClass that is not a system class may have.
pub(crate) const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;
/// The system PriorityClasses: name and value (`SystemPriorityClasses`).
pub(crate) const SYSTEM_PRIORITY_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", 2_000_001_000),
    ("system-cluster-critical", 2_000_000_000),
];
/// The taint effects (`NoSchedule`, `PreferNoSchedule`, `NoExecute`).
const TAINT_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
/// `preemptionPolicy` values.
const PREEMPTION_POLICIES: [&str; 2] = ["Never", "PreemptLowerPriority"];

/// Most errors (and, apart, warnings) reported for one object: a node with a million bad labels
/// gives this many and a note, not a million messages.
pub(crate) const MAX_PER_OBJECT: usize = 100;

/// The version of kube-apiserver that alone refuses something: a field the other version does
/// not know (and so drops) or a value only one version supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedBy {
    /// v1.17's API server.
    V1_17,
    /// v1.35's API server.
    V1_35,
}

/// Collects one object's errors and warnings, each under the object's path in its file.
pub(crate) struct Check<'a> {
    file: &'a str,
    base: &'a str,
    errors: &'a mut Vec<Diagnostic>,
    warnings: &'a mut Vec<Diagnostic>,
    /// Errors of one version only; `None`: they are errors at once.
    versioned: Option<&'a mut Vec<(RefusedBy, Diagnostic)>>,
    counts: [usize; 2],
}

impl<'a> Check<'a> {
    /// Diagnostics for the object at `base` of `file`.
    pub(crate) fn new(
        file: &'a str,
        base: &'a str,
        errors: &'a mut Vec<Diagnostic>,
        warnings: &'a mut Vec<Diagnostic>,
    ) -> Check<'a> {
        Check {
            file,
            base,
            errors,
            warnings,
            versioned: None,
            counts: [0, 0],
        }
    }

    /// [`Check::new`], with the errors of one version only put apart in `versioned`.
    pub(crate) fn with_versions(
        file: &'a str,
        base: &'a str,
        errors: &'a mut Vec<Diagnostic>,
        warnings: &'a mut Vec<Diagnostic>,
        versioned: &'a mut Vec<(RefusedBy, Diagnostic)>,
    ) -> Check<'a> {
        Check {
            versioned: Some(versioned),
            ..Check::new(file, base, errors, warnings)
        }
    }

    /// An error under one version only.
    pub(crate) fn error_in(&mut self, version: RefusedBy, e: FieldError) {
        match self.versioned.as_deref_mut() {
            None => self.error(e),
            Some(to) => {
                if self.counts[0] < MAX_PER_OBJECT {
                    self.counts[0] += 1;
                    let d = Diagnostic::new(self.file, join(self.base, &e.path), e.message);
                    to.push((version, d));
                }
            }
        }
    }

    /// An error.
    fn error(&mut self, e: FieldError) {
        self.push(0, e);
    }

    /// A warning.
    fn warn(&mut self, e: FieldError) {
        self.push(1, e);
    }

    fn push(&mut self, which: usize, e: FieldError) {
        let n = self.counts[which];
        self.counts[which] += 1;
        let to = if which == 0 {
            &mut *self.errors
        } else {
            &mut *self.warnings
        };
        if n < MAX_PER_OBJECT {
            to.push(Diagnostic::new(
                self.file,
                join(self.base, &e.path),
                e.message,
            ));
        } else if n == MAX_PER_OBJECT {
            let what = if which == 0 { "errors" } else { "warnings" };
            to.push(Diagnostic::new(
                self.file,
                self.base,
                format!("more {what} in this object are not shown (at most {MAX_PER_OBJECT})"),
            ));
        }
    }

    /// `Invalid value: "<value>": <msg>` for each message (the path is built only if needed).
    fn invalid_each(&mut self, msgs: Vec<String>, value: &str, path: impl FnOnce() -> String) {
        if msgs.is_empty() {
            return;
        }
        let path = path();
        for m in msgs {
            self.error(FieldError::invalid(path.clone(), quoted(value), &m));
        }
    }
}

/// A string value as a field error prints it (Go's `%q`).
fn quoted(s: &str) -> Value<'static> {
    Value::Raw(go_quote(s))
}

/// `path` + `.key` or `["key"]`.
fn key_path(path: &str, key: &str) -> String {
    let mut p = path.to_string();
    push_key(&mut p, key);
    p
}

/// `ValidateLabels`: every key a qualified name, every value a label value.
fn labels(c: &mut Check, labels: &Labels, at: &str) {
    for (k, v) in labels {
        c.invalid_each(qualified_name(k), k, || key_path(at, k));
        c.invalid_each(label_value(v), v, || key_path(at, k));
    }
}

/// `ValidateObjectMeta`: the name (a DNS-1123 subdomain), the namespace of a namespaced kind (a
/// DNS-1123 label) and the labels. An empty name is reported by the reader for the kinds that
/// always needed one; `require_name` reports it here, in upstream's words, for the others.
fn meta(c: &mut Check, m: &ObjectMeta, namespaced: bool, require_name: bool) {
    if m.name.is_empty() {
        if require_name {
            c.error(FieldError::required(
                "metadata.name",
                "name or generateName is required",
            ));
        }
    } else {
        c.invalid_each(dns1123_subdomain(&m.name), &m.name, || {
            "metadata.name".into()
        });
    }
    if namespaced && !m.namespace.is_empty() {
        c.invalid_each(dns1123_label(&m.namespace), &m.namespace, || {
            "metadata.namespace".into()
        });
    }
    labels(c, &m.labels, "metadata.labels");
    for k in m.annotations.keys() {
        // `ValidateAnnotations`: a qualified name once lower-cased.
        c.invalid_each(qualified_name(&k.to_lowercase()), k, || {
            key_path("metadata.annotations", k)
        });
    }
    owner_references(c, m);
}

/// `ValidateOwnerReferences`: each names its kind, name and uid (the apiVersion is not kept,
/// so not checked), and at most one is the controller.
fn owner_references(c: &mut Check, m: &ObjectMeta) {
    let mut controller: Option<String> = None;
    for (i, r) in m.owner_references.iter().enumerate() {
        let at = |f: &str| format!("metadata.ownerReferences[{i}].{f}");
        for (value, field) in [(&r.kind, "kind"), (&r.name, "name"), (&r.uid, "uid")] {
            if value.is_empty() {
                c.error(FieldError::invalid(
                    at(field),
                    quoted(""),
                    "must not be empty",
                ));
            }
        }
        if r.controller == Some(true) {
            let this = format!("{}/{}", r.kind, r.name);
            match &controller {
                Some(first) => c.error(FieldError::invalid(
                    format!("metadata.ownerReferences[{i}]"),
                    Value::Raw(this.clone()),
                    &format!(
                        "Only one reference can have Controller set to true. Found \"true\" in \
                         references for {first} and {this}"
                    ),
                )),
                None => controller = Some(this),
            }
        }
    }
}

/// `validateTaintEffect`.
fn taint_effect(c: &mut Check, effect: &str, allow_empty: bool, path: impl FnOnce() -> String) {
    if effect.is_empty() {
        if !allow_empty {
            c.error(FieldError::required(path(), ""));
        }
    } else if !TAINT_EFFECTS.contains(&effect) {
        c.error(FieldError::not_supported(
            path(),
            quoted(effect),
            &TAINT_EFFECTS,
        ));
    }
}

/// `ValidateNode`: metadata, `spec.taints`, the pod CIDRs, whole amounts of allocatable and
/// capacity where they must be.
pub(crate) fn node(c: &mut Check, n: &Node, facts: &facts::NodeFacts) {
    meta(c, &n.metadata, false, false);
    taints(c, &n.spec.taints, "spec.taints");
    let spec = &facts.spec;
    if spec.pod_cidrs.is_empty() {
        if let Some(cidr) = spec.pod_cidr.as_deref().filter(|c| !c.is_empty()) {
            pod_cidr(c, cidr, "spec.podCIDR");
        }
    }
    for (i, cidr) in spec.pod_cidrs.iter().enumerate() {
        pod_cidr(c, cidr, &format!("spec.podCIDRs[{i}]"));
    }
    pod::integer_amounts(c, &facts.status.capacity, "status.capacity");
    pod::integer_amounts(c, &facts.status.allocatable, "status.allocatable");
}

/// A pod CIDR: an IP address, `/`, a prefix length that fits the address.
fn pod_cidr(c: &mut Check, cidr: &str, at: &str) {
    let valid = cidr.split_once('/').is_some_and(|(ip, bits)| {
        let bits_ok = |max: u8| {
            !bits.is_empty()
                && bits.len() <= 3
                && bits.bytes().all(|b| b.is_ascii_digit())
                && bits.parse::<u8>().is_ok_and(|b| b <= max)
        };
        match ip.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(_)) => bits_ok(32),
            Ok(std::net::IpAddr::V6(_)) => bits_ok(128),
            Err(_) => false,
        }
    });
    if !valid {
        c.error(FieldError::invalid(
            at,
            quoted(cidr),
            "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
        ));
    }
}

/// `validateNodeTaints`: key, value, effect, unique by key and effect.
pub(crate) fn taints(c: &mut Check, list: &[Taint], at: &str) {
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    for (i, t) in list.iter().enumerate() {
        let entry = format!("{at}[{i}]");
        let at = |f: &str| format!("{entry}.{f}");
        c.invalid_each(qualified_name(&t.key), &t.key, || at("key"));
        let msgs = label_value(&t.value);
        if !msgs.is_empty() {
            c.error(FieldError::invalid(
                at("value"),
                quoted(&t.value),
                &msgs.join(";"),
            ));
        }
        taint_effect(c, &t.effect, false, || at("effect"));
        if !seen.insert((t.key.as_str(), t.effect.as_str())) {
            let dump = format!(
                "core.Taint{{Key:{}, Value:{}, Effect:{}, TimeAdded:<nil>}}",
                go_quote(&t.key),
                go_quote(&t.value),
                go_quote(&t.effect)
            );
            let mut e = FieldError::duplicate(entry.clone(), Value::Raw(dump));
            e.message
                .push_str(": taints must be unique by key and effect pair");
            c.error(e);
        }
    }
}

/// `ValidatePod` for the fields schedlab reads (the `pod` module; fields only v1.35 knows in
/// `versioned`); `facts` holds what the typed pod leaves out.
pub(crate) fn pod(c: &mut Check, p: &Pod, facts: &facts::PodFacts) {
    meta(c, &p.metadata, true, false);
    pod::spec(c, &p.spec, &facts.spec);
    versioned::pod(c, &p.spec);
}

/// `ValidateService`, for what schedlab reads: metadata and the selector's labels.
pub(crate) fn service(c: &mut Check, s: &Service) {
    meta(c, &s.metadata, true, false);
    if !s.spec.selector.is_empty() {
        labels(c, &s.spec.selector, "spec.selector");
    }
}

/// Labels set on a node by a timeline change (`setNodeLabels`).
pub(crate) fn node_labels(c: &mut Check, set: &Labels, at: &str) {
    labels(c, set, at);
}

/// `ValidatePriorityClass`: metadata, the reserved `system-` prefix, the highest value of a
/// user-defined class, `preemptionPolicy`.
pub(crate) fn priority_class(c: &mut Check, pc: &PriorityClass) {
    meta(c, &pc.metadata, false, true);
    let name = pc.metadata.name.as_str();
    if name.starts_with("system-") {
        let why = match SYSTEM_PRIORITY_CLASSES.iter().find(|(n, _)| *n == name) {
            None => Some(format!("{name} is not a known system priority class")),
            Some((n, v)) if *v != pc.value => {
                Some(format!("value of {n} PriorityClass must be {v}"))
            }
            Some((n, _)) if pc.global_default => {
                Some(format!("globalDefault of {n} PriorityClass must be false"))
            }
            Some(_) => None,
        };
        if let Some(why) = why {
            c.error(FieldError::forbidden(
                "metadata.name",
                &format!(
                    "priority class names with 'system-' prefix are reserved for system use \
                     only. error: {why}"
                ),
            ));
        }
    } else if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
        c.error(FieldError::forbidden(
            "value",
            &format!(
                "maximum allowed value of a user defined priority is \
                 {HIGHEST_USER_DEFINABLE_PRIORITY}"
            ),
        ));
    }
    preemption_policy(c, pc.preemption_policy.as_deref(), "preemptionPolicy");
}

/// `ValidatePreemptionPolicy`.
fn preemption_policy(c: &mut Check, policy: Option<&str>, path: &str) {
    match policy {
        None => {}
        Some("") => c.error(FieldError::required(path, "")),
        Some(p) if !PREEMPTION_POLICIES.contains(&p) => c.error(FieldError::not_supported(
            path,
            quoted(p),
            &PREEMPTION_POLICIES,
        )),
        Some(_) => {}
    }
}

/// An `IntOrString` as a field error prints it here: the number, or the quoted string.
fn int_or_string(v: &IntOrString) -> Value<'_> {
    match v {
        IntOrString::Int(n) => Value::Int(i64::from(*n)),
        IntOrString::Str(s) => quoted(s),
    }
}

/// `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`.
fn int_or_percent(c: &mut Check, v: &IntOrString, path: &str) {
    match v {
        IntOrString::Int(n) if *n < 0 => c.error(FieldError::invalid(
            path,
            Value::Int(i64::from(*n)),
            "must be greater than or equal to 0",
        )),
        IntOrString::Int(_) => {}
        IntOrString::Str(s) => {
            let digits = s.strip_suffix('%').unwrap_or("");
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                let m = crate::model::names::regex_error(
                    "a valid percent string must be a numeric string followed by an ending '%'",
                    "[0-9]+%",
                    &["1%", "93%"],
                );
                c.error(FieldError::invalid(path, quoted(s), &m));
            } else if digits.parse::<u64>().unwrap_or(0) > 100 {
                // (Go's Atoi fails on an overflowing number and the check reads 0.)
                c.error(FieldError::invalid(
                    path,
                    quoted(s),
                    "must not be greater than 100%",
                ));
            }
        }
    }
}

/// `ValidatePodDisruptionBudget`: metadata, `minAvailable` / `maxUnavailable` (not both; each a
/// non-negative number or a percentage up to 100%), the selector.
pub(crate) fn pod_disruption_budget(
    c: &mut Check,
    b: &PodDisruptionBudget,
    facts: &facts::PdbFacts,
) {
    meta(c, &b.metadata, true, true);
    versioned::unhealthy_pod_eviction_policy(
        c,
        facts.spec.unhealthy_pod_eviction_policy.as_deref(),
    );
    // `ValidatePodDisruptionBudgetStatusUpdate`: counts are never negative.
    let status = &facts.status;
    let counts = [
        (Some(b.status.disruptions_allowed), "disruptionsAllowed"),
        (status.current_healthy, "currentHealthy"),
        (status.desired_healthy, "desiredHealthy"),
        (status.expected_pods, "expectedPods"),
    ];
    for (n, field) in counts {
        if let Some(n) = n.filter(|n| *n < 0) {
            c.error(FieldError::invalid(
                format!("status.{field}"),
                Value::Int(n),
                "must be greater than or equal to 0",
            ));
        }
    }
    let (min, max) = (&b.spec.min_available, &b.spec.max_unavailable);
    if let (Some(lo), Some(hi)) = (min, max) {
        let both = format!(
            "{{minAvailable: {}, maxUnavailable: {}}}",
            int_or_string(lo),
            int_or_string(hi)
        );
        c.error(FieldError::invalid(
            "spec",
            Value::Raw(both),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    if let Some(v) = min {
        int_or_percent(c, v, "spec.minAvailable");
    }
    if let Some(v) = max {
        int_or_percent(c, v, "spec.maxUnavailable");
    }
    if let Some(sel) = &b.spec.selector {
        selector::label_selector(c, sel, "spec.selector");
    }
}

/// Two PriorityClasses with `globalDefault: true`: a warning at each one after the first, in
/// the Priority admission plugin's words. Admission refuses the second, but a race can store
/// both, so a snapshot may hold them.
pub(crate) fn global_defaults(classes: &[(PriorityClass, Origin)]) -> Vec<Diagnostic> {
    let mut defaults = classes.iter().filter(|(c, _)| c.global_default);
    let Some((first, _)) = defaults.next() else {
        return Vec::new();
    };
    defaults
        .map(|(_, o)| {
            Diagnostic::new(
                &o.file,
                join(&o.path, "globalDefault"),
                format!(
                    "PriorityClass {} is already marked as default. Only one default can exist \
                     (schedlab gives pods without a class the value of the first, {:?}: {})",
                    first.metadata.name, first.metadata.name, first.value
                ),
            )
        })
        .collect()
}
