//! Reading `extenders[]` in both dialects into [`Extender`]s:
//!
//! - a legacy `Policy` (v1.17): keys matched case-insensitively (Go's decoder; old files say
//!   `BindVerb`, `TLSConfig`), `enableHttps`, `httpTimeout` in integer nanoseconds, and
//!   v1.17's validation messages (`Priority for extender ... should have a positive weight
//!   applied to it`, `Only one extender can implement bind, found 2`);
//! - a v1 `KubeSchedulerConfiguration` (v1.35): decoded strictly and validated with the rest
//!   of the configuration (`v135::config`); here only `httpTimeout`'s duration string is read.

use super::{ignorable_last, Extender, ManagedResource, DEFAULT_TIMEOUT};
use crate::model::resources::is_extended_resource;
use crate::model::Millis;
use serde_json::Value;

/// A field of a Policy object: the exact key, else one that matches ignoring case (as Go's
/// `encoding/json` matches struct fields).
fn field<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    let o = v.as_object()?;
    o.get(name).or_else(|| {
        o.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    })
}

/// How Go's decoder names a JSON value's kind in a type error.
fn json_kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(n) => format!("number {n}"),
        Value::String(_) => "string".into(),
        Value::Array(_) => "array".into(),
        Value::Object(_) => "object".into(),
    }
}

/// Go's `UnmarshalTypeError` text for a Policy extender field.
fn type_error(v: &Value, go_field: &str, go_type: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go struct field {go_field} of type {go_type}",
        json_kind(v)
    )
}

/// A `time.Duration` in nanoseconds as the virtual clock's milliseconds: zero is the default
/// 5 s, a negative one means no timeout, a part of a millisecond counts as a whole one.
pub(crate) fn timeout_from_nanos(ns: i64) -> Option<Millis> {
    match ns {
        0 => Some(DEFAULT_TIMEOUT),
        n if n < 0 => None,
        n => Some(Millis((n as u64).div_ceil(1_000_000))),
    }
}

/// The Policy's `extenders`, validated as v1.17 validates them. Ok: the extenders, ignorable
/// ones last. Err: every (path, message).
pub(crate) fn from_policy(list: &[Value]) -> Result<Vec<Extender>, Vec<(String, String)>> {
    let mut errors = Vec::new();
    let mut out = Vec::new();
    let mut binders = 0;
    let mut seen: Vec<String> = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let path = format!("extenders[{i}]");
        if !e.is_object() {
            errors.push((path, type_error(e, "Policy.extenders", "v1.Extender")));
            continue;
        }
        let mut fail = |key: &str, message: String| errors.push((format!("{path}.{key}"), message));
        let mut text = |key: &str| match field(e, key) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                fail(key, type_error(other, &format!("Extender.{key}"), "string"));
                String::new()
            }
        };
        let mut ext = Extender {
            url_prefix: text("urlPrefix"),
            filter_verb: text("filterVerb"),
            preempt_verb: text("preemptVerb"),
            prioritize_verb: text("prioritizeVerb"),
            bind_verb: text("bindVerb"),
            ..Extender::default()
        };
        let mut flag = |key: &str| match field(e, key) {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                fail(key, type_error(other, &format!("Extender.{key}"), "bool"));
                false
            }
        };
        ext.enable_https = flag("enableHttps");
        ext.node_cache_capable = flag("nodeCacheCapable");
        ext.ignorable = flag("ignorable");
        let mut integer = |key: &str, go_type: &str| match field(e, key) {
            None | Some(Value::Null) => 0,
            Some(v @ Value::Number(n)) => n.as_i64().unwrap_or_else(|| {
                fail(key, type_error(v, &format!("Extender.{key}"), go_type));
                0
            }),
            Some(other) => {
                fail(key, type_error(other, &format!("Extender.{key}"), go_type));
                0
            }
        };
        ext.weight = integer("weight", "int64");
        ext.http_timeout = timeout_from_nanos(integer("httpTimeout", "time.Duration"));
        if !ext.prioritize_verb.is_empty() && ext.weight <= 0 {
            errors.push((
                format!("{path}.weight"),
                format!(
                    "Priority for extender {} should have a positive weight applied to it",
                    ext.url_prefix
                ),
            ));
        }
        if !ext.bind_verb.is_empty() {
            binders += 1;
        }
        match field(e, "managedResources") {
            None | Some(Value::Null) => {}
            Some(Value::Array(resources)) => {
                for (j, r) in resources.iter().enumerate() {
                    let at = format!("{path}.managedResources[{j}]");
                    let name = match field(r, "name") {
                        Some(Value::String(s)) => s.clone(),
                        None | Some(Value::Null) => String::new(),
                        Some(other) => {
                            errors.push((
                                format!("{at}.name"),
                                type_error(other, "ExtenderManagedResource.name", "string"),
                            ));
                            continue;
                        }
                    };
                    if !is_extended_resource(&name) {
                        errors.push((
                            format!("{at}.name"),
                            format!("{name} is an invalid extended resource name"),
                        ));
                    }
                    if seen.contains(&name) {
                        errors.push((
                            format!("{at}.name"),
                            format!("Duplicate extender managed resource name {name}"),
                        ));
                    }
                    seen.push(name.clone());
                    let ignored = match field(r, "ignoredByScheduler") {
                        None | Some(Value::Null) => false,
                        Some(Value::Bool(b)) => *b,
                        Some(other) => {
                            errors.push((
                                format!("{at}.ignoredByScheduler"),
                                type_error(
                                    other,
                                    "ExtenderManagedResource.ignoredByScheduler",
                                    "bool",
                                ),
                            ));
                            false
                        }
                    };
                    ext.managed_resources.push(ManagedResource {
                        name,
                        ignored_by_scheduler: ignored,
                    });
                }
            }
            Some(other) => errors.push((
                format!("{path}.managedResources"),
                type_error(
                    other,
                    "Extender.managedResources",
                    "[]v1.ExtenderManagedResource",
                ),
            )),
        }
        out.push(ext);
    }
    if binders > 1 {
        errors.push((
            "extenders".into(),
            format!("Only one extender can implement bind, found {binders}"),
        ));
    }
    if errors.is_empty() {
        Ok(ignorable_last(out))
    } else {
        Err(errors)
    }
}

/// Go's `time.ParseDuration`: an optional sign, then one or more decimal numbers each with a
/// unit (`ns`, `us`, `µs`, `ms`, `s`, `m`, `h`), or a bare `0`. In nanoseconds; Go's error
/// text when it is not one (`time: invalid duration "5 s"`).
pub(crate) fn parse_go_duration(s: &str) -> Result<i64, String> {
    let invalid = || {
        format!(
            "time: invalid duration {}",
            crate::model::words::go_quote(s)
        )
    };
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if body == "0" {
        return Ok(0);
    }
    if body.is_empty() {
        return Err(invalid());
    }
    let mut total: f64 = 0.0;
    let mut rest = body;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = &rest[..digits];
        if number.is_empty() || number == "." {
            return Err(invalid());
        }
        let value: f64 = number.parse().map_err(|_| invalid())?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            "" => {
                return Err(format!(
                    "time: missing unit in duration {}",
                    crate::model::words::go_quote(s)
                ))
            }
            unit => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    crate::model::words::go_quote(unit),
                    crate::model::words::go_quote(s)
                ))
            }
        };
        total += value * scale;
        rest = &rest[unit_len..];
    }
    if total > i64::MAX as f64 {
        return Err(invalid());
    }
    let ns = total.round() as i64;
    Ok(if negative { -ns } else { ns })
}

/// A v1 configuration's extender, already decoded and validated (`v135::config`): its
/// `httpTimeout` string read as Go reads a `metav1.Duration`.
pub(crate) fn from_v1_fields(
    mut ext: Extender,
    http_timeout: Option<&str>,
) -> Result<Extender, String> {
    let ns = match http_timeout {
        None => 0,
        Some(s) => parse_go_duration(s)?,
    };
    ext.http_timeout = timeout_from_nanos(ns);
    Ok(ext)
}
