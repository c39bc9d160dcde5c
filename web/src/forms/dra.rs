//! Dynamic Resource Allocation's objects, the Devices editor's (`resource.k8s.io/v1`):
//! DeviceClasses, ResourceSlices, ResourceClaims and ResourceClaimTemplates. What a form row
//! shows and the edits the form makes.
//!
//! The nested parts are edited as lines of text, each written back the way it was read when
//! it did not change (format, then parse, gives the same object), and every field the syntax
//! does not name (a request's `adminAccess`, a device's `taints`, a claim's `status`, ...) is
//! kept:
//!
//! - a class's selectors: one CEL expression per line;
//! - a slice's devices: `NAME: ATTRIBUTES | CAPACITY`, for instance
//!   `gpu-0: model=A100, pcieRoot=pci-0 | memory=80Gi`. An attribute is a string (`A100`, or
//!   quoted: `"3"`), a whole number (`3`), `true` / `false`, or a version (`semver(1.2.3)`);
//!   capacity is a quantity;
//! - a claim's (or template's) requests: `NAME: COUNT of CLASS where CEL where CEL`, `COUNT`
//!   being a number or `all`; a prioritized list is `NAME: first available` followed by its
//!   subrequests on indented lines, in the same syntax;
//! - its constraints: `ATTRIBUTE` (`matchAttribute` over every request) or
//!   `ATTRIBUTE for REQUEST, REQUEST`; `distinct ATTRIBUTE` for `distinctAttribute`.
//!
//! CEL is not checked here: the run reads the file and reports a selector that does not
//! compile under the editor, with its line (as the API server would refuse it).

use super::{at, name_of, object_at, parse_quantity, set_at, str_at, Document, ObjRef};
use serde_json::{json, Map, Value};

/// `kind` of a device class.
pub const CLASS: &str = "DeviceClass";
/// `kind` of a resource slice.
pub const SLICE: &str = "ResourceSlice";
/// `kind` of a resource claim.
pub const CLAIM: &str = "ResourceClaim";
/// `kind` of a resource claim template.
pub const TEMPLATE: &str = "ResourceClaimTemplate";
/// Their `apiVersion`.
pub const API_VERSION: &str = "resource.k8s.io/v1";

/// What a collapsed row shows.
#[derive(Clone, Debug, PartialEq)]
pub struct DraSummary {
    /// `metadata.name`.
    pub name: String,
    /// The object in short: a class's selectors, a slice's driver, node and devices, a
    /// claim's requests.
    pub facts: String,
    /// A claim that is allocated says so.
    pub badge: Option<String>,
}

/// The editable fields of the four kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DraField {
    /// `metadata.name`.
    Name,
    /// A class's `spec.selectors`.
    Selectors,
    /// A slice's `spec.driver`.
    Driver,
    /// A slice's node selection: `nodeName`, or `*` for `allNodes`.
    Node,
    /// A slice's `spec.pool.name`.
    Pool,
    /// A slice's `spec.pool.generation`.
    Generation,
    /// A slice's `spec.pool.resourceSliceCount`.
    SliceCount,
    /// A slice's `spec.devices`.
    Devices,
    /// A claim's (template's) `devices.requests`.
    Requests,
    /// A claim's (template's) `devices.constraints`.
    Constraints,
}

/// One field of a form: the field, its label, test id, placeholder, and whether it takes
/// several lines.
pub type FieldSpec = (DraField, &'static str, &'static str, &'static str, bool);

const CLASS_FIELDS: &[FieldSpec] = &[
    (DraField::Name, "Name", "dra-name", "", false),
    (
        DraField::Selectors,
        "Selectors (a CEL expression per line)",
        "dra-selectors",
        "device.driver == \"gpu.example.com\"",
        true,
    ),
];

const SLICE_FIELDS: &[FieldSpec] = &[
    (DraField::Name, "Name", "dra-name", "", false),
    (
        DraField::Driver,
        "Driver",
        "dra-driver",
        "gpu.example.com",
        false,
    ),
    (
        DraField::Node,
        "Node (* for all nodes)",
        "dra-node",
        "node-1",
        false,
    ),
    (DraField::Pool, "Pool", "dra-pool", "node-1", false),
    (
        DraField::Generation,
        "Generation",
        "dra-generation",
        "1",
        false,
    ),
    (
        DraField::SliceCount,
        "Slices in the pool",
        "dra-slice-count",
        "1",
        false,
    ),
    (
        DraField::Devices,
        "Devices (NAME: attribute=value, … | capacity=quantity, …)",
        "dra-devices",
        "gpu-0: model=A100, pcieRoot=pci-0 | memory=80Gi",
        true,
    ),
];

const CLAIM_FIELDS: &[FieldSpec] = &[
    (DraField::Name, "Name", "dra-name", "", false),
    (
        DraField::Requests,
        "Requests (NAME: COUNT of CLASS where CEL; or NAME: first available, then indented lines)",
        "dra-requests",
        "gpus: 2 of gpu.example.com where device.attributes[\"gpu.example.com\"].model == \"A100\"",
        true,
    ),
    (
        DraField::Constraints,
        "Constraints (matchAttribute: ATTRIBUTE [for REQUEST, …])",
        "dra-constraints",
        "gpu.example.com/pcieRoot",
        true,
    ),
];

/// The fields of a kind's form.
pub fn fields(kind: &str) -> &'static [FieldSpec] {
    match kind {
        CLASS => CLASS_FIELDS,
        SLICE => SLICE_FIELDS,
        _ => CLAIM_FIELDS,
    }
}

/// Where a claim's spec is: `spec` of a claim, `spec.spec` of a template.
fn spec_path(kind: &str) -> &'static [&'static str] {
    if kind == TEMPLATE {
        &["spec", "spec"]
    } else {
        &["spec"]
    }
}

fn devices_of<'a>(kind: &str, v: &'a Value) -> Option<&'a Value> {
    at(v, spec_path(kind)).and_then(|s| s.get("devices"))
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The row of one object of `kind`.
pub fn summary(kind: &str, v: &Value) -> DraSummary {
    let name = name_of(v).to_string();
    let len = |path: &[&str]| at(v, path).and_then(Value::as_array).map_or(0, Vec::len);
    let (facts, badge) = match kind {
        CLASS => (
            count(len(&["spec", "selectors"]), "selector", "selectors"),
            None,
        ),
        SLICE => {
            let node = node_text(v);
            let node = if node == "*" {
                "all nodes".to_string()
            } else {
                node
            };
            (
                format!(
                    "{} · {} · {}",
                    or_dash(&str_at(v, &["spec", "driver"])),
                    or_dash(&node),
                    count(len(&["spec", "devices"]), "device", "devices")
                ),
                None,
            )
        }
        _ => {
            let requests = devices_of(kind, v)
                .and_then(|d| d.get("requests"))
                .and_then(Value::as_array)
                .map(|rs| rs.iter().map(request_short).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            let allocated = at(v, &["status", "allocation"]).is_some_and(|a| !a.is_null());
            (
                if requests.is_empty() {
                    "no requests".to_string()
                } else {
                    requests
                },
                allocated.then(|| "allocated".to_string()),
            )
        }
    };
    DraSummary { name, facts, badge }
}

fn or_dash(s: &str) -> String {
    if s.is_empty() {
        "–".to_string()
    } else {
        s.to_string()
    }
}

/// `gpus 2 × gpu.example.com`, `gpu: h100 | any`.
fn request_short(r: &Value) -> String {
    let name = str_at(r, &["name"]);
    match (
        r.get("exactly"),
        r.get("firstAvailable").and_then(Value::as_array),
    ) {
        (Some(e), _) => format!("{name} {} × {}", amount(e), str_at(e, &["deviceClassName"])),
        (None, Some(subs)) => {
            let names: Vec<String> = subs.iter().map(|s| str_at(s, &["name"])).collect();
            format!("{name}: {}", names.join(" | "))
        }
        _ => name,
    }
}

/// `all`, or the count (1 when not given).
fn amount(e: &Value) -> String {
    if str_at(e, &["allocationMode"]) == "All" {
        return "all".into();
    }
    match e.get("count") {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => "1".into(),
    }
}

/// A field's text.
pub fn field_text(kind: &str, v: &Value, field: DraField) -> String {
    match field {
        DraField::Name => name_of(v).to_string(),
        DraField::Selectors => format_selectors(at(v, &["spec", "selectors"])),
        DraField::Driver => str_at(v, &["spec", "driver"]),
        DraField::Node => node_text(v),
        DraField::Pool => str_at(v, &["spec", "pool", "name"]),
        DraField::Generation => str_at(v, &["spec", "pool", "generation"]),
        DraField::SliceCount => str_at(v, &["spec", "pool", "resourceSliceCount"]),
        DraField::Devices => format_devices(at(v, &["spec", "devices"])),
        DraField::Requests => format_requests(devices_of(kind, v).and_then(|d| d.get("requests"))),
        DraField::Constraints => {
            format_constraints(devices_of(kind, v).and_then(|d| d.get("constraints")))
        }
    }
}

/// What the Node field shows for a slice's node selection.
const BY_SELECTOR: &str = "(nodeSelector)";
const PER_DEVICE: &str = "(per device)";

fn node_text(v: &Value) -> String {
    let spec = v.get("spec");
    let get = |k: &str| spec.and_then(|s| s.get(k));
    if let Some(Value::String(n)) = get("nodeName") {
        return n.clone();
    }
    if get("allNodes").and_then(Value::as_bool) == Some(true) {
        return "*".into();
    }
    if get("nodeSelector").is_some_and(|s| !s.is_null()) {
        return BY_SELECTOR.into();
    }
    if get("perDeviceNodeSelection").and_then(Value::as_bool) == Some(true) {
        return PER_DEVICE.into();
    }
    String::new()
}

/// Sets one field of the object of `kind` at `r` from its form text.
pub fn apply(
    doc: &mut Document,
    r: ObjRef,
    kind: &str,
    field: DraField,
    text: &str,
) -> Result<(), String> {
    let t = text.trim();
    if field == DraField::Name {
        if t.is_empty() {
            return Err("it needs a name".into());
        }
        if doc.find(kind, t).is_some_and(|other| other != r) {
            return Err(format!("another {kind} is named {t}"));
        }
    }
    let v = doc.get_mut(r).ok_or("the object is gone")?;
    let text_or_none = || (!t.is_empty()).then(|| Value::String(t.to_string()));
    let number = |what: &str| -> Result<Option<Value>, String> {
        super::parse_int(t, what).map(|n| n.map(Value::from))
    };
    match field {
        DraField::Name => {
            object_at(v, &["metadata"]).insert("name".into(), t.into());
        }
        DraField::Selectors => {
            let new = parse_selectors(t, at(v, &["spec", "selectors"]));
            set_at(v, &["spec", "selectors"], new);
        }
        DraField::Driver => set_at(v, &["spec", "driver"], text_or_none()),
        DraField::Node => set_node(v, t),
        DraField::Pool => set_at(v, &["spec", "pool", "name"], text_or_none()),
        DraField::Generation => set_at(
            v,
            &["spec", "pool", "generation"],
            number("the generation")?,
        ),
        DraField::SliceCount => set_at(
            v,
            &["spec", "pool", "resourceSliceCount"],
            number("the slice count")?,
        ),
        DraField::Devices => {
            let new = parse_devices(t, at(v, &["spec", "devices"]))?;
            object_at(v, &["spec"]).insert("devices".into(), Value::Array(new));
        }
        DraField::Requests => {
            let mut path: Vec<&str> = spec_path(kind).to_vec();
            path.extend(["devices", "requests"]);
            // Untrimmed: a first line's indentation means something (a subrequest).
            let new = parse_requests(text, at(v, &path))?;
            set_at(v, &path, Some(Value::Array(new)));
        }
        DraField::Constraints => {
            let mut path: Vec<&str> = spec_path(kind).to_vec();
            path.extend(["devices", "constraints"]);
            let new = parse_constraints(t, at(v, &path))?;
            set_at(v, &path, (!new.is_empty()).then_some(Value::Array(new)));
        }
    }
    Ok(())
}

/// A slice's node selection from the Node field: exactly one of `nodeName`, `allNodes`,
/// `nodeSelector` (kept when the field still says so), `perDeviceNodeSelection`.
fn set_node(v: &mut Value, t: &str) {
    let keep = node_text(v);
    if t == keep {
        return;
    }
    let spec = object_at(v, &["spec"]);
    for k in [
        "nodeName",
        "allNodes",
        "nodeSelector",
        "perDeviceNodeSelection",
    ] {
        spec.remove(k);
    }
    match t {
        "" => {}
        "*" => {
            spec.insert("allNodes".into(), true.into());
        }
        n => {
            spec.insert("nodeName".into(), n.into());
        }
    }
}

/// Adds an object of `kind` after the last one. Returns its name.
pub fn add(doc: &mut Document, kind: &str) -> String {
    let (base, spec) = match kind {
        CLASS => (
            "gpu.example.com",
            json!({"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}),
        ),
        SLICE => {
            let node = doc
                .of_kind(super::node::KIND)
                .next()
                .map(|(_, v)| name_of(v).to_string())
                .unwrap_or_else(|| "node-1".into());
            (
                "slice-1",
                json!({
                    "driver": "gpu.example.com",
                    "nodeName": node,
                    "pool": {"name": node, "generation": 1, "resourceSliceCount": 1},
                    "devices": [{"name": "gpu-0", "attributes": {"model": {"string": "A100"}}}],
                }),
            )
        }
        _ => {
            let claim = json!({"devices": {"requests": [
                {"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com", "count": 1}}
            ]}});
            let spec = if kind == TEMPLATE {
                json!({"spec": claim})
            } else {
                claim
            };
            (
                if kind == TEMPLATE {
                    "gpu-template"
                } else {
                    "gpu-claim"
                },
                spec,
            )
        }
    };
    let name = if doc.find(kind, base).is_none() {
        base.to_string()
    } else {
        doc.unique_name(kind, base)
    };
    doc.insert(
        None,
        json!({
            "apiVersion": API_VERSION,
            "kind": kind,
            "metadata": {"name": name},
            "spec": spec,
        }),
    );
    name
}

// ---- selectors -------------------------------------------------------------------------------

/// A selector's expression on one line (CEL reads a line break as a space).
fn one_line(expr: &str) -> String {
    expr.lines().map(str::trim).collect::<Vec<_>>().join(" ")
}

fn expressions(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|s| str_at(s, &["cel", "expression"]))
        .collect()
}

/// Selectors as lines.
pub fn format_selectors(list: Option<&Value>) -> String {
    expressions(list)
        .iter()
        .map(|e| one_line(e))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Selectors from lines; a line that is an old selector on one line keeps that selector as it
/// was written. `None` when there are none.
fn parse_selectors(text: &str, old: Option<&Value>) -> Option<Value> {
    let old_list: Vec<&Value> = old
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let new: Vec<Value> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            old_list
                .iter()
                .find(|o| one_line(&str_at(o, &["cel", "expression"])) == line)
                .map(|o| (*o).clone())
                .unwrap_or_else(|| json!({"cel": {"expression": line}}))
        })
        .collect();
    (!new.is_empty()).then_some(Value::Array(new))
}

// ---- devices ---------------------------------------------------------------------------------

/// Splits at `sep` outside double quotes (`\"` inside quotes does not end them).
fn split_outside_quotes(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            c if c == sep && !quoted => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// A string attribute as the device line writes it: as it is, or quoted when it would read
/// as something else.
fn attribute_string(s: &str) -> String {
    let plain = !s.is_empty()
        && s == s.trim()
        && !s.contains([',', '|', '"'])
        && s != "true"
        && s != "false"
        && s.parse::<i64>().is_err()
        && !s.starts_with("semver(");
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

fn attribute_text(a: &Value) -> String {
    if let Some(s) = a.get("string").and_then(Value::as_str) {
        attribute_string(s)
    } else if let Some(n) = a.get("int").and_then(Value::as_i64) {
        n.to_string()
    } else if let Some(b) = a.get("bool").and_then(Value::as_bool) {
        b.to_string()
    } else if let Some(v) = a.get("version").and_then(Value::as_str) {
        format!("semver({v})")
    } else {
        "\"\"".into()
    }
}

fn parse_attribute(text: &str) -> Result<Value, String> {
    let t = text.trim();
    if t.starts_with('"') {
        let s: String = serde_json::from_str(t)
            .map_err(|_| format!("{t} is not a quoted string (\"…\", with \\\" inside)"))?;
        return Ok(json!({"string": s}));
    }
    if t == "true" || t == "false" {
        return Ok(json!({"bool": t == "true"}));
    }
    if let Ok(n) = t.parse::<i64>() {
        return Ok(json!({"int": n}));
    }
    if let Some(v) = t.strip_prefix("semver(").and_then(|r| r.strip_suffix(')')) {
        return Ok(json!({"version": v.trim()}));
    }
    Ok(json!({"string": t}))
}

fn entries(map: Option<&Value>) -> Vec<(&String, &Value)> {
    map.and_then(Value::as_object)
        .map(|m| m.iter().collect())
        .unwrap_or_default()
}

/// One device as its line.
fn device_line(d: &Value) -> String {
    let name = str_at(d, &["name"]);
    let attrs: Vec<String> = entries(d.get("attributes"))
        .into_iter()
        .map(|(k, a)| format!("{k}={}", attribute_text(a)))
        .collect();
    let caps: Vec<String> = entries(d.get("capacity"))
        .into_iter()
        .map(|(k, c)| format!("{k}={}", str_at(c, &["value"])))
        .collect();
    match (attrs.is_empty(), caps.is_empty()) {
        (true, true) => name,
        (false, true) => format!("{name}: {}", attrs.join(", ")),
        (_, false) => {
            format!("{name}: {} | {}", attrs.join(", "), caps.join(", ")).replace(":  |", ": |")
        }
    }
}

/// A slice's devices as lines.
pub fn format_devices(list: Option<&Value>) -> String {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(device_line)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `key=value` entries of a device line's part.
fn key_values(part: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for entry in split_outside_quotes(part, ',') {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let (k, v) = entry
            .split_once('=')
            .ok_or_else(|| format!("{entry:?} is not key=value"))?;
        let k = k.trim();
        if k.is_empty() || k.contains(char::is_whitespace) {
            return Err(format!("{entry:?}: the name before = must be one word"));
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// A slice's devices from lines. A device keeps every field the line does not name (taints,
/// counters, ...), and an unchanged line gives back the device as it was.
pub fn parse_devices(text: &str, old: Option<&Value>) -> Result<Vec<Value>, String> {
    let old_list: Vec<&Value> = old
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let mut out: Vec<Value> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (name, rest) = match line.split_once(':') {
            Some((n, r)) => (n.trim(), r),
            None => (line, ""),
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!(
                "{line:?}: a device line starts with its name and a colon"
            ));
        }
        if out.iter().any(|d| str_at(d, &["name"]) == name) {
            return Err(format!("device {name} is listed twice"));
        }
        let before = old_list
            .iter()
            .find(|d| str_at(d, &["name"]) == name)
            .map(|d| (*d).clone());
        if let Some(b) = &before {
            if device_line(b) == line {
                out.push(b.clone());
                continue;
            }
        }
        let parts = split_outside_quotes(rest, '|');
        if parts.len() > 2 {
            return Err(format!("{line:?}: one | between attributes and capacity"));
        }
        let mut attributes = Map::new();
        for (k, v) in key_values(parts[0])? {
            attributes.insert(k, parse_attribute(&v)?);
        }
        let mut capacity = Map::new();
        if let Some(caps) = parts.get(1) {
            for (k, v) in key_values(caps)? {
                let q = parse_quantity(&v, &format!("capacity {k}"))?
                    .ok_or_else(|| format!("capacity {k} needs a quantity"))?;
                let mut entry = before
                    .as_ref()
                    .and_then(|b| {
                        b.pointer(&format!(
                            "/capacity/{}",
                            k.replace('~', "~0").replace('/', "~1")
                        ))
                    })
                    .cloned()
                    .unwrap_or_else(|| json!({}));
                object_at(&mut entry, &[]).insert("value".into(), q);
                capacity.insert(k, entry);
            }
        }
        let mut d = before.unwrap_or_else(|| json!({"name": name}));
        set_at(
            &mut d,
            &["attributes"],
            (!attributes.is_empty()).then_some(Value::Object(attributes)),
        );
        set_at(
            &mut d,
            &["capacity"],
            (!capacity.is_empty()).then_some(Value::Object(capacity)),
        );
        out.push(d);
    }
    Ok(out)
}

// ---- requests --------------------------------------------------------------------------------

/// The words that end a request line's class and start each selector.
const WHERE: &str = " where ";

/// `2 of CLASS where CEL`: an exact request (or subrequest) after its name.
fn exact_text(e: &Value) -> String {
    let mut out = format!("{} of {}", amount(e), str_at(e, &["deviceClassName"]));
    for expr in expressions(e.get("selectors")) {
        out.push_str(WHERE);
        out.push_str(&one_line(&expr));
    }
    out
}

/// One request as its lines.
fn request_lines(r: &Value) -> String {
    let name = str_at(r, &["name"]);
    if let Some(e) = r.get("exactly") {
        return format!("{name}: {}", exact_text(e));
    }
    if let Some(subs) = r.get("firstAvailable").and_then(Value::as_array) {
        let mut out = format!("{name}: first available");
        for s in subs {
            out.push_str(&format!("\n  {}: {}", str_at(s, &["name"]), exact_text(s)));
        }
        return out;
    }
    format!("{name}:")
}

/// Requests as lines.
pub fn format_requests(list: Option<&Value>) -> String {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(request_lines)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits at [`WHERE`] outside CEL string literals (`"…"` and `'…'`).
fn split_where(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut quote, mut escaped) = (0, None::<u8>, false);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == b'\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'"' || c == b'\'' => quote = Some(c),
            None if text[i..].starts_with(WHERE) => {
                out.push(&text[start..i]);
                i += WHERE.len();
                start = i;
                continue;
            }
            None => {}
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

/// `COUNT of CLASS where CEL ...` into (a copy of `old`, or a new) `ExactDeviceRequest`.
fn parse_exact(text: &str, old: Option<&Value>, what: &str) -> Result<Value, String> {
    let mut parts = split_where(text.trim()).into_iter();
    let head = parts.next().unwrap_or_default().trim();
    let (n, class) = head.split_once(" of ").ok_or_else(|| {
        format!("{what}: write COUNT of CLASS, for instance 1 of gpu.example.com")
    })?;
    let (n, class) = (n.trim(), class.trim());
    if class.is_empty() || class.contains(char::is_whitespace) {
        return Err(format!("{what}: the device class is one name after \"of\""));
    }
    let mut e = old.cloned().unwrap_or_else(|| json!({}));
    let m = object_at(&mut e, &[]);
    m.insert("deviceClassName".into(), class.into());
    if n == "all" {
        m.insert("allocationMode".into(), "All".into());
        m.remove("count");
    } else {
        let count: i64 = n
            .parse()
            .ok()
            .filter(|c| *c > 0)
            .ok_or_else(|| format!("{what}: the count is a whole number above 0, or all"))?;
        if m.contains_key("allocationMode") {
            m.insert("allocationMode".into(), "ExactCount".into());
        }
        m.insert("count".into(), count.into());
    }
    let lines: Vec<String> = parts
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let old_selectors = old.and_then(|o| o.get("selectors")).cloned();
    match parse_selectors(&lines.join("\n"), old_selectors.as_ref()) {
        Some(s) => {
            m.insert("selectors".into(), s);
        }
        None => {
            m.remove("selectors");
        }
    }
    Ok(e)
}

/// A claim's requests from lines. A request whose lines did not change is kept as it was; a
/// changed one keeps the fields the syntax does not name (`adminAccess`, tolerations, ...).
pub fn parse_requests(text: &str, old: Option<&Value>) -> Result<Vec<Value>, String> {
    let old_list: Vec<&Value> = old
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    // Each request: its first line and its indented lines (subrequests).
    let mut blocks: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if line.starts_with([' ', '\t']) {
            let (_, subs) = blocks
                .last_mut()
                .ok_or("an indented line belongs under a request's first available line")?;
            subs.push(line.trim().to_string());
        } else {
            blocks.push((line.trim().to_string(), Vec::new()));
        }
    }
    let mut out: Vec<Value> = Vec::new();
    for (head, subs) in blocks {
        let (name, rest) = head
            .split_once(':')
            .ok_or_else(|| format!("{head:?}: a request starts with its name and a colon"))?;
        let (name, rest) = (name.trim(), rest.trim());
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!(
                "{head:?}: a request starts with its name and a colon"
            ));
        }
        if out.iter().any(|r| str_at(r, &["name"]) == name) {
            return Err(format!("request {name} is listed twice"));
        }
        let before = old_list.iter().find(|r| str_at(r, &["name"]) == name);
        let block = std::iter::once(head.clone())
            .chain(subs.iter().map(|s| format!("  {s}")))
            .collect::<Vec<_>>()
            .join("\n");
        if let Some(b) = before.filter(|b| request_lines(b) == block) {
            out.push((*b).clone());
            continue;
        }
        let mut r = before
            .map(|b| (*b).clone())
            .unwrap_or_else(|| json!({"name": name}));
        let m = object_at(&mut r, &[]);
        m.insert("name".into(), name.into());
        if rest == "first available" {
            let old_subs: Vec<Value> = before
                .and_then(|b| b.get("firstAvailable"))
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if subs.is_empty() {
                return Err(format!(
                    "request {name}: list its subrequests on indented lines under it"
                ));
            }
            let mut list = Vec::new();
            for s in &subs {
                let (sub, rest) = s.split_once(':').ok_or_else(|| {
                    format!("{s:?}: a subrequest starts with its name and a colon")
                })?;
                let sub = sub.trim();
                let was = old_subs.iter().find(|o| str_at(o, &["name"]) == sub);
                let mut e = parse_exact(rest, was, &format!("request {name}/{sub}"))?;
                object_at(&mut e, &[]).insert("name".into(), sub.into());
                list.push(e);
            }
            m.remove("exactly");
            m.insert("firstAvailable".into(), Value::Array(list));
        } else {
            if !subs.is_empty() {
                return Err(format!(
                    "request {name}: indented lines follow \"first available\" only"
                ));
            }
            let was = before.and_then(|b| b.get("exactly"));
            let e = parse_exact(rest, was, &format!("request {name}"))?;
            m.remove("firstAvailable");
            m.insert("exactly".into(), e);
        }
        out.push(r);
    }
    Ok(out)
}

// ---- constraints -----------------------------------------------------------------------------

fn constraint_line(c: &Value) -> String {
    let requests: Vec<String> = c
        .get("requests")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect();
    let mut out = match (c.get("matchAttribute"), c.get("distinctAttribute")) {
        (Some(Value::String(a)), _) => a.clone(),
        (_, Some(Value::String(a))) => format!("distinct {a}"),
        _ => String::new(),
    };
    if !requests.is_empty() {
        out.push_str(&format!(" for {}", requests.join(", ")));
    }
    out
}

/// Constraints as lines.
pub fn format_constraints(list: Option<&Value>) -> String {
    super::list_lines(list, constraint_line)
}

/// Constraints from lines (an unchanged line keeps its constraint as it was).
pub fn parse_constraints(text: &str, old: Option<&Value>) -> Result<Vec<Value>, String> {
    super::parse_list_lines(text, old, constraint_line, |line, _| {
        let (attr, requests) = match line.split_once(" for ") {
            Some((a, r)) => (a.trim(), Some(r)),
            None => (line, None),
        };
        let (key, attr) = match attr.strip_prefix("distinct ") {
            Some(a) => ("distinctAttribute", a.trim()),
            None => ("matchAttribute", attr),
        };
        if attr.is_empty() || attr.contains(char::is_whitespace) {
            return Err(format!(
                "{line:?}: write an attribute's qualified name, such as gpu.example.com/model"
            ));
        }
        let mut c = Map::new();
        if let Some(r) = requests {
            let names: Vec<Value> = r
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(Value::from)
                .collect();
            c.insert("requests".into(), Value::Array(names));
        }
        c.insert(key.into(), attr.into());
        Ok(Value::Object(c))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::parse(text).expect("parses")
    }

    const SLICE_YAML: &str = "apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: node-1-gpus
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool:
    name: node-1
    generation: 1
    resourceSliceCount: 1
  devices:
  - name: gpu-0
    attributes:
      model: {string: A100}
      index: {int: 0}
      mig: {bool: false}
      driverVersion: {version: 1.2.3}
      serial: {string: \"0042\"}
      note: {string: \"a, b\"}
    capacity:
      memory: {value: 80Gi}
    taints:
    - {key: broken, effect: NoSchedule}
  - name: gpu-1
";

    #[test]
    fn a_device_line_reads_back_as_the_device_it_came_from() {
        let d = doc(SLICE_YAML);
        let (r, v) = d.of_kind(SLICE).next().expect("a slice");
        let text = field_text(SLICE, v, DraField::Devices);
        // Attributes in the file's order; strings that would read as another type are quoted.
        assert_eq!(
            text,
            "gpu-0: model=A100, index=0, mig=false, driverVersion=semver(1.2.3), serial=\"0042\", note=\"a, b\" | memory=80Gi\ngpu-1"
        );
        let mut edited = d.clone();
        apply(&mut edited, r, SLICE, DraField::Devices, &text).expect("applies");
        assert_eq!(
            edited.to_text(),
            d.to_text(),
            "format then parse changes nothing"
        );
        // A changed line keeps what the syntax does not name (the taints), and types values.
        apply(
            &mut edited,
            r,
            SLICE,
            DraField::Devices,
            "gpu-0: model=H100, index=\"7\", fast=true | memory=40Gi\ngpu-2: pcieRoot=pci-1",
        )
        .expect("applies");
        let devices = &edited.get(r).unwrap()["spec"]["devices"];
        assert_eq!(
            devices,
            &json!([
                {"name": "gpu-0",
                 "attributes": {"model": {"string": "H100"}, "index": {"string": "7"}, "fast": {"bool": true}},
                 "capacity": {"memory": {"value": "40Gi"}},
                 "taints": [{"key": "broken", "effect": "NoSchedule"}]},
                {"name": "gpu-2", "attributes": {"pcieRoot": {"string": "pci-1"}}}
            ])
        );
    }

    #[test]
    fn bad_device_lines_are_refused_with_the_reason() {
        let mut d = doc(SLICE_YAML);
        let (r, _) = d.of_kind(SLICE).next().expect("a slice");
        let before = d.clone();
        let err = |d: &mut Document, t: &str| apply(d, r, SLICE, DraField::Devices, t).unwrap_err();
        assert_eq!(err(&mut d, "gpu-0\ngpu-0"), "device gpu-0 is listed twice");
        assert_eq!(err(&mut d, "gpu-0: model"), "\"model\" is not key=value");
        assert!(err(&mut d, "gpu-0: | memory=lots").starts_with("capacity memory: "));
        assert_eq!(
            err(&mut d, "gpu 0: a=b"),
            "\"gpu 0: a=b\": a device line starts with its name and a colon"
        );
        assert_eq!(d, before, "a refused edit writes nothing");
    }

    const CLAIM_YAML: &str = "apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 2
          adminAccess: false
          selectors:
          - cel:
              expression: |-
                device.attributes[\"gpu.example.com\"].model ==
                \"A100\"
      - name: any
        firstAvailable:
        - {name: big, deviceClassName: gpu.example.com, allocationMode: All}
        - {name: one, deviceClassName: gpu.example.com}
      constraints:
      - {requests: [gpus], matchAttribute: gpu.example.com/pcieRoot}
";

    #[test]
    fn request_lines_read_back_as_the_requests_they_came_from() {
        let d = doc(CLAIM_YAML);
        let (r, v) = d.of_kind(TEMPLATE).next().expect("a template");
        let requests = field_text(TEMPLATE, v, DraField::Requests);
        assert_eq!(
            requests,
            "gpus: 2 of gpu.example.com where device.attributes[\"gpu.example.com\"].model == \"A100\"\nany: first available\n  big: all of gpu.example.com\n  one: 1 of gpu.example.com"
        );
        assert_eq!(
            field_text(TEMPLATE, v, DraField::Constraints),
            "gpu.example.com/pcieRoot for gpus"
        );
        let mut edited = d.clone();
        apply(&mut edited, r, TEMPLATE, DraField::Requests, &requests).expect("applies");
        apply(
            &mut edited,
            r,
            TEMPLATE,
            DraField::Constraints,
            "gpu.example.com/pcieRoot for gpus",
        )
        .expect("applies");
        assert_eq!(
            edited.to_text(),
            d.to_text(),
            "format then parse changes nothing"
        );
        assert_eq!(
            summary(TEMPLATE, v).facts,
            "gpus 2 × gpu.example.com, any: big | one"
        );
    }

    #[test]
    fn a_changed_request_keeps_what_the_syntax_does_not_name() {
        let mut d = doc(CLAIM_YAML);
        let (r, _) = d.of_kind(TEMPLATE).next().expect("a template");
        apply(
            &mut d,
            r,
            TEMPLATE,
            DraField::Requests,
            "gpus: 4 of gpu.example.com where device.driver == \"a where b\" where true\ninfer: first available\n  h100: 1 of gpu.example.com where device.attributes[\"gpu.example.com\"].model == \"H100\"\n  any: 1 of gpu.example.com",
        )
        .expect("applies");
        let requests = &d.get(r).unwrap()["spec"]["spec"]["devices"]["requests"];
        assert_eq!(
            requests,
            &json!([
                {"name": "gpus", "exactly": {"deviceClassName": "gpu.example.com", "count": 4, "adminAccess": false,
                 "selectors": [{"cel": {"expression": "device.driver == \"a where b\""}}, {"cel": {"expression": "true"}}]}},
                {"name": "infer", "firstAvailable": [
                    {"name": "h100", "deviceClassName": "gpu.example.com", "count": 1,
                     "selectors": [{"cel": {"expression": "device.attributes[\"gpu.example.com\"].model == \"H100\""}}]},
                    {"name": "any", "deviceClassName": "gpu.example.com", "count": 1}
                ]}
            ])
        );
        // The request any is gone; a constraint on it can still be written (the API server
        // checks the names).
        apply(
            &mut d,
            r,
            TEMPLATE,
            DraField::Constraints,
            "gpu.example.com/model\ndistinct gpu.example.com/uuid for gpus, infer",
        )
        .expect("applies");
        assert_eq!(
            d.get(r).unwrap()["spec"]["spec"]["devices"]["constraints"],
            json!([
                {"matchAttribute": "gpu.example.com/model"},
                {"requests": ["gpus", "infer"], "distinctAttribute": "gpu.example.com/uuid"}
            ])
        );
    }

    #[test]
    fn bad_request_lines_are_refused_with_the_reason() {
        let mut d = doc(CLAIM_YAML);
        let (r, _) = d.of_kind(TEMPLATE).next().expect("a template");
        let mut err = |t: &str| apply(&mut d, r, TEMPLATE, DraField::Requests, t).expect_err(t);
        assert_eq!(
            err("gpus: two gpus"),
            "request gpus: write COUNT of CLASS, for instance 1 of gpu.example.com"
        );
        assert_eq!(
            err("gpus: 0 of gpu.example.com"),
            "request gpus: the count is a whole number above 0, or all"
        );
        assert_eq!(
            err("  h100: 1 of x"),
            "an indented line belongs under a request's first available line"
        );
        assert_eq!(
            err("gpu: first available"),
            "request gpu: list its subrequests on indented lines under it"
        );
        assert_eq!(err("a: 1 of x\na: 2 of x"), "request a is listed twice");
    }

    #[test]
    fn selectors_keep_their_own_line_breaks_when_unchanged() {
        let text = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec:\n  selectors:\n  - cel:\n      expression: |-\n        device.driver ==\n        \"gpu.example.com\"\n";
        let d = doc(text);
        let (r, v) = d.of_kind(CLASS).next().expect("a class");
        let lines = field_text(CLASS, v, DraField::Selectors);
        assert_eq!(lines, "device.driver == \"gpu.example.com\"");
        let mut edited = d.clone();
        apply(&mut edited, r, CLASS, DraField::Selectors, &lines).expect("applies");
        assert_eq!(edited, d);
        // A second line adds a selector; text that is no CEL is written as given (the run
        // reports it under the editor).
        apply(
            &mut edited,
            r,
            CLASS,
            DraField::Selectors,
            &format!("{lines}\ndevice.attributes[\"gpu.example.com\"].model =="),
        )
        .expect("applies");
        assert_eq!(
            edited.get(r).unwrap()["spec"]["selectors"][1],
            json!({"cel": {"expression": "device.attributes[\"gpu.example.com\"].model =="}})
        );
    }

    #[test]
    fn a_slice_node_is_one_of_name_all_or_its_selector() {
        let mut d = doc(SLICE_YAML);
        let (r, _) = d.of_kind(SLICE).next().expect("a slice");
        apply(&mut d, r, SLICE, DraField::Node, "*").expect("applies");
        let spec = &d.get(r).unwrap()["spec"];
        assert_eq!(spec["allNodes"], json!(true));
        assert!(spec.get("nodeName").is_none());
        assert_eq!(
            summary(SLICE, d.get(r).unwrap()).facts,
            "gpu.example.com · all nodes · 2 devices"
        );
        apply(&mut d, r, SLICE, DraField::Node, "node-2").expect("applies");
        let spec = &d.get(r).unwrap()["spec"];
        assert_eq!(spec["nodeName"], json!("node-2"));
        assert!(spec.get("allNodes").is_none());
        assert_eq!(
            apply(&mut d, r, SLICE, DraField::Generation, "two").unwrap_err(),
            "the generation must be a whole number"
        );
    }

    #[test]
    fn added_objects_are_named_apart_and_read_by_the_core() {
        let mut d = doc("");
        for kind in [CLASS, SLICE, CLAIM, TEMPLATE, TEMPLATE] {
            add(&mut d, kind);
        }
        let names: Vec<String> = d
            .objects()
            .map(|(r, v)| format!("{} {}", d.kind_at(r), name_of(v)))
            .collect();
        assert_eq!(
            names,
            [
                "DeviceClass gpu.example.com",
                "ResourceSlice slice-1",
                "ResourceClaim gpu-claim",
                "ResourceClaimTemplate gpu-template",
                "ResourceClaimTemplate gpu-template-2"
            ]
        );
        let text = d.to_text();
        let read = schedlab_core::input::read_source(&schedlab_core::Source {
            name: "devices.yaml",
            text: &text,
        })
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        assert_eq!(read.device_classes.len(), 1);
        assert_eq!(read.resource_slices.len(), 1);
        assert_eq!(read.resource_claims.len(), 1);
        assert_eq!(read.resource_claim_templates.len(), 2);
    }
}
