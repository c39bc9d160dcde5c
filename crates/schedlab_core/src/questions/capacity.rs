//! `schedlab capacity`: how many more copies of a pod the cluster takes under the scenario's
//! scheduler, where they land, and the `FitError` of the first copy that does not fit, as
//! cluster-capacity answers it, but from the scenario's files rather than a live cluster.
//!
//! The answer is defined by whole runs, so it agrees with `schedlab run` by construction: the
//! copies (named `<template>-1`, `<template>-2`, ...) join the scenario as pending pods after
//! its own, and the count is the largest number of copies that one run binds all of; in the
//! run with one copy more, that copy stays `Pending`, and its last cycle's message is the one
//! reported. Several templates are placed in turn: each one's copies join after the copies
//! counted for the ones before.
//!
//! Finding the count: one stepped run with more copies than could ever fit (the sum over
//! nodes of the copies each node's allocatable alone allows, plus one) stops at the first
//! copy whose cycle fails without a preemption nominating a node; the copies placed or
//! nominated before it are the candidate count, which two runs (the count, and one more)
//! confirm side by side. Should they disagree (a timeline change that later makes room, say),
//! a binary search over whole runs settles it.

use crate::cluster::PodInfo;
use crate::input::{Diagnostic, Inputs, Origin, Source};
use crate::model::timeline::Change;
use crate::model::Pod;
use crate::scenario::{Scenario, SchedulerVersion};
use crate::simulation::{Limits, Simulation};
use crate::simulation::{Phase, Run};
use crate::trace::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// The most copies of one template tried; a cluster that takes more is reported as taking
/// at least this many.
pub const MAX_COPIES: usize = 200_000;

/// A pod template: the pod, and where it was read.
#[derive(Clone, Debug)]
pub struct Template {
    /// The pod (its name is the copies' name prefix).
    pub pod: Pod,
    /// Where it came from.
    pub origin: Origin,
}

/// One template's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placed {
    /// `namespace/name` of the template.
    pub template: String,
    /// How many copies fit.
    pub count: usize,
    /// Whether the count stopped at [`MAX_COPIES`] rather than at a copy that failed.
    pub limited: bool,
    /// Copies per node, in node order (nodes with none left out).
    pub per_node: Vec<(String, usize)>,
    /// The first copy that does not fit: its name and its `FitError` (or other) message.
    pub first_failure: Option<(String, String)>,
}

/// The answer for every template, in turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capacity {
    /// The scheduler that ran.
    pub scheduler: SchedulerVersion,
    /// Per template.
    pub templates: Vec<Placed>,
}

/// The pod templates in `inputs` (read from one `--pod` file): each Pod, then each
/// Deployment's `spec.template`, in file order; the errors of Deployments whose template is
/// not a valid pod, or an error naming `file` when it holds no template at all.
pub fn templates(file: &str, inputs: Inputs) -> Result<Vec<Template>, Vec<Diagnostic>> {
    let mut out: Vec<Template> = inputs
        .pods
        .into_iter()
        .map(|(pod, origin)| Template { pod: *pod, origin })
        .collect();
    let mut errors = Vec::new();
    for (pod, origin) in inputs.deployments {
        match pod {
            Ok(pod) => out.push(Template { pod, origin }),
            Err(e) => errors.extend(e),
        }
    }
    if out.is_empty() && errors.is_empty() {
        errors.push(Diagnostic::new(
            file,
            "",
            "no Pod or Deployment to take as the pod template",
        ));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The copies that the nodes' allocatable alone could ever hold (more than can fit).
fn upper_bound(cluster: &Inputs, template: &Pod) -> usize {
    let info = PodInfo::new(template.clone(), 0, 0);
    let r = &info.request;
    let nodes = cluster.nodes.iter().map(|(n, _)| n).chain(
        cluster
            .timelines
            .iter()
            .flat_map(|(t, _)| t.changes.iter())
            .filter_map(|c| match &c.change {
                Change::AddNode(n) | Change::UpdateNode(n) => Some(n),
                _ => None,
            }),
    );
    let mut total: usize = 0;
    for node in nodes {
        let a = node.allocatable().0;
        let mut fit = a.pods.max(0);
        for (req, have) in [
            (r.milli_cpu, a.milli_cpu),
            (r.memory, a.memory),
            (r.ephemeral_storage, a.ephemeral_storage),
        ] {
            if req > 0 {
                fit = fit.min(have.max(0) / req);
            }
        }
        for (name, req) in &r.scalars {
            if *req > 0 {
                let have = a
                    .scalars
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(0, |(_, v)| *v);
                fit = fit.min(have.max(0) / req);
            }
        }
        total = total.saturating_add(fit as usize);
    }
    total.saturating_add(1).min(MAX_COPIES + 1)
}

/// The `k`-th copy (from 1) of a template.
fn copy(template: &Template, k: usize) -> (Box<Pod>, Origin) {
    let mut pod = Box::new(template.pod.clone());
    pod.metadata.name = format!("{}-{k}", template.pod.metadata.name);
    pod.spec.node_name.clear();
    pod.status.phase.clear();
    (pod, template.origin.clone())
}

/// The scenario with `placed` copies of each earlier template and `n` of `template`.
fn with_copies(
    cluster: &Inputs,
    sources: &[Source],
    requested: Option<SchedulerVersion>,
    placed: &[(&Template, usize)],
    template: &Template,
    n: usize,
) -> Result<Scenario, Vec<Diagnostic>> {
    let mut inputs = cluster.clone();
    for (t, count) in placed {
        inputs.pods.extend((1..=*count).map(|k| copy(t, k)));
    }
    inputs.pods.extend((1..=n).map(|k| copy(template, k)));
    Scenario::from_inputs_with(inputs, sources, requested)
}

/// The copies of `template` in a scenario, by pod id: `Some(k)` (from 1) for copy `k`.
fn copy_ids(scenario: &Scenario, template: &Template, n: usize) -> Vec<Option<usize>> {
    let prefix = format!(
        "{}/{}-",
        template.pod.metadata.namespace_or_default(),
        template.pod.metadata.name
    );
    let first = scenario.cluster.pods().len().saturating_sub(n);
    (0..scenario.cluster.pods().len())
        .map(|id| {
            if id < first {
                return None;
            }
            scenario.cluster.pods()[id]
                .full_name
                .strip_prefix(&prefix)
                .and_then(|k| k.parse::<usize>().ok())
        })
        .collect()
}

/// Whether a run binds all `n` copies; and, when one is left, the first unbound copy's name
/// and last message.
fn outcome(run: &Run, ids: &[Option<usize>]) -> (usize, Option<(String, String)>) {
    let mut bound = 0;
    let mut first: Option<(usize, usize)> = None;
    for (id, k) in ids.iter().enumerate() {
        let Some(k) = k else { continue };
        if run.phase(id) == Phase::Bound {
            bound += 1;
        } else if first.is_none_or(|(best, _)| *k < best) {
            first = Some((*k, id));
        }
    }
    let failure = first.map(|(_, id)| {
        let message = run
            .last_cycle_of(id)
            .and_then(|c| c.message.clone())
            .unwrap_or_else(|| "never scheduled".into());
        (run.cluster.pods()[id].full_name.clone(), message)
    });
    (bound, failure)
}

/// The copies of `template` one stepped run places before a copy's cycle fails with nowhere
/// to go: a copy counts once it is scheduled, or once its preemption nominates a node (its
/// victims make room; it binds later).
fn candidate(scenario: &Scenario, ids: &[Option<usize>], seed: u64) -> usize {
    let mut sim = Simulation::new(scenario, seed, false);
    let mut placed = vec![false; ids.len()];
    let mut count = 0usize;
    let mut seen = 0usize;
    let limits = Limits::default().or_defaults();
    while sim.step().is_some() {
        let cycles = sim.cycles().len();
        for c in &sim.cycles()[seen..] {
            if ids.get(c.pod).copied().flatten().is_none() || placed[c.pod] {
                continue;
            }
            let nominated = c
                .preemption
                .as_deref()
                .is_some_and(|p| p.chosen().is_some());
            if c.outcome == Outcome::Scheduled || nominated {
                placed[c.pod] = true;
                count += 1;
            } else {
                return count;
            }
        }
        seen = cycles;
        if limits.until.is_some_and(|u| sim.now() > u)
            || limits.max_cycles.is_some_and(|m| cycles >= m)
        {
            break;
        }
    }
    count
}

/// Places every template in turn (see the module docs).
pub fn capacity(
    cluster: &Inputs,
    sources: &[Source],
    requested: Option<SchedulerVersion>,
    templates: &[Template],
    seed: u64,
) -> Result<Capacity, Vec<Diagnostic>> {
    let mut placed: Vec<(&Template, usize)> = Vec::new();
    let mut answers = Vec::new();
    let mut scheduler = SchedulerVersion::V1_17;
    for template in templates {
        let bound = upper_bound(cluster, &template.pod);
        let big = with_copies(cluster, sources, requested, &placed, template, bound)?;
        scheduler = big.version();
        let ids = copy_ids(&big, template, bound);
        if let Some(first) = ids.iter().position(Option::is_some) {
            if !big.queue.contains(&first) {
                return Err(vec![Diagnostic::new(
                    &template.origin.file,
                    crate::input::join_path(&template.origin.path, "spec.schedulerName"),
                    format!(
                        "{:?} is not a scheduler this scenario runs; its copies would never be scheduled",
                        template.pod.scheduler_name()
                    ),
                )]);
            }
        }
        let guess = candidate(&big, &ids, seed);
        drop(big);
        let run_with = |n: usize| -> Result<(Run, Vec<Option<usize>>), Vec<Diagnostic>> {
            let s = with_copies(cluster, sources, requested, &placed, template, n)?;
            let ids = copy_ids(&s, template, n);
            Ok((s.run_with(seed, false, Limits::default()), ids))
        };
        let fits = |n: usize| -> Result<bool, Vec<Diagnostic>> {
            let (run, ids) = run_with(n)?;
            Ok(outcome(&run, &ids).0 == n)
        };
        // The candidate and one more, confirmed side by side.
        let pair = crate::parallel::map(&[guess, guess + 1], |&n| run_with(n));
        let mut pair = pair.into_iter();
        let (at, at_ids) = pair.next().expect("two runs")?;
        let (more, more_ids) = pair.next().expect("two runs")?;
        let confirmed = outcome(&at, &at_ids).0 == guess
            && (guess + 1 >= bound || outcome(&more, &more_ids).0 == guess);
        let (count, run, ids, next) = if confirmed {
            (guess, at, at_ids, (more, more_ids))
        } else {
            // Largest n in [0, bound) that a run binds all of.
            let (mut lo, mut hi) = (0usize, bound);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if fits(mid)? {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let (run, ids) = run_with(lo)?;
            (lo, run, ids, run_with(lo + 1)?)
        };
        let limited = count >= MAX_COPIES;
        let first_failure = if limited {
            None
        } else {
            outcome(&next.0, &next.1).1
        };
        let mut per_node = vec![0usize; run.cluster.nodes().len()];
        for (id, k) in ids.iter().enumerate() {
            if k.is_some() {
                if let Some(n) = run.node_of(id) {
                    per_node[n] += 1;
                }
            }
        }
        answers.push(Placed {
            template: template.pod.full_name(),
            count,
            limited,
            per_node: per_node
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(n, c)| (run.cluster.nodes()[n].name().to_string(), *c))
                .collect(),
            first_failure,
        });
        placed.push((template, count));
    }
    Ok(Capacity {
        scheduler,
        templates: answers,
    })
}

impl Capacity {
    /// `{"scheduler", "templates": [{"template", "count", "limited", "perNode": {node: n},
    /// "firstFailure": {"pod", "message"} | null}]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "scheduler": self.scheduler.as_str(),
            "templates": self.templates.iter().map(|t| {
                let per_node: serde_json::Map<String, Value> =
                    t.per_node.iter().map(|(n, c)| (n.clone(), json!(c))).collect();
                json!({
                    "template": t.template,
                    "count": t.count,
                    "limited": t.limited,
                    "perNode": per_node,
                    "firstFailure": t.first_failure.as_ref().map(|(pod, message)| json!({"pod": pod, "message": message})),
                })
            }).collect::<Vec<_>>(),
        })
    }

    /// The answer in words.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for t in &self.templates {
            let more = if t.limited { "at least " } else { "" };
            let _ = writeln!(
                out,
                "{}: {more}{} more cop{} fit (kube-scheduler {}).",
                t.template,
                t.count,
                if t.count == 1 { "y" } else { "ies" },
                self.scheduler.as_str()
            );
            if let Some((pod, message)) = &t.first_failure {
                let _ = writeln!(out, "  the next one, {pod}, stays Pending: {message}");
            }
            if !t.per_node.is_empty() {
                let _ = writeln!(out, "  per node:");
                for (node, count) in &t.per_node {
                    let _ = writeln!(out, "    {node:<30} {count}");
                }
            }
        }
        out
    }
}
