//! The Extenders editor's document model: `ExtenderMock` tables (schedlab's own kind, read by
//! the core's `sched/extender/mock.rs`) and `ExtenderRecording`s. Each mock answers for the
//! configured extender with the same `urlPrefix`: rules matched first to last (nodes by name
//! or labels, pods by name or labels) give a filter verdict, a score and a preemption rule;
//! `verbs` say how each whole call answers (an HTTP status, a delay against `httpTimeout`, an
//! `Error`, the filter reply's list). Pure: no signals.

use super::{at, object_at, set_at, str_at, Document, ObjRef};
use serde_json::{Map, Value};

/// `kind` of a mock table.
pub const MOCK: &str = "ExtenderMock";
/// `kind` of a recording.
pub const RECORDING: &str = "ExtenderRecording";
/// `apiVersion` of both.
pub const API_VERSION: &str = "schedlab.dev/v1alpha1";

/// The verbs a mock's `verbs` may set, in call order.
pub const VERBS: [&str; 4] = ["filter", "prioritize", "preempt", "bind"];
/// A rule's filter verdicts.
pub const VERDICTS: [&str; 3] = ["Pass", "Fail", "Unresolvable"];
/// A rule's preemption choices.
pub const PREEMPT_RULES: [&str; 3] = ["Keep", "Drop", "NoVictims"];
/// The filter reply's lists (empty: the one the request used).
pub const ANSWER_WITH: [&str; 3] = ["", "NodeNames", "Nodes"];

/// One rule as the form shows it: every field as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleRow {
    /// `nodes`, comma-separated.
    pub nodes: String,
    /// `nodeSelector`, `key=value` comma-separated.
    pub node_selector: String,
    /// `pods`, comma-separated.
    pub pods: String,
    /// `podSelector`.
    pub pod_selector: String,
    /// `filter` (`Pass` when absent).
    pub filter: String,
    /// `message`.
    pub message: String,
    /// `score`.
    pub score: String,
    /// `preempt` (`Keep` when absent).
    pub preempt: String,
}

/// A field of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleField {
    /// `nodes`.
    Nodes,
    /// `nodeSelector`.
    NodeSelector,
    /// `pods`.
    Pods,
    /// `podSelector`.
    PodSelector,
    /// `filter`.
    Filter,
    /// `message`.
    Message,
    /// `score`.
    Score,
    /// `preempt`.
    Preempt,
}

/// A field of one verb's behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerbField {
    /// `status`.
    Status,
    /// `delayMs`.
    DelayMs,
    /// `error`.
    Error,
    /// `answerWith` (filter).
    AnswerWith,
}

impl VerbField {
    fn key(self) -> &'static str {
        match self {
            VerbField::Status => "status",
            VerbField::DelayMs => "delayMs",
            VerbField::Error => "error",
            VerbField::AnswerWith => "answerWith",
        }
    }
}

/// A change to one mock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MockEdit {
    /// `metadata.name`.
    Name(String),
    /// `urlPrefix`.
    Url(String),
    /// A new rule at the end (every node and pod, passing, score 0: an empty rule).
    AddRule,
    /// Removes rule `i`.
    RemoveRule(usize),
    /// Moves rule `i` up one place (rules are matched first to last).
    RaiseRule(usize),
    /// Sets a field of rule `i`.
    Rule(usize, RuleField, String),
    /// Sets a field of a verb's behaviour.
    Verb(&'static str, VerbField, String),
}

/// The mocks, in file order: where each is, its name and its `urlPrefix`.
pub fn mocks(doc: &Document) -> Vec<(ObjRef, String, String)> {
    doc.of_kind(MOCK)
        .map(|(r, v)| (r, super::name_of(v).to_string(), str_at(v, &["urlPrefix"])))
        .collect()
}

/// The recordings, in file order: where each is, its name and the URLs of its calls (one per
/// call).
pub fn recordings(doc: &Document) -> Vec<(ObjRef, String, Vec<String>)> {
    doc.of_kind(RECORDING)
        .map(|(r, v)| {
            let urls = at(v, &["calls"])
                .and_then(Value::as_array)
                .map(|calls| calls.iter().map(|c| str_at(c, &["url"])).collect())
                .unwrap_or_default();
            (r, super::name_of(v).to_string(), urls)
        })
        .collect()
}

/// A mock's rules as the form shows them.
pub fn rules(v: &Value) -> Vec<RuleRow> {
    let list = at(v, &["rules"]).and_then(Value::as_array);
    list.map(|rules| {
        rules
            .iter()
            .map(|r| RuleRow {
                nodes: list_text(r.get("nodes")),
                node_selector: labels_text(r.get("nodeSelector")),
                pods: list_text(r.get("pods")),
                pod_selector: labels_text(r.get("podSelector")),
                filter: or(str_at(r, &["filter"]), "Pass"),
                message: str_at(r, &["message"]),
                score: str_at(r, &["score"]),
                preempt: or(str_at(r, &["preempt"]), "Keep"),
            })
            .collect()
    })
    .unwrap_or_default()
}

/// A verb's field as text (empty when absent: the default).
pub fn verb_field(v: &Value, verb: &str, field: VerbField) -> String {
    str_at(v, &["verbs", verb, field.key()])
}

fn or(s: String, default: &str) -> String {
    if s.is_empty() {
        default.to_string()
    } else {
        s
    }
}

fn list_text(v: Option<&Value>) -> String {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

fn labels_text(v: Option<&Value>) -> String {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| {
                    format!(
                        "{k}={}",
                        v.as_str().map_or_else(|| v.to_string(), str::to_string)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// `a, b` → `["a", "b"]`; empty → `None`.
fn parse_list(text: &str) -> Option<Value> {
    let items: Vec<Value> = text
        .split([',', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| Value::String(s.to_string()))
        .collect();
    (!items.is_empty()).then_some(Value::Array(items))
}

/// `k=v, k2=v2` → `{k: v, k2: v2}`; empty → `None`.
fn parse_labels(text: &str, what: &str) -> Result<Option<Value>, String> {
    let mut m = Map::new();
    for part in text
        .split([',', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let Some((k, v)) = part.split_once('=') else {
            return Err(format!("{what}: write each label as key=value ({part:?})"));
        };
        if k.trim().is_empty() {
            return Err(format!("{what}: a label needs a key ({part:?})"));
        }
        m.insert(k.trim().to_string(), Value::String(v.trim().to_string()));
    }
    Ok((!m.is_empty()).then_some(Value::Object(m)))
}

fn one_of(text: &str, choices: &[&str], what: &str) -> Result<(), String> {
    if choices.contains(&text) {
        Ok(())
    } else {
        Err(format!(
            "{what} must be one of {}",
            choices
                .iter()
                .filter(|c| !c.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// A whole number in `range`, or `None` for an empty field.
fn parse_number(
    text: &str,
    range: std::ops::RangeInclusive<i64>,
    what: &str,
) -> Result<Option<Value>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(Some(Value::from(n))),
        _ => Err(format!(
            "{what} must be a whole number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// A new mock for the extender at `url_prefix`, after the other mocks: one rule that passes
/// every node with score 0 (change it to taste). Returns its name.
pub fn add_mock(doc: &mut Document, url_prefix: &str) -> String {
    let base = url_prefix
        .trim_end_matches('/')
        .rsplit('/')
        .find(|s| !s.is_empty() && !s.contains(':'))
        .filter(|s| s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .map(|s| s.to_ascii_lowercase())
        .unwrap_or_else(|| "extender".to_string());
    let name = if doc.find(MOCK, &base).is_some() {
        doc.unique_name(MOCK, &base)
    } else {
        base
    };
    let obj = serde_json::json!({
        "apiVersion": API_VERSION,
        "kind": MOCK,
        "metadata": {"name": name},
        "urlPrefix": url_prefix,
        "rules": [{"filter": "Pass", "score": 0}],
    });
    doc.insert(None, obj);
    name
}

/// Applies `edit` to the mock at `r`.
pub fn apply(doc: &mut Document, r: ObjRef, edit: MockEdit) -> Result<(), String> {
    let v = doc.get_mut(r).ok_or("the mock is gone")?;
    match edit {
        MockEdit::Name(n) => {
            let n = n.trim();
            if n.is_empty() {
                return Err("a mock needs a name".into());
            }
            object_at(v, &["metadata"]).insert("name".into(), n.into());
        }
        MockEdit::Url(u) => {
            let u = u.trim();
            if u.is_empty() {
                return Err("the urlPrefix says which extender the mock answers for".into());
            }
            object_at(v, &[]).insert("urlPrefix".into(), u.into());
        }
        MockEdit::AddRule => rules_mut(v).push(Value::Object(Map::new())),
        MockEdit::RemoveRule(i) => {
            let rules = rules_mut(v);
            if i < rules.len() {
                rules.remove(i);
            }
        }
        MockEdit::RaiseRule(i) => {
            let rules = rules_mut(v);
            if i > 0 && i < rules.len() {
                rules.swap(i - 1, i);
            }
        }
        MockEdit::Rule(i, field, text) => {
            let rules = rules_mut(v);
            let rule = rules.get_mut(i).ok_or("the rule is gone")?;
            set_rule(rule, field, &text)?;
        }
        MockEdit::Verb(verb, field, text) => set_verb(v, verb, field, &text)?,
    }
    Ok(())
}

fn rules_mut(v: &mut Value) -> &mut Vec<Value> {
    let map = object_at(v, &[]);
    let rules = map
        .entry("rules")
        .or_insert_with(|| Value::Array(Vec::new()));
    if !rules.is_array() {
        *rules = Value::Array(Vec::new());
    }
    match rules {
        Value::Array(a) => a,
        _ => unreachable!("made an array above"),
    }
}

fn set_rule(rule: &mut Value, field: RuleField, text: &str) -> Result<(), String> {
    let t = text.trim();
    let (key, value) = match field {
        RuleField::Nodes => ("nodes", parse_list(t)),
        RuleField::Pods => ("pods", parse_list(t)),
        RuleField::NodeSelector => ("nodeSelector", parse_labels(t, "node labels")?),
        RuleField::PodSelector => ("podSelector", parse_labels(t, "pod labels")?),
        RuleField::Filter => {
            one_of(t, &VERDICTS, "the filter verdict")?;
            ("filter", Some(Value::String(t.to_string())))
        }
        RuleField::Message => ("message", (!t.is_empty()).then(|| Value::String(t.into()))),
        RuleField::Score => ("score", parse_number(t, i64::MIN..=i64::MAX, "the score")?),
        RuleField::Preempt => {
            one_of(t, &PREEMPT_RULES, "the preemption rule")?;
            (
                "preempt",
                (t != "Keep").then(|| Value::String(t.to_string())),
            )
        }
    };
    set_at(rule, &[key], value);
    Ok(())
}

fn set_verb(v: &mut Value, verb: &str, field: VerbField, text: &str) -> Result<(), String> {
    if !VERBS.contains(&verb) {
        return Err(format!("no verb {verb:?}"));
    }
    let t = text.trim();
    let value = match field {
        VerbField::Status => {
            parse_number(t, 100..=599, "the HTTP status")?.filter(|s| s.as_i64() != Some(200))
        }
        VerbField::DelayMs => parse_number(t, 0..=i64::from(u32::MAX), "the delay (ms)")?
            .filter(|d| d.as_i64() != Some(0)),
        VerbField::Error => (!t.is_empty()).then(|| Value::String(t.to_string())),
        VerbField::AnswerWith => {
            one_of(t, &ANSWER_WITH, "answerWith")?;
            (!t.is_empty()).then(|| Value::String(t.to_string()))
        }
    };
    set_at(v, &["verbs", verb, field.key()], value);
    Ok(())
}

/// The text of the Extenders editor with its recordings replaced by `recording` (one
/// `kind: ExtenderRecording` document, as YAML): the mocks and every other object stay.
pub fn with_recording(text: &str, recording: &str) -> Result<String, String> {
    let mut doc = Document::parse(text)?;
    let new: Value = serde_yaml_ng::from_str(recording).map_err(|e| e.to_string())?;
    let old: Vec<ObjRef> = doc.of_kind(RECORDING).map(|(r, _)| r).collect();
    // From the last, so the positions of the others hold.
    for r in old.into_iter().rev() {
        doc.remove(r);
    }
    doc.insert(None, new);
    Ok(doc.to_text())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderMock\nmetadata: {name: gpu}\nurlPrefix: http://127.0.0.1:8888/scheduler\nrules:\n- nodes: [node-b]\n  filter: Fail\n  message: no GPU\n- nodeSelector: {gpu: \"true\"}\n  score: 7\n";

    #[test]
    fn a_mock_reads_as_rows_and_edits_as_fields() {
        let mut doc = Document::parse(TEXT).expect("parses");
        let m = mocks(&doc);
        assert_eq!(m.len(), 1);
        assert_eq!(
            (m[0].1.as_str(), m[0].2.as_str()),
            ("gpu", "http://127.0.0.1:8888/scheduler")
        );
        let rows = rules(doc.get(m[0].0).expect("there"));
        assert_eq!(rows[0].nodes, "node-b");
        assert_eq!(
            (rows[0].filter.as_str(), rows[0].message.as_str()),
            ("Fail", "no GPU")
        );
        assert_eq!(
            (rows[1].node_selector.as_str(), rows[1].score.as_str()),
            ("gpu=true", "7")
        );
        assert_eq!(
            (rows[1].filter.as_str(), rows[1].preempt.as_str()),
            ("Pass", "Keep")
        );
        let at = m[0].0;
        apply(
            &mut doc,
            at,
            MockEdit::Rule(1, RuleField::Score, "-3".into()),
        )
        .expect("a score");
        apply(
            &mut doc,
            at,
            MockEdit::Rule(0, RuleField::Filter, "Unresolvable".into()),
        )
        .expect("a verdict");
        apply(
            &mut doc,
            at,
            MockEdit::Rule(0, RuleField::PodSelector, "app=ml, tier = gold".into()),
        )
        .expect("labels");
        apply(
            &mut doc,
            at,
            MockEdit::Verb("prioritize", VerbField::Status, "500".into()),
        )
        .expect("a status");
        assert_eq!(
            apply(
                &mut doc,
                at,
                MockEdit::Rule(0, RuleField::Filter, "Maybe".into())
            ),
            Err("the filter verdict must be one of Pass, Fail, Unresolvable".into())
        );
        assert_eq!(
            apply(
                &mut doc,
                at,
                MockEdit::Verb("bind", VerbField::Status, "99".into())
            ),
            Err("the HTTP status must be a whole number from 100 to 599".into())
        );
        assert!(apply(
            &mut doc,
            at,
            MockEdit::Rule(0, RuleField::NodeSelector, "gpu".into())
        )
        .is_err());
        apply(&mut doc, at, MockEdit::AddRule).expect("a rule");
        apply(&mut doc, at, MockEdit::RaiseRule(2)).expect("raised");
        let v = doc.get(at).expect("there");
        let rows = rules(v);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].score, "-3");
        assert_eq!(rows[0].pod_selector, "app=ml, tier=gold");
        assert_eq!(verb_field(v, "prioritize", VerbField::Status), "500");
        // 200 is the default: writing it removes the key (and the emptied parents).
        apply(
            &mut doc,
            at,
            MockEdit::Verb("prioritize", VerbField::Status, "200".into()),
        )
        .expect("default");
        assert!(doc.get(at).expect("there").get("verbs").is_none());
        // What the form writes reads in the core.
        let text = doc.to_text();
        let scenario = format!("{text}---\napiVersion: v1\nkind: Policy\nextenders:\n- urlPrefix: http://127.0.0.1:8888/scheduler\n  filterVerb: filter\n---\napiVersion: v1\nkind: Node\nmetadata: {{name: node-b}}\nstatus: {{allocatable: {{cpu: '1', memory: 1Gi, pods: '10'}}}}\n");
        let src = schedlab_core::Source {
            name: "extenders.yaml",
            text: &scenario,
        };
        assert!(schedlab_core::Scenario::load_with(&[src], None).is_ok());
    }

    #[test]
    fn a_new_mock_is_named_after_its_url_and_a_recording_replaces_the_old_ones() {
        let mut doc = Document::parse(TEXT).expect("parses");
        assert_eq!(add_mock(&mut doc, "http://127.0.0.1:9999/basic"), "basic");
        assert_eq!(add_mock(&mut doc, "http://127.0.0.1:9999/basic"), "basic-2");
        assert_eq!(add_mock(&mut doc, "http://127.0.0.1:9999"), "extender");
        assert_eq!(mocks(&doc).len(), 4);
        let rec = "apiVersion: schedlab.dev/v1alpha1\nkind: ExtenderRecording\nmetadata: {name: r}\ncalls:\n- url: http://x/filter\n  request: '{}'\n  status: 200\n  reply: '{}'\n";
        let once = with_recording(&doc.to_text(), rec).expect("added");
        let twice = with_recording(&once, rec).expect("replaced");
        let doc = Document::parse(&twice).expect("parses");
        assert_eq!(recordings(&doc).len(), 1);
        assert_eq!(recordings(&doc)[0].2, ["http://x/filter"]);
        assert_eq!(mocks(&doc).len(), 4);
        // An empty editor takes the recording alone.
        let alone = with_recording("", rec).expect("added");
        assert_eq!(
            recordings(&Document::parse(&alone).expect("parses")).len(),
            1
        );
    }
}
