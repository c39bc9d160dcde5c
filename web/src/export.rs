//! What Export downloads besides the scenario: the report and the placements as CSV. Pure
//! functions of a finished [`Run`]; [`crate::session::Session`] makes the run.
//!
//! - **The scenario** (`schedlab-NAME.yaml`): every editor in one multi-document YAML file,
//!   [`crate::bundle::export`].
//! - **The report** (`schedlab-NAME-report.json`): [`report_json`], exactly what
//!   `schedlab run --output json schedlab-NAME.yaml` prints (the seed on screen is
//!   `--seed`), byte for byte: the same scenario, seed and bounds (the page's run has the
//!   CLI's default bounds, 24 h of virtual time and 200 000 cycles, and a run cut short by one
//!   says so in the report's `end.warning` on both), and the detailed report (`filter`,
//!   `scores`, `totals`). When that would be bigger than [`BIG_REPORT`] the page offers the
//!   summary first (`--summary`: the same report without the tables), and names the command
//!   that prints what it downloaded ([`cli_command`]).
//! - **The placements** (`schedlab-NAME-placements.csv`): [`placements_csv`], one row per
//!   pod as the report's `pods` lists them (input order, pods the timeline created after
//!   them), at the end of the same run; see [`COLUMNS`].

use schedlab_core::report::JsonReport;
use schedlab_core::simulation::{Phase, Run};
use schedlab_core::trace::Outcome;
use std::borrow::Cow;

/// The report as `schedlab run --output json` prints it: the JSON report (with `detail`, the
/// filter and score tables; without, what `--summary` prints), indented by `serde_json`'s
/// pretty printer, and a newline (`println!`).
pub fn report_json(run: &Run, detail: bool) -> String {
    // Serialised as it is built: a full report of a big run is never held twice.
    let mut text = serde_json::to_string_pretty(&JsonReport { run, detail }).unwrap_or_default();
    text.push('\n');
    text
}

/// A full report takes about this many bytes per node a cycle evaluated (its filter row, its
/// score row and total; measured on the gallery's big-cluster: 122 MB for 159 000 rows).
pub const BYTES_PER_ROW: usize = 800;

/// Above this many bytes, the page offers the summary before a full report.
pub const BIG_REPORT: usize = 20 << 20;

/// The command that prints the same report, for the page to say what a download is:
/// `schedlab run --output json [--seed N] [--summary] FILE`, `--seed` only when it is not the
/// default 0.
pub fn cli_command(file: &str, seed: u64, summary: bool) -> String {
    let mut command = String::from("schedlab run --output json");
    if seed != 0 {
        command.push_str(&format!(" --seed {seed}"));
    }
    if summary {
        command.push_str(" --summary");
    }
    command.push(' ');
    command.push_str(file);
    command
}

/// The CSV's columns, in order (its header row):
///
/// - `Namespace`, `Pod`: the pod's namespace (`default` when the input gives none) and name;
/// - `Phase`: `Bound`, `Pending` or `Deleted` (a preemption victim, or deleted by the
///   timeline), as the report's `phase`; a pod whose binding was still in flight when the run
///   stopped is `Pending`, as in the report;
/// - `Node`: the node it is bound to; empty when it is not bound (the report's `node`);
/// - `Nominated node`: a pending pod's `status.nominatedNodeName` (a preemptor waiting for
///   its victims to go); else empty;
/// - `Priority`: its resolved priority (`spec.priority`, its PriorityClass, the global
///   default, else 0);
/// - `Placed in cycle`: the scheduling cycle that put it on its node, numbered from 1 as the
///   page numbers them (the report's `cycles[N-1]`); empty for a pod not bound, and for one
///   the input already bound (`spec.nodeName`);
/// - `Placed at (s)`: that cycle's virtual time, in seconds since the start;
/// - `Attempts`: the scheduling cycles it had (0 for a pod bound in the input, a pod of
///   another scheduler and a pod held by `schedulingGates`);
/// - `Why pending`: for a pending pod, the message of its last failed attempt (its
///   `PodScheduled` condition, the `FailedScheduling` event's text); else empty.
///
/// Rows end with CRLF and fields are quoted as RFC 4180 says: a field holding a comma, a
/// double quote, a line break or a leading or trailing space is put in double quotes, and
/// each double quote in it doubled. Numbers are plain (`-5`, `1.5`).
pub const COLUMNS: [&str; 10] = [
    "Namespace",
    "Pod",
    "Phase",
    "Node",
    "Nominated node",
    "Priority",
    "Placed in cycle",
    "Placed at (s)",
    "Attempts",
    "Why pending",
];

/// One pod's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// Its namespace.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// `Bound`, `Pending` or `Deleted`.
    pub phase: &'static str,
    /// The node it is bound to.
    pub node: Option<String>,
    /// Its nominated node (pending pods only).
    pub nominated: Option<String>,
    /// Its priority.
    pub priority: i32,
    /// The cycle that placed it (from 1) and its time in seconds.
    pub placed: Option<(usize, f64)>,
    /// Cycles it had.
    pub attempts: usize,
    /// Why it is pending: its last failure's message.
    pub why_pending: Option<String>,
}

impl Placement {
    /// The row's fields, in [`COLUMNS`] order.
    pub fn fields(&self) -> Vec<String> {
        vec![
            self.namespace.clone(),
            self.name.clone(),
            self.phase.to_string(),
            self.node.clone().unwrap_or_default(),
            self.nominated.clone().unwrap_or_default(),
            self.priority.to_string(),
            self.placed.map(|(c, _)| c.to_string()).unwrap_or_default(),
            self.placed.map(|(_, t)| t.to_string()).unwrap_or_default(),
            self.attempts.to_string(),
            self.why_pending.clone().unwrap_or_default(),
        ]
    }
}

/// Every pod of a finished run, as the report's `pods` lists them.
pub fn placements(run: &Run) -> Vec<Placement> {
    let c = &run.cluster;
    let mut attempts = vec![0usize; c.pods().len()];
    let mut last_scheduled: Vec<Option<usize>> = vec![None; c.pods().len()];
    for (i, t) in run.cycles.iter().enumerate() {
        if let Some(a) = attempts.get_mut(t.pod) {
            *a += 1;
        }
        if t.outcome == Outcome::Scheduled {
            if let Some(s) = last_scheduled.get_mut(t.pod) {
                *s = Some(i);
            }
        }
    }
    // The copies of repeated blocks are attempts too.
    for r in &run.repeats {
        for t in &run.cycles[r.cycles.clone()] {
            if let Some(a) = attempts.get_mut(t.pod) {
                *a += r.times;
            }
        }
    }
    let mut order: Vec<usize> = (0..c.pods().len()).collect();
    order.sort_by_key(|&id| c.pods()[id].input_index);
    order
        .into_iter()
        .map(|id| {
            let p = &c.pods()[id];
            let name = p
                .full_name
                .strip_prefix(&p.namespace)
                .and_then(|n| n.strip_prefix('/'))
                .unwrap_or(&p.full_name)
                .to_string();
            let phase = run.phase(id);
            let node = run.node_of(id).map(|n| c.nodes()[n].name().to_string());
            let state = run.pod_states.get(id);
            let pending = phase == Phase::Pending;
            Placement {
                namespace: p.namespace.clone(),
                name,
                phase: phase.as_str(),
                placed: node
                    .as_ref()
                    .and(last_scheduled[id])
                    .map(|i| (run.cycle_number(i), run.cycles[i].time)),
                node,
                nominated: state.filter(|_| pending).and_then(|s| s.nominated.clone()),
                priority: p.priority,
                attempts: attempts[id],
                why_pending: state
                    .filter(|_| pending)
                    .and_then(|s| s.condition.as_ref())
                    .filter(|cond| !cond.status)
                    .map(|cond| cond.message.clone()),
            }
        })
        .collect()
}

/// The placements of a finished run as CSV: the header ([`COLUMNS`]), then one row per pod.
pub fn placements_csv(run: &Run) -> String {
    let rows: Vec<Vec<String>> = placements(run).iter().map(Placement::fields).collect();
    csv(&COLUMNS, &rows)
}

/// A CSV text: the header, then the rows, each line ended by CRLF (RFC 4180).
pub fn csv<S: AsRef<str>>(header: &[&str], rows: &[Vec<S>]) -> String {
    let mut out = String::new();
    let mut line = |fields: &mut dyn Iterator<Item = &str>| {
        for (i, f) in fields.enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&field(f));
        }
        out.push_str("\r\n");
    };
    line(&mut header.iter().copied());
    for row in rows {
        line(&mut row.iter().map(AsRef::as_ref));
    }
    out
}

/// One CSV field: as it is, or in double quotes (each `"` doubled) when it holds a comma, a
/// double quote, a line break, or starts or ends with a space (which some readers trim).
pub fn field(text: &str) -> Cow<'_, str> {
    let quote = text.contains([',', '"', '\n', '\r'])
        || text.starts_with([' ', '\t'])
        || text.ends_with([' ', '\t']);
    if quote {
        Cow::Owned(format!("\"{}\"", text.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::EditorFile;
    use crate::engine::host::load;
    use schedlab_core::report::json_report;
    use schedlab_core::simulation::Limits;

    #[test]
    fn fields_are_quoted_only_when_they_must_be() {
        assert_eq!(field("node-a"), "node-a");
        assert_eq!(field(""), "");
        assert_eq!(field("-5"), "-5");
        assert_eq!(field("a, b"), "\"a, b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        assert_eq!(field("cr\rlf"), "\"cr\rlf\"");
        assert_eq!(field(" padded"), "\" padded\"");
        assert_eq!(field("padded "), "\"padded \"");
        assert_eq!(field("\""), "\"\"\"\"");
    }

    #[test]
    fn a_csv_is_a_header_and_rows_with_crlf() {
        let rows = vec![vec!["a", "1, 2", ""], vec!["line\nbreak", "\"q\"", "x"]];
        assert_eq!(
            csv(&["One", "Two", "Three"], &rows),
            "One,Two,Three\r\na,\"1, 2\",\r\n\"line\nbreak\",\"\"\"q\"\"\",x\r\n"
        );
    }

    #[test]
    fn the_command_names_the_seed_only_when_needed() {
        assert_eq!(
            cli_command("s.yaml", 0, false),
            "schedlab run --output json s.yaml"
        );
        assert_eq!(
            cli_command("s.yaml", 7, true),
            "schedlab run --output json --seed 7 --summary s.yaml"
        );
    }

    /// Two nodes and four pods, v1.17's DefaultProvider, worked out by hand:
    ///
    /// - node-a: 2 CPU, `disk=ssd`; node-b: 1 CPU, `disk=hdd`.
    /// - `prod/db` (priority 100, 1 CPU, `disk=ssd`), `cache` (bound to node-b in the input,
    ///   500m), `web` (500m, `disk=hdd`), `big` (4 CPU, `disk=ssd`), in that input order.
    /// - The queue pops by priority, then input order: db first (cycle 1, node-a, the only
    ///   ssd node), then web (cycle 2, node-b: 500m free), then big (cycle 3). big fits
    ///   nowhere: node-a has 1 CPU free (Insufficient cpu); on node-b GeneralPredicates
    ///   reports both its reasons (Insufficient cpu, and the selector). Counted, then sorted
    ///   as strings with their counts (`sort.Strings` in `FitError.Error`), so "1 node(s)"
    ///   before "2 Insufficient": `0/2 nodes are available: 1 node(s) didn't match node
    ///   selector, 2 Insufficient cpu.` Preemption finds nothing lower than priority 0 on node-a. Nothing changes
    ///   after that failure, so the run ends with big tried once.
    #[test]
    fn the_csv_lists_every_pod_in_input_order() {
        let nodes = "\
apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {kubernetes.io/hostname: node-a, disk: ssd}}
status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {kubernetes.io/hostname: node-b, disk: hdd}}
status: {allocatable: {cpu: \"1\", memory: 4Gi, pods: \"110\"}}
";
        let pod = |ns: &str, name: &str, extra: &str, cpu: &str| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: {ns}}}\nspec:\n{extra}  containers:\n  - name: c\n    resources: {{requests: {{cpu: {cpu}}}}}\n"
            )
        };
        let pods = [
            pod(
                "prod",
                "db",
                "  priority: 100\n  nodeSelector: {disk: ssd}\n",
                "\"1\"",
            ),
            pod("default", "cache", "  nodeName: node-b\n", "500m"),
            pod("default", "web", "  nodeSelector: {disk: hdd}\n", "500m"),
            pod("default", "big", "  nodeSelector: {disk: ssd}\n", "\"4\""),
        ]
        .join("---\n");
        let texts: Vec<String> = EditorFile::ALL
            .iter()
            .map(|f| match f {
                EditorFile::Nodes => nodes.to_string(),
                EditorFile::Pods => pods.clone(),
                EditorFile::Devices => String::new(),
                EditorFile::Policy => String::new(),
                EditorFile::Config => String::new(),
                EditorFile::Extenders | EditorFile::Plugins => String::new(),
            })
            .collect();
        let scenario = load(&texts).unwrap_or_else(|e| panic!("{e:?}"));
        let run = scenario.run_with(0, false, Limits::default());
        assert_eq!(
            placements_csv(&run),
            "Namespace,Pod,Phase,Node,Nominated node,Priority,Placed in cycle,Placed at (s),Attempts,Why pending\r\n\
             prod,db,Bound,node-a,,100,1,0,1,\r\n\
             default,cache,Bound,node-b,,0,,,0,\r\n\
             default,web,Bound,node-b,,0,2,0,1,\r\n\
             default,big,Pending,,,0,,,1,\"0/2 nodes are available: 1 node(s) didn't match node selector, 2 Insufficient cpu.\"\r\n"
        );
    }
    /// The `preemption-v135` example, from the expectations worked out by hand in its
    /// pods.yaml: postgres-0 and reports-0 are bound in the input (priority 1000, the global
    /// default `standard`); checkout (critical, 1000000) fails at t=0 (cycle 1) and preempts
    /// reports-0, which is deleted at t=30 after its grace period; backfill fails at t=0
    /// (cycle 2); at t=30 checkout goes to node-b (cycle 3), then backfill fails again (cycle
    /// 4) with the FitError and both PostFilter messages, a comma among them.
    #[test]
    fn the_csv_of_a_preemption() {
        let example = crate::gallery::example_named("preemption-v135")
            .texts()
            .expect("natively every example is compiled in");
        let texts: Vec<String> = EditorFile::ALL
            .iter()
            .map(|f| example.text(*f).to_string())
            .collect();
        let scenario = load(&texts).unwrap_or_else(|e| panic!("{e:?}"));
        let run = scenario.run_with(0, false, Limits::default());
        let csv = placements_csv(&run);
        let lines: Vec<&str> = csv.split_terminator("\r\n").collect();
        assert_eq!(
            lines,
            [
                COLUMNS.join(",").as_str(),
                "default,postgres-0,Bound,node-a,,1000,,,0,",
                "default,reports-0,Deleted,,,1000,,,0,",
                "default,checkout,Bound,node-b,,1000000,3,30,2,",
                "default,backfill,Pending,,,1000,,,2,\"0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.\"",
            ]
        );
    }
    /// A session's report is what `schedlab run --output json [--seed N]` prints for the
    /// export of the editors: the CLI's steps (read the one file, run with no flags, the
    /// detailed report, pretty, a newline) against the page's, for every small example and
    /// two seeds.
    #[test]
    fn a_session_reports_as_the_cli_prints() {
        use crate::session::Session;
        use schedlab_core::{Scenario, Source};
        // (An example with JavaScript plugins runs only in a JavaScript engine.)
        for example in crate::gallery::GALLERY
            .iter()
            .filter(|e| e.name != "big-cluster" && !e.has_plugins())
        {
            let texts: Vec<(EditorFile, String)> = EditorFile::ALL
                .iter()
                .map(|&f| {
                    (
                        f,
                        example
                            .texts()
                            .expect("natively every example is compiled in")
                            .text(f)
                            .to_string(),
                    )
                })
                .collect();
            let bundle = crate::bundle::export(&texts);
            let page = load(&texts.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>())
                .unwrap_or_else(|e| panic!("{}: {e:?}", example.name));
            for seed in [0, 5] {
                let mut session = Session::new(page.clone(), seed);
                while !session.run_some(64) {}
                // Wherever the page stands, the report is of the whole run.
                session.go_to(0);
                let cli = Scenario::load(&[Source {
                    name: "schedlab.yaml",
                    text: &bundle,
                }])
                .unwrap_or_else(|e| panic!("{}: {e:?}", example.name))
                .run_with(seed, true, Limits::default());
                let printed = format!(
                    "{}\n",
                    serde_json::to_string_pretty(&json_report(&cli, true)).unwrap()
                );
                assert_eq!(
                    session.report_json(false),
                    printed,
                    "{} seed {seed}",
                    example.name
                );
                let summary = format!(
                    "{}\n",
                    serde_json::to_string_pretty(&json_report(&cli, false)).unwrap()
                );
                assert_eq!(session.report_json(true), summary, "{}", example.name);
            }
        }
    }
}
