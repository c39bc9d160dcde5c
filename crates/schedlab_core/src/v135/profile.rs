//! A profile ready to run (upstream's `frameworkImpl`): one instance per enabled plugin, the
//! ordered plugin list of every extension point, and the Score weights. Built from a v1
//! configuration by [`super::config`]; built once per scheduler name.

use super::plugin::{Plugin, PluginSpec, Point, QueueingHint};
use crate::cluster::{Cluster, PodInfo};
use crate::queue::ClusterChange;
use std::sync::Arc;

/// One enabled plugin.
pub struct Enabled {
    /// Its registry entry.
    pub spec: &'static PluginSpec,
    /// The instance, built from its args.
    pub plugin: Box<dyn Plugin>,
    /// Its Score weight (1 when it is not a Score plugin).
    pub weight: i64,
}

/// A runnable profile.
pub struct Profile {
    /// `schedulerName`.
    pub scheduler_name: String,
    /// The profile's `percentageOfNodesToScore`, if set (else the global one applies).
    pub percentage_of_nodes_to_score: Option<i32>,
    /// Every enabled plugin, once each, in the order first met.
    pub plugins: Vec<Enabled>,
    /// For each [`Point`] (indexed by `Point as usize`), the plugins that run there, in order,
    /// as indices into `plugins`.
    pub points: [Vec<usize>; 12],
    /// The Filter plugins' names, in order (shared by every cycle's trace).
    pub filter_names: Arc<[&'static str]>,
    /// The Score plugins' names, in order (shared by every cycle's trace).
    pub score_names: Arc<[&'static str]>,
}

impl Profile {
    /// A profile from its plugins and the list at each point.
    pub fn new(
        scheduler_name: String,
        percentage_of_nodes_to_score: Option<i32>,
        plugins: Vec<Enabled>,
        points: [Vec<usize>; 12],
    ) -> Profile {
        let names = |p: Point| -> Arc<[&'static str]> {
            points[p as usize]
                .iter()
                .map(|&i| plugins[i].spec.name)
                .collect()
        };
        let (filter_names, score_names) = (names(Point::Filter), names(Point::Score));
        Profile {
            scheduler_name,
            percentage_of_nodes_to_score,
            plugins,
            points,
            filter_names,
            score_names,
        }
    }

    /// The plugins at `point`, in order.
    pub fn at(&self, point: Point) -> impl Iterator<Item = &Enabled> + '_ {
        self.points[point as usize]
            .iter()
            .map(|&i| &self.plugins[i])
    }

    /// The names of the plugins at `point`, in order.
    pub fn names_at(&self, point: Point) -> Vec<&'static str> {
        self.at(point).map(|e| e.spec.name).collect()
    }

    /// `RunPreEnqueuePlugins`: the first PreEnqueue plugin that does not let `pod` into the
    /// active queue, or `None` when all do.
    pub fn pre_enqueue_rejection(&self, pod: &PodInfo, cluster: &Cluster) -> Option<&'static str> {
        self.at(Point::PreEnqueue)
            .find(|e| !e.plugin.pre_enqueue(pod, cluster).is_success())
            .map(|e| e.spec.name)
    }

    /// `queueingHintMap` asked for a pod this profile's plugins `rejectors` rejected: whether
    /// one of them says `change` may make it schedulable ([`Plugin::queueing_hint`]).
    pub fn may_help(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        rejectors: &[&'static str],
        cluster: &Cluster,
    ) -> bool {
        rejectors.iter().any(|&name| {
            // Extenders have no hints: when they dropped nodes, any event requeues the pod.
            name == crate::sched::extender::EXTENDER_NAME
                || self.plugins.iter().any(|e| {
                    e.spec.name == name
                        && e.plugin.queueing_hint(change, pod, cluster) == QueueingHint::Queue
                })
        })
    }
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Profile");
        d.field("scheduler_name", &self.scheduler_name);
        for p in Point::ALL {
            d.field(p.field(), &self.names_at(p));
        }
        d.finish()
    }
}
