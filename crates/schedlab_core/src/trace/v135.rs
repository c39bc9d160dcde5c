//! What a v1.35 cycle adds to its record ([`ModernTrace`]): each extension point's plugins
//! with their status codes ([`Code`]), the skipped filters, PreFilter's narrowing, the
//! nominated node tried first, and PostFilter.

use crate::cluster::NodeId;
use std::sync::Arc;

/// `fwk.Code`, upstream's result codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The plugin ran and found nothing wrong.
    #[default]
    Success,
    /// An internal error: the cycle ends with outcome `Error`.
    Error,
    /// The pod does not fit, but preemption may help.
    Unschedulable,
    /// The pod does not fit and preemption cannot help.
    UnschedulableAndUnresolvable,
    /// Permit: the pod waits.
    Wait,
    /// PreFilter / PreScore: this plugin's Filter / Score does not run this cycle.
    Skip,
    /// The pod waits for something outside the scheduler (requeued without backoff).
    Pending,
}

impl Code {
    /// Upstream's spelling (`Code.String()`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Success => "Success",
            Code::Error => "Error",
            Code::Unschedulable => "Unschedulable",
            Code::UnschedulableAndUnresolvable => "UnschedulableAndUnresolvable",
            Code::Wait => "Wait",
            Code::Skip => "Skip",
            Code::Pending => "Pending",
        }
    }

    /// `IsRejected`: Unschedulable, UnschedulableAndUnresolvable or Pending.
    pub fn is_rejected(self) -> bool {
        matches!(
            self,
            Code::Unschedulable | Code::UnschedulableAndUnresolvable | Code::Pending
        )
    }
}

/// One plugin's status, as the trace keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginStatus {
    /// The plugin.
    pub plugin: &'static str,
    /// Its code.
    pub code: Code,
    /// `Status.Message()`.
    pub message: String,
}

/// What a v1.35 cycle adds to its [`super::CycleTrace`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModernTrace {
    /// The profile (`schedulerName`).
    pub profile: String,
    /// The Filter plugins of the profile, in order (the trace's filter indices).
    pub filter_names: Arc<[&'static str]>,
    /// The Score plugins of the profile, in order.
    pub score_names: Arc<[&'static str]>,
    /// Every PreFilter plugin that ran, with its status (Success, Skip or a rejection).
    pub pre_filter: Vec<PluginStatus>,
    /// Filter indices whose PreFilter returned Skip: they did not run this cycle.
    pub skipped_filters: Vec<usize>,
    /// The nodes a PreFilter result narrowed the search to (`None`: all nodes).
    pub pre_filter_nodes: Option<usize>,
    /// The nominated node tried first, and whether it passed.
    pub nominated_node: Option<(NodeId, bool)>,
    /// Per evaluated node (parallel to `CycleTrace::filter`), the code of its status.
    pub node_codes: Vec<Code>,
    /// Every PreScore plugin, with its status.
    pub pre_score: Vec<PluginStatus>,
    /// Score indices that ran (PreScore did not return Skip); `CycleTrace::scores` entries are
    /// in this order.
    pub scored: Vec<usize>,
    /// Every PostFilter plugin that ran, with its status.
    pub post_filter: Vec<PluginStatus>,
    /// For a scheduled pod: the Reserve plugins, with their statuses.
    pub reserve: Vec<PluginStatus>,
    /// For a scheduled pod: the Permit plugins, with their statuses.
    pub permit: Vec<PluginStatus>,
    /// For a scheduled pod: the PreBind plugins the binding cycle runs, with their statuses.
    pub pre_bind: Vec<PluginStatus>,
    /// For a scheduled pod: the Bind plugins that ran (up to the first that did not Skip).
    pub bind: Vec<PluginStatus>,
    /// The Score plugins saw the feasible nodes without their pods: an extender answered its
    /// filter with `Nodes` (kubernetes#141781, an upstream bug reproduced; fix PR #141919).
    pub fresh_nodes: bool,
}
