//! Renderers of a [`Run`]: the JSON report of the CLI contract, and a readable text table.

use crate::scenario::{Phase, Run};
use crate::trace::Outcome;
use serde_json::{json, Map, Value};
use std::fmt::Write;

/// The contract's JSON report. `detail = false` leaves out `filter`, `scores` and `totals`.
pub fn json_report(run: &Run, detail: bool) -> Value {
    let c = &run.cluster;
    let node_name = |n: usize| c.nodes[n].name().to_string();
    let mut pods: Vec<&crate::cluster::PodInfo> = c.pods.iter().map(|p| &**p).collect();
    pods.sort_by_key(|p| p.input_index);
    let pods: Vec<Value> = pods
        .iter()
        .map(|p| {
            let id = c.pods.iter().position(|q| std::ptr::eq(&**q, *p)).unwrap_or_default();
            json!({
                "name": p.full_name,
                "node": run.node_of(id).map(node_name),
                "nominatedNode": Value::Null,
                "phase": match run.phase(id) { Phase::Bound => "Bound", Phase::Pending => "Pending" },
            })
        })
        .collect();
    let cycles: Vec<Value> = run
        .cycles
        .iter()
        .map(|t| {
            let mut m = Map::new();
            m.insert("time".into(), json!(t.time));
            m.insert("pod".into(), json!(c.pods[t.pod].full_name));
            m.insert("outcome".into(), json!(t.outcome.as_str()));
            m.insert("node".into(), json!(t.node.map(node_name)));
            m.insert(
                "message".into(),
                match t.outcome {
                    Outcome::Scheduled => Value::Null,
                    _ => json!(t.message),
                },
            );
            if detail {
                let mut filter = Map::new();
                for rec in &t.filter {
                    let mut per = Map::new();
                    for (i, reasons) in rec.results() {
                        let list: Vec<String> = reasons.iter().map(ToString::to_string).collect();
                        per.insert(run.filter_names[i].clone(), json!(list));
                    }
                    filter.insert(node_name(rec.node), Value::Object(per));
                }
                m.insert("filter".into(), Value::Object(filter));
                let mut scores = Map::new();
                for rec in &t.scores {
                    let mut per = Map::new();
                    for (i, s) in rec.entries.iter().enumerate() {
                        per.insert(
                            run.score_names[i].clone(),
                            json!({"raw": s.raw, "score": s.score, "weight": s.weight}),
                        );
                    }
                    scores.insert(node_name(rec.node), Value::Object(per));
                }
                m.insert("scores".into(), Value::Object(scores));
                let mut totals = Map::new();
                for (n, total) in &t.totals {
                    totals.insert(node_name(*n), json!(total));
                }
                m.insert("totals".into(), Value::Object(totals));
            }
            m.insert("preemption".into(), Value::Null);
            Value::Object(m)
        })
        .collect();
    let events: Vec<Value> = run
        .events
        .iter()
        .map(|e| json!({"type": e.kind, "reason": e.reason, "object": e.object, "message": e.message}))
        .collect();
    json!({"pods": pods, "cycles": cycles, "events": events})
}

/// A readable summary: placements, then one line per cycle.
pub fn text_report(run: &Run) -> String {
    let c = &run.cluster;
    let mut out = String::new();
    let mut pods: Vec<(usize, &crate::cluster::PodInfo)> =
        c.pods.iter().map(|p| &**p).enumerate().collect();
    pods.sort_by_key(|(_, p)| p.input_index);
    let width = pods
        .iter()
        .map(|(_, p)| p.full_name.len())
        .max()
        .unwrap_or(3)
        .max(3);
    let _ = writeln!(out, "PLACEMENTS");
    let _ = writeln!(out, "{:<width$}  {:<8}  NODE", "POD", "PHASE");
    for (id, p) in &pods {
        let (phase, node) = match run.node_of(*id) {
            Some(n) => ("Bound", c.nodes[n].name()),
            None => ("Pending", "-"),
        };
        let _ = writeln!(out, "{:<width$}  {phase:<8}  {node}", p.full_name);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "CYCLES");
    for (i, t) in run.cycles.iter().enumerate() {
        let pod = &c.pods[t.pod].full_name;
        let what = match (t.outcome, t.node) {
            (Outcome::Scheduled, Some(n)) => {
                let mut s = format!(
                    "-> {} ({} of {} nodes evaluated, {} feasible)",
                    c.nodes[n].name(),
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
            _ => t.message.clone().unwrap_or_default(),
        };
        let _ = writeln!(
            out,
            "#{:<4} t={:<6} {pod}  {}  {what}",
            i + 1,
            t.time,
            t.outcome.as_str()
        );
    }
    out
}
