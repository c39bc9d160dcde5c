//! Guided lessons: a gallery scenario walked through stop by stop.
//!
//! A lesson is `assets/lessons/<name>/lesson.yaml` (the format is described in
//! `assets/lessons/README.md`): a title, a two-line story, the scenario folder it runs
//! (`assets/scenarios/<scenario>/`) and three to six stops. A stop names a cycle (counted from 1,
//! as the controls count) and a phase of that cycle's `scheduleOne` (the upstream function names
//! of [`Phase::function`]), says in plain words what to look at, and carries a [`Check`]: claims
//! about that cycle, worked out by hand from the reference, that the tests hold against the run.
//! Beside it, `expect.json` is the lesson's whole report (`schedlab run --seed 0 --output json`
//! on the scenario folder), so a lesson can never drift from what it says.
//!
//! [`LESSONS`] compiles in each lesson's text and names its scenario, a gallery example: the page
//! opens a lesson as it opens that example (fetching its texts first unless they are at hand,
//! [`crate::gallery`]), laid out as the gallery lays them out (nodes, pods and any other objects,
//! policy, configuration). Pure data and pure functions: no signals.

use crate::analysis::{CycleView, Phase, Scoring};
use crate::base::EDITORS;
use crate::gallery::{example_named, Example};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// A lesson as compiled in: its `lesson.yaml` (as JSON) and the gallery example it runs.
pub struct LessonSource {
    /// Folder name under `assets/lessons/`.
    pub name: &'static str,
    /// Folder name under `assets/scenarios/`: the gallery example whose texts the lesson runs
    /// (what `lesson.yaml` must name as `scenario`).
    pub scenario: &'static str,
    /// `lesson.yaml` as JSON (`web/build.rs` writes it: the page reads no YAML at start).
    pub json: &'static str,
}

impl LessonSource {
    /// The gallery example the lesson runs (the first example when the name is unknown; a
    /// test checks that every lesson's is there).
    pub fn example(&self) -> &'static Example {
        example_named(self.scenario)
    }

    /// The editors' texts, in the editors' order;
    /// `None` while the example's texts are not at hand ([`Example::texts`]).
    pub fn editor_texts(&self) -> Option<[&'static str; EDITORS]> {
        self.example().texts().map(|t| t.texts())
    }

    /// The lesson, read and checked; its `scenario` must be the folder whose texts it holds.
    pub fn lesson(&self) -> Result<Lesson, LessonError> {
        let lesson = read(self.name, self.json)?;
        if lesson.scenario != self.scenario {
            return Err(LessonError {
                lesson: self.name.to_string(),
                message: format!(
                    "scenario: {:?}, but the lesson is compiled with the texts of {:?}",
                    lesson.scenario, self.scenario
                ),
            });
        }
        Ok(lesson)
    }
}

/// A [`LessonSource`] for the lesson folder `$name`, which runs the example `$scenario`.
macro_rules! lesson {
    ($name:literal, $scenario:literal) => {
        LessonSource {
            name: $name,
            scenario: $scenario,
            json: include_str!(concat!(env!("OUT_DIR"), "/lessons/", $name, ".json")),
        }
    };
}

/// Every lesson, in the order a learner takes them.
pub const LESSONS: [LessonSource; 13] = [
    lesson!("schedule-one", "classic"),
    lesson!("least-vs-most-requested", "most-requested"),
    lesson!("node-affinity", "node-affinity"),
    lesson!("taints-tolerations", "taints-first-v135"),
    lesson!("host-ports", "port-clash"),
    lesson!("pod-affinity", "follow-the-cache"),
    lesson!("pod-anti-affinity", "anti-affinity"),
    lesson!("topology-spread", "zone-spread"),
    lesson!("volume-zones", "volume-zone"),
    lesson!("preemption-pdb", "pdb-steers"),
    lesson!("backoff-node-added", "backoff-node-added"),
    lesson!("gpu-cluster", "gpu-cluster"),
    lesson!("write-a-score-plugin", "custom-plugin"),
];

/// The compiled-in lesson with this name.
pub fn lesson_named(name: &str) -> Option<&'static LessonSource> {
    LESSONS.iter().find(|l| l.name == name)
}

/// Every lesson of [`LESSONS`], read once (`None` for one that does not read; the tests make
/// sure none is).
fn read_all() -> &'static [Option<Lesson>] {
    static READ: OnceLock<Vec<Option<Lesson>>> = OnceLock::new();
    READ.get_or_init(|| LESSONS.iter().map(|l| l.lesson().ok()).collect())
}

/// A lesson open at one of its stops: what the page's lesson panel shows and a
/// `#lesson=NAME&stop=K` link names. Made only by [`LessonAt::new`], so the lesson reads and the
/// stop exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonAt {
    index: usize,
    stop: usize,
}

impl LessonAt {
    /// Lesson `index` of [`LESSONS`] at stop `stop` (from 0), when both exist.
    pub fn new(index: usize, stop: usize) -> Option<LessonAt> {
        let lesson = read_all().get(index)?.as_ref()?;
        (stop < lesson.stops.len()).then_some(LessonAt { index, stop })
    }

    /// The lesson named `name` at stop `stop` (from 0), when both exist.
    pub fn named(name: &str, stop: usize) -> Option<LessonAt> {
        LessonAt::new(LESSONS.iter().position(|l| l.name == name)?, stop)
    }

    /// The position in [`LESSONS`].
    pub fn index(self) -> usize {
        self.index
    }

    /// The stop, from 0.
    pub fn stop_index(self) -> usize {
        self.stop
    }

    /// The compiled-in lesson.
    pub fn source(self) -> &'static LessonSource {
        &LESSONS[self.index]
    }

    /// The lesson, read.
    pub fn lesson(self) -> &'static Lesson {
        read_all()[self.index]
            .as_ref()
            .expect("LessonAt::new checked that the lesson reads")
    }

    /// The stop.
    pub fn stop(self) -> &'static Stop {
        &self.lesson().stops[self.stop]
    }

    /// Whether this is the lesson's last stop.
    pub fn is_last_stop(self) -> bool {
        self.stop + 1 == self.lesson().stops.len()
    }

    /// Another stop of the same lesson (`None` when it has no such stop).
    pub fn at_stop(self, stop: usize) -> Option<LessonAt> {
        LessonAt::new(self.index, stop)
    }

    /// The first stop of the next lesson in [`LESSONS`] (`None` after the last).
    pub fn next_lesson(self) -> Option<LessonAt> {
        LessonAt::new(self.index + 1, 0)
    }
}

/// One lesson, as `lesson.yaml` says it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// One line.
    pub title: String,
    /// Exactly two lines: what the lesson is about, and what happens in its scenario.
    pub story: String,
    /// The folder under `assets/scenarios/` the lesson runs.
    pub scenario: String,
    /// Three to six stops, in the order the run reaches them.
    pub stops: Vec<Stop>,
}

impl Lesson {
    /// The story's two lines.
    pub fn story_lines(&self) -> impl Iterator<Item = &str> {
        self.story.lines()
    }
}

/// A place in the run to stop at, and what to look at there.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stop {
    /// The cycle, counted from 1.
    pub cycle: usize,
    /// The phase of the cycle's `scheduleOne`, by its upstream function name.
    #[serde(deserialize_with = "phase")]
    pub phase: Phase,
    /// What to look at, in plain words.
    pub text: String,
    /// What the cycle must show for the text to be true.
    pub check: Check,
}

impl Stop {
    /// The cycle's index in the run (from 0).
    pub fn index(&self) -> usize {
        self.cycle.saturating_sub(1)
    }
}

/// Claims about one cycle, each compared with the cycle's entry in the contract's JSON report
/// (`cycles[i]`). Only `pod` is required; every other field is checked when present.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Check {
    /// The cycle's pod, `namespace/name`.
    pub pod: String,
    /// `Scheduled`, `Unschedulable` or `Error`.
    pub outcome: Option<Outcome>,
    /// The node the cycle chose.
    pub node: Option<String>,
    /// The virtual time the cycle began, in seconds.
    pub time: Option<f64>,
    /// The `FailedScheduling` message, exactly.
    pub message: Option<String>,
    /// Every node that passed every filter (in any order).
    pub feasible: Option<Vec<String>>,
    /// For each listed node, every reason the filters gave it, in the filter table's order.
    pub rejected: Option<BTreeMap<String, Vec<String>>>,
    /// For each listed node and priority (Score plugin under v1.35), its score from 0 to 100
    /// before the weight.
    pub scores: Option<BTreeMap<String, BTreeMap<String, i64>>>,
    /// For each listed node and priority (Score plugin), its raw value before normalising
    /// (a weight sum, a pod count; equal to the score for priorities without a normalising
    /// step).
    pub raw: Option<BTreeMap<String, BTreeMap<String, i64>>>,
    /// For each listed node, its weighted total.
    pub totals: Option<BTreeMap<String, i64>>,
    /// What `preempt` nominated.
    pub preemption: Option<PreemptionCheck>,
}

/// A cycle's outcome, as the core's trace names it.
pub use schedlab_core::trace::Outcome;

/// Claims about a cycle's preemption.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PreemptionCheck {
    /// The nominated node; `null`: the cycle nominated nothing (required, so a lesson says
    /// which it means).
    #[serde(deserialize_with = "nullable")]
    pub node: Option<String>,
    /// The victims, `namespace/name`, in the report's order.
    pub victims: Option<Vec<String>>,
    /// The criterion of `pickOneNodeForPreemption` that decided (`fewestPDBViolations`, ...).
    pub decided_by: Option<String>,
}

/// Why a lesson cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    /// The lesson's folder name.
    pub lesson: String,
    /// What is wrong, with the path inside `lesson.yaml`.
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/lesson.yaml: {}", self.lesson, self.message)
    }
}

impl std::error::Error for LessonError {}

fn phase<'de, D: Deserializer<'de>>(d: D) -> Result<Phase, D::Error> {
    let name = String::deserialize(d)?;
    Phase::named(&name).ok_or_else(|| {
        let known: Vec<&str> = Phase::ALL.iter().map(|p| p.function()).collect();
        D::Error::custom(format!(
            "unknown phase {name:?}, expected one of {}",
            known.join(", ")
        ))
    })
}

/// A field that must be present and may be `null`.
fn nullable<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

/// Reads and checks a lesson from its `lesson.yaml` text (`name` is its folder, for messages).
/// The tests' reader: the page reads the JSON `web/build.rs` makes of the same file ([`read`]).
#[cfg(test)]
pub fn parse(name: &str, text: &str) -> Result<Lesson, LessonError> {
    checked(
        name,
        serde_yaml_ng::from_str(text).map_err(|e| e.to_string()),
    )
}

/// Reads and checks a lesson from its JSON (see [`LessonSource::json`]).
fn read(name: &str, json: &str) -> Result<Lesson, LessonError> {
    checked(name, serde_json::from_str(json).map_err(|e| e.to_string()))
}

/// A lesson as read, checked ([`Lesson::validate`]), or why not.
fn checked(name: &str, read: Result<Lesson, String>) -> Result<Lesson, LessonError> {
    let error = |message: String| LessonError {
        lesson: name.to_string(),
        message,
    };
    let lesson = read.map_err(error)?;
    lesson.validate().map_err(error)?;
    Ok(lesson)
}

impl Lesson {
    /// The rules serde cannot say: one-line title, two-line story, 3 to 6 stops in run order.
    fn validate(&self) -> Result<(), String> {
        if self.title.trim().is_empty() || self.title.contains('\n') {
            return Err("title: must be one line".into());
        }
        let lines: Vec<&str> = self.story.lines().collect();
        if lines.len() != 2 || lines.iter().any(|l| l.trim().is_empty()) {
            return Err(format!(
                "story: must be exactly two lines, found {}",
                lines.len()
            ));
        }
        if self.scenario.is_empty() || self.scenario.contains(['/', '\\', '.']) {
            return Err(format!(
                "scenario: {:?} is not a folder name under assets/scenarios/",
                self.scenario
            ));
        }
        if !(3..=6).contains(&self.stops.len()) {
            return Err(format!(
                "stops: a lesson has 3 to 6 stops, found {}",
                self.stops.len()
            ));
        }
        for (i, stop) in self.stops.iter().enumerate() {
            if stop.cycle == 0 {
                return Err(format!("stops[{i}].cycle: cycles count from 1"));
            }
            if stop.text.trim().is_empty() {
                return Err(format!("stops[{i}].text: must say what to look at"));
            }
            if !stop.check.pod.contains('/') {
                return Err(format!(
                    "stops[{i}].check.pod: {:?} must be namespace/name",
                    stop.check.pod
                ));
            }
            if let Some(prev) = i.checked_sub(1).map(|p| &self.stops[p]) {
                if (stop.cycle, stop.phase) <= (prev.cycle, prev.phase) {
                    return Err(format!(
                        "stops[{i}]: cycle {} {} comes after cycle {} {}: stops follow the run",
                        stop.cycle,
                        stop.phase.function(),
                        prev.cycle,
                        prev.phase.function()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Whether the cycle reaches the phase: `prioritizeNodes` and `selectHost` only when more than
/// one node was feasible, `preempt` only after a FitError with preemption on, `assume` and
/// `bind` only for a scheduled pod.
pub fn reaches(view: &CycleView, phase: Phase) -> Result<(), String> {
    let scheduled = view.outcome == "Scheduled";
    let name = phase.function();
    if !Phase::of(scheduled).contains(&phase) {
        return Err(format!(
            "cycle {} ended {}: it has no {name}",
            view.number, view.outcome
        ));
    }
    match phase {
        Phase::Score | Phase::SelectHost if view.scores.scoring != Scoring::Scored => Err(format!(
            "cycle {} had {} feasible node(s): {name} runs only when more than one node fits",
            view.number, view.filter.feasible
        )),
        Phase::Preempt if view.outcome != "Unschedulable" || view.preemption.is_none() => {
            Err(format!(
                "cycle {} ({}) did not run preempt: it runs after a FitError, with preemption on",
                view.number, view.outcome
            ))
        }
        _ => Ok(()),
    }
}

impl Check {
    /// Every claim that the cycle's report entry (`cycles[i]` of the contract's JSON report,
    /// with details) contradicts; empty when they all hold.
    pub fn verify(&self, cycle: &Value) -> Vec<String> {
        let mut out = Vec::new();
        let mut same = |what: &str, got: &Value, want: Value| {
            if *got != want {
                out.push(format!("{what}: the run says {got}, the lesson {want}"));
            }
        };
        same("pod", &cycle["pod"], Value::from(self.pod.as_str()));
        if let Some(o) = self.outcome {
            same("outcome", &cycle["outcome"], Value::from(o.as_str()));
        }
        if let Some(n) = &self.node {
            same("node", &cycle["node"], Value::from(n.as_str()));
        }
        if let Some(t) = self.time {
            same("time", &cycle["time"], Value::from(t));
        }
        if let Some(m) = &self.message {
            same("message", &cycle["message"], Value::from(m.as_str()));
        }
        let filter = cycle["filter"].as_object();
        if let Some(want) = &self.feasible {
            let mut got: Vec<&str> = filter
                .into_iter()
                .flatten()
                .filter(|(_, per)| {
                    per.as_object().is_some_and(|m| {
                        m.values().all(|r| r.as_array().is_some_and(Vec::is_empty))
                    })
                })
                .map(|(node, _)| node.as_str())
                .collect();
            got.sort_unstable();
            let mut want: Vec<&str> = want.iter().map(String::as_str).collect();
            want.sort_unstable();
            same("feasible", &Value::from(got), Value::from(want));
        }
        for (node, reasons) in self.rejected.iter().flatten() {
            let got: Vec<Value> = filter
                .and_then(|f| f.get(node))
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|per| per.values())
                .filter_map(Value::as_array)
                .flatten()
                .cloned()
                .collect();
            same(
                &format!("rejected {node}"),
                &Value::from(got),
                Value::from(reasons.clone()),
            );
        }
        for (node, per) in self.scores.iter().flatten() {
            for (name, score) in per {
                same(
                    &format!("score of {node} for {name}"),
                    &cycle["scores"][node][name]["score"],
                    Value::from(*score),
                );
            }
        }
        for (node, per) in self.raw.iter().flatten() {
            for (name, raw) in per {
                same(
                    &format!("raw value of {node} for {name}"),
                    &cycle["scores"][node][name]["raw"],
                    Value::from(*raw),
                );
            }
        }
        for (node, total) in self.totals.iter().flatten() {
            same(
                &format!("total of {node}"),
                &cycle["totals"][node],
                Value::from(*total),
            );
        }
        if let Some(p) = &self.preemption {
            let got = &cycle["preemption"];
            match &p.node {
                None => same("preemption", got, Value::Null),
                Some(node) => {
                    same("preemption node", &got["node"], Value::from(node.as_str()));
                    if let Some(v) = &p.victims {
                        same(
                            "preemption victims",
                            &got["victims"],
                            Value::from(v.clone()),
                        );
                    }
                    if let Some(d) = &p.decided_by {
                        same(
                            "preemption decidedBy",
                            &got["decidedBy"],
                            Value::from(d.as_str()),
                        );
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::inspect_cycle;
    use crate::base::EditorFile;
    use crate::base::SEED;
    use crate::engine::host::load;
    use crate::plugins::native::node_number;
    use crate::session::Session;
    use schedlab_core::report::json_report;
    use schedlab_core::scheduler::v1_35::with_custom_plugins;
    use schedlab_core::{Scenario, Source};
    use std::path::{Path, PathBuf};

    /// The repository's root.
    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// The lesson's scenario as the page loads it (its five editor texts).
    fn page_scenario(src: &LessonSource) -> Scenario {
        let mut texts: Vec<String> = src
            .editor_texts()
            .expect("natively every example is compiled in")
            .iter()
            .map(|t| t.to_string())
            .collect();
        // No JavaScript here: the custom-plugin example's program is NodeNumber, which the
        // native tests have in Rust.
        texts[EditorFile::Plugins.index()].clear();
        with_custom_plugins(&[node_number()], || load(&texts))
            .unwrap_or_else(|e| panic!("{}: {e:?}", src.name))
    }

    /// The scenario folder as `schedlab run assets/scenarios/<name>/*` loads it.
    fn folder_scenario(name: &str) -> Scenario {
        let dir = root().join("assets/scenarios").join(name);
        let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.is_file())
            .map(|p| {
                let name = p
                    .file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                let text = std::fs::read_to_string(&p).expect("a text file");
                (name, text)
            })
            .filter(|(n, _)| {
                !n.starts_with("expect") && !n.starts_with("README") && !n.ends_with(".js")
            })
            .collect();
        files.sort();
        let sources: Vec<Source> = files
            .iter()
            .map(|(name, text)| Source { name, text })
            .collect();
        with_custom_plugins(&[node_number()], || Scenario::load_with(&sources, None))
            .unwrap_or_else(|e| panic!("{name}: {e:?}"))
    }

    /// The contract's JSON report, with details.
    fn report(s: &Scenario, seed: u64) -> Value {
        json_report(&s.run(seed, true), true)
    }

    /// `assets/lessons/<name>/expect.json`.
    fn golden(name: &str) -> Value {
        let path = root().join("assets/lessons").join(name).join("expect.json");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// The path of the first place two JSON values differ.
    fn first_difference(got: &Value, want: &Value, path: &str) -> Option<String> {
        match (got, want) {
            (Value::Object(g), Value::Object(w)) => {
                let keys_g: Vec<&String> = g.keys().collect();
                let keys_w: Vec<&String> = w.keys().collect();
                if keys_g != keys_w {
                    return Some(format!("{path}: keys {keys_g:?}, expected {keys_w:?}"));
                }
                g.iter()
                    .find_map(|(k, v)| first_difference(v, &w[k], &format!("{path}.{k}")))
            }
            (Value::Array(g), Value::Array(w)) if g.len() == w.len() => g
                .iter()
                .zip(w)
                .enumerate()
                .find_map(|(i, (a, b))| first_difference(a, b, &format!("{path}[{i}]"))),
            _ if got == want => None,
            _ => Some(format!("{path}: {got}, expected {want}")),
        }
    }

    #[test]
    fn every_lesson_reads_and_the_folder_holds_exactly_these() {
        assert!(LESSONS.len() >= 8);
        for src in &LESSONS {
            let lesson = src.lesson().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(lesson.story_lines().count(), 2, "{}", src.name);
            assert!(lesson_named(src.name).is_some());
        }
        let mut on_disk: Vec<String> = std::fs::read_dir(root().join("assets/lessons"))
            .expect("assets/lessons")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.is_dir())
            .map(|p| {
                p.file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        on_disk.sort();
        let mut compiled: Vec<&str> = LESSONS.iter().map(|l| l.name).collect();
        compiled.sort_unstable();
        assert_eq!(on_disk, compiled, "every lesson folder must be in LESSONS");
    }

    /// What the page reads (the JSON `web/build.rs` made) is what `lesson.yaml` says.
    #[test]
    fn every_lessons_json_reads_as_its_yaml() {
        for src in &LESSONS {
            let file = root().join(format!("assets/lessons/{}/lesson.yaml", src.name));
            let yaml = std::fs::read_to_string(&file).expect("lesson.yaml");
            let from_yaml = parse(src.name, &yaml).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(src.lesson().ok(), Some(from_yaml), "{}", src.name);
        }
    }

    #[test]
    fn every_stop_is_reached_and_every_check_holds() {
        let mut failures = Vec::new();
        for src in &LESSONS {
            let lesson = src.lesson().unwrap_or_else(|e| panic!("{e}"));
            let scenario = page_scenario(src);
            // Run as the page runs it, and inspect each stop's cycle as the inspector does.
            let mut session = Session::new(scenario.clone(), SEED);
            while !session.run_some(64) {}
            let cycles = session.info.cycle_steps.len();
            // A check must not rest on a coin flip: it holds with another seed too.
            let reports = [report(&scenario, SEED), report(&scenario, 7)];
            for stop in &lesson.stops {
                let at = format!(
                    "{}: cycle {} {}",
                    src.name,
                    stop.cycle,
                    stop.phase.function()
                );
                if stop.cycle > cycles {
                    failures.push(format!("{at}: the run has {cycles} cycles"));
                    continue;
                }
                let detail = session
                    .cycle_detail(stop.index())
                    .expect("a detailed cycle");
                let (trace, cluster, claims) = &*detail;
                let view = inspect_cycle(trace, cluster, claims, &session.info, stop.index())
                    .cycle
                    .expect("a cycle");
                if let Err(e) = reaches(&view, stop.phase) {
                    failures.push(format!("{at}: {e}"));
                }
                for (r, seed) in reports.iter().zip([SEED, 7]) {
                    for wrong in stop.check.verify(&r["cycles"][stop.index()]) {
                        failures.push(format!("{at} (seed {seed}): {wrong}"));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    }

    #[test]
    fn every_report_matches_its_golden() {
        let mut failures = Vec::new();
        for src in &LESSONS {
            let want = golden(src.name);
            // The page's texts and the scenario folder, as `schedlab run` reads it, give the
            // report of expect.json.
            for (how, got) in [
                ("the page's texts", report(&page_scenario(src), SEED)),
                (
                    "the scenario folder",
                    report(&folder_scenario(src.scenario), SEED),
                ),
            ] {
                if let Some(diff) = first_difference(&got, &want, "report") {
                    failures.push(format!(
                        "{}: the report of {how} differs from expect.json at {diff}",
                        src.name
                    ));
                }
            }
        }
        assert!(
            failures.is_empty(),
            "\n{}\n(once the lesson's claims are checked by hand again: cargo run --release -p \
             schedlab_cli -- run --seed 0 --output json assets/scenarios/<scenario>/* > \
             assets/lessons/<lesson>/expect.json)",
            failures.join("\n")
        );
    }

    #[test]
    fn every_lesson_runs_a_gallery_example_as_it_is() {
        // The page opens a lesson as it opens a gallery pick: the example named by the
        // lesson's scenario (example_named would fall back to the first one), so an unedited
        // lesson is an unedited example.
        for src in &LESSONS {
            assert!(
                crate::gallery::GALLERY
                    .iter()
                    .any(|e| e.name == src.scenario),
                "{}: no gallery example {}",
                src.name,
                src.scenario
            );
            assert_eq!(src.example().name, src.scenario);
        }
    }

    #[test]
    fn a_lesson_is_opened_only_at_a_stop_it_has() {
        let first = LessonAt::named("schedule-one", 0).expect("the first lesson");
        assert_eq!(first.index(), 0);
        assert_eq!(first.source().name, "schedule-one");
        assert_eq!(first.stop().cycle, 1);
        assert_eq!(first.stop().phase, Phase::QueuePop);
        assert!(!first.is_last_stop());
        let last = first.at_stop(5).expect("six stops");
        assert!(last.is_last_stop());
        assert_eq!(first.at_stop(6), None);
        assert_eq!(LessonAt::named("schedule-one", 6), None);
        assert_eq!(LessonAt::named("no-such-lesson", 0), None);
        assert_eq!(
            last.next_lesson().map(|l| l.source().name),
            Some(LESSONS[1].name)
        );
        let final_lesson = LessonAt::new(LESSONS.len() - 1, 0).expect("the last lesson");
        assert_eq!(final_lesson.next_lesson(), None);
        assert_eq!(LessonAt::new(LESSONS.len(), 0), None);
    }

    const MINIMAL: &str = "title: t\nstory: |\n  one\n  two\nscenario: classic\nstops:\n";

    fn with_stops(stops: &str) -> String {
        format!("{MINIMAL}{stops}")
    }

    const STOP: &str = "  - {cycle: 1, phase: scheduleOne, text: x, check: {pod: default/a}}\n";

    #[test]
    fn a_minimal_lesson_reads() {
        let l = parse("t", &with_stops(STOP)).expect_err("one stop is too few");
        assert_eq!(l.message, "stops: a lesson has 3 to 6 stops, found 1");
        let three = format!(
            "{STOP}{}{}",
            STOP.replace("scheduleOne", "findNodesThatFit"),
            STOP.replace("cycle: 1, phase: scheduleOne", "cycle: 2, phase: preempt")
        );
        let lesson = parse("t", &with_stops(&three)).expect("reads");
        assert_eq!(lesson.stops[1].phase, Phase::Filter);
        assert_eq!(lesson.stops[2].index(), 1);
        assert_eq!(lesson.story_lines().collect::<Vec<_>>(), ["one", "two"]);
    }

    #[test]
    fn mistakes_are_named_with_their_place() {
        let three = |s: &str| with_stops(&format!("{s}{s}{s}"));
        let err = |text: &str| parse("x", text).expect_err("an error").to_string();
        let e = err(&three(&STOP.replace("scheduleOne", "filter")));
        assert!(
            e.starts_with(
                "x/lesson.yaml: stops[0]: unknown phase \"filter\", expected one of \
                 scheduleOne, findNodesThatFit, prioritizeNodes, selectHost, preempt, assume, \
                 bind at line 7"
            ),
            "{e}"
        );
        let e = err(&three(
            &STOP.replace("pod: default/a", "pod: default/a, nodes: [n]"),
        ));
        assert!(e.contains("stops[0].check: unknown field `nodes`"), "{e}");
        let e = err(&three(&STOP.replace(
            "pod: default/a",
            "pod: default/a, preemption: {victims: []}",
        )));
        assert!(e.contains("missing field `node`"), "{e}");
        let e = err(&three(&STOP.replace("pod: default/a", "pod: a")));
        assert!(
            e.contains("stops[0].check.pod: \"a\" must be namespace/name"),
            "{e}"
        );
        let e = err(&three(STOP));
        assert!(
            e.contains("stops[1]: cycle 1 scheduleOne comes after cycle 1 scheduleOne"),
            "{e}"
        );
        let e = err(&three(STOP).replace("  one\n  two\n", "  one\n"));
        assert!(
            e.contains("story: must be exactly two lines, found 1"),
            "{e}"
        );
        let e = err(&three(STOP).replace("title: t", "title: t\ntitel: u"));
        assert!(e.contains("unknown field `titel`"), "{e}");
        let wrong = LessonSource {
            name: "w",
            scenario: "anti-affinity",
            json: LESSONS[0].json,
        };
        let e = wrong.lesson().expect_err("an error").to_string();
        assert_eq!(
            e,
            "w/lesson.yaml: scenario: \"classic\", but the lesson is compiled with the texts of \"anti-affinity\""
        );
    }

    #[test]
    fn a_check_names_what_the_run_contradicts() {
        let cycle = serde_json::json!({
            "time": 0.0, "pod": "default/a", "outcome": "Scheduled", "node": "n1",
            "message": null,
            "filter": {"n1": {"P": []}, "n2": {"P": [], "Q": ["no", "never"]}},
            "scores": {"n1": {"S": {"raw": 3, "score": 30, "weight": 2}}},
            "totals": {"n1": 60}, "preemption": null
        });
        let check: Check = serde_yaml_ng::from_str(
            "{pod: default/a, outcome: Scheduled, node: n1, time: 0, feasible: [n1], \
             rejected: {n2: [no, never]}, scores: {n1: {S: 30}}, raw: {n1: {S: 3}}, \
             totals: {n1: 60}, \
             preemption: {node: null}}",
        )
        .expect("reads");
        assert_eq!(check.verify(&cycle), Vec::<String>::new());
        let check: Check = serde_yaml_ng::from_str(
            "{pod: default/b, node: n2, feasible: [n1, n2], rejected: {n2: [no]}, \
             scores: {n1: {S: 31}}, raw: {n1: {S: 4}}, preemption: {node: n1}}",
        )
        .expect("reads");
        assert_eq!(
            check.verify(&cycle),
            [
                "pod: the run says \"default/a\", the lesson \"default/b\"",
                "node: the run says \"n1\", the lesson \"n2\"",
                "feasible: the run says [\"n1\"], the lesson [\"n1\",\"n2\"]",
                "rejected n2: the run says [\"no\",\"never\"], the lesson [\"no\"]",
                "score of n1 for S: the run says 30, the lesson 31",
                "raw value of n1 for S: the run says 3, the lesson 4",
                "preemption node: the run says null, the lesson \"n1\"",
            ]
        );
    }
}
