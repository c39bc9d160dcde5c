//! The API server's validation of DRA objects (`pkg/apis/resource/validation`), the part the
//! scheduler depends on: names (DNS-1123 subdomains; request names DNS labels), exactly one
//! of `exactly`/`firstAvailable` and of the slice's node selection, allocation modes and
//! counts, the list limits (32 requests, constraints, configs, selectors; 8 subrequests; 128
//! devices per slice; 32 attributes and capacities per device), attribute values (exactly one
//! type, strings and versions at most 64 characters, versions semver), and CEL selectors:
//! at most 10 KiB, compiling (`Invalid value: "<expr>": compilation failed: ...`), and within
//! the cost limit (`Forbidden: too complex, exceeds cost limit`).

use super::{dns1123_label, dns1123_subdomain, meta, quoted, Check};
use crate::model::dra::{
    DeviceClass, DeviceSelector, ResourceClaimSpec, ResourceSlice, ALL, EXACT_COUNT,
};
use crate::model::field::{FieldError, Value};
use crate::model::ObjectMeta;
use crate::v135::plugins::dynamic_resources::cel;
use std::collections::HashSet;

fn too_many(c: &mut Check, path: String, n: usize, max: usize) -> bool {
    if n > max {
        c.error(FieldError::plain(
            path,
            format!("Too many: {n}: must have at most {max} items"),
        ));
        return true;
    }
    false
}

/// `validateSelector`: a CEL expression that compiles within the limits.
fn selectors(c: &mut Check, list: &[DeviceSelector], path: &str) {
    too_many(c, path.to_string(), list.len(), 32);
    for (i, s) in list.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let Some(sel) = &s.cel else {
            c.error(FieldError::required(format!("{p}.cel"), ""));
            continue;
        };
        let ep = format!("{p}.cel.expression");
        if sel.expression.len() > cel::MAX_LENGTH {
            c.error(FieldError::plain(
                ep,
                format!("Too long: may not be more than {} bytes", cel::MAX_LENGTH),
            ));
            continue;
        }
        match cel::compile(&sel.expression) {
            Err(e) => c.error(FieldError::invalid(ep, quoted(&sel.expression), &e)),
            Ok(p) if p.max_cost > cel::MAX_COST => {
                c.error(FieldError::forbidden(ep, "too complex, exceeds cost limit"))
            }
            Ok(_) => {}
        }
    }
}

/// A DeviceClass.
pub(crate) fn device_class(c: &mut Check, d: &DeviceClass) {
    meta(c, &d.metadata, false, true);
    selectors(c, &d.spec.selectors, "spec.selectors");
    too_many(c, "spec.config".into(), d.spec.config.len(), 32);
}

/// `allocationMode` and `count` of a request or subrequest.
fn mode(c: &mut Check, mode: &str, count: i64, path: &str) {
    match mode {
        EXACT_COUNT if count <= 0 => c.error(FieldError::invalid(
            format!("{path}.count"),
            Value::Int(count),
            "must be greater than zero",
        )),
        EXACT_COUNT | ALL => {}
        other => c.error(FieldError::not_supported(
            format!("{path}.allocationMode"),
            quoted(other),
            &[ALL, EXACT_COUNT],
        )),
    }
}

fn class_name(c: &mut Check, name: &str, path: String) {
    if name.is_empty() {
        c.error(FieldError::required(path, ""));
    } else {
        c.invalid_each(dns1123_subdomain(name), name, || path);
    }
}

/// A claim's (or a template's) spec, under `at`.
pub(crate) fn claim_spec(c: &mut Check, at: &str, spec: &ResourceClaimSpec, m: &ObjectMeta) {
    meta(c, m, true, true);
    let d = &spec.devices;
    let base = format!("{at}.devices");
    too_many(c, format!("{base}.requests"), d.requests.len(), 32);
    let mut names = HashSet::new();
    for (i, r) in d.requests.iter().enumerate() {
        let p = format!("{base}.requests[{i}]");
        if r.name.is_empty() {
            c.error(FieldError::required(format!("{p}.name"), ""));
        } else {
            c.invalid_each(dns1123_label(&r.name), &r.name, || format!("{p}.name"));
            if !names.insert(r.name.as_str()) {
                c.error(FieldError::duplicate(format!("{p}.name"), quoted(&r.name)));
            }
        }
        match (&r.exactly, &r.first_available) {
            (Some(e), None) => {
                class_name(
                    c,
                    &e.device_class_name,
                    format!("{p}.exactly.deviceClassName"),
                );
                selectors(c, &e.selectors, &format!("{p}.exactly.selectors"));
                mode(c, &e.allocation_mode, e.count, &format!("{p}.exactly"));
            }
            (None, Some(subs)) => {
                let fp = format!("{p}.firstAvailable");
                if subs.is_empty() {
                    c.error(FieldError::required(fp.clone(), ""));
                }
                too_many(c, fp.clone(), subs.len(), 8);
                for (j, s) in subs.iter().enumerate() {
                    let sp = format!("{fp}[{j}]");
                    c.invalid_each(dns1123_label(&s.name), &s.name, || format!("{sp}.name"));
                    class_name(c, &s.device_class_name, format!("{sp}.deviceClassName"));
                    selectors(c, &s.selectors, &format!("{sp}.selectors"));
                    mode(c, &s.allocation_mode, s.count, &sp);
                }
            }
            _ => c.error(FieldError::invalid(
                p,
                Value::Raw("{...}".into()),
                "exactly one of `exactly` or `firstAvailable` is required",
            )),
        }
    }
    too_many(c, format!("{base}.constraints"), d.constraints.len(), 32);
    too_many(c, format!("{base}.config"), d.config.len(), 32);
}

/// A ResourceSlice.
pub(crate) fn resource_slice(c: &mut Check, s: &ResourceSlice) {
    meta(c, &s.metadata, false, true);
    let spec = &s.spec;
    if spec.driver.is_empty() {
        c.error(FieldError::required("spec.driver", ""));
    }
    if spec.pool.name.is_empty() {
        c.error(FieldError::required("spec.pool.name", ""));
    }
    if spec.pool.generation < 0 {
        c.error(FieldError::invalid(
            "spec.pool.generation",
            Value::Int(spec.pool.generation),
            "must be greater than or equal to 0",
        ));
    }
    if spec.pool.resource_slice_count <= 0 {
        c.error(FieldError::invalid(
            "spec.pool.resourceSliceCount",
            Value::Int(spec.pool.resource_slice_count),
            "must be greater than zero",
        ));
    }
    let set = [
        spec.node_name.is_some(),
        spec.node_selector.is_some(),
        spec.all_nodes == Some(true),
        spec.per_device_node_selection == Some(true),
    ];
    if set.iter().filter(|&&b| b).count() != 1 {
        c.error(FieldError::invalid(
            "spec",
            Value::Raw("{...}".into()),
            "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required",
        ));
    }
    if let Some(sel) = &spec.node_selector {
        if sel.node_selector_terms.len() != 1 {
            c.error(FieldError::invalid(
                "spec.nodeSelector.nodeSelectorTerms",
                Value::Int(sel.node_selector_terms.len() as i64),
                "must have exactly one node selector term",
            ));
        }
    }
    too_many(c, "spec.devices".into(), spec.devices.len(), 128);
    let mut names = HashSet::new();
    for (i, d) in spec.devices.iter().enumerate() {
        let p = format!("spec.devices[{i}]");
        c.invalid_each(dns1123_label(&d.name), &d.name, || format!("{p}.name"));
        if !names.insert(d.name.as_str()) {
            c.error(FieldError::duplicate(format!("{p}.name"), quoted(&d.name)));
        }
        too_many(
            c,
            format!("{p}.attributes"),
            d.attributes.len() + d.capacity.len(),
            32,
        );
        for (k, a) in &d.attributes {
            let ap = format!("{p}.attributes[{k:?}]");
            let n = [
                a.int.is_some(),
                a.bool.is_some(),
                a.string.is_some(),
                a.version.is_some(),
            ];
            if n.iter().filter(|&&b| b).count() != 1 {
                c.error(FieldError::invalid(
                    ap.clone(),
                    Value::Raw("{...}".into()),
                    "exactly one value must be specified",
                ));
            }
            for v in [&a.string, &a.version].into_iter().flatten() {
                if v.len() > 64 {
                    c.error(FieldError::plain(
                        ap.clone(),
                        "Too long: may not be more than 64 bytes",
                    ));
                }
            }
            if let Some(v) = &a.version {
                if cel::Semver::parse(v, false).is_none() {
                    c.error(FieldError::invalid(
                        format!("{ap}.version"),
                        quoted(v),
                        "must be a string compatible with semver.org spec 2.0.0",
                    ));
                }
            }
        }
    }
}
