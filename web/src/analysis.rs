//! What the playground shows, derived from one [`Run`]: the placement rows and the inspection
//! of one pod's scheduling cycle.
//!
//! Plain data built by pure functions: no signals, no DOM. The components render these structs
//! and compute nothing themselves, so every number on the page comes from the core's trace.

use schedlab_core::cluster::PodId;
use schedlab_core::model::resources::format_amount;
use schedlab_core::scenario::Run;
use schedlab_core::trace::explain::{explain, Explanation};
use schedlab_core::trace::ScoreRecord;
use schedlab_core::Diagnostic;

/// A successful load and run: what the page keeps showing until the next valid input.
pub struct Analysis {
    /// The run (cluster after scheduling, one trace per cycle).
    pub run: Run,
    /// Warnings from reading the inputs.
    pub warnings: Vec<Diagnostic>,
    /// One row per pod, in input order.
    pub pods: Vec<PodRow>,
}

impl Analysis {
    /// Derives the placement rows of a run.
    pub fn new(run: Run, warnings: Vec<Diagnostic>) -> Analysis {
        let c = &run.cluster;
        let mut ids: Vec<PodId> = (0..c.pods.len()).collect();
        ids.sort_by_key(|&id| c.pods[id].input_index);
        let pods = ids
            .into_iter()
            .map(|id| {
                let p = &c.pods[id];
                PodRow {
                    name: p.full_name.clone(),
                    priority: p.priority,
                    requests: requests_summary(&p.request),
                    phase: run.phase(id).as_str(),
                    node: run.node_of(id).map(|n| c.nodes[n].name().to_string()),
                    cycle: run.cycles.iter().rposition(|t| t.pod == id).map(|i| i + 1),
                }
            })
            .collect();
        Analysis {
            run,
            warnings,
            pods,
        }
    }

    /// Number of nodes in the cluster.
    pub fn node_count(&self) -> usize {
        self.run.cluster.nodes.len()
    }

    /// The inspection of a pod's last cycle, by `namespace/name`.
    pub fn inspect(&self, pod_name: &str) -> Option<Inspection> {
        let run = &self.run;
        let c = &run.cluster;
        let id = c.pods.iter().position(|p| p.full_name == pod_name)?;
        let pod = &c.pods[id];
        let node_name = |n: usize| c.nodes[n].name().to_string();
        let Some(cycle_index) = run.cycles.iter().rposition(|t| t.pod == id) else {
            return Some(Inspection {
                pod: pod.full_name.clone(),
                priority: pod.priority,
                requests: requests_summary(&pod.request),
                node: run.node_of(id).map(node_name),
                cycle: None,
            });
        };
        let t = &run.cycles[cycle_index];
        // Node ids in a trace are the cycle's own (nodes may have been deleted since).
        let node_name = |n: usize| t.node_name(c, n).to_string();

        let filter_rows = t
            .filter
            .iter()
            .map(|rec| {
                let mut cells: Vec<FilterCell> = Vec::new();
                for i in 0..run.filter_names.len() {
                    match rec.result(i) {
                        Some([]) => cells.push(FilterCell::Pass),
                        Some(reasons) => cells.push(FilterCell::Fail {
                            reason: join(reasons.iter().map(ToString::to_string)),
                            detail: join(reasons.iter().map(|r| r.explain())),
                            span: 1,
                        }),
                        None => match cells.last_mut() {
                            // Filters after the first failure do not run: the failure's cell
                            // takes their columns.
                            Some(FilterCell::Fail { span, .. }) => *span += 1,
                            _ => cells.push(FilterCell::NotRun),
                        },
                    }
                }
                FilterRow {
                    node: node_name(rec.node),
                    fits: rec.fits(),
                    cells,
                }
            })
            .collect();

        let total_of = |n: usize| t.totals.iter().find(|(id, _)| *id == n).map(|(_, s)| *s);
        let score_rows = t
            .scores
            .iter()
            .map(|rec| ScoreRow {
                node: node_name(rec.node),
                cells: rec.entries.clone(),
                total: total_of(rec.node).unwrap_or_default(),
                winner: t.node == Some(rec.node),
                tied: t.tie_set.len() > 1 && t.tie_set.contains(&rec.node),
            })
            .collect();
        let weights = t
            .scores
            .first()
            .map(|rec| rec.entries.iter().map(|e| e.weight).collect())
            .unwrap_or_default();
        let scoring = if t.feasible == 0 {
            Scoring::NoFeasibleNodes
        } else if t.feasible == 1 {
            Scoring::OneFeasibleNode
        } else {
            Scoring::Scored
        };

        Some(Inspection {
            pod: pod.full_name.clone(),
            priority: pod.priority,
            requests: requests_summary(&pod.request),
            node: run.node_of(id).map(node_name),
            cycle: Some(CycleView {
                number: cycle_index + 1,
                of: run.cycles.len(),
                outcome: t.outcome.as_str(),
                chosen: t.node.map(node_name),
                message: t.message.clone(),
                explanation: explain(c, t),
                filter: FilterTable {
                    columns: run.filter_names.clone(),
                    rows: filter_rows,
                    num_all_nodes: t.num_all_nodes,
                    num_to_find: t.num_to_find,
                    evaluated: t.evaluated,
                    feasible: t.feasible,
                    start_index: t.start_index,
                },
                scores: ScoreTable {
                    columns: run.score_names.clone(),
                    weights,
                    rows: score_rows,
                    scoring,
                },
                tie_set: t.tie_set.iter().map(|&n| node_name(n)).collect(),
                best_total: t.node.and_then(total_of),
            }),
        })
    }
}

fn join(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join("; ")
}

/// `cpu 500m · memory 512Mi`, plus any extended resources; `no requests` when empty.
fn requests_summary(r: &schedlab_core::model::Resources) -> String {
    let mut parts = Vec::new();
    if r.milli_cpu > 0 {
        parts.push(format!("cpu {}", format_amount("cpu", r.milli_cpu)));
    }
    if r.memory > 0 {
        parts.push(format!("mem {}", format_amount("memory", r.memory)));
    }
    if r.ephemeral_storage > 0 {
        parts.push(format!(
            "ephemeral {}",
            format_amount("ephemeral-storage", r.ephemeral_storage)
        ));
    }
    for (name, amount) in &r.scalars {
        if *amount > 0 {
            parts.push(format!("{name} {}", format_amount(name, *amount)));
        }
    }
    if parts.is_empty() {
        "no requests".into()
    } else {
        parts.join(" · ")
    }
}

/// One line of the placements table.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PodRow {
    /// `namespace/name`.
    pub name: String,
    /// Resolved priority.
    pub priority: i32,
    /// What the pod requests, in short.
    pub requests: String,
    /// `Bound` or `Pending`.
    pub phase: &'static str,
    /// The node it ended on.
    pub node: Option<String>,
    /// 1-based number of its (last) cycle; `None` if this run did not schedule it.
    pub cycle: Option<usize>,
}

impl PodRow {
    /// The name without the `default/` namespace.
    pub fn short_name(&self) -> &str {
        self.name.strip_prefix("default/").unwrap_or(&self.name)
    }
}

/// Everything the inspector shows about one pod.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    /// `namespace/name`.
    pub pod: String,
    /// Resolved priority.
    pub priority: i32,
    /// What the pod requests, in short.
    pub requests: String,
    /// Where it ended.
    pub node: Option<String>,
    /// Its last cycle; `None` when the pod was bound in the input or is another scheduler's.
    pub cycle: Option<CycleView>,
}

/// One `scheduleOne`, ready to render.
#[derive(Clone, Debug, PartialEq)]
pub struct CycleView {
    /// 1-based cycle number.
    pub number: usize,
    /// Cycles in the run.
    pub of: usize,
    /// `Scheduled`, `Unschedulable` or `Error`.
    pub outcome: &'static str,
    /// The chosen node.
    pub chosen: Option<String>,
    /// The `FailedScheduling` message.
    pub message: Option<String>,
    /// The "why" in plain words.
    pub explanation: Explanation,
    /// `findNodesThatFit`.
    pub filter: FilterTable,
    /// `prioritizeNodes`.
    pub scores: ScoreTable,
    /// `selectHost`: nodes sharing the best total.
    pub tie_set: Vec<String>,
    /// The best total, when scoring ran.
    pub best_total: Option<i64>,
}

/// Nodes × predicates.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterTable {
    /// Predicate names, in evaluation order.
    pub columns: Vec<String>,
    /// One row per evaluated node, in evaluation order.
    pub rows: Vec<FilterRow>,
    /// Nodes in the snapshot.
    pub num_all_nodes: usize,
    /// `numFeasibleNodesToFind`.
    pub num_to_find: usize,
    /// Nodes evaluated.
    pub evaluated: usize,
    /// Nodes that passed.
    pub feasible: usize,
    /// `nextStartNodeIndex` when the cycle began.
    pub start_index: usize,
}

/// One node's filter results.
#[derive(Clone, Debug, PartialEq)]
pub struct FilterRow {
    /// The node.
    pub node: String,
    /// Whether every predicate passed.
    pub fits: bool,
    /// One cell per column (a failure spans the columns that did not run after it).
    pub cells: Vec<FilterCell>,
}

/// One predicate's verdict on one node.
#[derive(Clone, Debug, PartialEq)]
pub enum FilterCell {
    /// Passed.
    Pass,
    /// Failed with upstream's reason text; `detail` has the numbers.
    Fail {
        /// Upstream reason string(s).
        reason: String,
        /// Plain-words explanation.
        detail: String,
        /// Columns the cell covers.
        span: usize,
    },
    /// Did not run.
    NotRun,
}

/// Nodes × priorities.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreTable {
    /// Priority names, in profile order.
    pub columns: Vec<String>,
    /// Weight per column.
    pub weights: Vec<i64>,
    /// One row per scored node.
    pub rows: Vec<ScoreRow>,
    /// Whether scoring ran.
    pub scoring: Scoring,
}

/// Whether `prioritizeNodes` ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// It ran.
    Scored,
    /// Skipped: a single feasible node is chosen directly.
    OneFeasibleNode,
    /// Not reached: no node passed the filters.
    NoFeasibleNodes,
}

/// One node's scores.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreRow {
    /// The node.
    pub node: String,
    /// One entry per priority.
    pub cells: Vec<ScoreRecord>,
    /// Weighted total.
    pub total: i64,
    /// The chosen node.
    pub winner: bool,
    /// In a tie set of more than one node.
    pub tied: bool,
}
