//! The v1.35 plugin interface: one trait with a method per extension point. A plugin
//! implements the points its [`super::registry::PluginSpec`] declares; the framework never
//! calls the others (their defaults do nothing).
//!
//! Plugins return codes, reasons and scores; they never write the trace. Per-cycle data goes
//! through [`PluginState`], which the framework keeps per plugin and clones where upstream
//! clones the `CycleState` (the nominated-pods pass, preemption's dry runs).

use super::status::{Code, Status};
use crate::cluster::{Cluster, NodeId, NodeInfo, PodInfo};
use crate::sched::Reason;
use std::any::Any;
use std::collections::BTreeSet;

pub use crate::sched::MAX_NODE_SCORE;

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
pub fn state<T: Any>(s: Option<&dyn PluginState>) -> Option<&T> {
    s?.as_any().downcast_ref()
}

/// Downcasts a plugin's state to its type, mutably.
pub fn state_mut<T: Any>(s: &mut dyn PluginState) -> Option<&mut T> {
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

    /// PreEnqueue: may the pod enter the active queue? A rejection parks it as gated.
    fn pre_enqueue(&self, _pod: &PodInfo) -> Status {
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
