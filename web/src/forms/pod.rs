//! Pods: the summary a form row shows and the edits the pod form makes.

use super::node::keep_extras;
use super::syntax::{
    format_labels, format_node_terms, format_pod_terms, format_ports, format_spread,
    format_tolerations, parse_labels, parse_node_terms, parse_pod_terms, parse_ports, parse_spread,
    parse_tolerations,
};
use super::{at, name_of, object_at, parse_int, parse_quantity, set_at, str_at, Document, ObjRef};
use serde_json::{json, Map, Value};

/// `kind` of a pod.
pub const KIND: &str = "Pod";

const AFFINITY_REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";

/// What a collapsed pod row shows.
#[derive(Clone, Debug, PartialEq)]
pub struct PodSummary {
    /// `metadata.name`.
    pub name: String,
    /// First container's CPU request.
    pub cpu: String,
    /// First container's memory request.
    pub memory: String,
    /// `priorityClassName`, else `priority`.
    pub priority: String,
    /// `spec.nodeName` (a pod already bound).
    pub node: String,
}

/// The row of one pod.
pub fn summary(v: &Value) -> PodSummary {
    let class = str_at(v, &["spec", "priorityClassName"]);
    PodSummary {
        name: name_of(v).to_string(),
        cpu: request(v, "cpu"),
        memory: request(v, "memory"),
        priority: if class.is_empty() {
            str_at(v, &["spec", "priority"])
        } else {
            class
        },
        node: str_at(v, &["spec", "nodeName"]),
    }
}

/// A request of the first container.
pub fn request(v: &Value, res: &str) -> String {
    at(v, &["spec", "containers"])
        .and_then(|c| c.get(0))
        .map(|c| str_at(c, &["resources", "requests", res]))
        .unwrap_or_default()
}

/// Every form field of a pod as text, as the expanded row shows them.
pub fn field_text(v: &Value, field: PodField) -> String {
    let required = |kind: &str| at(v, &["spec", "affinity", kind, AFFINITY_REQUIRED]);
    match field {
        PodField::Name => name_of(v).to_string(),
        PodField::Cpu => request(v, "cpu"),
        PodField::Memory => request(v, "memory"),
        PodField::Priority => str_at(v, &["spec", "priority"]),
        PodField::PriorityClass => str_at(v, &["spec", "priorityClassName"]),
        PodField::NodeName => str_at(v, &["spec", "nodeName"]),
        PodField::Labels => format_labels(at(v, &["metadata", "labels"]), "\n"),
        PodField::NodeSelector => format_labels(at(v, &["spec", "nodeSelector"]), "\n"),
        PodField::Tolerations => format_tolerations(at(v, &["spec", "tolerations"])),
        PodField::NodeAffinity => {
            format_node_terms(required("nodeAffinity").and_then(|r| r.get("nodeSelectorTerms")))
        }
        PodField::PodAffinity => format_pod_terms(required("podAffinity")),
        PodField::PodAntiAffinity => format_pod_terms(required("podAntiAffinity")),
        PodField::Spread => format_spread(at(v, &["spec", "topologySpreadConstraints"])),
        PodField::HostPorts => format_ports(&host_ports(v)),
        PodField::Claims => format_claims(at(v, &["spec", "resourceClaims"])),
    }
}

/// The editable fields of a pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PodField {
    /// `metadata.name`.
    Name,
    /// First container's CPU request.
    Cpu,
    /// First container's memory request.
    Memory,
    /// `spec.priority`.
    Priority,
    /// `spec.priorityClassName`.
    PriorityClass,
    /// `spec.nodeName`.
    NodeName,
    /// `metadata.labels`.
    Labels,
    /// `spec.nodeSelector`.
    NodeSelector,
    /// `spec.tolerations`.
    Tolerations,
    /// Required node affinity terms.
    NodeAffinity,
    /// Required pod affinity terms.
    PodAffinity,
    /// Required pod anti-affinity terms.
    PodAntiAffinity,
    /// `spec.topologySpreadConstraints`.
    Spread,
    /// Host ports of the containers.
    HostPorts,
    /// `spec.resourceClaims`: claims and claim templates (Dynamic Resource Allocation).
    Claims,
}

/// Every `hostPort` of every container, with its protocol.
pub fn host_ports(v: &Value) -> Vec<(i64, String)> {
    at(v, &["spec", "containers"])
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .flat_map(|c| {
            c.get("ports")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .filter_map(|p| {
            let n = p.get("hostPort")?.as_i64().filter(|n| *n > 0)?;
            let proto = p.get("protocol").and_then(Value::as_str).unwrap_or("TCP");
            Some((n, proto.to_string()))
        })
        .collect()
}

/// Sets one field of the pod at `r` from its form text (empty text clears the field).
pub fn apply(doc: &mut Document, r: ObjRef, field: PodField, text: &str) -> Result<(), String> {
    if field == PodField::Name {
        let name = text.trim();
        if name.is_empty() {
            return Err("a pod needs a name".into());
        }
        if doc.find(KIND, name).is_some_and(|other| other != r) {
            return Err(format!("another pod is named {name}"));
        }
    }
    let v = doc.get_mut(r).ok_or("the pod is gone")?;
    let t = text.trim();
    let text_or_none = || (!t.is_empty()).then(|| Value::String(t.to_string()));
    let map_or_none = |m: Map<String, Value>| (!m.is_empty()).then_some(Value::Object(m));
    let list_or_none = |l: Vec<Value>| (!l.is_empty()).then_some(Value::Array(l));
    match field {
        PodField::Name => {
            object_at(v, &["metadata"]).insert("name".into(), t.into());
        }
        PodField::Cpu => set_request(v, "cpu", parse_quantity(t, "cpu")?),
        PodField::Memory => set_request(v, "memory", parse_quantity(t, "memory")?),
        PodField::Priority => set_at(
            v,
            &["spec", "priority"],
            parse_int(t, "priority")?.map(Value::from),
        ),
        PodField::PriorityClass => set_at(v, &["spec", "priorityClassName"], text_or_none()),
        PodField::NodeName => set_at(v, &["spec", "nodeName"], text_or_none()),
        PodField::Labels => set_at(v, &["metadata", "labels"], map_or_none(parse_labels(t)?)),
        PodField::NodeSelector => {
            set_at(v, &["spec", "nodeSelector"], map_or_none(parse_labels(t)?))
        }
        PodField::Tolerations => {
            let old = at(v, &["spec", "tolerations"]).cloned();
            let new = keep_extras(parse_tolerations(t)?, old.as_ref(), &["tolerationSeconds"]);
            set_at(v, &["spec", "tolerations"], list_or_none(new));
        }
        PodField::NodeAffinity => {
            let terms = parse_node_terms(t)?;
            let path = ["spec", "affinity", "nodeAffinity", AFFINITY_REQUIRED];
            let old = at(v, &path)
                .and_then(|r| r.get("nodeSelectorTerms"))
                .cloned();
            let new: Vec<Value> = terms
                .into_iter()
                .enumerate()
                .map(|(i, exprs)| {
                    let mut term = old
                        .as_ref()
                        .and_then(|o| o.get(i))
                        .cloned()
                        .unwrap_or_else(|| json!({}));
                    set_at(&mut term, &["matchExpressions"], list_or_none(exprs));
                    term
                })
                .collect();
            let value = list_or_none(new).map(|terms| json!({"nodeSelectorTerms": terms}));
            set_at(v, &path, value);
        }
        PodField::PodAffinity => set_pod_terms(v, "podAffinity", t)?,
        PodField::PodAntiAffinity => set_pod_terms(v, "podAntiAffinity", t)?,
        PodField::Spread => {
            let old = at(v, &["spec", "topologySpreadConstraints"]).cloned();
            let new: Vec<Value> = parse_spread(t)?
                .into_iter()
                .enumerate()
                .map(|(i, s)| {
                    let mut c = old
                        .as_ref()
                        .and_then(|o| o.get(i))
                        .cloned()
                        .unwrap_or_else(|| json!({}));
                    let m = object_at(&mut c, &[]);
                    m.insert("maxSkew".into(), s.max_skew.into());
                    m.insert("topologyKey".into(), s.topology_key.into());
                    m.insert("whenUnsatisfiable".into(), s.when.into());
                    set_at(
                        &mut c,
                        &["labelSelector", "matchLabels"],
                        map_or_none(s.labels),
                    );
                    c
                })
                .collect();
            set_at(v, &["spec", "topologySpreadConstraints"], list_or_none(new));
        }
        PodField::HostPorts => set_host_ports(v, parse_ports(t)?),
        PodField::Claims => {
            let new = parse_claims(t, at(v, &["spec", "resourceClaims"]))?;
            set_at(v, &["spec", "resourceClaims"], list_or_none(new));
        }
    }
    Ok(())
}

/// One `spec.resourceClaims` entry as its line: `NAME: claim CLAIM` or
/// `NAME: template TEMPLATE`.
fn claim_line(c: &Value) -> String {
    let name = str_at(c, &["name"]);
    match (
        c.get("resourceClaimName").and_then(Value::as_str),
        c.get("resourceClaimTemplateName").and_then(Value::as_str),
    ) {
        (Some(claim), _) => format!("{name}: claim {claim}"),
        (None, Some(template)) => format!("{name}: template {template}"),
        (None, None) => format!("{name}:"),
    }
}

/// A pod's claims as lines.
pub fn format_claims(list: Option<&Value>) -> String {
    super::list_lines(list, claim_line)
}

/// A pod's claims from lines (`NAME: claim CLAIM`, `NAME: template TEMPLATE`); an unchanged
/// line keeps its entry as it was.
pub fn parse_claims(text: &str, old: Option<&Value>) -> Result<Vec<Value>, String> {
    super::parse_list_lines(text, old, claim_line, |line, read| {
        let hint = || {
            format!("{line:?}: write NAME: claim CLAIM, or NAME: template TEMPLATE (for instance gpu: template two-gpus)")
        };
        let (name, rest) = line.split_once(':').ok_or_else(hint)?;
        let name = name.trim();
        let (how, target) = rest.trim().split_once(' ').ok_or_else(hint)?;
        let target = target.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(hint());
        }
        if target.is_empty() || target.contains(char::is_whitespace) {
            return Err(hint());
        }
        let key = match how {
            "claim" => "resourceClaimName",
            "template" => "resourceClaimTemplateName",
            _ => return Err(hint()),
        };
        if read.iter().any(|c| str_at(c, &["name"]) == name) {
            return Err(format!("claim {name} is listed twice"));
        }
        Ok(json!({"name": name, key: target}))
    })
}

/// Sets a request of the first container (made if the pod has none).
fn set_request(v: &mut Value, res: &str, q: Option<Value>) {
    ensure_container(v);
    set_at(
        &mut v["spec"]["containers"][0],
        &["resources", "requests", res],
        q,
    );
}

fn set_pod_terms(v: &mut Value, kind: &str, text: &str) -> Result<(), String> {
    let path = ["spec", "affinity", kind, AFFINITY_REQUIRED];
    let old = at(v, &path).cloned();
    let new: Vec<Value> = parse_pod_terms(text)?
        .into_iter()
        .enumerate()
        .map(|(i, (key, labels))| {
            let mut term = old
                .as_ref()
                .and_then(|o| o.get(i))
                .cloned()
                .unwrap_or_else(|| json!({}));
            set_at(
                &mut term,
                &["labelSelector", "matchLabels"],
                (!labels.is_empty()).then_some(Value::Object(labels)),
            );
            object_at(&mut term, &[]).insert("topologyKey".into(), key.into());
            term
        })
        .collect();
    set_at(v, &path, (!new.is_empty()).then_some(Value::Array(new)));
    Ok(())
}

/// Keeps the listed host ports: others lose their `hostPort`; new ones are added to the first
/// container as `containerPort` = `hostPort`.
fn set_host_ports(v: &mut Value, wanted: Vec<(i64, String)>) {
    let have = host_ports(v);
    if let Some(containers) = v
        .pointer_mut("/spec/containers")
        .and_then(Value::as_array_mut)
    {
        for c in containers.iter_mut() {
            let Some(ports) = c.get_mut("ports").and_then(Value::as_array_mut) else {
                continue;
            };
            for p in ports.iter_mut() {
                let n = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
                let proto = p.get("protocol").and_then(Value::as_str).unwrap_or("TCP");
                if n > 0 && !wanted.iter().any(|(w, wp)| *w == n && wp == proto) {
                    if let Some(m) = p.as_object_mut() {
                        m.remove("hostPort");
                    }
                }
            }
        }
    }
    let added: Vec<Value> = wanted
        .iter()
        .filter(|w| !have.contains(w))
        .map(|(n, proto)| {
            let mut p = json!({"containerPort": n, "hostPort": n});
            if proto != "TCP" {
                p["protocol"] = proto.clone().into();
            }
            p
        })
        .collect();
    if added.is_empty() {
        return;
    }
    ensure_container(v);
    let first = &mut v["spec"]["containers"][0];
    let ports = object_at(first, &[])
        .entry("ports")
        .or_insert_with(|| json!([]));
    if let Some(ports) = ports.as_array_mut() {
        ports.extend(added);
    }
}

/// Makes sure `spec.containers` has a first container.
fn ensure_container(v: &mut Value) {
    let spec = object_at(v, &["spec"]);
    let c = spec.entry("containers").or_insert_with(|| json!([]));
    if c.as_array().is_none_or(Vec::is_empty) {
        *c = json!([{"name": "main"}]);
    }
}

/// Adds a pod (one container asking for 100m and 128Mi) after the last one. Returns its name.
pub fn add(doc: &mut Document) -> String {
    let name = doc.unique_name(KIND, "pod-1");
    doc.insert(
        None,
        json!({
            "apiVersion": "v1",
            "kind": KIND,
            "metadata": {"name": name},
            "spec": {"containers": [{
                "name": "main",
                "image": "nginx:1.17",
                "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}},
            }]},
        }),
    );
    name
}
