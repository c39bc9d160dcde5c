//! Fields only v1.35 knows (v1.17's API server drops them, so they are not checked under
//! v1.17): scheduling gates, `matchLabelKeys` and `mismatchLabelKeys`, a namespace selector,
//! the newer fields of topology spread constraints, `unhealthyPodEvictionPolicy`.

use super::{quoted, selector, Check, RefusedBy};
use crate::model::field::{FieldError, Value};
use crate::model::names::qualified_name;
use crate::model::pod::{PodAffinityTerm, PodSpec};
use crate::model::LabelSelector;
use std::collections::HashSet;

const V135: RefusedBy = RefusedBy::V1_35;
const NODE_INCLUSION_POLICIES: [&str; 2] = ["Honor", "Ignore"];
const NOT_POSITIVE: &str = "must be greater than zero";
const NO_SELECTOR: &str = "must not be specified when labelSelector is not set";
/// `supportedUnhealthyPodEvictionPolicies`, sorted as upstream lists them.
pub(super) const UNHEALTHY_POD_EVICTION_POLICIES: [&str; 2] = ["AlwaysAllow", "IfHealthyBudget"];

/// The v1.35 fields of a pod spec.
pub(super) fn pod(c: &mut Check, s: &PodSpec) {
    scheduling_gates(c, s);
    if let Some(a) = &s.affinity {
        for (pa, at) in [
            (&a.pod_affinity, "spec.affinity.podAffinity"),
            (&a.pod_anti_affinity, "spec.affinity.podAntiAffinity"),
        ] {
            let Some(pa) = pa else { continue };
            let required = "requiredDuringSchedulingIgnoredDuringExecution";
            let preferred = "preferredDuringSchedulingIgnoredDuringExecution";
            for (i, t) in pa
                .required_during_scheduling_ignored_during_execution
                .iter()
                .enumerate()
            {
                affinity_term(c, t, &format!("{at}.{required}[{i}]"));
            }
            for (i, w) in pa
                .preferred_during_scheduling_ignored_during_execution
                .iter()
                .enumerate()
            {
                let p = format!("{at}.{preferred}[{i}].podAffinityTerm");
                affinity_term(c, &w.pod_affinity_term, &p);
            }
        }
    }
    spread_constraints(c, s);
}

/// `validateSchedulingGates` (qualified names, none twice) and `ValidatePodCreate`'s rule that a
/// gated pod names no node.
fn scheduling_gates(c: &mut Check, s: &PodSpec) {
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, g) in s.scheduling_gates.iter().enumerate() {
        let at = format!("spec.schedulingGates[{i}]");
        for m in qualified_name(&g.name) {
            c.error_in(V135, FieldError::invalid(at.clone(), quoted(&g.name), &m));
        }
        if !seen.insert(g.name.as_str()) {
            c.error_in(V135, FieldError::duplicate(at, quoted(&g.name)));
        }
    }
    if !s.scheduling_gates.is_empty() && !s.node_name.is_empty() {
        c.error_in(
            V135,
            FieldError::forbidden(
                "spec.nodeName",
                "cannot be set until all schedulingGates have been cleared",
            ),
        );
    }
}

/// `validateLabelKeys`: keys only beside a label selector, each a label name.
fn label_keys(c: &mut Check, keys: &[String], selector: Option<&LabelSelector>, at: &str) {
    if keys.is_empty() {
        return;
    }
    if selector.is_none() {
        c.error_in(V135, FieldError::forbidden(at, NO_SELECTOR));
        return;
    }
    for (i, k) in keys.iter().enumerate() {
        for m in qualified_name(k) {
            c.error_in(
                V135,
                FieldError::invalid(format!("{at}[{i}]"), quoted(k), &m),
            );
        }
    }
}

/// A pod affinity term's namespace selector, `matchLabelKeys` and `mismatchLabelKeys`
/// (`validateMatchLabelKeysAndMismatchLabelKeys`).
fn affinity_term(c: &mut Check, t: &PodAffinityTerm, at: &str) {
    if let Some(sel) = &t.namespace_selector {
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let mut inner = Check::new(c.file, "", &mut errors, &mut warnings);
        selector::label_selector(&mut inner, sel, &format!("{at}.namespaceSelector"));
        for d in errors {
            c.error_in(V135, FieldError::plain(d.path, d.message));
        }
    }
    let selector = t.label_selector.as_ref();
    let matching = format!("{at}.matchLabelKeys");
    label_keys(c, &t.match_label_keys, selector, &matching);
    label_keys(
        c,
        &t.mismatch_label_keys,
        selector,
        &format!("{at}.mismatchLabelKeys"),
    );
    let mismatch: HashSet<&str> = t.mismatch_label_keys.iter().map(String::as_str).collect();
    for (i, k) in t.match_label_keys.iter().enumerate() {
        if mismatch.contains(k.as_str()) {
            c.error_in(
                V135,
                FieldError::invalid(
                    format!("{matching}[{i}]"),
                    quoted(k),
                    "exists in both matchLabelKeys and mismatchLabelKeys",
                ),
            );
        }
    }
}

/// A topology spread constraint's `minDomains`, inclusion policies and `matchLabelKeys`.
fn spread_constraints(c: &mut Check, s: &PodSpec) {
    for (i, t) in s.topology_spread_constraints.iter().enumerate() {
        let p = |f: &str| format!("spec.topologySpreadConstraints[{i}].{f}");
        if let Some(m) = t.min_domains {
            let v = || Value::Int(i64::from(m));
            if m <= 0 {
                c.error_in(
                    V135,
                    FieldError::invalid(p("minDomains"), v(), NOT_POSITIVE),
                );
            }
            let action = t.when_unsatisfiable.as_str();
            if action != "DoNotSchedule" {
                let why = format!(
                    "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"
                );
                c.error_in(V135, FieldError::invalid(p("minDomains"), v(), &why));
            }
        }
        for (policy, name) in [
            (&t.node_affinity_policy, "nodeAffinityPolicy"),
            (&t.node_taints_policy, "nodeTaintsPolicy"),
        ] {
            if let Some(v) = policy.as_deref() {
                if !NODE_INCLUSION_POLICIES.contains(&v) {
                    let e = FieldError::not_supported(p(name), quoted(v), &NODE_INCLUSION_POLICIES);
                    c.error_in(V135, e);
                }
            }
        }
        let selector = t.label_selector.as_ref();
        label_keys(c, &t.match_label_keys, selector, &p("matchLabelKeys"));
    }
}

/// A PodDisruptionBudget's `unhealthyPodEvictionPolicy`.
pub(super) fn unhealthy_pod_eviction_policy(c: &mut Check, policy: Option<&str>) {
    if let Some(v) = policy {
        if !UNHEALTHY_POD_EVICTION_POLICIES.contains(&v) {
            let e = FieldError::not_supported(
                "spec.unhealthyPodEvictionPolicy",
                quoted(v),
                &UNHEALTHY_POD_EVICTION_POLICIES,
            );
            c.error_in(V135, e);
        }
    }
}
