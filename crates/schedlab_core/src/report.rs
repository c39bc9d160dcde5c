//! Renderers of a [`Run`]: the JSON report of the CLI contract, and a readable text table.

use crate::cluster::{Cluster, NodeId};
use crate::model::Millis;
use crate::simulation::{Event, Phase, Repeat, Run, Step};
use crate::simulation::{PodPhase, StepKind, StopReason};
use crate::trace::{CycleTrace, Outcome};
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// The contract's JSON report. `detail = false` leaves out `filter`, `scores` and `totals`.
///
/// Keys beyond the contract: per pod `conditions` (PodScheduled) and, for a pod whose binding
/// has not completed, `assumedNode`; per event `time`; `timeline` (the changes applied, with
/// the pods each moved out of unschedulableQ), `end` (time and why the run stopped) and, when
/// blocks of cycles ran again and again identically (or similarly: equal but for the seeded
/// tie-break), `repeats` ([`repeats_json`]) and `folded`, the number of cycles they count
/// rather than list.
pub fn json_report(run: &Run, detail: bool) -> Value {
    serde_json::to_value(JsonReport { run, detail }).unwrap_or(Value::Null)
}

/// [`json_report`] as a [`serde::Serialize`] value: serialised straight to a writer
/// (`serde_json::to_writer_pretty`), each pod, cycle and event is built only when it is written
/// and dropped right after, so the whole report never stands in memory (a run of 50 000 pods
/// writes 31 MB). The bytes are those of [`json_report`]'s value, which is built from it.
pub struct JsonReport<'a> {
    /// The run.
    pub run: &'a Run,
    /// Whether cycles carry `filter`, `scores` and `totals`.
    pub detail: bool,
}

impl serde::Serialize for JsonReport<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let run = self.run;
        let c = &run.cluster;
        let mut order: Vec<usize> = (0..c.pods().len()).collect();
        order.sort_by_key(|&id| c.pods()[id].input_index);
        let mut m = serializer.serialize_map(None)?;
        m.serialize_entry("pods", &Each(|| order.iter().map(|&id| pod_json(run, id))))?;
        m.serialize_entry(
            "cycles",
            &Each(|| {
                run.cycles
                    .iter()
                    .map(|t| cycle_json(c, &run.filter_names, &run.score_names, t, self.detail))
            }),
        )?;
        m.serialize_entry(
            "events",
            &Each(|| {
                run.events.iter().map(|e| {
                    json!({"type": e.kind, "reason": e.reason, "object": e.object,
                        "message": e.message, "time": e.time.as_secs_f64()})
                })
            }),
        )?;
        m.serialize_entry(
            "timeline",
            &Each(|| {
                run.steps.iter().filter_map(|s| {
                    let StepKind::Change { index } = s.kind else {
                        return None;
                    };
                    let ch = &run.timeline.changes[index].change;
                    let moved: Vec<&str> = s
                        .moved
                        .iter()
                        .map(|m| c.pods()[m.pod].full_name.as_str())
                        .collect();
                    Some(json!({"time": s.time.as_secs_f64(), "change": ch.verb(),
                        "object": ch.object(), "moved": moved}))
                })
            }),
        )?;
        m.serialize_entry("end", &end_json(run))?;
        m.serialize_entry("scheduler", run.scheduler.as_str())?;
        if c.dra().claims().iter().any(|e| !e.deleted) {
            m.serialize_entry("resourceClaims", &resource_claims_json(c))?;
        }
        if !run.repeats.is_empty() {
            m.serialize_entry("repeats", &repeats_json(run))?;
            m.serialize_entry("folded", &run.folded_cycles())?;
        }
        m.end()
    }
}

/// `resourceClaims` (DRA): every claim in input order, then the generated ones: whether it is
/// allocated, the node its allocation is pinned to (a `metadata.name` field selector; `null`
/// for devices usable on several nodes), its devices and the pods it is reserved for.
pub fn resource_claims_json(c: &Cluster) -> Value {
    let claims = c.dra().claims().iter().filter(|e| !e.deleted);
    let mut ordered: Vec<_> = claims.clone().filter(|e| !e.generated).collect();
    ordered.extend(claims.filter(|e| e.generated));
    Value::Array(
        ordered
            .into_iter()
            .map(|e| {
                let claim = &e.claim;
                let ns = claim.metadata.namespace_or_default();
                let alloc = claim.status.allocation.as_ref();
                let node = alloc
                    .and_then(|a| a.node_selector.as_ref())
                    .and_then(|s| match s.node_selector_terms.as_slice() {
                        [t] if t.match_expressions.is_empty() => match t.match_fields.as_slice() {
                            [f] if f.key == "metadata.name" && f.operator == "In" && f.values.len() == 1 => {
                                Some(f.values[0].clone())
                            }
                            _ => None,
                        },
                        _ => None,
                    });
                let devices: Vec<Value> = alloc
                    .map(|a| {
                        a.devices
                            .results
                            .iter()
                            .map(|r| json!({"request": r.request, "driver": r.driver, "pool": r.pool, "device": r.device}))
                            .collect()
                    })
                    .unwrap_or_default();
                let reserved: Vec<String> = claim
                    .status
                    .reserved_for
                    .iter()
                    .map(|r| format!("{ns}/{}", r.name))
                    .collect();
                json!({"name": claim.key(), "allocated": alloc.is_some(), "node": node,
                    "devices": devices, "reservedFor": reserved})
            })
            .collect(),
    )
}

/// A JSON array whose items the closure's iterator builds one at a time as they are written.
struct Each<F>(F);

impl<F, I> serde::Serialize for Each<F>
where
    F: Fn() -> I,
    I: Iterator<Item = Value>,
{
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// One pod of the report: `name`, `node`, `nominatedNode`, `phase`, and when known
/// `assumedNode` and `conditions`.
fn pod_json(run: &Run, id: usize) -> Value {
    let c = &run.cluster;
    let p = &c.pods()[id];
    let mut m = Map::new();
    m.insert("name".into(), json!(p.full_name));
    m.insert(
        "node".into(),
        json!(run.node_of(id).map(|n| c.nodes()[n].name())),
    );
    // `status.nominatedNodeName` of a pod still waiting (the queue keeps the same).
    let nominated = run
        .pod_states
        .get(id)
        .filter(|s| s.phase == PodPhase::Pending)
        .and_then(|s| s.nominated.as_deref());
    m.insert("nominatedNode".into(), json!(nominated));
    m.insert("phase".into(), json!(run.phase(id).as_str()));
    if let Some(state) = run.pod_states.get(id) {
        if let PodPhase::Assumed(n) = state.phase {
            m.insert("assumedNode".into(), json!(c.nodes()[n].name()));
        }
        if let Some(cond) = &state.condition {
            let mut cm = Map::new();
            cm.insert("type".into(), json!("PodScheduled"));
            cm.insert(
                "status".into(),
                json!(if cond.status { "True" } else { "False" }),
            );
            if !cond.status {
                cm.insert("reason".into(), json!(cond.reason));
                cm.insert("message".into(), json!(cond.message));
            }
            m.insert("conditions".into(), json!([Value::Object(cm)]));
        }
    }
    Value::Object(m)
}

/// `repeats`: each block of `cycles[firstCycle ..][.. cycles]` (and of `events[firstEvent
/// ..][.. events]`) that ran `times` more times right after itself, each copy `every` seconds
/// after the one before and identical to it but for the clock; `lastTime` is when the last
/// copy's first cycle ran. The copies are counted, not listed: the report of a year of
/// retries stays small. `similar: true` (absent otherwise) marks a block whose copies are
/// equal to it but for what the seeded tie-break decided (the node chosen among equal ones and
/// the per-node tables); the newest of them is then listed after the block, as it ran.
pub fn repeats_json(run: &Run) -> Value {
    run.repeats
        .iter()
        .map(|r| {
            let first = run.cycles.get(r.cycles.start).map_or(0.0, |c| c.time);
            let last = Millis((first * 1000.0).round() as u64 + r.every.0 * r.times as u64);
            let mut entry = json!({"firstCycle": r.cycles.start, "cycles": r.cycles.len(),
                "firstEvent": r.events.start, "events": r.events.len(),
                "times": r.times, "every": r.every.as_secs_f64(),
                "lastTime": last.as_secs_f64()});
            if r.similar {
                entry["similar"] = json!(true);
            }
            entry
        })
        .collect()
}

/// The line that stands for a repeat's copies in the text report; a similar repeat's cycle
/// line starts with the number of cycles folded.
fn repeat_line(r: &crate::simulation::Repeat, what: &str, count: usize, last: Millis) -> String {
    let (n, s) = if count == 1 {
        ("the", "")
    } else {
        ("these", "s")
    };
    let times = format!(
        "{} more time{}",
        r.times,
        if r.times == 1 { "" } else { "s" }
    );
    if r.similar && what == "cycle" {
        let folded = r.cycles_run();
        return format!(
            "... {folded} similar retry cycle{} folded: {n} {count} {what}{s} above ran {times}, \
             every {}, the same but for the node the tie-break chose, the last from t={last}",
            if folded == 1 { "" } else { "s" },
            r.every
        );
    }
    format!(
        "... {n} {count} {what}{s} above ran {times}, every {}, the last from t={last}",
        r.every
    )
}

/// `end`: the time of the last step and why the run stopped, with `warning` when it stopped at
/// a default bound.
fn end_json(run: &Run) -> Value {
    let mut end = json!({"time": run.end_time.as_secs_f64(), "reason": run.stop.as_str()});
    if let Some(w) = &run.warning {
        end["warning"] = json!(w);
    }
    end
}

/// One cycle as the contract's report spells it (`filter`, `scores` and `totals` only with
/// `detail`).
pub fn cycle_json(
    c: &crate::cluster::Cluster,
    filter_names: &[String],
    score_names: &[String],
    t: &crate::trace::CycleTrace,
    detail: bool,
) -> Value {
    let mut m = Map::new();
    m.insert("time".into(), json!(t.time));
    m.insert("pod".into(), json!(c.pods()[t.pod].full_name));
    m.insert("outcome".into(), json!(t.outcome.as_str()));
    let node_name = |n: usize| t.node_name(c, n).to_string();
    m.insert("node".into(), json!(t.node.map(node_name)));
    m.insert(
        "message".into(),
        match t.outcome {
            Outcome::Scheduled => Value::Null,
            _ => json!(t.message),
        },
    );
    if detail {
        let names = RowNames::of(t, filter_names, score_names);
        let mut filter = Map::new();
        for rec in &t.filter {
            filter.insert(node_name(rec.node), Value::Object(names.filter_row(rec)));
        }
        let mut scores = Map::new();
        for rec in &t.scores {
            scores.insert(node_name(rec.node), Value::Object(names.score_row(rec)));
        }
        add_extender_entries(t, &node_name, &mut filter, &mut scores);
        m.insert("filter".into(), Value::Object(filter));
        m.insert("scores".into(), Value::Object(scores));
        let mut totals = Map::new();
        for (n, total) in &t.totals {
            totals.insert(node_name(*n), json!(total));
        }
        m.insert("totals".into(), Value::Object(totals));
        if let Some(claims) = claims_json(t, &node_name) {
            m.insert("claims".into(), claims);
        }
    }
    m.insert("preemption".into(), preemption_json(c, t));
    Value::Object(m)
}

/// v1.35, DRA: per node DynamicResources' Filter ran on, each of the pod's claims with the
/// devices chosen (`{"claim", "devices": [{"request", "device": "driver/pool/device"}]}`), or
/// `{"claim", "failed": why}`, `{"claim", "allocated": usable}` for a claim allocated before
/// the cycle, `{"claim", "notTried": true}` after an earlier claim failed. `None` for a pod
/// without claims (the key is then left out).
fn claims_json(t: &crate::trace::CycleTrace, node_name: &dyn Fn(usize) -> String) -> Option<Value> {
    use crate::trace::v135::ClaimAnswer;
    let m = t.modern.as_deref().filter(|m| !m.claims.is_empty())?;
    let mut out = Map::new();
    for n in &m.claims {
        let list: Vec<Value> = n
            .claims
            .iter()
            .map(|c| match &c.answer {
                ClaimAnswer::Allocated { usable } => json!({"claim": c.claim, "allocated": usable}),
                ClaimAnswer::Devices(d) => json!({"claim": c.claim, "devices": d
                    .iter()
                    .map(|(r, id)| json!({"request": r, "device": id}))
                    .collect::<Vec<_>>()}),
                ClaimAnswer::Failed(why) => json!({"claim": c.claim, "failed": why}),
                ClaimAnswer::NotReached => json!({"claim": c.claim, "notTried": true}),
            })
            .collect();
        out.insert(node_name(n.node), Value::Array(list));
    }
    Some(Value::Object(out))
}

/// The extenders' columns (`Extender(<urlPrefix>)`): in `filter`, each node a filter call was
/// sent maps to `[]` when kept or to the extender's message when failed (a node it left out
/// without a message has no status, so no entry); in `scores`, each node a prioritize call
/// scored maps to `raw` (the 0-10 answer, not clamped), `score` (raw × 10) and `weight`.
fn add_extender_entries(
    t: &crate::trace::CycleTrace,
    node_name: &dyn Fn(usize) -> String,
    filter: &mut Map<String, Value>,
    scores: &mut Map<String, Value>,
) {
    use crate::trace::{ExtenderVerb, NamedNode};
    for call in t.extenders.iter().filter(|c| c.error.is_none()) {
        let key = format!("Extender({})", call.extender);
        match call.verb {
            ExtenderVerb::Filter => {
                for &node in &call.sent {
                    let reasons: Vec<&str> = call
                        .failed
                        .iter()
                        .filter(|f| f.node == NamedNode::Known(node))
                        .map(|f| f.message.as_str())
                        .collect();
                    if reasons.is_empty() && !call.kept.contains(&node) {
                        continue;
                    }
                    if let Some(r) = row_of(filter, node_name(node)) {
                        r.insert(key.clone(), json!(reasons));
                    }
                }
            }
            ExtenderVerb::Prioritize => {
                for &(node, raw) in &call.scores {
                    let score = raw.wrapping_mul(crate::sched::extender::calls::EXTENDER_SCALE);
                    if let Some(r) = row_of(scores, node_name(node)) {
                        r.insert(
                            key.clone(),
                            json!({"raw": raw, "score": score, "weight": call.weight}),
                        );
                    }
                }
            }
            ExtenderVerb::Preempt | ExtenderVerb::Bind => {}
        }
    }
}

/// The row of `node` in a table, made when missing.
fn row_of(map: &mut Map<String, Value>, node: String) -> Option<&mut Map<String, Value>> {
    map.entry(node)
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
}

/// How a cycle's table rows name their filters and scores: v1.35 cycles carry their
/// profile's names, the filters PreFilter skipped and the Score plugins that ran.
struct RowNames<'a> {
    modern: Option<&'a crate::v135::cycle::ModernTrace>,
    filter_names: &'a [String],
    score_names: &'a [String],
}

impl<'a> RowNames<'a> {
    fn of(
        t: &'a crate::trace::CycleTrace,
        filter_names: &'a [String],
        score_names: &'a [String],
    ) -> Self {
        RowNames {
            modern: t.modern.as_deref(),
            filter_names,
            score_names,
        }
    }

    /// One node's `filter` entry: each filter's reasons (skipped filters left out).
    fn filter_row(&self, rec: &crate::trace::NodeFilterRecord) -> Map<String, Value> {
        let mut per = Map::new();
        for (i, reasons) in rec.results() {
            let name = match self.modern {
                Some(m) if m.skipped_filters.contains(&i) => continue,
                Some(m) => m.filter_names[i].to_string(),
                None => self.filter_names[i].clone(),
            };
            let list: Vec<String> = reasons.iter().map(ToString::to_string).collect();
            per.insert(name, json!(list));
        }
        per
    }

    /// One node's `scores` entry: each priority's or Score plugin's raw score, normalized
    /// score and weight.
    fn score_row(&self, rec: &crate::trace::NodeScoreRecord) -> Map<String, Value> {
        let mut per = Map::new();
        for (k, s) in rec.entries.iter().enumerate() {
            let name = match self.modern {
                Some(m) => m.score_names[m.scored[k]].to_string(),
                None => self.score_names[k].clone(),
            };
            per.insert(
                name,
                json!({"raw": s.raw, "score": s.score, "weight": s.weight}),
            );
        }
        per
    }
}

/// The rows of a cycle's tables for the nodes named in `nodes` only: per node, `filter` (its
/// failed filters' reasons, when it failed one), `scores` and `total` (when scored), or
/// `{"evaluated": bool}` when neither. What `compare` shows of a moved pod's cycle.
pub fn node_rows(
    c: &crate::cluster::Cluster,
    filter_names: &[String],
    score_names: &[String],
    t: &crate::trace::CycleTrace,
    nodes: &[&str],
) -> Map<String, Value> {
    let names = RowNames::of(t, filter_names, score_names);
    let mut out = Map::new();
    for &node in nodes {
        let is = |id: usize| t.node_name(c, id) == node;
        let mut row = Map::new();
        let filtered = t.filter.iter().find(|r| is(r.node));
        if let Some(rec) = filtered {
            let failed: Map<String, Value> = names
                .filter_row(rec)
                .into_iter()
                .filter(|(_, r)| r.as_array().is_some_and(|a| !a.is_empty()))
                .collect();
            if !failed.is_empty() {
                row.insert("filter".into(), Value::Object(failed));
            }
        }
        if let Some(rec) = t.scores.iter().find(|r| is(r.node)) {
            row.insert("scores".into(), Value::Object(names.score_row(rec)));
        }
        if let Some((_, total)) = t.totals.iter().find(|(n, _)| is(*n)) {
            row.insert("total".into(), json!(total));
        }
        if row.is_empty() {
            row.insert("evaluated".into(), json!(filtered.is_some()));
        }
        out.insert(node.to_string(), Value::Object(row));
    }
    out
}

/// The contract's `preemption`: `{"node", "victims"}` when the cycle nominated a node, plus
/// `decidedBy` (the criterion of `pickOneNodeForPreemption`) and every `candidates` entry.
fn preemption_json(c: &crate::cluster::Cluster, t: &crate::trace::CycleTrace) -> Value {
    let Some(p) = t.preemption.as_deref() else {
        return Value::Null;
    };
    let Some(chosen) = p.chosen() else {
        return Value::Null;
    };
    let names = |pods: &[usize]| -> Vec<&str> {
        pods.iter()
            .map(|&v| c.pods()[v].full_name.as_str())
            .collect()
    };
    let candidates: Vec<Value> = p
        .candidates
        .iter()
        .map(|k| {
            json!({"node": t.node_name(c, k.node), "victims": names(&k.victims),
                "pdbViolations": k.pdb_violations})
        })
        .collect();
    json!({
        "node": t.node_name(c, chosen.node),
        "victims": names(&chosen.victims),
        "decidedBy": p.pick.map(|k| k.decided_by.as_str()),
        "candidates": candidates,
    })
}

/// The scheduling queue, for the UI: each pod with its sub-queue (`activeQ`, `podBackoffQ`,
/// `unschedulableQ`), priority, attempts, the time it was queued, its backoff expiry and its
/// nomination; times in seconds.
pub fn queue_json(c: &crate::cluster::Cluster, queue: &[crate::queue::QueuedPodView]) -> Value {
    let pods: Vec<Value> = queue
        .iter()
        .map(|q| {
            json!({
                "pod": c.pods()[q.pod].full_name,
                "queue": q.queue.name(),
                "priority": q.priority,
                "attempts": q.attempts,
                "queuedAt": q.timestamp.as_secs_f64(),
                "backoffAttempts": q.backoff_attempts,
                "backoffExpiry": q.backoff_expiry.map(Millis::as_secs_f64),
                "nominatedNode": q.nominated_node,
            })
        })
        .collect();
    Value::Array(pods)
}

/// `text` made safe for a terminal: every control character but newline and tab (ESC, BEL,
/// carriage return, DEL, the C1 controls) written as a `\u{..}` escape, so names from the
/// input cannot set the window title, clear the screen or colour the output.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Column widths of the text report stop growing here: a longer name overflows its column
/// (as in `kubectl get`) instead of padding every line to its length.
const MAX_COLUMN: usize = 64;

/// `cell` padded with spaces to `width` characters (never truncated).
fn pad(out: &mut String, cell: &str, width: usize) {
    out.push_str(cell);
    let len = cell.chars().count();
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(len)));
}

/// A readable summary: placements, then the events and timeline changes as `kubectl get
/// events` lists them, then one line per cycle.
pub fn text_report(run: &Run) -> String {
    let mut out = String::new();
    write_placements(&mut out, run);
    let _ = writeln!(out);
    let _ = writeln!(out, "EVENTS");
    write_event_table(&mut out, &event_rows(run));
    let _ = writeln!(out);
    let _ = writeln!(out, "CYCLES");
    write_cycles(&mut out, run);
    let _ = writeln!(out);
    write_end(&mut out, run);
    out
}

/// `PLACEMENTS`: each pod in input order with its phase and node (its assumed node while its
/// binding is in flight).
fn write_placements(out: &mut String, run: &Run) {
    let c = &run.cluster;
    let mut order: Vec<usize> = (0..c.pods().len()).collect();
    order.sort_by_key(|&id| c.pods()[id].input_index);
    let width = order
        .iter()
        .map(|&id| c.pods()[id].full_name.chars().count())
        .max()
        .unwrap_or(3)
        .clamp(3, MAX_COLUMN);
    let _ = writeln!(out, "PLACEMENTS");
    pad(out, "POD", width);
    let _ = writeln!(out, "  {:<8}  NODE", "PHASE");
    for &id in &order {
        let phase = run.phase(id);
        let node = match (phase, run.pod_states.get(id).map(|s| &s.phase)) {
            (Phase::Bound, _) => run
                .node_of(id)
                .map_or("-".to_string(), |n| c.nodes()[n].name().to_string()),
            (_, Some(PodPhase::Assumed(n))) => {
                format!("({} assumed, binding)", c.nodes()[*n].name())
            }
            _ => "-".to_string(),
        };
        pad(out, &c.pods()[id].full_name, width);
        let _ = writeln!(out, "  {:<8}  {node}", phase.as_str());
    }
}

/// One line of the `EVENTS` table: namespace, time, type, reason, object, message.
type EventRow = [String; 6];

/// A `namespace/name` split in two; a name without namespace is in `default`.
fn namespace_and_name(full: &str) -> (String, String) {
    match full.split_once('/') {
        Some((ns, name)) => (ns.to_string(), name.to_string()),
        None => ("default".to_string(), full.to_string()),
    }
}

/// The `EVENTS` rows in step order: a timeline change, then the events of later steps, each
/// block of events a repeat counts followed by its `...` line.
fn event_rows(run: &Run) -> Vec<EventRow> {
    let mut rows: Vec<EventRow> = Vec::new();
    let mut events = run.events.iter().enumerate().peekable();
    let mut event_repeats = run
        .repeats
        .iter()
        .filter(|r| !r.events.is_empty())
        .peekable();
    let mut step_repeats = run.repeats.iter().peekable();
    // Events carry the index the step had in the run: copies a repeat counts take theirs.
    let mut folded = 0;
    for (k, s) in run.steps.iter().enumerate() {
        let i = k + folded;
        while let Some(r) = step_repeats.next_if(|r| r.steps.end == k + 1) {
            folded += r.steps_taken();
        }
        if let StepKind::Change { index } = s.kind {
            rows.push(timeline_change_row(run, s, index));
        }
        while let Some((k, e)) = events.next_if(|(_, e)| e.step <= i) {
            rows.push(event_row(e));
            while let Some(r) = event_repeats.next_if(|r| r.events.end == k + 1) {
                rows.push(repeated_events_row(run, r));
            }
        }
    }
    rows
}

/// A timeline change as a `Normal` `TimelineChange` event, with the pods it moved out of
/// unschedulableQ.
fn timeline_change_row(run: &Run, s: &Step, index: usize) -> EventRow {
    let c = &run.cluster;
    let ch = &run.timeline.changes[index].change;
    let mut message = format!("timeline: {}", ch.verb());
    if !s.moved.is_empty() {
        let names: Vec<&str> = s
            .moved
            .iter()
            .map(|m| c.pods()[m.pod].full_name.as_str())
            .collect();
        let _ = write!(
            message,
            "; moved out of unschedulableQ: {}",
            names.join(", ")
        );
    }
    let object = ch.object();
    let (ns, object) = match object.strip_prefix("pod/") {
        Some(full) => {
            let (ns, name) = namespace_and_name(full);
            (ns, format!("pod/{name}"))
        }
        None => ("default".to_string(), object),
    };
    [
        ns,
        s.time.to_string(),
        "Normal".into(),
        "TimelineChange".into(),
        object,
        message,
    ]
}

/// A pod's event as `kubectl get events` lists it.
fn event_row(e: &Event) -> EventRow {
    let (ns, name) = namespace_and_name(&e.object);
    [
        ns,
        e.time.to_string(),
        e.kind.into(),
        e.reason.into(),
        format!("pod/{name}"),
        e.message.clone(),
    ]
}

/// The `...` line after a block of events a repeat counts, in the message column.
fn repeated_events_row(run: &Run, r: &Repeat) -> EventRow {
    let first = run.events[r.events.start].time;
    let last = Millis(first.0 + r.every.0 * r.times as u64);
    let line = repeat_line(r, "event", r.events.len(), last);
    [
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        line,
    ]
}

/// The `EVENTS` table: a header and the rows, columns as wide as their widest cell (up to
/// [`MAX_COLUMN`]), the message last and unpadded.
fn write_event_table(out: &mut String, rows: &[EventRow]) {
    let headers = ["NAMESPACE", "TIME", "TYPE", "REASON", "OBJECT", "MESSAGE"];
    let mut widths = headers.map(str::len);
    for r in rows {
        for (w, cell) in widths.iter_mut().zip(r.iter()) {
            *w = (*w).max(cell.chars().count().min(MAX_COLUMN));
        }
    }
    write_event_line(out, headers, &widths);
    for r in rows {
        write_event_line(out, [&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]], &widths);
    }
}

/// One line of the `EVENTS` table, trailing spaces trimmed.
fn write_event_line(out: &mut String, cells: [&str; 6], widths: &[usize; 6]) {
    let mut l = String::new();
    for (i, cell) in cells.iter().enumerate() {
        if i == 5 {
            l.push_str(cell);
        } else {
            pad(&mut l, cell, widths[i]);
            l.push_str("   ");
        }
    }
    let _ = writeln!(out, "{}", l.trim_end());
}

/// `CYCLES`: one line per scheduling cycle, numbered as they ran, each block a repeat counts
/// followed by its `...` line.
fn write_cycles(out: &mut String, run: &Run) {
    let c = &run.cluster;
    let mut cycle_repeats = run
        .repeats
        .iter()
        .filter(|r| !r.cycles.is_empty())
        .peekable();
    // Cycles are numbered as they ran: copies a repeat counts take their numbers.
    let mut folded = 0;
    for (i, t) in run.cycles.iter().enumerate() {
        let pod = &c.pods()[t.pod].full_name;
        let what = match (t.outcome, t.node) {
            (Outcome::Scheduled, Some(n)) => scheduled_text(c, t, n),
            _ => unscheduled_text(c, t),
        };
        let time = Millis((t.time * 1000.0).round() as u64);
        let _ = writeln!(
            out,
            "#{:<4} t={:<7} {pod}  {}  {what}",
            i + 1 + folded,
            time.to_string(),
            t.outcome.as_str()
        );
        while let Some(r) = cycle_repeats.next_if(|r| r.cycles.end == i + 1) {
            let first = run.cycles[r.cycles.start].time;
            let last = Millis((first * 1000.0).round() as u64 + r.every.0 * r.times as u64);
            let _ = writeln!(out, "{}", repeat_line(r, "cycle", r.cycles.len(), last));
            folded += r.cycles_run();
        }
    }
}

/// A scheduled cycle: the node, how many nodes were evaluated and feasible, and how each of
/// the pod's claims was bound or provisioned.
fn scheduled_text(c: &Cluster, t: &CycleTrace, n: NodeId) -> String {
    let mut s = format!(
        "-> {} ({} of {} nodes evaluated, {} feasible)",
        t.node_name(c, n),
        t.evaluated,
        t.num_all_nodes,
        t.feasible
    );
    for (claim, pv) in &t.volume_bindings {
        match pv {
            Some(pv) => {
                let _ = write!(s, "; claim {claim} bound to volume {pv}");
            }
            None => {
                let _ = write!(s, "; claim {claim} provisioned on the node");
            }
        }
    }
    s
}

/// A cycle that placed nothing: its message, then the preemption it chose (node, deciding
/// criterion, victims) or why the pod may not preempt; then, one per line, the resource
/// claims that found no devices, with the nodes and why (detailed runs only).
fn unscheduled_text(c: &Cluster, t: &CycleTrace) -> String {
    let mut s = t.message.clone().unwrap_or_default();
    if let Some(p) = t.preemption.as_deref() {
        if let (Some(chosen), Some(pick)) = (p.chosen(), p.pick) {
            let victims: Vec<&str> = chosen
                .victims
                .iter()
                .map(|&v| c.pods()[v].full_name.as_str())
                .collect();
            let _ = write!(
                s,
                "  => preempts on {} ({}): {}",
                t.node_name(c, chosen.node),
                pick.decided_by.as_str(),
                if victims.is_empty() {
                    "no victims".to_string()
                } else {
                    victims.join(", ")
                }
            );
        } else if let Some(why) = &p.not_eligible {
            let _ = write!(s, "  => no preemption: {why}");
        }
    }
    if let Some(m) = t.modern.as_deref() {
        for line in m.claim_failures(&|n| t.node_name(c, n).to_string()) {
            let _ = write!(s, "\n      {line}");
        }
    }
    s
}

/// `END`: the time of the last step and why the run stopped, then the run's warning if any.
fn write_end(out: &mut String, run: &Run) {
    let why = match (run.stop, run.warning.is_some()) {
        (StopReason::Quiescent, _) => "nothing more can happen",
        (StopReason::Until, false) => "the next step lies after --until",
        (StopReason::MaxCycles, false) => "--max-cycles reached",
        (StopReason::AwaitingExtender, false) => "waiting for an extender's reply",
        (_, true) => "a default bound was reached",
    };
    let _ = writeln!(out, "END  t={}: {why}", run.end_time);
    let folded = run.folded_cycles();
    if folded > 0 {
        let _ = writeln!(
            out,
            "{folded} repeated cycle{} folded (counted, not listed)",
            if folded == 1 { "" } else { "s" }
        );
    }
    if let Some(w) = &run.warning {
        let _ = writeln!(out, "warning: {w}");
    }
}

#[cfg(test)]
mod text_tests {
    use super::*;

    #[test]
    fn terminal_safe_escapes_controls_but_newlines_and_tabs() {
        assert_eq!(terminal_safe("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            terminal_safe("evil\u{1b}]0;x\u{7}\u{9b}\r"),
            "evil\\u{1b}]0;x\\u{7}\\u{9b}\\u{d}"
        );
    }

    #[test]
    fn pad_counts_characters_and_never_truncates() {
        let mut s = String::new();
        pad(&mut s, "né", 4);
        assert_eq!(s, "né  ");
        let mut s = String::new();
        pad(&mut s, "abcdef", 3);
        assert_eq!(s, "abcdef");
    }
}
