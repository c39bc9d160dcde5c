//! A scenario: every input object turned into a cluster, a queue of pending pods, the
//! [`Scheduler`] its configuration documents build, and a timeline. Loading reports every
//! problem at once, each naming its file and path.
//!
//! `Scenario::run` (in [`crate::simulation`]) runs it: the scheduling queue, binding and the
//! timeline on the virtual clock, until nothing can happen any more.

use crate::cluster::{Cluster, ClusterObjects, PodId, PodInfo};
use crate::input::{self, join_path, Diagnostic, Origin, Source};
use crate::model::timeline::{Change, Timeline};
use crate::model::volume::{
    CsiNode, PersistentVolume, PersistentVolumeClaim, StorageClass, VolumeCatalog,
};
use crate::model::workload::SelectorWorkload;
use crate::model::{FrontEnd, OptionName, Pod, PriorityClass};
use crate::sched::extender::answers::Answers;
use crate::sched::extender::mock::Mock;
use crate::sched::extender::recording::Recording;
use crate::sched::extender::Extender;
use crate::scheduler::Scheduler;
pub use crate::scheduler::SchedulerVersion;
use std::collections::btree_map::Entry;
use std::sync::Arc;

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

/// Fills the DRA catalog: classes, templates, slices and claims (a second object of a kind
/// with the same name is an error); a claim naming a class that does not exist is a warning.
fn load_dra(
    cluster: &mut Cluster,
    inputs: &mut input::Inputs,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    let dup = |errors: &mut Vec<Diagnostic>, o: &input::Origin, what: String| {
        errors.push(Diagnostic::new(
            &o.file,
            join_path(&o.path, "metadata.name"),
            format!("duplicate {what}"),
        ))
    };
    let dra = cluster.dra_mut();
    for (c, o) in std::mem::take(&mut inputs.device_classes) {
        if dra.classes.contains_key(&c.metadata.name) {
            dup(errors, &o, format!("DeviceClass {:?}", c.metadata.name));
            continue;
        }
        dra.classes.insert(c.metadata.name.clone(), Arc::new(c));
    }
    for (t, o) in std::mem::take(&mut inputs.resource_claim_templates) {
        let key = (
            t.metadata.namespace_or_default().to_string(),
            t.metadata.name.clone(),
        );
        if dra.templates.contains_key(&key) {
            dup(
                errors,
                &o,
                format!("ResourceClaimTemplate \"{}/{}\"", key.0, key.1),
            );
            continue;
        }
        dra.templates.insert(key, Arc::new(t));
    }
    let mut slices = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for (sl, o) in std::mem::take(&mut inputs.resource_slices) {
        if !names.insert(sl.metadata.name.clone()) {
            dup(errors, &o, format!("ResourceSlice {:?}", sl.metadata.name));
            continue;
        }
        slices.push(Arc::new(sl));
    }
    if !slices.is_empty() {
        dra.set_slices(slices);
    }
    for (c, o) in std::mem::take(&mut inputs.resource_claims) {
        for (i, r) in c.spec.devices.requests.iter().enumerate() {
            let classes: Vec<&str> = match (&r.exactly, &r.first_available) {
                (Some(e), _) => vec![e.device_class_name.as_str()],
                (_, Some(subs)) => subs.iter().map(|s| s.device_class_name.as_str()).collect(),
                _ => Vec::new(),
            };
            for class in classes
                .into_iter()
                .filter(|c| !dra.classes.contains_key(*c))
            {
                warnings.push(Diagnostic::new(
                    &o.file,
                    join_path(&o.path, &format!("spec.devices.requests[{i}]")),
                    format!("DeviceClass {class:?} does not exist: pods using this claim stay Pending (\"device class {class} does not exist\")"),
                ));
            }
        }
        let what = format!("ResourceClaim \"{}\"", c.key());
        if !dra.add_claim(c, false) {
            dup(errors, &o, what);
        }
    }
}

/// A v1.35 pod's claims: a pending pod's template entries get their claims (schedlab's
/// resourceclaim controller, [`crate::model::dra::generate`]); entries naming a template or a
/// claim that does not exist are warnings (the pod stays Pending, as upstream).
fn dra_pod_claims(
    cluster: &mut Cluster,
    pod: &mut Pod,
    pending: bool,
    origin: &Origin,
    warnings: &mut Vec<Diagnostic>,
) {
    let ns = pod.metadata.namespace_or_default().to_string();
    if pending {
        let dra = cluster.dra();
        let mut counter = dra.claims().len() as u64;
        let generated =
            crate::model::dra::generate::for_pod(pod, &dra.templates, &mut counter, &|n| {
                dra.claim(&ns, n).is_some()
            });
        for (i, t) in generated.missing {
            warnings.push(Diagnostic::new(
                &origin.file,
                join_path(&origin.path, &format!("spec.resourceClaims[{i}]")),
                format!("ResourceClaimTemplate \"{ns}/{t}\" does not exist: the pod stays Pending (\"ResourceClaim not created yet\")"),
            ));
        }
        for c in generated.claims {
            cluster.dra_mut().add_claim(c, true);
        }
    }
    for (i, e) in pod.spec.resource_claims.iter().enumerate() {
        if let Some(name) = &e.resource_claim_name {
            if cluster.dra().claim(&ns, name).is_none() {
                warnings.push(Diagnostic::new(
                    &origin.file,
                    join_path(&origin.path, &format!("spec.resourceClaims[{i}]")),
                    format!("ResourceClaim \"{ns}/{name}\" does not exist: the pod stays Pending (\"could not find ResourceClaim \\\"{ns}/{name}\\\"\")"),
                ));
            }
        }
    }
}

/// Everything needed to run: the cluster before scheduling, the queue and the scheduler.
#[derive(Clone)]
pub struct Scenario {
    /// Nodes, and pods (bound ones already on their nodes).
    pub cluster: Cluster,
    /// Pending pods for this scheduler, in queue order.
    pub queue: Vec<PodId>,
    /// The scheduler that runs, built from the configuration documents (every default
    /// where none was given).
    pub scheduler: Arc<Scheduler>,
    /// Warnings from reading the inputs.
    pub warnings: Vec<Diagnostic>,
    /// Timed changes and the binding knobs (empty without a `Timeline`).
    pub timeline: Timeline,
    /// Per timeline change, the pods it creates or names, with their ids (pods created by the
    /// timeline get the ids after the input pods, in the order they are created).
    pub timeline_pods: Vec<Vec<(PodId, String)>>,
    /// Who answers the scheduler's extenders: the scenario's mocks and recording, and the live
    /// transport the host sets ([`Answers::set_transport`]). Shared by the runs of the
    /// scenario.
    pub extender_answers: Arc<Answers>,
    /// `--fidelity extender-nodeinfo-fix`: v1.35 keeps the nodes' pods when an extender
    /// answers its filter with `Nodes` (kubernetes#141781 fixed, as PR #141919 would); by
    /// default the upstream bug is reproduced.
    pub extender_nodeinfo_fix: bool,
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
        Scenario::load_with(sources, None)
    }

    /// [`Scenario::load`] with the scheduler asked for (`--scheduler`); `None` lets the inputs
    /// decide (a `kubescheduler.config.k8s.io/v1` configuration selects v1.35).
    pub fn load_with(
        sources: &[Source],
        requested: Option<SchedulerVersion>,
    ) -> Result<Scenario, Vec<Diagnostic>> {
        Scenario::load_for(sources, requested, FrontEnd::Cli)
    }

    /// [`Scenario::load_with`] for a front end: its messages name the option that asked for
    /// the scheduler as `front` spells it (`--scheduler v1.35`, or the `scheduler` option).
    pub fn load_for(
        sources: &[Source],
        requested: Option<SchedulerVersion>,
        front: FrontEnd,
    ) -> Result<Scenario, Vec<Diagnostic>> {
        let inputs = input::read_sources(sources)?;
        Scenario::from_inputs_for(inputs, sources, requested, front)
    }

    /// Builds a scenario from objects already read from `sources` (see
    /// [`input::read_source`]); the sources are only used to put line numbers on errors.
    pub fn from_inputs(
        inputs: input::Inputs,
        sources: &[Source],
    ) -> Result<Scenario, Vec<Diagnostic>> {
        Scenario::from_inputs_with(inputs, sources, None)
    }

    /// [`Scenario::from_inputs`] with the scheduler asked for.
    pub fn from_inputs_with(
        inputs: input::Inputs,
        sources: &[Source],
        requested: Option<SchedulerVersion>,
    ) -> Result<Scenario, Vec<Diagnostic>> {
        Scenario::from_inputs_for(inputs, sources, requested, FrontEnd::Cli)
    }

    /// [`Scenario::from_inputs_with`] for a front end (see [`Scenario::load_for`]).
    pub fn from_inputs_for(
        mut inputs: input::Inputs,
        sources: &[Source],
        requested: Option<SchedulerVersion>,
        front: FrontEnd,
    ) -> Result<Scenario, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let mut warnings = std::mem::take(&mut inputs.warnings);
        let (scheduler, owner) =
            choose_scheduler(&mut inputs, (requested, front), &mut errors, &mut warnings);
        let refused_by = match owner.version {
            SchedulerVersion::V1_17 => input::RefusedBy::V1_17,
            SchedulerVersion::V1_35 => input::RefusedBy::V1_35,
        };
        let version_errors = std::mem::take(&mut inputs.version_errors);
        errors.extend(
            version_errors
                .into_iter()
                .filter(|(v, _)| *v == refused_by)
                .map(|(_, d)| d),
        );
        let mut cluster = cluster_objects(&mut inputs, &mut errors, &mut warnings);
        let global_default = cluster
            .priority_classes()
            .iter()
            .find(|c| c.global_default)
            .map(|c| c.value);
        let pods = std::mem::take(&mut inputs.pods);
        let queue = add_pods(
            &mut cluster,
            pods,
            &owner,
            global_default,
            &mut errors,
            &mut warnings,
        );
        if inputs.timelines.len() > 1 {
            let (_, o) = &inputs.timelines[1];
            errors.push(Diagnostic::new(
                &o.file,
                o.path.clone(),
                "more than one Timeline given; put every change in one",
            ));
        }
        let mut timeline = std::mem::take(&mut inputs.timelines)
            .into_iter()
            .next()
            .map(|(t, _)| t)
            .unwrap_or_default();
        let timeline_pods = resolve_timeline(
            &mut timeline,
            &cluster,
            global_default,
            &mut errors,
            &mut warnings,
        );
        let extender_answers = extender_answers(
            &mut inputs,
            scheduler.as_ref().map_or(&[][..], Scheduler::extenders),
            &mut errors,
            &mut warnings,
        );
        input::locate_lines(&mut errors, sources);
        input::locate_lines(&mut warnings, sources);
        match scheduler {
            Some(scheduler) if errors.is_empty() => Ok(Scenario {
                cluster,
                queue,
                scheduler: Arc::new(scheduler),
                warnings,
                timeline,
                timeline_pods,
                extender_answers: Arc::new(extender_answers),
                extender_nodeinfo_fix: false,
            }),
            _ => Err(errors),
        }
    }

    /// The version of the scheduler that runs.
    pub fn version(&self) -> SchedulerVersion {
        self.scheduler.version()
    }
}

/// The scenario's answers for its extenders: one mock per extender at most (a mock for no
/// configured extender is a warning), and every recorded exchange in one recording.
fn extender_answers(
    inputs: &mut input::Inputs,
    extenders: &[Extender],
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Answers {
    let mut mocks: Vec<Mock> = Vec::new();
    for (mock, o) in std::mem::take(&mut inputs.extender_mocks) {
        if mocks.iter().any(|m| m.url_prefix == mock.url_prefix) {
            errors.push(Diagnostic::new(
                &o.file,
                join_path(&o.path, "urlPrefix"),
                format!(
                    "a second ExtenderMock for the extender {:?}; give one table per extender",
                    mock.url_prefix
                ),
            ));
            continue;
        }
        if !extenders.iter().any(|e| e.url_prefix == mock.url_prefix) {
            let configured: Vec<&str> = extenders.iter().map(|e| e.url_prefix.as_str()).collect();
            warnings.push(Diagnostic::new(
                &o.file,
                join_path(&o.path, "urlPrefix"),
                format!(
                    "no configured extender has the urlPrefix {:?}, so this ExtenderMock answers nothing (configured: {})",
                    mock.url_prefix,
                    if configured.is_empty() { "none".to_string() } else { configured.join(", ") }
                ),
            ));
        }
        mocks.push(mock);
    }
    let calls = std::mem::take(&mut inputs.extender_recordings)
        .into_iter()
        .flat_map(|(calls, _)| calls)
        .collect();
    Answers::new(mocks, Recording::from_calls(calls))
}

/// What loading the pods needs of the scheduler, known even when its documents have errors
/// (so that every error is reported at once): its version and the scheduler names it owns.
struct Owner {
    version: SchedulerVersion,
    scheduler_names: Vec<String>,
}

impl Owner {
    fn of(scheduler: &Scheduler) -> Owner {
        Owner {
            version: scheduler.version(),
            scheduler_names: scheduler.scheduler_names(),
        }
    }

    fn owns(&self, pod: &Pod) -> bool {
        self.scheduler_names
            .iter()
            .any(|n| n == pod.scheduler_name())
    }
}

/// The scheduler the configuration documents build (`None` when they have errors, which are
/// in `errors`), and what loading the pods needs of it either way.
fn choose_scheduler(
    inputs: &mut input::Inputs,
    (requested, front): (Option<SchedulerVersion>, FrontEnd),
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> (Option<Scheduler>, Owner) {
    let v135 = v135_configuration(inputs, (requested, front), errors, warnings);
    for (second, what) in [
        (inputs.policies.get(1).map(|(_, o)| o), "Policy"),
        (
            inputs.configs.get(1).map(|(_, o)| o),
            "KubeSchedulerConfiguration",
        ),
    ] {
        if let Some(o) = second {
            errors.push(Diagnostic::new(
                &o.file,
                o.path.clone(),
                format!("more than one {what} given; pass exactly one"),
            ));
        }
    }
    if let Some(Some(config)) = v135 {
        let scheduler = Scheduler::V135(config);
        let owner = Owner::of(&scheduler);
        return (Some(scheduler), owner);
    }
    // v1.17, or a v1 configuration with errors: the Policy is checked too, so that one run
    // reports every problem.
    let config = inputs
        .configs
        .first()
        .map(|(c, _)| c.clone())
        .unwrap_or_default();
    let owner = Owner {
        version: SchedulerVersion::V1_17,
        scheduler_names: vec![config.scheduler_name.clone()],
    };
    let (policy, origin) = match inputs.policies.first() {
        Some((p, o)) => (Some(p), Some(o)),
        None => (None, None),
    };
    let located = |path: &str| match origin {
        Some(o) => (o.file.clone(), join_path(&o.path, path)),
        None => (String::new(), path.to_string()),
    };
    match crate::v117::Scheduler::new(policy, config) {
        Ok((scheduler, warned)) => {
            for (path, msg) in warned {
                let (file, path) = located(&path);
                warnings.push(Diagnostic::new(&file, path, msg));
            }
            let scheduler = v135.is_none().then_some(Scheduler::V117(scheduler));
            (scheduler, owner)
        }
        Err(errs) => {
            for e in errs {
                let (file, path) = match origin {
                    Some(_) => located(&e.path),
                    None => ("configuration".into(), e.path),
                };
                errors.push(Diagnostic::new(&file, path, e.message));
            }
            (None, owner)
        }
    }
}

/// The cluster's objects other than pods: services and workloads, priority classes,
/// budgets, nodes and storage (a second node, or volume object, of one name is an error).
fn cluster_objects(
    inputs: &mut input::Inputs,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Cluster {
    warnings.extend(input::validate::global_defaults(&inputs.priority_classes));
    let mut class_names = std::collections::HashSet::new();
    inputs.priority_classes.retain(|(c, origin)| {
        let first = class_names.insert(c.metadata.name.clone());
        if !first {
            errors.push(Diagnostic::new(
                &origin.file,
                join_path(&origin.path, "metadata.name"),
                format!("duplicate PriorityClass {:?}", c.metadata.name),
            ));
        }
        first
    });
    let mut cluster = Cluster::with_objects(ClusterObjects {
        services: std::mem::take(&mut inputs.services),
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
        priority_classes: std::mem::take(&mut inputs.priority_classes)
            .into_iter()
            .map(|(c, _)| c)
            .collect(),
        pdbs: std::mem::take(&mut inputs.pod_disruption_budgets),
        namespaces: Default::default(),
    });
    for (node, origin) in std::mem::take(&mut inputs.nodes) {
        if cluster.node_index().contains_key(&node.metadata.name) {
            errors.push(Diagnostic::new(
                &origin.file,
                join_path(&origin.path, "metadata.name"),
                format!("duplicate node {:?}", node.metadata.name),
            ));
            continue;
        }
        cluster.add_node(node);
    }
    load_dra(&mut cluster, inputs, errors, warnings);
    load_volumes(
        cluster.volumes_mut(),
        std::mem::take(&mut inputs.persistent_volumes),
        std::mem::take(&mut inputs.persistent_volume_claims),
        std::mem::take(&mut inputs.storage_classes),
        std::mem::take(&mut inputs.csi_nodes),
        errors,
    );
    cluster
}

/// Adds the input pods to the cluster: a finished pod is left out, a repeated name is an
/// error, a bound pod goes onto its node (a node not in the input: a warning), a pending pod
/// of this scheduler is queued. The queue, in priority order then input order.
fn add_pods(
    cluster: &mut Cluster,
    pods: Vec<(Box<Pod>, Origin)>,
    owner: &Owner,
    global_default: Option<i32>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<PodId> {
    let v135 = owner.version == SchedulerVersion::V1_35;
    let mut queue: Vec<(i32, usize, PodId)> = Vec::new();
    let repeated = repeated_names(&pods);
    let repeated_uid = repeated_uids(&pods);
    cluster.reserve_pods(pods.len());
    for (i, (pod, origin)) in pods.into_iter().enumerate() {
        if finished(&pod) {
            continue;
        }
        if repeated[i] {
            errors.push(Diagnostic::new(
                &origin.file,
                join_path(&origin.path, "metadata.name"),
                format!("duplicate pod {:?}", pod.full_name()),
            ));
            continue;
        }
        if repeated_uid[i] {
            // The API server gives every object its own uid: a snapshot never repeats one.
            errors.push(Diagnostic::new(
                &origin.file,
                join_path(&origin.path, "metadata.uid"),
                format!(
                    "Duplicate value: {}",
                    input::validate::go_quote(&pod.metadata.uid)
                ),
            ));
            continue;
        }
        let priority = resolve_priority(
            &pod,
            cluster.priority_classes(),
            global_default,
            || join_path(&origin.path, "spec.priorityClassName"),
            &origin.file,
            warnings,
            errors,
        );
        let node_name = pod.spec.node_name.clone();
        let ours = owner.owns(&pod);
        let mut pod = pod;
        if v135 && !pod.spec.resource_claims.is_empty() {
            dra_pod_claims(cluster, &mut pod, node_name.is_empty(), &origin, warnings);
        }
        let info = |pod: Box<Pod>| match v135 {
            true => crate::v135::pod_info(pod, priority, i),
            false => PodInfo::new(pod, priority, i),
        };
        if !node_name.is_empty() {
            match cluster.node_index().get(&node_name).copied() {
                Some(node) => {
                    let id = cluster.add_pod(info(pod));
                    cluster.bind(id, node);
                }
                None => warnings.push(Diagnostic::new(
                    &origin.file,
                    join_path(&origin.path, "spec.nodeName"),
                    format!(
                        "pod {} is bound to node {node_name:?}, which is not in the input; ignored",
                        pod.full_name()
                    ),
                )),
            }
            continue;
        }
        let id = cluster.add_pod(info(pod));
        if ours {
            queue.push((priority, i, id));
        }
    }
    queue.sort_by_key(|(prio, i, _)| (std::cmp::Reverse(*prio), *i));
    queue.into_iter().map(|(_, _, id)| id).collect()
}

/// Decides whether v1.35 runs (`None`: it does not) and reads its configuration (`Some(None)`:
/// its errors are in `errors`): a `kubescheduler.config.k8s.io/v1`
/// input, or `--scheduler v1.35` (then every default). Mixing it with a legacy Policy or
/// `v1alpha1` configuration, two v1 configurations, or a v1 configuration under
/// `--scheduler v1.17` are errors naming the files.
fn v135_configuration(
    inputs: &mut input::Inputs,
    (requested, front): (Option<SchedulerVersion>, FrontEnd),
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<Option<crate::v135::config::Configuration>> {
    use crate::v135::config;
    let configs = std::mem::take(&mut inputs.modern_configs);
    if configs.is_empty() && requested != Some(SchedulerVersion::V1_35) {
        return None;
    }
    let first_file = configs.first().map(|(_, o)| o.file.clone());
    for (_, o) in configs.iter().skip(1) {
        errors.push(Diagnostic::new(
            &o.file,
            o.path.clone(),
            format!(
                "a second KubeSchedulerConfiguration (the first is in {}): kube-scheduler reads one \
                 configuration file, and only its first document; pass exactly one",
                first_file.as_deref().unwrap_or("?")
            ),
        ));
    }
    if let (Some(file), Some(SchedulerVersion::V1_17)) = (&first_file, requested) {
        errors.push(Diagnostic::new(
            file,
            "apiVersion",
            format!(
                "a {} configuration is for kube-scheduler v1.35, but {} was given",
                config::V1,
                front.option_set_to(OptionName::Scheduler, "v1.17")
            ),
        ));
    }
    let why = match &first_file {
        Some(f) => format!("the {} configuration in {f}", config::V1),
        None => front.option_set_to(OptionName::Scheduler, "v1.35"),
    };
    let legacy = inputs
        .policies
        .iter()
        .map(|(_, o)| ("a legacy Policy", o))
        .chain(
            inputs
                .configs
                .iter()
                .map(|(_, o)| ("a v1alpha1 KubeSchedulerConfiguration", o)),
        );
    for (what, o) in legacy {
        errors.push(Diagnostic::new(
            &o.file,
            o.path.clone(),
            format!(
                "{what} (kube-scheduler v1.17) cannot be mixed with kube-scheduler v1.35 ({why}); \
                 `schedlab translate {}` prints the v1 configuration a Policy becomes",
                o.file
            ),
        ));
    }
    let Some((value, origin)) = configs.into_iter().next() else {
        return Some(Some(config::Configuration::defaults()));
    };
    match config::read(value) {
        Ok((c, warned)) => {
            for w in warned {
                warnings.push(Diagnostic::new(
                    &origin.file,
                    join_path(&origin.path, &w.path),
                    w.message,
                ));
            }
            Some(Some(c))
        }
        Err(errs) => {
            for e in errs {
                errors.push(Diagnostic::new(
                    &origin.file,
                    join_path(&origin.path, &e.path),
                    e.message,
                ));
            }
            Some(None)
        }
    }
}

/// A pod's priority: `spec.priority`, else its PriorityClass, else the global default, else 0
/// (a class that is not in the input gives a warning at `path`).
fn resolve_priority(
    pod: &Pod,
    classes: &[PriorityClass],
    global_default: Option<i32>,
    path: impl Fn() -> String,
    file: &str,
    warnings: &mut Vec<Diagnostic>,
    errors: &mut Vec<Diagnostic>,
) -> i32 {
    let class = &pod.spec.priority_class_name;
    let in_input = || crate::model::workload::priority_class(classes, class).map(|c| c.value);
    // The system classes every cluster has (only checked against, never resolved from: a
    // scenario without them runs such pods at 0, as it always did).
    let known = || {
        in_input().or_else(|| {
            let system = input::validate::SYSTEM_PRIORITY_CLASSES;
            system.iter().find(|(n, _)| n == class).map(|(_, v)| *v)
        })
    };
    match pod.spec.priority {
        Some(p) => {
            // The Priority admission plugin computes the priority from the class.
            if let Some(computed) = known().filter(|v| *v != p && !class.is_empty()) {
                let at = path().replace("spec.priorityClassName", "spec.priority");
                errors.push(Diagnostic::new(
                    file,
                    at,
                    format!(
                        "the integer value of priority ({p}) must not be provided in pod spec; \
                         priority admission controller computed {computed} from the given \
                         PriorityClass name"
                    ),
                ));
            }
            p
        }
        None if !class.is_empty() => match in_input() {
            Some(v) => v,
            None => {
                warnings.push(Diagnostic::new(
                    file,
                    path(),
                    format!("PriorityClass {class:?} is not in the input; priority 0 is used"),
                ));
                0
            }
        },
        None => global_default.unwrap_or(0),
    }
}

/// Pods that have finished (`Succeeded`, `Failed`): the scheduler never sees them.
fn finished(pod: &Pod) -> bool {
    matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
}

/// For each pod, whether an earlier pod that has not finished has its `namespace/name`.
/// The names are compared where they lie in the pods, with no string built per pod.
fn repeated_names(pods: &[(Box<Pod>, Origin)]) -> Vec<bool> {
    let mut seen = std::collections::HashSet::with_capacity(pods.len());
    pods.iter()
        .map(|(pod, _)| {
            let m = &pod.metadata;
            !finished(pod) && !seen.insert(FullName(m.namespace_or_default(), &m.name))
        })
        .collect()
}

/// For each pod, whether an earlier pod that has not finished has its (non-empty) uid.
fn repeated_uids(pods: &[(Box<Pod>, Origin)]) -> Vec<bool> {
    let mut seen = std::collections::HashSet::new();
    pods.iter()
        .map(|(pod, _)| {
            let uid = pod.metadata.uid.as_str();
            !finished(pod) && !uid.is_empty() && !seen.insert(uid)
        })
        .collect()
}

/// A pod's `namespace/name` (`Pod::full_name`) as its two parts: equal when the joined strings
/// are equal, and hashed by what follows the joined string's last `/`, which equal joined
/// strings share.
struct FullName<'a>(&'a str, &'a str);

impl FullName<'_> {
    fn joined(&self) -> impl Iterator<Item = u8> + '_ {
        self.0.bytes().chain(*b"/").chain(self.1.bytes())
    }
}

impl PartialEq for FullName<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() + self.1.len() == other.0.len() + other.1.len()
            && self.joined().eq(other.joined())
    }
}

impl Eq for FullName<'_> {}

impl std::hash::Hash for FullName<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let last = self.1.rsplit('/').next().unwrap_or(self.1);
        last.hash(state);
    }
}

/// Checks the timeline against the cluster as it will be at each change's time (nodes and pods
/// it names exist, names it creates do not), resolves created pods' priorities into
/// `spec.priority`, and gives every pod a change creates or names its id.
fn resolve_timeline(
    timeline: &mut Timeline,
    cluster: &Cluster,
    global_default: Option<i32>,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) -> Vec<Vec<(PodId, String)>> {
    use std::collections::{BTreeMap, HashMap, HashSet};
    if timeline.changes.is_empty() {
        return Vec::new();
    }
    let mut nodes: HashSet<String> = cluster.node_index().keys().cloned().collect();
    let mut pods: HashMap<String, PodId> = cluster
        .pods()
        .iter()
        .enumerate()
        .map(|(i, p)| (p.full_name.clone(), i))
        .collect();
    let mut next_id = cluster.pods().len();
    // The DRA objects, as `Change::object` names them.
    let dra = cluster.dra();
    let mut dra_objects: HashSet<String> = dra
        .classes
        .keys()
        .map(|n| format!("deviceclass/{n}"))
        .chain(
            dra.slices()
                .iter()
                .map(|x| format!("resourceslice/{}", x.metadata.name)),
        )
        .chain(dra.claims().iter().filter(|e| !e.deleted).map(|e| {
            format!(
                "resourceclaim/{}/{}",
                e.claim.metadata.namespace_or_default(),
                e.claim.metadata.name
            )
        }))
        .collect();
    let mut batch_next: BTreeMap<String, u64> = BTreeMap::new();
    let mut out = Vec::with_capacity(timeline.changes.len());
    let mut admission = Vec::new();
    for tc in &mut timeline.changes {
        let at = tc.at;
        let file = tc.file.clone();
        let here = join_path(&tc.path, tc.change.verb());
        let mut err = |msg: String| errors.push(Diagnostic::new(&file, here.clone(), msg));
        let mut ids = Vec::new();
        // A pod the change creates: a new name, an existing node if bound, a priority.
        let mut create = |pod: &mut Pod, nodes: &HashSet<String>, err: &mut dyn FnMut(String)| {
            let full = pod.full_name();
            if pods.contains_key(&full) {
                err(format!("pod {full:?} already exists at t={at}"));
                return;
            }
            if !pod.spec.node_name.is_empty() && !nodes.contains(&pod.spec.node_name) {
                err(format!(
                    "pod {full:?} is bound to node {:?}, which does not exist at t={at}",
                    pod.spec.node_name
                ));
                return;
            }
            pod.spec.priority = Some(resolve_priority(
                pod,
                cluster.priority_classes(),
                global_default,
                || join_path(&here, "spec.priorityClassName"),
                &file,
                warnings,
                &mut admission,
            ));
            pods.insert(full, next_id);
            ids.push((next_id, pod.metadata.name.clone()));
            next_id += 1;
        };
        match &mut tc.change {
            Change::AddNode(n) => {
                if !nodes.insert(n.metadata.name.clone()) {
                    err(format!(
                        "node {:?} already exists at t={at}",
                        n.metadata.name
                    ));
                }
            }
            Change::UpdateNode(n) => {
                if !nodes.contains(&n.metadata.name) {
                    err(format!("no node {:?} at t={at}", n.metadata.name));
                }
            }
            Change::DeleteNode(name) => {
                if !nodes.remove(name.as_str()) {
                    err(format!("no node {name:?} at t={at}"));
                }
            }
            Change::CordonNode(name)
            | Change::UncordonNode(name)
            | Change::SetNodeLabels { node: name, .. }
            | Change::SetNodeTaints { node: name, .. } => {
                if !nodes.contains(name.as_str()) {
                    err(format!("no node {name:?} at t={at}"));
                }
            }
            Change::CreatePod(pod) => create(pod, &nodes, &mut err),
            Change::CreatePods { replicas, template } => {
                let prefix = template.metadata.name.clone();
                for _ in 0..*replicas {
                    let k = batch_next.entry(prefix.clone()).or_insert(0);
                    let mut pod = template.as_ref().clone();
                    pod.metadata.name = format!("{prefix}-{k}");
                    *k += 1;
                    create(&mut pod, &nodes, &mut err);
                    // Every replica has the template's priority; resolve (and warn) once.
                    template.spec.priority = pod.spec.priority;
                }
            }
            Change::ApplyDra(_) => {
                dra_objects.insert(tc.change.object());
            }
            Change::DeleteDra { .. } => {
                let object = tc.change.object();
                if !dra_objects.remove(&object) {
                    err(format!("no {object} at t={at}"));
                }
            }
            Change::DeletePod(name) | Change::FailBinding(name) => match pods.get(name.as_str()) {
                Some(&id) => ids.push((id, name.clone())),
                None => err(format!(
                    "no pod {name:?} in the inputs or created before t={at}"
                )),
            },
        }
        out.push(ids);
    }
    errors.extend(admission);
    out
}

#[cfg(test)]
mod tests {
    use crate::trace::Outcome;
    use crate::workloads::scheduling_basic;

    fn placements(run: &crate::simulation::Run) -> Vec<(Outcome, Option<usize>)> {
        run.cycles.iter().map(|c| (c.outcome, c.node)).collect()
    }

    #[test]
    fn decisions_do_not_depend_on_recording_the_trace() {
        // 150 identical nodes (selectHost breaks many ties) with room for 15 pods each:
        // 300 bound + 2000 pending is more than the 2250 slots, so some cycles fail too.
        let mut s = scheduling_basic(150, 300, 2000, 0);
        for n in s.cluster.nodes_mut() {
            let mut facts = n.facts().clone();
            facts.allocatable.pods = 15;
            n.set_facts(std::sync::Arc::new(facts));
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
    fn a_repeated_pod_name_is_an_error_at_the_second_pod_unless_one_has_finished() {
        // p0..p3 in namespace a; the second "a/p1" is the error (items[2]); "a/p2" is given
        // again but the first one has Succeeded, and "b/p3" is another namespace's pod.
        let pod = |ns: &str, name: &str, phase: &str| {
            format!(
                r#"{{"kind": "Pod", "apiVersion": "v1", "metadata": {{"name": "{name}", "namespace": "{ns}"}}, "spec": {{"containers": [{{"name": "c"}}]}}, "status": {{"phase": "{phase}"}}}}"#
            )
        };
        let items = [
            pod("a", "p1", "Pending"),
            pod("a", "p2", "Succeeded"),
            pod("a", "p1", "Pending"),
            pod("a", "p2", "Pending"),
            pod("b", "p3", "Pending"),
            pod("a", "p3", "Pending"),
        ];
        let text = format!(r#"{{"kind": "List", "items": [{}]}}"#, items.join(", "));
        let src = crate::input::Source {
            name: "pods.json",
            text: &text,
        };
        let Err(errors) = super::Scenario::load(&[src]) else {
            panic!("a repeated name is an error");
        };
        let said: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [r#"pods.json: items[2].metadata.name: duplicate pod "a/p1""#]
        );
    }

    #[test]
    fn full_names_are_equal_when_their_joined_strings_are() {
        use super::FullName;
        use std::hash::{BuildHasher, RandomState};
        #[allow(
            clippy::disallowed_methods,
            reason = "the hash must agree whatever the seed: a random one tests that"
        )]
        let hasher = RandomState::new();
        let same = [FullName("a/b", "c"), FullName("a", "b/c")];
        assert!(same[0] == same[1]);
        assert_eq!(hasher.hash_one(&same[0]), hasher.hash_one(&same[1]));
        assert!(FullName("a", "bc") != FullName("ab", "c"));
        assert!(FullName("a", "b") != FullName("a", "c"));
        assert!(FullName("a", "b") == FullName("a", "b"));
    }

    #[test]
    fn the_same_seed_gives_the_same_run() {
        let s = scheduling_basic(120, 0, 300, 0);
        assert_eq!(placements(&s.run(7, true)), placements(&s.run(7, true)));
    }
}
