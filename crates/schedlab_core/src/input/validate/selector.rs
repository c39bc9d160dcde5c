//! Label selectors (`ValidateLabelSelector`) and node selectors (`ValidateNodeSelector`,
//! `ValidateNodeSelectorTerm`, `ValidateNodeSelectorRequirement`,
//! `ValidateNodeFieldSelectorRequirement`).

use super::{labels, quoted, Check};
use crate::model::field::FieldError;
use crate::model::names::{dns1123_subdomain, label_value, qualified_name};
use crate::model::{LabelSelector, NodeSelector, NodeSelectorTerm, Requirement};

const IN_NOT_IN_VALUES: &str = "must be specified when `operator` is 'In' or 'NotIn'";
const EXISTS_VALUES: &str = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";
const NOT_AN_OPERATOR: &str = "not a valid selector operator";

/// `ValidateLabelSelector` at `at`: `matchLabels` as labels; each expression's operator, its
/// values (required for `In`/`NotIn`, forbidden for `Exists`/`DoesNotExist`, each a label
/// value) and its key.
pub(super) fn label_selector(c: &mut Check, sel: &LabelSelector, at: &str) {
    if !sel.match_labels.is_empty() {
        labels(c, &sel.match_labels, &format!("{at}.matchLabels"));
    }
    for (i, r) in sel.match_expressions.iter().enumerate() {
        let p = |f: &str| format!("{at}.matchExpressions[{i}].{f}");
        match r.operator.as_str() {
            "In" | "NotIn" if r.values.is_empty() => {
                c.error(FieldError::required(p("values"), IN_NOT_IN_VALUES))
            }
            "Exists" | "DoesNotExist" if !r.values.is_empty() => {
                c.error(FieldError::forbidden(p("values"), EXISTS_VALUES))
            }
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            op => c.error(FieldError::invalid(
                p("operator"),
                quoted(op),
                NOT_AN_OPERATOR,
            )),
        }
        c.invalid_each(qualified_name(&r.key), &r.key, || p("key"));
        for (j, v) in r.values.iter().enumerate() {
            c.invalid_each(label_value(v), v, || format!("{}[{j}]", p("values")));
        }
    }
}

/// `ValidateNodeSelector` at `at`: at least one term, each term valid.
pub(super) fn node_selector(c: &mut Check, sel: &NodeSelector, at: &str) {
    if sel.node_selector_terms.is_empty() {
        c.error(FieldError::required(
            format!("{at}.nodeSelectorTerms"),
            "must have at least one node selector term",
        ));
        return;
    }
    for (i, t) in sel.node_selector_terms.iter().enumerate() {
        node_selector_term(c, t, &format!("{at}.nodeSelectorTerms[{i}]"));
    }
}

/// `ValidateNodeSelectorTerm` at `at`.
pub(super) fn node_selector_term(c: &mut Check, t: &NodeSelectorTerm, at: &str) {
    for (j, r) in t.match_expressions.iter().enumerate() {
        node_requirement(c, r, &format!("{at}.matchExpressions[{j}]"));
    }
    for (j, r) in t.match_fields.iter().enumerate() {
        field_requirement(c, r, &format!("{at}.matchFields[{j}]"));
    }
}

/// `ValidateNodeSelectorRequirement`: operator and values, and the key (values are not label
/// values here: `Gt`/`Lt` take numbers).
fn node_requirement(c: &mut Check, r: &Requirement, at: &str) {
    let p = |f: &str| format!("{at}.{f}");
    match r.operator.as_str() {
        "In" | "NotIn" if r.values.is_empty() => {
            c.error(FieldError::required(p("values"), IN_NOT_IN_VALUES))
        }
        "Exists" | "DoesNotExist" if !r.values.is_empty() => {
            c.error(FieldError::forbidden(p("values"), EXISTS_VALUES))
        }
        "Gt" | "Lt" if r.values.len() != 1 => c.error(FieldError::required(
            p("values"),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
        )),
        "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
        op => c.error(FieldError::invalid(
            p("operator"),
            quoted(op),
            NOT_AN_OPERATOR,
        )),
    }
    c.invalid_each(qualified_name(&r.key), &r.key, || p("key"));
}

/// `ValidateNodeFieldSelectorRequirement`: `In`/`NotIn` with one value, key `metadata.name`,
/// the value a node name.
fn field_requirement(c: &mut Check, r: &Requirement, at: &str) {
    let p = |f: &str| format!("{at}.{f}");
    match r.operator.as_str() {
        "In" | "NotIn" if r.values.len() != 1 => c.error(FieldError::required(
            p("values"),
            "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        )),
        "In" | "NotIn" => {}
        op => c.error(FieldError::invalid(
            p("operator"),
            quoted(op),
            NOT_AN_OPERATOR,
        )),
    }
    if r.key != "metadata.name" {
        c.error(FieldError::invalid(
            p("key"),
            quoted(&r.key),
            "not a valid field selector key",
        ));
    } else {
        for (k, v) in r.values.iter().enumerate() {
            c.invalid_each(dns1123_subdomain(v), v, || format!("{}[{k}]", p("values")));
        }
    }
}
