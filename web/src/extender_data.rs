//! The scheduler extenders' plain data that crosses from the engine to the page: one call as
//! the inspector shows it ([`CallView`], built by [`crate::extender_view`]) and the run's
//! extenders as the Extenders editor's panel shows them ([`ExtenderFacts`], made by
//! [`facts`] when a run ends). Imports nothing of the page.

use serde::{Deserialize, Serialize};

/// One call to an extender, ready to render.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallView {
    /// The extender's `urlPrefix` (its name upstream).
    pub extender: String,
    /// `filter`, `prioritize`, `preempt` or `bind`.
    pub verb: String,
    /// The inspector section it belongs to.
    pub phase: String,
    /// Who answered: `mock`, `recording` or `live`.
    pub source: String,
    /// The call's error (`failed filter with extender at URL ..., code 500`, a timeout, ...).
    pub error: Option<String>,
    /// Whether the error was skipped: the extender is `ignorable` (filter, preempt, v1.35's
    /// bind), or it was a prioritize call (whose errors are always ignored).
    pub ignored: bool,
    /// filter: the nodes sent.
    pub sent: Vec<String>,
    /// filter: the nodes it kept.
    pub kept: Vec<String>,
    /// filter: the nodes it failed, each with its message.
    pub failed: Vec<FailedNode>,
    /// filter: the nodes it left out without a message (v1.17 does not read
    /// `FailedAndUnresolvableNodes`: such nodes are simply missing).
    pub dropped: Vec<String>,
    /// filter (v1.35): the kept nodes came back as `Nodes`, fresh NodeInfos without their
    /// pods, which the Score plugins then read (kubernetes#141781).
    pub fresh_nodes: bool,
    /// prioritize: each node's answer: (node, raw 0-10, raw × weight × 10).
    pub scores: Vec<(String, i64, i64)>,
    /// prioritize: the weight.
    pub weight: i64,
    /// preempt: the nodes it left, each with its victim count.
    pub victims: Vec<(String, usize)>,
    /// bind: the node.
    pub node: Option<String>,
    /// The request body (`None` when too large to keep).
    pub request: Option<String>,
    /// The reply body, or what happened instead (`HTTP 500`, a timeout).
    pub reply: Option<String>,
}

/// A node an extender's filter failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedNode {
    /// The node's name (as the extender wrote it).
    pub node: String,
    /// The extender's message.
    pub message: String,
    /// `FailedAndUnresolvableNodes` (v1.35: preemption will not try the node).
    pub unresolvable: bool,
    /// The name is no node of the cluster.
    pub unknown: bool,
}

/// The scheduler's extenders as the page shows them beside the editors: what each one is,
/// who answers it, and the live calls this run made.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtenderFacts {
    /// The configured extenders, ignorable ones last (the order they are called in).
    pub configured: Vec<ConfiguredExtender>,
    /// Exchanges made with live servers during this run (a recording to save).
    pub live_calls: usize,
    /// Exchanges held by the scenario's recording.
    pub recorded_calls: usize,
    /// Live calls that got no reply: (URL, what happened).
    pub failures: Vec<(String, String)>,
    /// kubernetes#141781 is fixed for this run (the page's switch).
    pub nodeinfo_fix: bool,
}

/// One configured extender.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfiguredExtender {
    /// `urlPrefix`.
    pub url_prefix: String,
    /// The verbs it implements: (verb, its path).
    pub verbs: Vec<(String, String)>,
    /// `weight`.
    pub weight: i64,
    /// `ignorable`.
    pub ignorable: bool,
    /// `nodeCacheCapable`.
    pub node_cache_capable: bool,
    /// `httpTimeout` in milliseconds (`None`: no limit).
    pub timeout_ms: Option<u64>,
    /// Its `managedResources` (it is asked only about pods that use one of them).
    pub managed: Vec<String>,
    /// Who answers it: `mock` (an ExtenderMock), `recording` (an ExtenderRecording holds
    /// calls to it) or `live` (the page calls its URL).
    pub answered_by: String,
}

/// The facts of `scenario`'s extenders after a run; `failures` are the live calls that got
/// no reply.
pub fn facts(scenario: &schedlab_core::Scenario, failures: &[(String, String)]) -> ExtenderFacts {
    use schedlab_core::scheduler::extenders::Verb;
    let answers = &scenario.extender_answers;
    let recording = answers.recording();
    let calls = recording.calls();
    let configured = scenario
        .scheduler
        .extenders()
        .iter()
        .map(|e| {
            let prefix = e.url_prefix.trim_end_matches('/');
            let recorded = calls
                .iter()
                .any(|c| c.recorded && c.url.starts_with(prefix));
            ConfiguredExtender {
                url_prefix: e.url_prefix.clone(),
                verbs: [Verb::Filter, Verb::Prioritize, Verb::Preempt, Verb::Bind]
                    .into_iter()
                    .filter(|v| e.has(*v))
                    .map(|v| (v.as_str().to_string(), e.verb(v).to_string()))
                    .collect(),
                weight: e.weight,
                ignorable: e.ignorable,
                node_cache_capable: e.node_cache_capable,
                timeout_ms: e.http_timeout.map(|t| t.0),
                managed: e.managed_resources.iter().map(|r| r.name.clone()).collect(),
                answered_by: if answers.has_mock(&e.url_prefix) {
                    "mock"
                } else if recorded {
                    "recording"
                } else {
                    "live"
                }
                .to_string(),
            }
        })
        .collect();
    ExtenderFacts {
        configured,
        live_calls: calls.iter().filter(|c| !c.recorded).count(),
        recorded_calls: calls.iter().filter(|c| c.recorded).count(),
        failures: failures.to_vec(),
        nodeinfo_fix: scenario.extender_nodeinfo_fix,
    }
}
