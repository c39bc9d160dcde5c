//! `schedlab compare`: one scenario under two scheduler configurations, A and B, and what
//! differs: pods placed on different nodes (with the score rows that decided each), pods left
//! pending under one only, preemptions, and each run's [`Summary`].
//!
//! Pods are matched by `namespace/name`. A pod's node is where it is bound when the run ends;
//! the rows that decided it come from its last cycle that chose a node. Only the two nodes in
//! question are shown from each side's tables: the node chosen there and the node the other
//! side chose (its filter reasons when it failed a filter, its scores and total when scored).

use super::summary::Summary;
use crate::report::node_rows;
use crate::scenario::{Scenario, SchedulerVersion};
use crate::simulation::Limits;
use crate::simulation::{Phase, Run};
use crate::trace::Outcome;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;

/// One side of a comparison: its label, the scheduler that ran, the run and its summary.
pub struct Side {
    /// How the output names the configuration.
    pub label: String,
    /// The scheduler that ran.
    pub scheduler: SchedulerVersion,
    /// The whole run (with tables).
    pub run: Run,
    /// Its summary.
    pub summary: Summary,
}

/// Where a pod ended under one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Bound to this node.
    Bound(String),
    /// Still pending, with its last cycle's message.
    Pending(Option<String>),
    /// Deleted (preempted, or by the timeline).
    Deleted,
    /// Never in a cycle (bound in the input, or for another scheduler).
    NotScheduled,
}

/// One pod whose fate differs between A and B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// `namespace/name`.
    pub pod: String,
    /// Under A.
    pub a: Fate,
    /// Under B.
    pub b: Fate,
}

/// The comparison of two runs of one scenario.
pub struct Comparison {
    /// Configuration A.
    pub a: Side,
    /// Configuration B.
    pub b: Side,
    /// Pods whose fate differs, in A's pod order (then B's pods A does not have).
    pub differences: Vec<Difference>,
    /// Pods scheduled in either run that ended the same way in both.
    pub same: usize,
}

/// Runs `a` and `b` (labelled) with `seed` and compares them; the two runs share out over
/// the thread pool.
pub fn compare(a: (&str, &Scenario), b: (&str, &Scenario), seed: u64) -> Comparison {
    let scenarios = [a, b];
    let mut sides = crate::parallel::map(&scenarios, |(label, scenario)| {
        let run = scenario.run_with(seed, true, Limits::default());
        Side {
            label: label.to_string(),
            scheduler: scenario.version(),
            summary: Summary::of(&run),
            run,
        }
    });
    let b = sides.pop().expect("two sides");
    let a = sides.pop().expect("two sides");
    let (differences, same) = differences(&a.run, &b.run);
    Comparison {
        a,
        b,
        differences,
        same,
    }
}

/// Each pod that had a cycle in either run and its fate under each.
fn fates(run: &Run) -> Vec<(String, Fate)> {
    let mut had_cycle = vec![false; run.cluster.pods().len()];
    let mut message: Vec<Option<String>> = vec![None; run.cluster.pods().len()];
    for c in &run.cycles {
        had_cycle[c.pod] = true;
        message[c.pod] = c.message.clone();
    }
    run.cluster
        .pods()
        .iter()
        .enumerate()
        .map(|(id, p)| {
            let fate = if !had_cycle[id] {
                Fate::NotScheduled
            } else {
                match run.phase(id) {
                    Phase::Bound => Fate::Bound(
                        run.node_of(id)
                            .map(|n| run.cluster.nodes()[n].name().to_string())
                            .unwrap_or_default(),
                    ),
                    Phase::Pending => Fate::Pending(message[id].take()),
                    Phase::Deleted => Fate::Deleted,
                }
            };
            (p.full_name.clone(), fate)
        })
        .collect()
}

fn differences(a: &Run, b: &Run) -> (Vec<Difference>, usize) {
    let fa = fates(a);
    let fb = fates(b);
    let mut in_b: HashMap<&str, &Fate> = fb.iter().map(|(n, f)| (n.as_str(), f)).collect();
    let mut out = Vec::new();
    let mut same = 0;
    let differ = |x: &Fate, y: &Fate| match (x, y) {
        (Fate::Pending(_), Fate::Pending(_)) => false,
        _ => x != y,
    };
    for (name, x) in &fa {
        let y = in_b.remove(name.as_str()).unwrap_or(&Fate::NotScheduled);
        if *x == Fate::NotScheduled && *y == Fate::NotScheduled {
            continue;
        }
        if differ(x, y) {
            out.push(Difference {
                pod: name.clone(),
                a: x.clone(),
                b: y.clone(),
            });
        } else {
            same += 1;
        }
    }
    // Pods only B has (created by the timeline under B alone).
    for (name, y) in &fb {
        if in_b.contains_key(name.as_str()) && *y != Fate::NotScheduled {
            out.push(Difference {
                pod: name.clone(),
                a: Fate::NotScheduled,
                b: y.clone(),
            });
        }
    }
    (out, same)
}

/// The rows of `run`'s last cycle that chose a node for `pod`, for the nodes in `nodes`
/// ([`crate::report::node_rows`]), with the cycle's number and feasible count.
fn deciding_rows(run: &Run, pod: &str, nodes: &[&str]) -> Value {
    let Some(id) = run.find_pod(pod) else {
        return Value::Null;
    };
    let Some(i) = run
        .cycles
        .iter()
        .rposition(|c| c.pod == id && c.outcome == Outcome::Scheduled)
    else {
        return Value::Null;
    };
    let t = &run.cycles[i];
    let rows = node_rows(&run.cluster, &run.filter_names, &run.score_names, t, nodes);
    json!({
        "cycle": run.cycle_number(i),
        "feasible": t.feasible,
        "nodes": rows,
    })
}

fn fate_json(f: &Fate) -> Value {
    match f {
        Fate::Bound(n) => json!({"phase": "Bound", "node": n}),
        Fate::Pending(m) => json!({"phase": "Pending", "message": m}),
        Fate::Deleted => json!({"phase": "Deleted"}),
        Fate::NotScheduled => json!({"phase": "NotScheduled"}),
    }
}

fn preemptions_json(run: &Run) -> Vec<Value> {
    run.cycles
        .iter()
        .filter_map(|t| {
            let p = t.preemption.as_deref()?;
            let chosen = p.chosen()?;
            Some(json!({
                "time": t.time,
                "pod": run.cluster.pods()[t.pod].full_name,
                "node": t.node_name(&run.cluster, chosen.node),
                "victims": chosen.victims.iter().map(|&v| run.cluster.pods()[v].full_name.as_str()).collect::<Vec<_>>(),
                "decidedBy": p.pick.map(|k| k.decided_by.as_str()),
            }))
        })
        .collect()
}

impl Comparison {
    /// Pods bound under both, to different nodes.
    pub fn placed_differently(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.differences.iter().filter_map(|d| match (&d.a, &d.b) {
            (Fate::Bound(x), Fate::Bound(y)) => Some((d.pod.as_str(), x.as_str(), y.as_str())),
            _ => None,
        })
    }

    /// The JSON shape documented in `docs/compare-sweep-capacity.md`.
    pub fn to_json(&self) -> Value {
        let side = |s: &Side| json!({"label": s.label, "scheduler": s.scheduler.as_str(), "summary": s.summary.to_json()});
        let placed: Vec<Value> = self
            .placed_differently()
            .map(|(pod, x, y)| {
                json!({
                    "pod": pod,
                    "a": {"node": x, "decidedBy": deciding_rows(&self.a.run, pod, &[x, y])},
                    "b": {"node": y, "decidedBy": deciding_rows(&self.b.run, pod, &[y, x])},
                })
            })
            .collect();
        let only = |pending: fn(&Difference) -> (&Fate, &Fate)| -> Vec<Value> {
            self.differences
                .iter()
                .filter_map(|d| {
                    let (here, there) = pending(d);
                    match here {
                        Fate::Pending(m) => Some(json!({
                            "pod": d.pod, "message": m, "other": fate_json(there),
                        })),
                        _ => None,
                    }
                })
                .collect()
        };
        let other: Vec<Value> = self
            .differences
            .iter()
            .filter(|d| {
                !matches!(
                    (&d.a, &d.b),
                    (Fate::Bound(_), Fate::Bound(_))
                        | (Fate::Pending(_), _)
                        | (_, Fate::Pending(_))
                )
            })
            .map(|d| json!({"pod": d.pod, "a": fate_json(&d.a), "b": fate_json(&d.b)}))
            .collect();
        json!({
            "a": side(&self.a),
            "b": side(&self.b),
            "samePods": self.same,
            "placedDifferently": placed,
            "pendingOnlyUnderA": only(|d| (&d.a, &d.b)),
            "pendingOnlyUnderB": only(|d| (&d.b, &d.a)),
            "otherDifferences": other,
            "preemptions": {"a": preemptions_json(&self.a.run), "b": preemptions_json(&self.b.run)},
        })
    }

    /// The comparison in words and a table.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write_sides(&mut out);
        self.write_placed_differently(&mut out);
        self.write_pending_under_one_side(&mut out);
        self.write_preemptions(&mut out);
        self.write_summaries(&mut out);
        out
    }

    /// Which configuration and scheduler each side is, and how many pods end the same way.
    fn write_sides(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "A: {} (kube-scheduler {})",
            self.a.label,
            self.a.scheduler.as_str()
        );
        let _ = writeln!(
            out,
            "B: {} (kube-scheduler {})",
            self.b.label,
            self.b.scheduler.as_str()
        );
        let _ = writeln!(
            out,
            "\n{} pod(s) end the same way under both, {} differently.",
            self.same,
            self.differences.len()
        );
    }

    /// Each pod bound to different nodes, with the two nodes' totals in the cycle that placed
    /// it under each side.
    fn write_placed_differently(&self, out: &mut String) {
        let placed: Vec<_> = self.placed_differently().collect();
        if placed.is_empty() {
            return;
        }
        let _ = writeln!(out, "\nPlaced differently:");
        for (pod, x, y) in &placed {
            let ra = deciding_rows(&self.a.run, pod, &[x, y]);
            let rb = deciding_rows(&self.b.run, pod, &[y, x]);
            let show = |rows: &Value, node: &str| {
                rows["nodes"][node]["total"]
                    .as_i64()
                    .map_or("-".to_string(), |t| t.to_string())
            };
            let _ = writeln!(out, "  {pod}: A → {x}, B → {y}");
            let _ = writeln!(
                out,
                "    under A: {x} total {}, {y} total {}",
                show(&ra, x),
                show(&ra, y)
            );
            let _ = writeln!(
                out,
                "    under B: {y} total {}, {x} total {}",
                show(&rb, y),
                show(&rb, x)
            );
        }
    }

    /// The pods pending under A only, then under B only, each with its last message and what
    /// became of it under the other side.
    fn write_pending_under_one_side(&self, out: &mut String) {
        for (title, under_a) in [
            ("Pending under A only", true),
            ("Pending under B only", false),
        ] {
            let rows = self.pending_under(under_a);
            if rows.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n{title}:");
            for (pod, message, there) in rows {
                let _ = writeln!(
                    out,
                    "  {pod} ({}): {}",
                    fate_under_the_other(there),
                    message.as_deref().unwrap_or("")
                );
            }
        }
    }

    /// The differences pending under A (`under_a`) or B: (pod, its last message, its fate
    /// under the other side).
    fn pending_under(&self, under_a: bool) -> Vec<(&str, &Option<String>, &Fate)> {
        self.differences
            .iter()
            .filter_map(|d| {
                let (here, there) = if under_a { (&d.a, &d.b) } else { (&d.b, &d.a) };
                match here {
                    Fate::Pending(m) => Some((d.pod.as_str(), m, there)),
                    _ => None,
                }
            })
            .collect()
    }

    /// Every preemption of A, then of B: the preemptor, the node and its victims.
    fn write_preemptions(&self, out: &mut String) {
        let pa = preemptions_json(&self.a.run);
        let pb = preemptions_json(&self.b.run);
        if pa.is_empty() && pb.is_empty() {
            return;
        }
        let _ = writeln!(out, "\nPreemptions:");
        for (side, list) in [("A", &pa), ("B", &pb)] {
            for p in list {
                let victims: Vec<&str> = p["victims"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let _ = writeln!(
                    out,
                    "  {side}: {} on {} evicts {}",
                    p["pod"].as_str().unwrap_or(""),
                    p["node"].as_str().unwrap_or(""),
                    victims.join(", ")
                );
            }
        }
    }

    /// The two summaries side by side, one row per [`SUMMARY_ROWS`] entry.
    fn write_summaries(&self, out: &mut String) {
        let _ = writeln!(out, "\n{:<28} {:>14} {:>14}", "summary", "A", "B");
        for (name, value) in SUMMARY_ROWS {
            let (x, y) = (value(&self.a.summary), value(&self.b.summary));
            let _ = writeln!(out, "{name:<28} {x:>14} {y:>14}");
        }
        // DRA devices, when either side's nodes see any: allocated of all, then per node.
        if self.a.summary.devices.is_none() && self.b.summary.devices.is_none() {
            return;
        }
        let used = |d: Option<super::summary::DeviceUse>| {
            d.map_or("-".to_string(), |d| format!("{}/{}", d.allocated, d.total))
        };
        let (a, b) = (&self.a.summary, &self.b.summary);
        let _ = writeln!(
            out,
            "{:<28} {:>14} {:>14}",
            "devices allocated",
            used(a.devices),
            used(b.devices)
        );
        for (i, n) in a.nodes.iter().enumerate() {
            let other = b.nodes.get(i).filter(|m| m.name == n.name);
            if n.devices.is_none() && other.and_then(|m| m.devices).is_none() {
                continue;
            }
            let name = format!("  devices on {}", n.name);
            let (x, y) = (used(n.devices), used(other.and_then(|m| m.devices)));
            let _ = writeln!(out, "{name:<28} {x:>14} {y:>14}");
        }
    }
}

/// What became of a pod under the other side, as the pending lists say it.
fn fate_under_the_other(there: &Fate) -> String {
    match there {
        Fate::Bound(n) => format!("bound to {n} under the other"),
        Fate::Deleted => "deleted under the other".into(),
        _ => "not scheduled under the other".into(),
    }
}

/// A fraction as a percentage with one decimal (`42.5%`).
fn percent(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// How a [`Summary`] gives the value of one row of the summary table, as written.
type SummaryValue = fn(&Summary) -> String;

/// The rows of the summary table: each name and its value.
const SUMMARY_ROWS: [(&str, SummaryValue); 11] = [
    ("placed", |s| s.placed.to_string()),
    ("pending", |s| s.pending.to_string()),
    ("preemptions", |s| s.preemptions.to_string()),
    ("cpu requested, mean", |s| percent(s.cpu.mean)),
    ("cpu requested, stddev", |s| percent(s.cpu.stddev)),
    ("memory requested, mean", |s| percent(s.memory.mean)),
    ("memory requested, stddev", |s| percent(s.memory.stddev)),
    ("empty nodes", |s| s.empty_nodes.to_string()),
    ("largest free cpu", |s| millicores(s.largest_free.milli_cpu)),
    ("largest free memory", |s| bytes(s.largest_free.memory)),
    ("largest free pod slots", |s| {
        s.largest_free.pods.to_string()
    }),
];

/// Millicores as Kubernetes writes CPU: `1500m`, or whole cores as `2`.
pub fn millicores(m: i64) -> String {
    if m % 1000 == 0 {
        (m / 1000).to_string()
    } else {
        format!("{m}m")
    }
}

/// Bytes as a binary quantity when exact (`4Gi`, `512Mi`), else plain bytes.
pub fn bytes(b: i64) -> String {
    for (suffix, unit) in [
        ("Ti", 1i64 << 40),
        ("Gi", 1 << 30),
        ("Mi", 1 << 20),
        ("Ki", 1 << 10),
    ] {
        if b != 0 && b % unit == 0 {
            return format!("{}{suffix}", b / unit);
        }
    }
    b.to_string()
}
