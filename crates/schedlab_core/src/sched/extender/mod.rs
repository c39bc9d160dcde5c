//! Scheduler extenders, the HTTP webhook (`k8s.io/kube-scheduler/extender/v1`), once for both
//! versions: what an extender is ([`Extender`], read from a legacy `Policy` or a v1
//! configuration in [`config`]), the JSON on the wire ([`wire`]), who answers ([`answers`]: a
//! live server, a mock table in the scenario ([`mock`]) or a recording of earlier calls
//! ([`recording`])), and how each verb's answer changes the cycle ([`calls`]), with the few
//! places where v1.17 and v1.35 differ named by [`Flavor`].
//!
//! `shared/reference/extenders-plugins.md` §A holds the semantics. In short:
//!
//! - **filter** runs after the Filter plugins (predicates), only while nodes are feasible, one
//!   extender after another, each given the survivors of the previous one;
//! - **prioritize** runs on the feasible nodes; its 0-10 scores count `× weight × 10`, never
//!   clamped, and its errors are ignored;
//! - **preempt** may shrink preemption's candidates; **bind** replaces the default binder for
//!   the pods the extender is interested in;
//! - an extender with `managedResources` is asked only about pods that request or limit one of
//!   them; ignorable extenders come last and their errors are skipped.
//!
//! Deviations, stated (also in `docs/fidelity.md`):
//! - A call takes no virtual time (a cycle takes none). A mock's `delayMs` only decides
//!   whether the call timed out against `httpTimeout`.
//! - Node objects in a `Nodes` reply are matched to the cluster's nodes by name; their other
//!   fields are not read, and an unknown name is an error naming the extender.
//! - The Pod and Node objects sent are the fields schedlab reads, not the whole input objects;
//!   a pod without `metadata.uid` is sent with one made from its namespace and name.

pub(crate) mod answers;
pub(crate) mod calls;
pub(crate) mod config;
pub(crate) mod mock;
pub(crate) mod recording;
#[cfg(test)]
mod tests;
pub(crate) mod wire;

use crate::model::{Millis, Pod};

/// `DefaultExtenderTimeout`: 5 s, when `httpTimeout` is zero or absent.
pub(crate) const DEFAULT_TIMEOUT: Millis = Millis(5_000);

/// `framework.ExtenderName`: the name in `UnschedulablePlugins` when extenders filtered nodes
/// out (v1.35).
pub(crate) const EXTENDER_NAME: &str = "Extender";

/// Which version's rules a call follows where they differ (reference §A.2-A.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// kube-scheduler v1.17: no `FailedAndUnresolvableNodes`, `Failed ...` status errors, a
    /// binder's error fails the binding even when ignorable.
    V117,
    /// kube-scheduler v1.35.
    V135,
}

/// The four verbs an extender may implement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    /// `filterVerb`.
    Filter,
    /// `prioritizeVerb`.
    Prioritize,
    /// `preemptVerb`.
    Preempt,
    /// `bindVerb`.
    Bind,
}

impl Verb {
    /// Lowercase, as in the error texts (`failed filter with extender ...`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Filter => "filter",
            Verb::Prioritize => "prioritize",
            Verb::Preempt => "preempt",
            Verb::Bind => "bind",
        }
    }

    /// Reads `filter`, `prioritize`, `preempt` or `bind` (any case).
    pub fn parse(s: &str) -> Option<Verb> {
        [Verb::Filter, Verb::Prioritize, Verb::Preempt, Verb::Bind]
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(s))
    }
}

/// One `managedResources` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ManagedResource {
    /// An extended resource name.
    pub name: String,
    /// Whether the scheduler's own resource fit ignores it.
    pub ignored_by_scheduler: bool,
}

/// One extender as configured (`Extender` in a v1 configuration, `ExtenderConfig` in a
/// `Policy`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extender {
    /// `urlPrefix`; also the extender's name in reports (`Extender(<urlPrefix>)`).
    pub url_prefix: String,
    /// `filterVerb` (empty: no filter).
    pub filter_verb: String,
    /// `preemptVerb`.
    pub preempt_verb: String,
    /// `prioritizeVerb`.
    pub prioritize_verb: String,
    /// `bindVerb`.
    pub bind_verb: String,
    /// `weight` of its scores.
    pub weight: i64,
    /// `enableHTTPS` (`enableHttps` in a Policy).
    pub enable_https: bool,
    /// `httpTimeout`: `None` when negative (Go's client then has no timeout).
    pub http_timeout: Option<Millis>,
    /// `nodeCacheCapable`: node names are sent instead of node objects.
    pub node_cache_capable: bool,
    /// `managedResources`.
    pub managed_resources: Vec<ManagedResource>,
    /// `ignorable`: its failures are skipped.
    pub ignorable: bool,
}

impl Extender {
    /// Its name (`Name()` upstream): the URL prefix.
    pub fn name(&self) -> &str {
        &self.url_prefix
    }

    /// The key it has in the report's `filter` and `scores`.
    pub fn report_key(&self) -> String {
        format!("Extender({})", self.url_prefix)
    }

    /// The configured verb path (empty when it does not implement the verb).
    pub fn verb(&self, verb: Verb) -> &str {
        match verb {
            Verb::Filter => &self.filter_verb,
            Verb::Prioritize => &self.prioritize_verb,
            Verb::Preempt => &self.preempt_verb,
            Verb::Bind => &self.bind_verb,
        }
    }

    /// Whether it implements `verb`.
    pub fn has(&self, verb: Verb) -> bool {
        !self.verb(verb).is_empty()
    }

    /// `strings.TrimRight(urlPrefix, "/") + "/" + verb`.
    pub fn url(&self, verb: Verb) -> String {
        format!(
            "{}/{}",
            self.url_prefix.trim_end_matches('/'),
            self.verb(verb)
        )
    }

    /// `IsInterested`: no managed resources, or the pod requests or limits one of them in a
    /// container or an init container.
    pub fn is_interested(&self, pod: &Pod) -> bool {
        if self.managed_resources.is_empty() {
            return true;
        }
        let managed = |name: &str| self.managed_resources.iter().any(|r| r.name == name);
        pod.spec
            .containers
            .iter()
            .chain(&pod.spec.init_containers)
            .any(|c| {
                let r = &c.resources;
                r.requests.0.scalars.iter().any(|(n, _)| managed(n))
                    || r.limits.0.scalars.iter().any(|(n, _)| managed(n))
            })
    }
}

/// Builds the extender list as `buildExtenders` does: in configuration order, then the
/// ignorable ones moved to the end (each group keeping its order).
pub(crate) fn ignorable_last(mut list: Vec<Extender>) -> Vec<Extender> {
    list.sort_by_key(|e| e.ignorable);
    list
}
