//! The v1.35 plugin interface: the extension points ([`Point`]), what a plugin file declares
//! about its plugin ([`PluginSpec`]), and one trait with a method per extension point
//! ([`Plugin`]). A plugin implements the points its spec declares; the framework never calls
//! the others (their defaults do nothing).
//!
//! Plugins return codes, reasons and scores; they never write the trace. Per-cycle data goes
//! through [`PluginState`], which the framework keeps per plugin and clones where upstream
//! clones the `CycleState` (the nominated-pods pass, preemption's dry runs).

use super::status::{Code, Status};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::model::field::FieldError;
use crate::queue::ClusterChange;
use crate::sched::Reason;
use std::any::Any;
use std::collections::BTreeSet;
use std::fmt;

pub(crate) use crate::sched::MAX_NODE_SCORE;

/// An extension point of the framework.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Point {
    /// `PreEnqueue`.
    PreEnqueue,
    /// `QueueSort`.
    QueueSort,
    /// `PreFilter`.
    PreFilter,
    /// `Filter`.
    Filter,
    /// `PostFilter`.
    PostFilter,
    /// `PreScore`.
    PreScore,
    /// `Score`.
    Score,
    /// `Reserve`.
    Reserve,
    /// `Permit`.
    Permit,
    /// `PreBind`.
    PreBind,
    /// `Bind`.
    Bind,
    /// `PostBind`.
    PostBind,
}

impl Point {
    /// Every point, in the order of the `Plugins` struct.
    pub const ALL: [Point; 12] = [
        Point::PreEnqueue,
        Point::QueueSort,
        Point::PreFilter,
        Point::Filter,
        Point::PostFilter,
        Point::PreScore,
        Point::Score,
        Point::Reserve,
        Point::Permit,
        Point::PreBind,
        Point::Bind,
        Point::PostBind,
    ];

    /// The order in which `NewFramework` processes the per-point lists (`updatePluginList`)
    /// and then expands `multiPoint`: the order in which it meets an unknown plugin.
    pub const FRAMEWORK_ORDER: [Point; 12] = [
        Point::PreFilter,
        Point::Filter,
        Point::PostFilter,
        Point::Reserve,
        Point::PreScore,
        Point::Score,
        Point::PreBind,
        Point::Bind,
        Point::PostBind,
        Point::Permit,
        Point::PreEnqueue,
        Point::QueueSort,
    ];

    /// The field name in a configuration (`preFilter`).
    pub fn field(self) -> &'static str {
        match self {
            Point::PreEnqueue => "preEnqueue",
            Point::QueueSort => "queueSort",
            Point::PreFilter => "preFilter",
            Point::Filter => "filter",
            Point::PostFilter => "postFilter",
            Point::PreScore => "preScore",
            Point::Score => "score",
            Point::Reserve => "reserve",
            Point::Permit => "permit",
            Point::PreBind => "preBind",
            Point::Bind => "bind",
            Point::PostBind => "postBind",
        }
    }

    /// The Go interface name (`PreFilterPlugin`), as upstream's errors print it.
    pub fn interface(self) -> &'static str {
        match self {
            Point::PreEnqueue => "PreEnqueuePlugin",
            Point::QueueSort => "QueueSortPlugin",
            Point::PreFilter => "PreFilterPlugin",
            Point::Filter => "FilterPlugin",
            Point::PostFilter => "PostFilterPlugin",
            Point::PreScore => "PreScorePlugin",
            Point::Score => "ScorePlugin",
            Point::Reserve => "ReservePlugin",
            Point::Permit => "PermitPlugin",
            Point::PreBind => "PreBindPlugin",
            Point::Bind => "BindPlugin",
            Point::PostBind => "PostBindPlugin",
        }
    }

    /// The name the page and the trace use (`PreFilter`).
    pub fn title(self) -> &'static str {
        self.interface().trim_end_matches("Plugin")
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// A set of extension points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points(u16);

impl Points {
    /// No point.
    pub const NONE: Points = Points(0);

    /// These points.
    pub const fn of(points: &[Point]) -> Points {
        let mut bits = 0;
        let mut i = 0;
        while i < points.len() {
            bits |= points[i].bit();
            i += 1;
        }
        Points(bits)
    }

    /// Whether `p` is in the set.
    pub fn has(self, p: Point) -> bool {
        self.0 & p.bit() != 0
    }

    /// The points in the set, in [`Point::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Point> {
        Point::ALL.into_iter().filter(move |&p| self.has(p))
    }
}

/// How a plugin's args are read: strictly, defaulted, validated (`field.Error`s relative to
/// `args`), and turned into an instance.
pub(crate) type BuildFn =
    fn(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>>;

/// What a plugin file declares about its plugin.
pub struct PluginSpec {
    /// The registered name (`NodeResourcesFit`).
    pub name: &'static str,
    /// The extension points it implements.
    pub points: Points,
    /// Whether v1.35's default configuration enables it (`getDefaultPlugins`, multiPoint).
    pub default_enabled: bool,
    /// Its weight in that default list, where it gives one (`TaintToleration` 3); a Score
    /// plugin without one gets 1.
    pub default_weight: Option<i64>,
    /// The kind of its args (`NodeResourcesFitArgs`), for plugins that take any.
    pub args_kind: Option<&'static str>,
    /// Whether configuration validation checks its args (`ValidateKubeSchedulerConfiguration`).
    /// False for NodeResourcesFit, whose args are checked only when the plugin is built
    /// (upstream's map key quirk, reference §2.3).
    pub args_checked_by_validation: bool,
    /// Builds an instance from its args (`None`: every default).
    pub build: BuildFn,
}

/// What every plugin sees in a cycle.
pub struct Cx<'a> {
    /// The snapshot.
    pub cluster: &'a Cluster,
    /// The pod being scheduled.
    pub pod: &'a PodInfo,
    /// Every node of the snapshot, in node-tree order (`nodeInfoList`).
    pub order: &'a [NodeId],
}

/// A plugin's per-cycle data (upstream's `StateData`): anything `Clone`.
pub trait PluginState: Any + Send + Sync {
    /// A copy (`StateData.Clone`).
    fn clone_state(&self) -> Box<dyn PluginState>;
    /// For downcasting.
    fn as_any(&self) -> &dyn Any;
    /// For downcasting.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone + Send + Sync> PluginState for T {
    fn clone_state(&self) -> Box<dyn PluginState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Downcasts a plugin's state to its type.
pub(crate) fn state<T: Any>(s: Option<&dyn PluginState>) -> Option<&T> {
    s?.as_any().downcast_ref()
}

/// Downcasts a plugin's state to its type, mutably.
pub(crate) fn state_mut<T: Any>(s: &mut dyn PluginState) -> Option<&mut T> {
    s.as_any_mut().downcast_mut()
}

/// What `PreFilter` returns.
#[derive(Default)]
pub struct PreFilterOutput {
    /// `Success`, `Skip` (this plugin's Filter does not run), `Unschedulable`,
    /// `UnschedulableAndUnresolvable` (the pod is rejected) or `Error`.
    pub status: Status,
    /// `PreFilterResult.NodeNames`: the only nodes worth filtering, when the plugin knows.
    pub nodes: Option<BTreeSet<String>>,
    /// State for Filter and for the AddPod/RemovePod extensions.
    pub state: Option<Box<dyn PluginState>>,
}

impl PreFilterOutput {
    /// Success with this state.
    pub fn with_state(state: impl PluginState) -> PreFilterOutput {
        PreFilterOutput {
            state: Some(Box::new(state)),
            ..PreFilterOutput::default()
        }
    }

    /// `Skip`.
    pub fn skip() -> PreFilterOutput {
        PreFilterOutput {
            status: Status::skip(),
            ..PreFilterOutput::default()
        }
    }

    /// A rejection or error with one reason.
    pub fn status(code: Code, reason: impl Into<Reason>) -> PreFilterOutput {
        PreFilterOutput {
            status: Status::new(code, reason),
            ..PreFilterOutput::default()
        }
    }
}

/// What `PreScore` returns.
#[derive(Default)]
pub struct PreScoreOutput {
    /// `Success`, `Skip` (this plugin's Score does not run) or `Error`.
    pub status: Status,
    /// State for Score and NormalizeScore.
    pub state: Option<Box<dyn PluginState>>,
}

impl PreScoreOutput {
    /// Success with this state.
    pub fn with_state(state: impl PluginState) -> PreScoreOutput {
        PreScoreOutput {
            status: Status::success(),
            state: Some(Box::new(state)),
        }
    }

    /// `Skip`.
    pub fn skip() -> PreScoreOutput {
        PreScoreOutput {
            status: Status::skip(),
            state: None,
        }
    }
}

/// A QueueingHint's answer (`fwk.QueueingHint`): may the event make the pod schedulable?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueingHint {
    /// The event cannot help: the pod keeps waiting.
    QueueSkip,
    /// The event may help: the pod is retried.
    Queue,
}

impl QueueingHint {
    /// `Queue` when `may_help`, else `QueueSkip`.
    pub fn queue_if(may_help: bool) -> QueueingHint {
        if may_help {
            QueueingHint::Queue
        } else {
            QueueingHint::QueueSkip
        }
    }
}

/// Downcasting for plugin instances (the framework reads DefaultPreemption's args).
pub trait AsAny: Any {
    /// `self` as `Any`.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A v1.35 plugin. Every method has a default that does nothing; the registry entry says
/// which points the plugin implements, and only those are called.
pub trait Plugin: AsAny + Send + Sync {
    /// Its registered name.
    fn name(&self) -> &'static str;

    /// `EventsToRegister` with its QueueingHint functions: whether `change` may make `pod`,
    /// which this plugin rejected, schedulable. A pod leaves the unschedulable pool only when
    /// one of its rejectors says `Queue`. The default queues on every event, as upstream does
    /// for a plugin that registers no events.
    fn queueing_hint(
        &self,
        _change: &ClusterChange,
        _pod: &PodInfo,
        _cluster: &Cluster,
    ) -> QueueingHint {
        QueueingHint::Queue
    }

    /// PreEnqueue: may the pod enter the active queue? A rejection parks it as gated.
    fn pre_enqueue(&self, _pod: &PodInfo, _cluster: &Cluster) -> Status {
        Status::success()
    }

    /// PreFilter: once per cycle, before any node.
    fn pre_filter(&self, _cx: &Cx) -> PreFilterOutput {
        PreFilterOutput::default()
    }

    /// `PreFilterExtensions.AddPod`: `added`, on `node`, now counts in `state` (nominated pods,
    /// preemption's reprieves).
    fn add_pod(&self, _cx: &Cx, _state: &mut dyn PluginState, _added: &PodInfo, _node: &NodeInfo) {}

    /// `PreFilterExtensions.RemovePod`: `removed`, on `node`, no longer counts in `state`
    /// (preemption's victims).
    fn remove_pod(
        &self,
        _cx: &Cx,
        _state: &mut dyn PluginState,
        _removed: &PodInfo,
        _node: &NodeInfo,
    ) {
    }

    /// Filter: does the pod fit `node`? Pushes the reasons of a rejection onto `reasons`
    /// (nothing on success; the message of an `Error`).
    fn filter(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _node: &NodeInfo,
        _reasons: &mut Vec<Reason>,
    ) -> Code {
        Code::Success
    }

    /// For a detailed trace only, after Filter ran on `node`: the plugin's answer for each of
    /// the pod's resource claims there (DynamicResources' allocator). Never called on the fast
    /// path, so it may repeat work.
    fn claim_answers(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _node: &NodeInfo,
    ) -> Vec<crate::trace::v135::ClaimOnNode> {
        Vec::new()
    }

    /// PreScore: once per cycle, with the feasible nodes.
    fn pre_score(&self, _cx: &Cx, _nodes: &[&NodeInfo]) -> PreScoreOutput {
        PreScoreOutput::default()
    }

    /// Score: the node's raw score, or an error message.
    fn score(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _node: &NodeInfo,
    ) -> Result<i64, String> {
        Ok(0)
    }

    /// Reserve, for the chosen `node` (after assume). The in-tree plugins' reservations
    /// (VolumeBinding's `AssumePodVolumes`) are made by the simulation's assume step, so the
    /// default is Success.
    fn reserve(&self, _cx: &Cx, _state: Option<&dyn PluginState>, _node: &NodeInfo) -> Status {
        Status::success()
    }

    /// Permit, for the chosen `node`: Success, or `Wait` (no in-tree plugin waits).
    fn permit(&self, _cx: &Cx, _state: Option<&dyn PluginState>, _node: &NodeInfo) -> Status {
        Status::success()
    }

    /// PreBind, in the binding cycle. VolumeBinding's `BindPodVolumes` is the simulation's
    /// bind step; the default is Success.
    fn pre_bind(&self, _cx: &Cx, _state: Option<&dyn PluginState>, _node: &NodeInfo) -> Status {
        Status::success()
    }

    /// Bind: Success when this plugin binds the pod (DefaultBinder's `Binding`, made by the
    /// simulation's bind step), `Skip` to leave it to the next Bind plugin.
    fn bind(&self, _cx: &Cx, _state: Option<&dyn PluginState>, _node: &NodeInfo) -> Status {
        Status::success()
    }

    /// [`Plugin::score`] for each of `nodes`, into `out` (as long as `nodes`). An optimisation,
    /// not an extension point: a plugin may override it to read its PreScore state once and
    /// score in a tight loop. Must agree with [`Plugin::score`], node by node.
    fn score_nodes(
        &self,
        cx: &Cx,
        state: Option<&dyn PluginState>,
        nodes: &[&NodeInfo],
        out: &mut [i64],
    ) -> Result<(), String> {
        for (slot, node) in out.iter_mut().zip(nodes) {
            *slot = self.score(cx, state, node)?;
        }
        Ok(())
    }

    /// An optimisation, not an extension point: `true` when this Filter passes every node this
    /// cycle (a pod naming no node, a cluster without cordoned nodes). The framework then does
    /// not call it per node while no trace is recorded. Must agree with [`Plugin::filter`].
    fn passes_everywhere(&self, _cx: &Cx) -> bool {
        false
    }

    /// An optimisation, not an extension point: the raw score every node gets this cycle, when
    /// it is the same everywhere (no node has an image the pod uses, a pod without claims). The
    /// framework then fills the scores without calling [`Plugin::score`] per node. Must agree
    /// with it.
    fn uniform_score(&self, _cx: &Cx, _state: Option<&dyn PluginState>) -> Option<i64> {
        None
    }

    /// An optimisation, not an extension point: whether [`Plugin::normalize`] may change the
    /// scores. `false` (a Score plugin without `ScoreExtensions`) lets a split scan add the
    /// weighted scores in its two parts, on their own threads. The default is the safe answer.
    fn normalizes(&self) -> bool {
        true
    }

    /// `ScoreExtensions.NormalizeScore`, in place; the default keeps the scores.
    fn normalize(
        &self,
        _cx: &Cx,
        _state: Option<&dyn PluginState>,
        _nodes: &[&NodeInfo],
        _scores: &mut [i64],
    ) {
    }
}
