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
    /// DynamicResources' answer per claim on each node its Filter ran on, in evaluation order.
    pub claims: Vec<NodeClaims>,
}

/// DynamicResources' Filter on one node, claim by claim: the allocator's answer for each of
/// the pod's claims (recorded only when the trace is detailed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeClaims {
    /// The node.
    pub node: NodeId,
    /// The pod's claims, in `spec.resourceClaims` order.
    pub claims: Vec<ClaimOnNode>,
}

/// One claim's answer on one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimOnNode {
    /// `namespace/name`.
    pub claim: String,
    /// What the allocator says.
    pub answer: ClaimAnswer,
}

/// What the allocator says about a claim on a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimAnswer {
    /// Allocated before this cycle: whether its allocation's node selector admits the node.
    Allocated {
        /// The node is one where the allocation can be used.
        usable: bool,
    },
    /// The devices chosen: (`request`, `driver/pool/device`), in allocation order.
    Devices(Vec<(String, String)>),
    /// No devices for it on this node: why, in plain words.
    Failed(String),
    /// Not looked at: the allocator stops at an earlier claim that failed, and this one
    /// would fit on its own.
    NotReached,
}

impl ClaimOnNode {
    /// One line: `claim <name>: <answer>`.
    pub fn describe(&self) -> String {
        format!("claim {}: {}", self.claim, self.answer_text())
    }

    /// The answer in plain words.
    pub fn answer_text(&self) -> String {
        match &self.answer {
            ClaimAnswer::Allocated { usable: true } => "already allocated, usable here".into(),
            ClaimAnswer::Allocated { usable: false } => {
                "already allocated with a node selector that excludes this node".into()
            }
            ClaimAnswer::Devices(d) => {
                let list: Vec<String> = d.iter().map(|(r, id)| format!("{r}={id}")).collect();
                format!("devices {}", list.join(", "))
            }
            ClaimAnswer::Failed(why) => why.clone(),
            ClaimAnswer::NotReached => {
                "not tried (an earlier claim failed first; it would fit on its own)".into()
            }
        }
    }

    /// Whether this claim is why the node was rejected.
    pub fn failed(&self) -> bool {
        matches!(
            self.answer,
            ClaimAnswer::Failed(_) | ClaimAnswer::Allocated { usable: false }
        )
    }
}

impl ModernTrace {
    /// The claims DynamicResources could not place, grouped by claim and reason, each with
    /// the nodes it names (at most three, then how many more): `claim <c> on <n1>, <n2>:
    /// <why>`. `name` gives a node's name.
    pub fn claim_failures(&self, name: &dyn Fn(NodeId) -> String) -> Vec<String> {
        let mut groups: Vec<(&ClaimOnNode, Vec<NodeId>)> = Vec::new();
        for n in &self.claims {
            for c in n.claims.iter().filter(|c| c.failed()) {
                match groups.iter_mut().find(|(g, _)| *g == c) {
                    Some((_, nodes)) => nodes.push(n.node),
                    None => groups.push((c, vec![n.node])),
                }
            }
        }
        groups
            .into_iter()
            .map(|(c, nodes)| {
                let mut names: Vec<String> = nodes.iter().take(3).map(|&n| name(n)).collect();
                if nodes.len() > 3 {
                    names.push(format!("{} more", nodes.len() - 3));
                }
                format!(
                    "claim {} on {}: {}",
                    c.claim,
                    names.join(", "),
                    c.answer_text()
                )
            })
            .collect()
    }
}
