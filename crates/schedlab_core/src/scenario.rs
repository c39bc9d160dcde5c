//! A scenario: every input object turned into a cluster, a queue of pending pods and a profile;
//! and a run: the scheduling cycles over it.
//!
//! For now every pending pod is tried once, in queue order (priority descending, then input
//! order), and a chosen node binds at once. The scheduling queue, backoff and virtual clock come
//! with the simulator.

use crate::cluster::{Cluster, NodeId, PodId, PodInfo};
use crate::framework::runner::{Nomination, Scheduler};
use crate::input::{self, join_path, Diagnostic, Source};
use crate::model::volume::{
    CsiNode, PersistentVolume, PersistentVolumeClaim, StorageClass, VolumeCatalog,
};
use crate::model::workload::SelectorWorkload;
use crate::policy::config::SchedulerConfiguration;
use crate::policy::{self, PolicyDocument};
use crate::predicates::check_volume_binding::bindings_for;
use crate::trace::{CycleTrace, Outcome};
use std::collections::btree_map::Entry;

/// What a run reports about a pod at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// On a node.
    Bound,
    /// Not on a node.
    Pending,
}

/// A Kubernetes event, as `kubectl get events` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// `Normal` or `Warning`.
    pub kind: &'static str,
    /// `Scheduled`, `FailedScheduling`.
    pub reason: &'static str,
    /// `namespace/name` of the pod.
    pub object: String,
    /// The message.
    pub message: String,
    /// The cycle that produced it.
    pub cycle: usize,
}

/// Fills the volume catalog; a second object of a kind with the same name is an error.
fn load_volumes(
    catalog: &mut VolumeCatalog,
    pvs: Vec<(PersistentVolume, input::Origin)>,
    pvcs: Vec<(PersistentVolumeClaim, input::Origin)>,
    classes: Vec<(StorageClass, input::Origin)>,
    csi_nodes: Vec<(CsiNode, input::Origin)>,
    errors: &mut Vec<Diagnostic>,
) {
    let dup = |errors: &mut Vec<Diagnostic>, o: &input::Origin, what: String| {
        errors.push(Diagnostic::new(
            &o.file,
            join_path(&o.path, "metadata.name"),
            format!("duplicate {what}"),
        ))
    };
    for (v, o) in pvs {
        let name = v.metadata.name.clone();
        match catalog.pvs.entry(name) {
            Entry::Occupied(e) => dup(errors, &o, format!("PersistentVolume {:?}", e.key())),
            Entry::Vacant(e) => {
                e.insert(v);
            }
        }
    }
    for (c, o) in pvcs {
        let what = format!(
            "PersistentVolumeClaim \"{}/{}\"",
            c.metadata.namespace_or_default(),
            c.metadata.name
        );
        if !catalog.add_pvc(c) {
            dup(errors, &o, what);
        }
    }
    for (c, o) in classes {
        let name = c.metadata.name.clone();
        match catalog.classes.entry(name) {
            Entry::Occupied(e) => dup(errors, &o, format!("StorageClass {:?}", e.key())),
            Entry::Vacant(e) => {
                e.insert(c);
            }
        }
    }
    for (c, o) in csi_nodes {
        let name = c.metadata.name.clone();
        match catalog.csi_nodes.entry(name) {
            Entry::Occupied(e) => dup(errors, &o, format!("CSINode {:?}", e.key())),
            Entry::Vacant(e) => {
                e.insert(c);
            }
        }
    }
}

/// Everything needed to run: the cluster before scheduling, the queue and the policy.
#[derive(Clone)]
pub struct Scenario {
    /// Nodes, and pods (bound ones already on their nodes).
    pub cluster: Cluster,
    /// Pending pods for this scheduler, in queue order.
    pub queue: Vec<PodId>,
    /// The Policy, if one was given.
    pub policy: Option<PolicyDocument>,
    /// The configuration (defaults if none was given).
    pub config: SchedulerConfiguration,
    /// Warnings from reading the inputs.
    pub warnings: Vec<Diagnostic>,
}

fn selector_sources(
    list: &[SelectorWorkload],
) -> Vec<(String, Option<crate::model::LabelSelector>)> {
    list.iter()
        .map(|w| {
            (
                w.metadata.namespace_or_default().to_string(),
                w.spec.selector.clone(),
            )
        })
        .collect()
}

impl Scenario {
    /// Reads the sources into a scenario; every error is reported, each naming its file and path.
    pub fn load(sources: &[Source]) -> Result<Scenario, Vec<Diagnostic>> {
        let inputs = input::read_sources(sources)?;
        let mut errors = Vec::new();
        let mut warnings = inputs.warnings;
        if inputs.policies.len() > 1 {
            let (_, o) = &inputs.policies[1];
            errors.push(Diagnostic::new(
                &o.file,
                o.path.clone(),
                "more than one Policy given; pass exactly one",
            ));
        }
        if inputs.configs.len() > 1 {
            let (_, o) = &inputs.configs[1];
            errors.push(Diagnostic::new(
                &o.file,
                o.path.clone(),
                "more than one KubeSchedulerConfiguration given; pass exactly one",
            ));
        }
        let config = inputs
            .configs
            .first()
            .map(|(c, _)| c.clone())
            .unwrap_or_default();
        let policy = inputs.policies.first().map(|(p, _)| p.clone());
        let policy_origin = inputs.policies.first().map(|(_, o)| o.clone());
        // Validate the policy now so that `load` reports every problem at once.
        match policy::build(policy.as_ref(), &config) {
            Ok(built) => {
                for (path, msg) in built.warnings {
                    let (file, prefix) = policy_origin
                        .as_ref()
                        .map(|o| (o.file.clone(), o.path.clone()))
                        .unwrap_or_default();
                    warnings.push(Diagnostic::new(&file, join_path(&prefix, &path), msg));
                }
            }
            Err(errs) => {
                let (file, prefix) = policy_origin
                    .as_ref()
                    .map(|o| (o.file.clone(), o.path.clone()))
                    .unwrap_or_else(|| ("configuration".into(), String::new()));
                for e in errs {
                    errors.push(Diagnostic::new(
                        &file,
                        join_path(&prefix, &e.path),
                        e.message,
                    ));
                }
            }
        }

        let mut cluster = Cluster {
            services: inputs.services,
            replication_controllers: inputs
                .replication_controllers
                .iter()
                .map(|r| {
                    (
                        r.metadata.namespace_or_default().to_string(),
                        r.spec.selector.clone(),
                    )
                })
                .collect(),
            replica_sets: selector_sources(&inputs.replica_sets),
            stateful_sets: selector_sources(&inputs.stateful_sets),
            priority_classes: inputs.priority_classes,
            ..Cluster::default()
        };
        for (node, origin) in inputs.nodes {
            if cluster.node_index.contains_key(&node.metadata.name) {
                errors.push(Diagnostic::new(
                    &origin.file,
                    join_path(&origin.path, "metadata.name"),
                    format!("duplicate node {:?}", node.metadata.name),
                ));
                continue;
            }
            cluster.add_node(node);
        }
        load_volumes(
            &mut cluster.volumes,
            inputs.persistent_volumes,
            inputs.persistent_volume_claims,
            inputs.storage_classes,
            inputs.csi_nodes,
            &mut errors,
        );
        let global_default = cluster
            .priority_classes
            .iter()
            .find(|c| c.global_default)
            .map(|c| c.value);
        let mut queue: Vec<(i32, usize, PodId)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, (pod, origin)) in inputs.pods.into_iter().enumerate() {
            if matches!(pod.status.phase.as_str(), "Succeeded" | "Failed") {
                continue;
            }
            if !seen.insert(pod.full_name()) {
                errors.push(Diagnostic::new(
                    &origin.file,
                    join_path(&origin.path, "metadata.name"),
                    format!("duplicate pod {:?}", pod.full_name()),
                ));
                continue;
            }
            let class = &pod.spec.priority_class_name;
            let priority = match pod.spec.priority {
                Some(p) => p,
                None if !class.is_empty() => {
                    match cluster
                        .priority_classes
                        .iter()
                        .find(|c| c.metadata.name == *class)
                    {
                        Some(c) => c.value,
                        None => {
                            warnings.push(Diagnostic::new(
                            &origin.file,
                            join_path(&origin.path, "spec.priorityClassName"),
                            format!("PriorityClass {class:?} is not in the input; priority 0 is used"),
                        ));
                            0
                        }
                    }
                }
                None => global_default.unwrap_or(0),
            };
            let node_name = pod.spec.node_name.clone();
            let scheduler = if pod.spec.scheduler_name.is_empty() {
                "default-scheduler"
            } else {
                pod.spec.scheduler_name.as_str()
            };
            let ours = scheduler == config.scheduler_name;
            if !node_name.is_empty() {
                match cluster.node_index.get(&node_name).copied() {
                    Some(node) => {
                        let id = cluster.add_pod(PodInfo::new(pod, priority, i));
                        cluster.bind(id, node);
                    }
                    None => warnings.push(Diagnostic::new(
                        &origin.file,
                        join_path(&origin.path, "spec.nodeName"),
                        format!("pod {} is bound to node {node_name:?}, which is not in the input; ignored", pod.full_name()),
                    )),
                }
                continue;
            }
            let id = cluster.add_pod(PodInfo::new(pod, priority, i));
            if ours {
                queue.push((priority, i, id));
            }
        }
        input::locate_lines(&mut errors, sources);
        input::locate_lines(&mut warnings, sources);
        if !errors.is_empty() {
            return Err(errors);
        }
        queue.sort_by_key(|(prio, i, _)| (std::cmp::Reverse(*prio), *i));
        Ok(Scenario {
            cluster,
            queue: queue.into_iter().map(|(_, _, id)| id).collect(),
            policy,
            config,
            warnings,
        })
    }

    /// Runs every pending pod through one cycle, in queue order.
    pub fn run(&self, seed: u64, detail: bool) -> Run {
        let built = policy::build(self.policy.as_ref(), &self.config).unwrap_or_else(|_| {
            // `load` validated the policy; a scenario built by hand falls back to the defaults.
            policy::build(None, &SchedulerConfiguration::default())
                .expect("the default provider builds")
        });
        let filter_names = built
            .profile
            .filters
            .iter()
            .map(|f| f.name.clone())
            .collect();
        let score_names = built
            .profile
            .scores
            .iter()
            .map(|s| s.name.clone())
            .collect();
        let mut scheduler = Scheduler::new(built.profile, seed);
        let mut cluster = self.cluster.clone();
        let order = cluster.node_tree_order();
        let nominations: Vec<Nomination> = Vec::new();
        let mut cycles = Vec::with_capacity(self.queue.len());
        let mut events = Vec::with_capacity(self.queue.len());
        for &pod in &self.queue {
            let mut trace = scheduler.schedule_one(&cluster, &order, pod, &nominations, detail);
            let name = cluster.pods[pod].full_name.clone();
            match (trace.outcome, trace.node) {
                (Outcome::Scheduled, Some(node)) => {
                    // AssumePodVolumes + BindPodVolumes: the claims this node was found to
                    // satisfy take their volumes (or are marked for provisioning here).
                    let bindings = bindings_for(&cluster, &cluster.pods[pod], &cluster.nodes[node]);
                    for b in bindings {
                        match &b.pv {
                            Some(pv) => cluster.volumes.bind(&b.namespace, &b.claim, pv),
                            None => cluster.volumes.select_node(
                                &b.namespace,
                                &b.claim,
                                cluster.nodes[node].name(),
                            ),
                        }
                        trace
                            .volume_bindings
                            .push((format!("{}/{}", b.namespace, b.claim), b.pv));
                    }
                    cluster.bind(pod, node);
                    events.push(Event {
                        kind: "Normal",
                        reason: "Scheduled",
                        message: format!(
                            "Successfully assigned {name} to {}",
                            cluster.nodes[node].name()
                        ),
                        object: name,
                        cycle: cycles.len(),
                    });
                }
                _ => events.push(Event {
                    kind: "Warning",
                    reason: "FailedScheduling",
                    message: trace.message.clone().unwrap_or_default(),
                    object: name,
                    cycle: cycles.len(),
                }),
            }
            cycles.push(trace);
        }
        Run {
            cluster,
            cycles,
            events,
            filter_names,
            score_names,
        }
    }
}

/// The result of a run.
#[derive(Clone)]
pub struct Run {
    /// The cluster after the run.
    pub cluster: Cluster,
    /// Every cycle, in order.
    pub cycles: Vec<CycleTrace>,
    /// Events, in order.
    pub events: Vec<Event>,
    /// Filter names, by profile index.
    pub filter_names: Vec<String>,
    /// Score names, by profile index.
    pub score_names: Vec<String>,
}

impl Run {
    /// A pod's final phase.
    pub fn phase(&self, pod: PodId) -> Phase {
        if self.cluster.pod_node[pod].is_some() {
            Phase::Bound
        } else {
            Phase::Pending
        }
    }

    /// A pod's node.
    pub fn node_of(&self, pod: PodId) -> Option<NodeId> {
        self.cluster.pod_node[pod]
    }

    /// Finds a pod by `namespace/name` (or `name` in `default`).
    pub fn find_pod(&self, name: &str) -> Option<PodId> {
        let full = if name.contains('/') {
            name.to_string()
        } else {
            format!("default/{name}")
        };
        self.cluster.pods.iter().position(|p| p.full_name == full)
    }

    /// How many cycles ended with a node chosen.
    pub fn scheduled_count(&self) -> usize {
        self.cycles
            .iter()
            .filter(|c| c.outcome == Outcome::Scheduled)
            .count()
    }

    /// Nodes evaluated by the filters, summed over every cycle.
    pub fn evaluated_nodes(&self) -> usize {
        self.cycles.iter().map(|c| c.evaluated).sum()
    }

    /// The last cycle of a pod.
    pub fn last_cycle_of(&self, pod: PodId) -> Option<&CycleTrace> {
        self.cycles.iter().rev().find(|c| c.pod == pod)
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::Outcome;
    use crate::workloads::scheduling_basic;

    fn placements(run: &super::Run) -> Vec<(Outcome, Option<usize>)> {
        run.cycles.iter().map(|c| (c.outcome, c.node)).collect()
    }

    #[test]
    fn decisions_do_not_depend_on_recording_the_trace() {
        // 150 identical nodes (selectHost breaks many ties) with room for 15 pods each:
        // 300 bound + 2000 pending is more than the 2250 slots, so some cycles fail too.
        let mut s = scheduling_basic(150, 300, 2000, 0);
        for n in &mut s.cluster.nodes {
            n.allocatable.pods = 15;
        }
        let with = s.run(42, true);
        let without = s.run(42, false);
        assert_eq!(placements(&with), placements(&without));
        assert!(with
            .cycles
            .iter()
            .any(|c| c.outcome == Outcome::Unschedulable));
        assert!(with.cycles.iter().any(|c| c.tie_set.len() > 1));
    }

    #[test]
    fn the_same_seed_gives_the_same_run() {
        let s = scheduling_basic(120, 0, 300, 0);
        assert_eq!(placements(&s.run(7, true)), placements(&s.run(7, true)));
    }
}
