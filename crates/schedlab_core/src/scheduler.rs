//! Which kube-scheduler runs a scenario, chosen once when the scenario loads ([`Scheduler`]):
//! v1.17 (a legacy `Policy`, or a provider, built into one profile under a v1alpha1
//! configuration) or v1.35 (a v1 `KubeSchedulerConfiguration` and its profiles). What differs
//! between the two outside the cycle itself is asked of it here: which pending pods it owns,
//! how it accounts for a pod, its queue's mode and backoff, the names its tables use, and
//! whether its scans cover every node.
//!
//! Architecture Invariant: the version is decided here, once. Code above (the scenario, the
//! simulation) matches on [`Scheduler`]; it never rebuilds a scheduler or falls back to a
//! default one.
//!
//! API Boundary: what the page, the CLI and the tests read of each version's pieces (the
//! registries, the configurations, a Policy's translation) is re-exported here, in [`v1_17`]
//! and [`v1_35`]; the versions' own modules stay inside the crate.

use crate::cluster::PodInfo;
use crate::model::Pod;
use crate::queue::QueueConfig;
use crate::sched::extender::{Extender, Flavor};
use crate::sched::sampling::num_feasible_nodes_to_find;
use crate::sched::split_scan::MIN_SPLIT_NODES;
use crate::v117;
use crate::v135;
use crate::v135::plugin::Point;

/// Which kube-scheduler runs a scenario.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum SchedulerVersion {
    /// kube-scheduler v1.17: the legacy `Policy`, predicates and priorities.
    #[default]
    V1_17,
    /// kube-scheduler v1.35: the framework, `KubeSchedulerConfiguration` v1 profiles.
    V1_35,
}

impl SchedulerVersion {
    /// The spelling of `--scheduler` and of the report's `scheduler` key.
    pub fn as_str(self) -> &'static str {
        match self {
            SchedulerVersion::V1_17 => "v1.17",
            SchedulerVersion::V1_35 => "v1.35",
        }
    }

    /// Reads `v1.17` or `v1.35` (also without the `v`).
    pub fn parse(s: &str) -> Option<SchedulerVersion> {
        match s.trim_start_matches('v') {
            "1.17" => Some(SchedulerVersion::V1_17),
            "1.35" => Some(SchedulerVersion::V1_35),
            _ => None,
        }
    }
}

/// The scheduler a scenario runs, built from its configuration documents.
pub enum Scheduler {
    /// kube-scheduler v1.17.
    V117(v117::Scheduler),
    /// kube-scheduler v1.35.
    V135(v135::config::Configuration),
}

impl Scheduler {
    /// Its version.
    pub fn version(&self) -> SchedulerVersion {
        match self {
            Scheduler::V117(_) => SchedulerVersion::V1_17,
            Scheduler::V135(_) => SchedulerVersion::V1_35,
        }
    }

    /// The `schedulerName`s whose pending pods it schedules (v1.35: one per profile).
    pub fn scheduler_names(&self) -> Vec<String> {
        match self {
            Scheduler::V117(s) => vec![s.config.scheduler_name.clone()],
            Scheduler::V135(c) => c
                .profiles
                .iter()
                .map(|p| p.scheduler_name.clone())
                .collect(),
        }
    }

    /// v1.35: the PreEnqueue plugin that holds `pod` back (it gets no cycle), with its
    /// status message; `None` when every one lets it in (and always under v1.17).
    pub fn pre_enqueue_gate(
        &self,
        pod: &PodInfo,
        cluster: &crate::cluster::Cluster,
    ) -> Option<(&'static str, String)> {
        let Scheduler::V135(c) = self else {
            return None;
        };
        let profile = c.profile(pod.pod.scheduler_name())?;
        profile.at(Point::PreEnqueue).find_map(|e| {
            let status = e.plugin.pre_enqueue(pod, cluster);
            (!status.is_success()).then(|| (e.spec.name, status.message()))
        })
    }

    /// Whether a profile enables the plugin `name` at any point (never under v1.17).
    pub fn enables(&self, name: &str) -> bool {
        match self {
            Scheduler::V117(_) => false,
            Scheduler::V135(c) => c
                .profiles
                .iter()
                .any(|p| p.plugins.iter().any(|e| e.spec.name == name)),
        }
    }

    /// Whether it schedules `pod` (the pod names one of its scheduler names).
    pub fn owns(&self, pod: &Pod) -> bool {
        match self {
            Scheduler::V117(s) => pod.scheduler_name() == s.config.scheduler_name,
            Scheduler::V135(c) => c.profile(pod.scheduler_name()).is_some(),
        }
    }

    /// A pod as this scheduler's cache accounts for it ([`PodInfo::new`], or v1.35's
    /// [`v135::pod_info`]).
    pub fn pod_info(&self, pod: impl Into<Box<Pod>>, priority: i32, index: usize) -> PodInfo {
        match self {
            Scheduler::V117(_) => PodInfo::new(pod, priority, index),
            Scheduler::V135(_) => v135::pod_info(pod, priority, index),
        }
    }

    /// Its extenders, ignorable ones last (a Policy's, or the v1 configuration's).
    pub fn extenders(&self) -> &[Extender] {
        match self {
            Scheduler::V117(s) => &s.algorithm.settings.extenders,
            Scheduler::V135(c) => &c.extenders,
        }
    }

    /// The rules its extender calls follow.
    pub(crate) fn extender_flavor(&self) -> Flavor {
        match self {
            Scheduler::V117(_) => Flavor::V117,
            Scheduler::V135(_) => Flavor::V135,
        }
    }

    /// Its queue's mode and backoff bounds.
    pub fn queue_config(&self) -> QueueConfig {
        match self {
            Scheduler::V117(s) => QueueConfig::from_seconds(
                s.config.pod_initial_backoff_seconds,
                s.config.pod_max_backoff_seconds,
            ),
            Scheduler::V135(c) => {
                QueueConfig::v1_35(c.pod_initial_backoff_seconds, c.pod_max_backoff_seconds)
            }
        }
    }

    /// The names of the filter table's columns, in order (v1.35: the first profile's Filter
    /// plugins).
    pub fn filter_names(&self) -> Vec<String> {
        match self {
            Scheduler::V117(s) => s.algorithm.filter_names(),
            Scheduler::V135(c) => first_profile_names(c, Point::Filter),
        }
    }

    /// The names of the score table's columns, in order (v1.35: the first profile's Score
    /// plugins).
    pub fn score_names(&self) -> Vec<String> {
        match self {
            Scheduler::V117(s) => s.algorithm.score_names(),
            Scheduler::V135(c) => first_profile_names(c, Point::Score),
        }
    }

    /// Whether the cycles over `nodes` nodes filter and score every node of a cluster big
    /// enough for each scan to be split in two parts (`sched::split_scan`): some profile
    /// scores 100 % of the nodes, and there are at least `MIN_SPLIT_NODES`.
    pub fn scans_every_node(&self, nodes: usize) -> bool {
        let every = |percentage: i32| num_feasible_nodes_to_find(nodes, percentage) >= nodes;
        nodes >= MIN_SPLIT_NODES
            && match self {
                Scheduler::V117(s) => every(s.algorithm.settings.percentage_of_nodes_to_score),
                Scheduler::V135(c) => c.percentages().any(every),
            }
    }
}

/// The names at `point` of a configuration's first profile.
fn first_profile_names(c: &v135::config::Configuration, point: Point) -> Vec<String> {
    c.profiles.first().map_or(Vec::new(), |p| {
        p.names_at(point).into_iter().map(String::from).collect()
    })
}

/// kube-scheduler v1.17's pieces as the page's forms and the tools read them: the legacy
/// `Policy` and its checks, the v1alpha1 configuration, the predicates and priorities by name.
pub mod v1_17 {
    pub use crate::v117::plugin::{
        Algorithm, AlgorithmSettings, ConfiguredFilter, ConfiguredScore,
    };
    pub use crate::v117::policy::config::{SchedulerConfiguration, V1ALPHA1};
    pub use crate::v117::policy::{build, Built, PolicyDocument, PolicyError};
    pub use crate::v117::predicates::{
        default_provider as default_provider_predicates, mandatory, names as predicate_names,
        ordering as predicate_ordering, PredicateSpec, REGISTRY as PREDICATES,
    };
    pub use crate::v117::priorities::{
        default_provider as default_provider_priorities, names as priority_names,
    };
    pub use crate::v117::Scheduler;
}

/// kube-scheduler v1.35's pieces as the page's forms and the tools read them: the v1
/// configuration and its plan, the plugin registry, the extension points and status codes.
pub mod v1_35 {
    pub use crate::trace::v135::Code;
    pub use crate::v135::config::{plan, Configuration, ProfilePlan, DEFAULT_SCHEDULER_NAME, V1};
    pub use crate::v135::custom::script::{
        script_plugin, ScriptObject, ScriptPlugin, ScriptStatus,
    };
    pub use crate::v135::custom::wasm_guest::wasm_guest_plugin;
    pub use crate::v135::custom::{with_custom_plugins, CustomPlugin};
    pub use crate::v135::plugin::{PluginSpec, Point, Points};
    pub use crate::v135::profile::Profile;
    pub use crate::v135::registry::{default_plugins, lookup, REGISTRY};
}

/// Scheduler extenders as the hosts set them up: who answers (a live [`Transport`], the
/// scenario's mocks and recording), the exchanges kept, the calls a run awaits.
///
/// [`Transport`]: extenders::Transport
pub mod extenders {
    pub use crate::sched::extender::answers::{
        Answers, Exchange, PendingCall, Source, Transport, MAX_REPLY_BYTES,
    };
    pub use crate::sched::extender::recording::{RecordedCall, Recording};
    pub use crate::sched::extender::{Extender, ManagedResource, Verb};
}

pub use crate::sched::victims::Criterion;
pub use crate::translate::{to_json, to_yaml, translate, Translation};
