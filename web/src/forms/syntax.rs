//! The one-line syntaxes the forms use for lists: labels `k=v`, taints `k=v:Effect`,
//! tolerations, node selector terms `zone in (a,b), gpu`, pod affinity terms
//! `topologyKey: k=v`, spread constraints and host ports. Each has a `parse_*` (form text →
//! JSON value) and a `format_*` (JSON value → form text). Entries separate by newlines; labels
//! and expressions also by commas.

use serde_json::{json, Map, Value};

/// Splits on commas and newlines outside parentheses; trims; drops empty parts.
fn split_top(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if (c == ',' && depth <= 0) || c == '\n' {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    parts.push(cur);
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty())
}

/// `k=v, k2=v2` (or one per line) → a label map.
pub fn parse_labels(text: &str) -> Result<Map<String, Value>, String> {
    let mut m = Map::new();
    for part in split_top(text) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("{part:?}: write labels as key=value"))?;
        let k = k.trim();
        if k.is_empty() {
            return Err(format!("{part:?}: the key is empty"));
        }
        m.insert(k.to_string(), Value::String(v.trim().to_string()));
    }
    Ok(m)
}

/// A label map → `k=v` entries joined by `sep`.
pub fn format_labels(v: Option<&Value>, sep: &str) -> String {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={}", super::str_at(v, &[])))
                .collect::<Vec<_>>()
                .join(sep)
        })
        .unwrap_or_default()
}

const EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

fn effect(e: &str) -> Result<String, String> {
    EFFECTS
        .iter()
        .find(|x| x.eq_ignore_ascii_case(e.trim()))
        .map(|x| x.to_string())
        .ok_or_else(|| format!("{e:?}: the effect is NoSchedule, PreferNoSchedule or NoExecute"))
}

/// `key=value:Effect` or `key:Effect`, one per line → taints.
pub fn parse_taints(text: &str) -> Result<Vec<Value>, String> {
    split_top(text)
        .iter()
        .map(|t| {
            let (kv, eff) = t
                .rsplit_once(':')
                .ok_or_else(|| format!("{t:?}: write taints as key=value:Effect"))?;
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            if k.trim().is_empty() {
                return Err(format!("{t:?}: the key is empty"));
            }
            let mut m = Map::new();
            m.insert("key".into(), k.trim().into());
            if !v.trim().is_empty() {
                m.insert("value".into(), v.trim().into());
            }
            m.insert("effect".into(), effect(eff)?.into());
            Ok(Value::Object(m))
        })
        .collect()
}

/// Taints → `key=value:Effect` lines.
pub fn format_taints(v: Option<&Value>) -> String {
    let s = |t: &Value, k: &str| super::str_at(t, &[k]);
    each(v)
        .map(|t| {
            let value = s(t, "value");
            let kv = if value.is_empty() {
                s(t, "key")
            } else {
                format!("{}={value}", s(t, "key"))
            };
            format!("{kv}:{}", s(t, "effect"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn each(v: Option<&Value>) -> impl Iterator<Item = &Value> {
    v.and_then(Value::as_array).into_iter().flatten()
}

/// Tolerations, one per line: `key=value:Effect` (Equal), `key:Effect` or `key` (Exists),
/// `*` (tolerates everything); the effect is optional.
pub fn parse_tolerations(text: &str) -> Result<Vec<Value>, String> {
    split_top(text)
        .iter()
        .map(|t| {
            let (body, eff) = match t.rsplit_once(':') {
                Some((b, e)) => (b.trim(), Some(effect(e)?)),
                None => (t.as_str(), None),
            };
            let mut m = Map::new();
            match body.split_once('=') {
                Some((k, v)) => {
                    if k.trim().is_empty() {
                        return Err(format!("{t:?}: key=value needs a key"));
                    }
                    m.insert("key".into(), k.trim().into());
                    m.insert("operator".into(), "Equal".into());
                    m.insert("value".into(), v.trim().into());
                }
                None => {
                    if body != "*" && !body.is_empty() {
                        m.insert("key".into(), body.into());
                    }
                    m.insert("operator".into(), "Exists".into());
                }
            }
            if let Some(e) = eff {
                m.insert("effect".into(), e.into());
            }
            Ok(Value::Object(m))
        })
        .collect()
}

/// Tolerations → lines in the [`parse_tolerations`] syntax.
pub fn format_tolerations(v: Option<&Value>) -> String {
    each(v)
        .map(|t| {
            let s = |k: &str| super::str_at(t, &[k]);
            let key = s("key");
            let mut out = if s("operator") == "Exists" {
                if key.is_empty() {
                    "*".to_string()
                } else {
                    key
                }
            } else {
                format!("{key}={}", s("value"))
            };
            if !s("effect").is_empty() {
                out = format!("{out}:{}", s("effect"));
            }
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One selector expression: `k in (a,b)`, `k notin (a)`, `k` (Exists), `!k`, `k gt 3`, `k lt 3`.
fn parse_expression(e: &str) -> Result<Value, String> {
    let e = e.trim();
    if let Some(k) = e.strip_prefix('!') {
        return Ok(json!({"key": k.trim(), "operator": "DoesNotExist"}));
    }
    let mut words = e.splitn(2, char::is_whitespace);
    let key = words.next().unwrap_or_default();
    let rest = words.next().unwrap_or_default().trim();
    if rest.is_empty() {
        return Ok(json!({"key": key, "operator": "Exists"}));
    }
    let (op, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (op, arg) = match op.split_once('(') {
        Some((o, a)) => (o, format!("({a}{arg}")),
        None => (op, arg.to_string()),
    };
    let operator = match op.to_ascii_lowercase().as_str() {
        "in" => "In",
        "notin" => "NotIn",
        "gt" | ">" => "Gt",
        "lt" | "<" => "Lt",
        _ => {
            return Err(format!(
                "{e:?}: use key in (a,b), key notin (a), key, !key, key gt 3 or key lt 3"
            ))
        }
    };
    let arg = arg.trim();
    let values: Vec<Value> = arg
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(Value::from)
        .collect();
    if values.is_empty() {
        return Err(format!("{e:?}: {operator} needs values"));
    }
    Ok(json!({"key": key, "operator": operator, "values": values}))
}

fn format_expression(x: &Value) -> String {
    let key = super::str_at(x, &["key"]);
    let values = || {
        each(x.get("values"))
            .map(|v| super::str_at(v, &[]))
            .collect::<Vec<_>>()
            .join(",")
    };
    match x["operator"].as_str().unwrap_or_default() {
        "In" => format!("{key} in ({})", values()),
        "NotIn" => format!("{key} notin ({})", values()),
        "Exists" => key,
        "DoesNotExist" => format!("!{key}"),
        "Gt" => format!("{key} gt {}", values()),
        "Lt" => format!("{key} lt {}", values()),
        other => format!("{key} {other} ({})", values()),
    }
}

/// Node selector terms, one per line (terms are ORed), expressions comma-separated (ANDed) →
/// the `matchExpressions` of each term.
pub fn parse_node_terms(text: &str) -> Result<Vec<Vec<Value>>, String> {
    lines(text)
        .map(|l| split_top(l).iter().map(|e| parse_expression(e)).collect())
        .collect()
}

/// `nodeSelectorTerms` → lines.
pub fn format_node_terms(v: Option<&Value>) -> String {
    each(v)
        .map(|t| {
            each(t.get("matchExpressions"))
                .map(format_expression)
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A pod affinity term as the form writes it: `topologyKey` and `matchLabels`.
pub type PodTerm = (String, Map<String, Value>);

/// Pod affinity terms, one per line: `topologyKey: k=v, k2=v2`.
pub fn parse_pod_terms(text: &str) -> Result<Vec<PodTerm>, String> {
    lines(text)
        .map(|l| {
            let (key, labels) = l
                .split_once(':')
                .ok_or_else(|| format!("{l:?}: write topologyKey: key=value"))?;
            Ok((key.trim().to_string(), parse_labels(labels)?))
        })
        .collect()
}

/// Pod affinity terms → `topologyKey: k=v` lines.
pub fn format_pod_terms(v: Option<&Value>) -> String {
    each(v)
        .map(|t| {
            format!(
                "{}: {}",
                super::str_at(t, &["topologyKey"]),
                format_labels(super::at(t, &["labelSelector", "matchLabels"]), ", ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A spread constraint as the form writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Spread {
    /// `topologyKey`.
    pub topology_key: String,
    /// `maxSkew`.
    pub max_skew: i64,
    /// `whenUnsatisfiable`.
    pub when: String,
    /// `labelSelector.matchLabels`.
    pub labels: Map<String, Value>,
}

/// Spread constraints, one per line: `topologyKey maxSkew DoNotSchedule|ScheduleAnyway k=v,...`.
pub fn parse_spread(text: &str) -> Result<Vec<Spread>, String> {
    lines(text)
        .map(|l| {
            let usage = || {
                format!("{l:?}: write topologyKey maxSkew DoNotSchedule|ScheduleAnyway key=value")
            };
            let mut w = l.splitn(4, char::is_whitespace).filter(|s| !s.is_empty());
            let key = w.next().ok_or_else(usage)?;
            let skew = w.next().and_then(|s| s.parse().ok()).ok_or_else(usage)?;
            let when = match w.next().map(str::to_ascii_lowercase).as_deref() {
                Some("donotschedule") => "DoNotSchedule",
                Some("scheduleanyway") => "ScheduleAnyway",
                _ => return Err(usage()),
            };
            Ok(Spread {
                topology_key: key.to_string(),
                max_skew: skew,
                when: when.to_string(),
                labels: parse_labels(w.next().unwrap_or_default())?,
            })
        })
        .collect()
}

/// `topologySpreadConstraints` → lines.
pub fn format_spread(v: Option<&Value>) -> String {
    each(v)
        .map(|c| {
            format!(
                "{} {} {} {}",
                super::str_at(c, &["topologyKey"]),
                super::str_at(c, &["maxSkew"]),
                super::str_at(c, &["whenUnsatisfiable"]),
                format_labels(super::at(c, &["labelSelector", "matchLabels"]), ",")
            )
            .trim_end()
            .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `80, 443/UDP` → (port, protocol) pairs; the protocol defaults to TCP.
pub fn parse_ports(text: &str) -> Result<Vec<(i64, String)>, String> {
    split_top(&text.replace(' ', ","))
        .iter()
        .map(|p| {
            let (n, proto) = p.split_once('/').unwrap_or((p, "TCP"));
            let n: i64 = n
                .trim()
                .parse()
                .ok()
                .filter(|n| (1..=65535).contains(n))
                .ok_or_else(|| format!("{p:?}: a port is a number from 1 to 65535"))?;
            Ok((n, proto.trim().to_ascii_uppercase()))
        })
        .collect()
}

/// (port, protocol) pairs → `80, 443/UDP`.
pub fn format_ports(ports: &[(i64, String)]) -> String {
    ports
        .iter()
        .map(|(n, p)| {
            if p == "TCP" {
                n.to_string()
            } else {
                format!("{n}/{p}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
