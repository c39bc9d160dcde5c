//! The policy author's three questions in the page: compare the editors' configuration (A)
//! with another (B), sweep one setting, count what still fits. Everything is computed by
//! `schedlab_core::questions` from the editors' texts, as the CLI computes it; this module turns
//! the answers into what the panel draws. Pure Rust: no DOM, unit-tested natively.

use crate::base::EditorFile;
use schedlab_core::input::{read_source, Inputs};
use schedlab_core::questions::capacity::{self, Capacity};
use schedlab_core::questions::compare::{self, Comparison, Fate};
use schedlab_core::questions::summary::Summary;
use schedlab_core::questions::sweep::{self, Point, Setting};
use schedlab_core::questions::SchedulerChoice;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::{Diagnostic, Source};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The editors' texts read for a question: the cluster's objects (the configuration taken out
/// into [`Editors::own`]), and every source for line numbers.
pub struct Editors {
    /// File names, as the editors name them (`nodes.yaml`, ...).
    pub names: Vec<String>,
    /// Their texts.
    pub texts: Vec<String>,
    /// The cluster.
    pub cluster: Inputs,
    /// The editors' configuration (configuration A).
    pub own: SchedulerChoice,
}

impl Editors {
    /// Reads the five editors' texts (in [`EditorFile::ALL`] order) as the run reads them:
    /// misplaced objects are errors, and a v1 configuration leaves the Policy out.
    pub fn read(texts: Vec<String>) -> Result<Editors, Vec<Diagnostic>> {
        let names: Vec<String> = EditorFile::ALL
            .iter()
            .zip(&texts)
            .map(|(f, t)| f.source_name(t))
            .collect();
        let mut inputs = Inputs::default();
        let mut errors = Vec::new();
        for (name, text) in names.iter().zip(&texts) {
            match read_source(&Source { name, text }) {
                Ok(i) => inputs.append(i),
                Err(e) => errors.extend(e),
            }
        }
        crate::misplaced::check(&mut inputs, &names, &mut errors);
        if !inputs.modern_configs.is_empty() {
            let policy_file = &names[EditorFile::Policy.index()];
            inputs.policies.retain(|(_, o)| o.file != *policy_file);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let own = SchedulerChoice::take_from(&mut inputs, None);
        Ok(Editors {
            names,
            texts,
            cluster: inputs,
            own: SchedulerChoice {
                label: "A: the editors' configuration".into(),
                ..own
            },
        })
    }

    fn sources(&self) -> Vec<Source<'_>> {
        self.names
            .iter()
            .zip(&self.texts)
            .map(|(name, text)| Source { name, text })
            .collect()
    }
}

/// Configuration B: a version's defaults or a configuration text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Other {
    /// A version's defaults.
    Defaults(SchedulerVersion),
    /// A Policy and/or KubeSchedulerConfiguration, as typed into the panel.
    Text(String),
}

impl Other {
    /// What a link writes for it: `v1.17`, `v1.35`, or the text.
    pub fn link_value(&self) -> String {
        match self {
            Other::Defaults(v) => v.as_str().to_string(),
            Other::Text(t) => t.clone(),
        }
    }

    /// Reads a link's value back.
    pub fn from_link_value(value: &str) -> Other {
        match SchedulerVersion::parse(value.trim()) {
            Some(v) => Other::Defaults(v),
            None => Other::Text(value.to_string()),
        }
    }

    fn choice(&self) -> Result<SchedulerChoice, Vec<Diagnostic>> {
        match self {
            Other::Defaults(v) => Ok(SchedulerChoice {
                label: format!("B: {} defaults", v.as_str()),
                ..SchedulerChoice::defaults(*v)
            }),
            Other::Text(text) => {
                let name = if schedlab_core::input::looks_like_json(text) {
                    "b.json"
                } else {
                    "b.yaml"
                };
                let c = SchedulerChoice::from_sources(&[Source { name, text }])?;
                Ok(SchedulerChoice {
                    label: "B: the configuration above".into(),
                    ..c
                })
            }
        }
    }
}

/// A pod on a node: its name, and whether it is one of the pods that differ.
pub type PodMark = (String, bool);

/// One node of the side-by-side clusters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodePair {
    /// The node.
    pub name: String,
    /// CPU requested / allocatable under A and B.
    pub cpu: (f64, f64),
    /// Memory requested / allocatable under A and B.
    pub memory: (f64, f64),
    /// Pods on it under A and B (`name`, and whether the pod is one that differs).
    pub pods: (Vec<PodMark>, Vec<PodMark>),
}

/// A score row of one differing pod: the plugin, then (score × weight) on A's node and on B's
/// node under A, and on B's node and A's node under B (`None`: not scored there).
pub type ScoreRow = (String, [Option<(i64, i64)>; 4]);

/// A pod whose fate differs, with the rows that decided it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PodDiff {
    /// `namespace/name`.
    pub pod: String,
    /// Where it ended under A and under B, in words.
    pub fates: (String, String),
    /// The nodes chosen under A and B (both bound only).
    pub nodes: Option<(String, String)>,
    /// Score rows (both bound only).
    pub rows: Vec<ScoreRow>,
    /// Totals: A's node and B's node under A; B's node and A's node under B.
    pub totals: [Option<i64>; 4],
}

/// What the compare view draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareView {
    /// The two labels, with the scheduler that ran.
    pub labels: (String, String),
    /// Pods that ended the same way.
    pub same: usize,
    /// Nodes side by side.
    pub nodes: Vec<NodePair>,
    /// Differing pods.
    pub diffs: Vec<PodDiff>,
    /// The summaries.
    pub summaries: (Summary, Summary),
}

fn fate_words(f: &Fate) -> String {
    match f {
        Fate::Bound(n) => format!("on {n}"),
        Fate::Pending(Some(m)) => format!("Pending: {m}"),
        Fate::Pending(None) => "Pending".into(),
        Fate::Deleted => "deleted".into(),
        Fate::NotScheduled => "not scheduled".into(),
    }
}

/// Compares the editors' configuration with `other`.
pub fn compare(
    editors: &Editors,
    other: &Other,
    seed: u64,
) -> Result<CompareView, Vec<Diagnostic>> {
    let b = other.choice()?;
    let src = editors.sources();
    let sa = editors.own.scenario(&editors.cluster, &src)?;
    let sb = b.scenario(&editors.cluster, &src)?;
    let c = compare::compare((&editors.own.label, &sa), (&b.label, &sb), seed);
    Ok(view_of(&c))
}

fn view_of(c: &Comparison) -> CompareView {
    let differing: std::collections::HashSet<&str> =
        c.differences.iter().map(|d| d.pod.as_str()).collect();
    let pods_of = |run: &schedlab_core::Run, node: usize| -> Vec<PodMark> {
        run.cluster.nodes()[node]
            .pods()
            .iter()
            .map(|&p| {
                let name = run.cluster.pods()[p].full_name.clone();
                let differs = differing.contains(name.as_str());
                (name, differs)
            })
            .collect()
    };
    let nodes =
        c.a.summary
            .nodes
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let b = c.b.summary.nodes.iter().find(|n| n.name == a.name);
                let j = c.b.run.cluster.node_index().get(&a.name).copied();
                NodePair {
                    name: a.name.clone(),
                    cpu: (a.cpu_ratio, b.map_or(0.0, |b| b.cpu_ratio)),
                    memory: (a.memory_ratio, b.map_or(0.0, |b| b.memory_ratio)),
                    pods: (
                        pods_of(&c.a.run, i),
                        j.map(|j| pods_of(&c.b.run, j)).unwrap_or_default(),
                    ),
                }
            })
            .collect();
    let json = c.to_json();
    let decided: Vec<&Value> = json["placedDifferently"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let diffs = c
        .differences
        .iter()
        .map(|d| {
            let (nodes, rows, totals) = match (&d.a, &d.b) {
                (Fate::Bound(x), Fate::Bound(y)) => {
                    let entry = decided.iter().find(|e| e["pod"] == d.pod.as_str());
                    let rows_of = |side: &str, node: &str| -> &Value {
                        entry.map_or(&Value::Null, |e| &e[side]["decidedBy"]["nodes"][node])
                    };
                    let cells = [
                        rows_of("a", x),
                        rows_of("a", y),
                        rows_of("b", y),
                        rows_of("b", x),
                    ];
                    let mut plugins: Vec<String> = Vec::new();
                    for cell in &cells {
                        for name in cell["scores"]
                            .as_object()
                            .into_iter()
                            .flat_map(|m| m.keys())
                        {
                            if !plugins.contains(name) {
                                plugins.push(name.clone());
                            }
                        }
                    }
                    let rows = plugins
                        .into_iter()
                        .map(|p| {
                            let cell = |v: &Value| {
                                let s = &v["scores"][&p];
                                Some((s["score"].as_i64()?, s["weight"].as_i64()?))
                            };
                            let values = [
                                cell(cells[0]),
                                cell(cells[1]),
                                cell(cells[2]),
                                cell(cells[3]),
                            ];
                            (p, values)
                        })
                        .collect();
                    let totals = cells.map(|v| v["total"].as_i64());
                    (Some((x.clone(), y.clone())), rows, totals)
                }
                _ => (None, Vec::new(), [None; 4]),
            };
            PodDiff {
                pod: d.pod.clone(),
                fates: (fate_words(&d.a), fate_words(&d.b)),
                nodes,
                rows,
                totals,
            }
        })
        .collect();
    CompareView {
        labels: (
            format!("{} ({})", c.a.label, c.a.scheduler.as_str()),
            format!("{} ({})", c.b.label, c.b.scheduler.as_str()),
        ),
        same: c.same,
        nodes,
        diffs,
        summaries: (c.a.summary.clone(), c.b.summary.clone()),
    }
}

/// Rows the compare view draws before "Show all": a cluster side by side, or the differing
/// pods, past this many would cost the page a long task to draw (big-cluster: 1000 nodes,
/// 10 000 pod chips).
pub const FIRST_ROWS: usize = 50;

impl CompareView {
    /// The nodes to draw (indices into `nodes`): all of them when `all` or when there are at
    /// most [`FIRST_ROWS`]; otherwise those holding a pod that differs (on either side), at
    /// most [`FIRST_ROWS`], in node order.
    pub fn nodes_to_show(&self, all: bool) -> Vec<usize> {
        if all || self.nodes.len() <= FIRST_ROWS {
            return (0..self.nodes.len()).collect();
        }
        let differs = |pods: &[PodMark]| pods.iter().any(|(_, d)| *d);
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| differs(&n.pods.0) || differs(&n.pods.1))
            .map(|(i, _)| i)
            .take(FIRST_ROWS)
            .collect()
    }
}

/// A sweep's answer and what opening one of its points needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepView {
    /// The setting.
    pub setting: Setting,
    /// One per value.
    pub points: Vec<Point>,
}

/// Sweeps `setting` over `values` (`--values` syntax) under the editors' configuration.
pub fn sweep(
    editors: &Editors,
    setting: &str,
    values: &str,
    seed: u64,
) -> Result<SweepView, Vec<Diagnostic>> {
    let usage = |m: String| vec![Diagnostic::new("sweep", "", m)];
    let setting = Setting::parse(setting).map_err(usage)?;
    let values = sweep::parse_values(&setting, values).map_err(usage)?;
    let points = sweep::sweep(
        &editors.cluster,
        &editors.sources(),
        &editors.own,
        &setting,
        &values,
        seed,
    )?;
    Ok(SweepView { setting, points })
}

/// What opening a sweep point changes: the seed, and the editors' texts to replace.
pub fn open_point(
    editors: &Editors,
    setting: &Setting,
    point: &Point,
) -> Result<(u64, Vec<(EditorFile, String)>), String> {
    let configured = sweep::configure(&editors.own, setting, &point.value)?;
    let (policy, config) = configured.documents();
    let pretty = |v: Value| serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
    let mut texts = Vec::new();
    if *setting != Setting::Seed {
        if let Some(p) = policy {
            texts.push((EditorFile::Policy, pretty(p)));
        }
        if let Some(c) = config {
            texts.push((EditorFile::Config, pretty(c)));
        }
    }
    Ok((point.seed, texts))
}

/// The metrics the sweep chart draws, as (legend, colour class, value in percent).
pub fn chart_series(points: &[Point]) -> Vec<(&'static str, &'static str, Vec<f64>)> {
    let series = |f: fn(&Summary) -> f64| points.iter().map(|p| f(&p.summary) * 100.0).collect();
    vec![
        ("CPU requested, mean", "series-cpu", series(|s| s.cpu.mean)),
        (
            "CPU requested, std dev",
            "series-cpu-sd",
            series(|s| s.cpu.stddev),
        ),
        (
            "memory requested, mean",
            "series-mem",
            series(|s| s.memory.mean),
        ),
        (
            "memory requested, std dev",
            "series-mem-sd",
            series(|s| s.memory.stddev),
        ),
    ]
}

/// A pod template to start from in the capacity panel.
pub const SAMPLE_TEMPLATE: &str = "apiVersion: v1
kind: Pod
metadata:
  name: probe
spec:
  containers:
  - name: app
    image: nginx
    resources:
      requests:
        cpu: 500m
        memory: 512Mi
";

/// Counts copies of the templates in `template` (Pods or Deployments, in turn).
pub fn capacity(editors: &Editors, template: &str, seed: u64) -> Result<Capacity, Vec<Diagnostic>> {
    let name = if schedlab_core::input::looks_like_json(template) {
        "template.json"
    } else {
        "template.yaml"
    };
    let src = Source {
        name,
        text: template,
    };
    let templates = capacity::templates(name, read_source(&src)?)?;
    let mut all = editors.sources();
    all.push(src);
    capacity::capacity(
        &editors.cluster,
        &all,
        editors.own.requested,
        &templates,
        seed,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The editors holding `tests/questions/least-vs-most` (nodes and pods in the Nodes editor
    /// would be misplaced: the pods go to the Pods editor).
    fn least_vs_most(config: &str) -> Editors {
        let nodes = "apiVersion: v1\nkind: List\nitems:\n\
- {apiVersion: v1, kind: Node, metadata: {name: node-a}, status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}}\n\
- {apiVersion: v1, kind: Node, metadata: {name: node-b}, status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}}\n";
        let pods = "apiVersion: v1\nkind: List\nitems:\n\
- {apiVersion: v1, kind: Pod, metadata: {name: running}, spec: {nodeName: node-b, containers: [{name: c, image: i, resources: {requests: {cpu: '2', memory: 4Gi}}}]}}\n\
- {apiVersion: v1, kind: Pod, metadata: {name: web}, spec: {containers: [{name: c, image: i, resources: {requests: {cpu: '1', memory: 2Gi}}}]}}\n";
        Editors::read(vec![
            nodes.into(),
            pods.into(),
            String::new(),
            String::new(),
            config.into(),
        ])
        .expect("editors read")
    }

    const V1_MOST: &str = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated}}\n";

    #[test]
    fn compare_lists_the_moved_pod_with_its_totals_and_highlights_it_on_both_sides() {
        // v1.35 defaults (LeastAllocated) against MostAllocated: 475 / 425 and 475 / 425, as
        // tests/tests/questions.rs works out.
        let e = least_vs_most("");
        let v = compare(&e, &Other::Text(V1_MOST.into()), 0).expect("compares");
        // The editors hold no configuration: A is v1.17's defaults, where web also goes to
        // node-a (LeastRequested).
        assert_eq!(v.diffs.len(), 1);
        let d = &v.diffs[0];
        assert_eq!(d.nodes, Some(("node-a".into(), "node-b".into())));
        assert_eq!(d.totals[2], Some(475));
        assert_eq!(d.totals[3], Some(425));
        let a_node = v.nodes.iter().find(|n| n.name == "node-a").expect("node-a");
        assert!(a_node.pods.0.contains(&("default/web".into(), true)));
        let b_node = v.nodes.iter().find(|n| n.name == "node-b").expect("node-b");
        assert!(b_node.pods.1.contains(&("default/web".into(), true)));
        assert!(b_node.pods.1.contains(&("default/running".into(), false)));
    }

    #[test]
    fn a_big_comparison_draws_the_nodes_that_differ_first() {
        let node = |i: usize, differs: bool| NodePair {
            name: format!("n{i}"),
            cpu: (0.0, 0.0),
            memory: (0.0, 0.0),
            pods: (vec![(format!("p{i}"), differs)], Vec::new()),
        };
        let mut v = CompareView {
            labels: (String::new(), String::new()),
            same: 0,
            nodes: (0..60).map(|i| node(i, i == 7 || i == 55)).collect(),
            diffs: Vec::new(),
            summaries: (Summary::default(), Summary::default()),
        };
        // 60 nodes, more than 50: only n7 and n55 hold a pod that differs.
        assert_eq!(v.nodes_to_show(false), vec![7, 55]);
        assert_eq!(v.nodes_to_show(true).len(), 60);
        // 50 or fewer: every node.
        v.nodes.truncate(50);
        assert_eq!(v.nodes_to_show(false), (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn opening_a_sweep_point_writes_the_configuration_that_ran() {
        let e = least_vs_most(V1_MOST);
        let v = sweep(&e, "scoringStrategy", "LeastAllocated,MostAllocated", 0).expect("sweeps");
        assert_eq!(v.points.len(), 2);
        let (seed, texts) = open_point(&e, &v.setting, &v.points[0]).expect("opens");
        assert_eq!(seed, 0);
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[0].0, EditorFile::Config);
        assert!(texts[0].1.contains("LeastAllocated"), "{}", texts[0].1);
        // A seed point changes the seed only.
        let v = sweep(&e, "seed", "4,5", 0).expect("sweeps");
        let (seed, texts) = open_point(&e, &v.setting, &v.points[1]).expect("opens");
        assert_eq!((seed, texts.len()), (5, 0));
    }

    #[test]
    fn capacity_counts_from_the_editors() {
        // v1.17 defaults: 1 CPU / 2Gi copies, 6 slots, web takes one: 5.
        let e = least_vs_most("");
        let a = capacity(
            &e,
            "apiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {requests: {cpu: '1', memory: 2Gi}}\n",
            0,
        )
        .expect("counts");
        assert_eq!(a.templates[0].count, 5);
        let bad = capacity(&e, "kind: Pod\napiVersion: v1\nmetadata: {name: x}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: 12x}}}]}\n", 0)
            .expect_err("invalid");
        assert!(bad[0].to_string().contains("template.yaml"), "{bad:?}");
    }
}
