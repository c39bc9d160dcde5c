//! `PodFitsResources`: the pod's requests must fit in what the node has left.
//!
//! Checks, all collected: pod count, then (unless the pod requests nothing) cpu, memory,
//! ephemeral-storage and each scalar resource. `request + used == allocatable` fits. The incoming
//! pod's request is containers summed, then the max with each init container; pods already on
//! the node count their containers only (v1.17's NodeInfo). `spec.overhead` is ignored (the
//! PodOverhead gate is off in v1.17). Extended resources an extender manages with
//! `ignoredByScheduler` are skipped. Deviations: several `Insufficient <scalar>` reasons come in
//! name order (upstream: Go map order); sums saturate where Go's int64 would wrap.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::model::resources::{is_extended_resource, CPU, EPHEMERAL_STORAGE, MEMORY, PODS};
use crate::v117::{CycleContext, FilterPlugin, FilterResult, Reason, State};
/// `PodFitsResources` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "PodFitsResources",
    order: Some(5),
    plain: true,
    default_provider: None,
    mandatory: false,
    build: Some(|| Box::new(PodFitsResources)),
};

/// The predicate.
pub(crate) struct PodFitsResources;

fn insufficient(
    resource: impl Into<std::borrow::Cow<'static, str>>,
    requested: i64,
    used: i64,
    capacity: i64,
) -> Reason {
    Reason::Insufficient {
        resource: resource.into(),
        requested,
        used,
        capacity,
    }
}

/// Whether the pod fits, without building reasons (the hot path; [`check`] explains a `false`).
pub(crate) fn fits(cx: &CycleContext, node: &NodeInfo) -> bool {
    if node.pods().len() as i64 + 1 > node.allowed_pods() {
        return false;
    }
    let req = &cx.pod.request;
    if req.is_zero() {
        return true;
    }
    let alloc = node.hot();
    let used = &node.requested();
    alloc.milli_cpu >= req.milli_cpu.saturating_add(used.milli_cpu)
        && alloc.memory >= req.memory.saturating_add(used.memory)
        && alloc.ephemeral_storage >= req.ephemeral_storage.saturating_add(used.ephemeral_storage)
        && req.scalars.iter().all(|(name, want)| {
            (is_extended_resource(name) && cx.settings.ignored_resources.iter().any(|r| r == name))
                || node.allocatable().scalar(name) >= want.saturating_add(used.scalar(name))
        })
}

/// The check, shared with `GeneralPredicates`. Allocates only when the pod does not fit.
pub(crate) fn check(cx: &CycleContext, node: &NodeInfo) -> Vec<Reason> {
    let mut fails = Vec::new();
    check_into(cx, node, &mut fails);
    fails
}

/// [`check`], appending the reasons to `fails`.
pub(crate) fn check_into(cx: &CycleContext, node: &NodeInfo, fails: &mut Vec<Reason>) {
    let pods_on_node = node.pods().len() as i64;
    if pods_on_node + 1 > node.allowed_pods() {
        fails.push(insufficient(PODS, 1, pods_on_node, node.allowed_pods()));
    }
    let req = &cx.pod.request;
    if req.is_zero() {
        return;
    }
    let alloc = node.hot();
    let used = &node.requested();
    if alloc.milli_cpu < req.milli_cpu.saturating_add(used.milli_cpu) {
        fails.push(insufficient(
            CPU,
            req.milli_cpu,
            used.milli_cpu,
            alloc.milli_cpu,
        ));
    }
    if alloc.memory < req.memory.saturating_add(used.memory) {
        fails.push(insufficient(MEMORY, req.memory, used.memory, alloc.memory));
    }
    if alloc.ephemeral_storage < req.ephemeral_storage.saturating_add(used.ephemeral_storage) {
        fails.push(insufficient(
            EPHEMERAL_STORAGE,
            req.ephemeral_storage,
            used.ephemeral_storage,
            alloc.ephemeral_storage,
        ));
    }
    for (name, want) in &req.scalars {
        if is_extended_resource(name) && cx.settings.ignored_resources.iter().any(|r| r == name) {
            continue;
        }
        let have = node.allocatable().scalar(name);
        let taken = used.scalar(name);
        if have < want.saturating_add(taken) {
            fails.push(insufficient(name.clone(), *want, taken, have));
        }
    }
}

impl FilterPlugin for PodFitsResources {
    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        Ok(check(cx, node))
    }

    fn filter_into(
        &self,
        cx: &CycleContext,
        _: &State,
        node: &NodeInfo,
        out: &mut Vec<Reason>,
    ) -> Result<(), crate::v117::CycleError> {
        check_into(cx, node, out);
        Ok(())
    }

    fn passes(
        &self,
        cx: &CycleContext,
        _: &State,
        node: &NodeInfo,
    ) -> Result<bool, crate::v117::CycleError> {
        Ok(fits(cx, node))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use crate::v117::AlgorithmSettings;
    use serde_json::{json, Value};

    fn requesting(containers: Value, init: Value) -> crate::model::Pod {
        pod(json!({"spec": {"containers": containers, "initContainers": init}}))
    }
    fn req(r: Value) -> Value {
        json!({"name": "c", "resources": {"requests": r}})
    }
    fn ten_cpu_node() -> crate::model::Node {
        node(json!({"metadata": {"name": "n"}, "status": {"allocatable":
            {"cpu": "10", "memory": "20", "pods": 32, "example.com/aaa": 5}}}))
    }
    fn used(cpu: &str, mem: &str) -> crate::model::Pod {
        requesting(json!([req(json!({"cpu": cpu, "memory": mem}))]), json!([]))
    }

    #[test]
    fn resource_fit_cases() {
        // (name, used cpu/memory on the node, incoming containers, incoming init containers, reasons)
        type Case = (
            &'static str,
            (&'static str, &'static str),
            Value,
            Value,
            Vec<&'static str>,
        );
        let cases: Vec<Case> = vec![
            (
                "no resources requested always fits",
                ("10", "20"),
                json!([]),
                json!([]),
                vec![],
            ),
            (
                "too many resources fails",
                ("10", "20"),
                json!([req(json!({"cpu": "1", "memory": "1"}))]),
                json!([]),
                vec!["Insufficient cpu", "Insufficient memory"],
            ),
            (
                "exact fit is a fit",
                ("5", "5"),
                json!([req(json!({"cpu": "5", "memory": "15"}))]),
                json!([]),
                vec![],
            ),
            (
                "init container max counts: cpu",
                ("8", "19"),
                json!([req(json!({"cpu": "1", "memory": "1"}))]),
                json!([req(json!({"cpu": "3", "memory": "1"}))]),
                vec!["Insufficient cpu"],
            ),
            (
                "init containers are not summed",
                ("5", "5"),
                json!([req(json!({"cpu": "1"}))]),
                json!([req(json!({"cpu": "5"})), req(json!({"cpu": "5"}))]),
                vec![],
            ),
            (
                "source example: init {2,1}/{2,3}, containers {2,1}+{1,1} needs 3 cpu 3 mem",
                ("7", "17"),
                json!([
                    req(json!({"cpu": "2", "memory": "1"})),
                    req(json!({"cpu": "1", "memory": "1"}))
                ]),
                json!([
                    req(json!({"cpu": "2", "memory": "1"})),
                    req(json!({"cpu": "2", "memory": "3"}))
                ]),
                vec![],
            ),
            (
                "one more memory byte fails",
                ("7", "18"),
                json!([
                    req(json!({"cpu": "2", "memory": "1"})),
                    req(json!({"cpu": "1", "memory": "1"}))
                ]),
                json!([
                    req(json!({"cpu": "2", "memory": "1"})),
                    req(json!({"cpu": "2", "memory": "3"}))
                ]),
                vec!["Insufficient memory"],
            ),
            (
                "extended resource beyond allocatable",
                ("0", "0"),
                json!([req(json!({"example.com/aaa": 6}))]),
                json!([]),
                vec!["Insufficient example.com/aaa"],
            ),
            (
                "extended resource unknown to the node",
                ("0", "0"),
                json!([req(json!({"example.com/bbb": 1}))]),
                json!([]),
                vec!["Insufficient example.com/bbb"],
            ),
            (
                "ephemeral storage",
                ("0", "0"),
                json!([req(json!({"ephemeral-storage": "1"}))]),
                json!([]),
                vec!["Insufficient ephemeral-storage"],
            ),
        ];
        for (name, (cpu, mem), containers, init, want) in cases {
            let c = cluster(vec![ten_cpu_node()], vec![(used(cpu, mem), 0)]);
            let got = filter_all(&PodFitsResources, &c, requesting(containers, init));
            assert_eq!(got[0], want, "{name}");
        }
    }

    #[test]
    fn pod_count_is_checked_even_for_empty_pods() {
        let n = node(
            json!({"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "10", "pods": 1}}}),
        );
        let c = cluster(vec![n], vec![(used("1", "0"), 0)]);
        assert_eq!(
            filter_all(&PodFitsResources, &c, pod(json!({})))[0],
            ["Insufficient pods"]
        );
        let c2 = cluster(
            vec![node(
                json!({"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1", "pods": 1}}}),
            )],
            vec![(used("1", "0"), 0)],
        );
        let big = requesting(json!([req(json!({"cpu": "1"}))]), json!([]));
        assert_eq!(
            filter_all(&PodFitsResources, &c2, big)[0],
            ["Insufficient pods", "Insufficient cpu"]
        );
    }

    #[test]
    fn a_pod_requesting_nothing_fits_an_overcommitted_node_in_both_checks() {
        // The node has 1 cpu and a bound pod using 2. filters.md B.1: a pod with no request
        // returns after the pod-count check, so it fits; a scalar listed with 0 is a request
        // (upstream's map has the entry), so that pod is checked and 0 + 2 cpu > 1 fails.
        use crate::cluster::PodInfo;
        let n = node(
            json!({"metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "1", "pods": 10}}}),
        );
        let c = cluster(vec![n], vec![(used("2", "0"), 0)]);
        let settings = AlgorithmSettings::default();
        for (incoming, want) in [
            (pod(json!({})), vec![]),
            (
                requesting(json!([req(json!({"example.com/aaa": 0}))]), json!([])),
                vec!["Insufficient cpu"],
            ),
        ] {
            assert_eq!(filter_all(&PodFitsResources, &c, incoming.clone())[0], want);
            let info = PodInfo::new(incoming, 0, usize::MAX);
            let cx = CycleContext {
                cluster: &c,
                pod: &info,
                settings: &settings,
            };
            let passes = PodFitsResources
                .passes(&cx, &State::none(), &c.nodes()[0])
                .unwrap();
            assert_eq!(passes, want.is_empty(), "{want:?}");
        }
    }

    #[test]
    fn existing_pods_count_containers_only() {
        // A bound pod's init container (cpu 9) does not count on its node in v1.17.
        let bound = requesting(
            json!([req(json!({"cpu": "1"}))]),
            json!([req(json!({"cpu": "9"}))]),
        );
        let c = cluster(vec![ten_cpu_node()], vec![(bound, 0)]);
        let incoming = requesting(json!([req(json!({"cpu": "9"}))]), json!([]));
        assert_eq!(
            filter_all(&PodFitsResources, &c, incoming)[0],
            Vec::<String>::new()
        );
    }

    #[test]
    fn ignored_extended_resources_are_skipped() {
        let c = cluster(vec![ten_cpu_node()], vec![]);
        let settings = AlgorithmSettings {
            ignored_resources: vec!["example.com/bbb".into()],
            ..AlgorithmSettings::default()
        };
        let incoming = requesting(json!([req(json!({"example.com/bbb": 1}))]), json!([]));
        assert_eq!(
            filter_all_with(&PodFitsResources, &c, incoming, &settings)[0],
            Vec::<String>::new()
        );
    }
}
