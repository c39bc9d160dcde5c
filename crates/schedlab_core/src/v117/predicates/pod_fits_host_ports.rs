//! `PodFitsHostPorts` (also registered as `PodFitsPorts`): the pod's host ports must be free.
//!
//! A wanted `0.0.0.0` port clashes with the same protocol/port on any IP; a specific IP clashes
//! with the same IP or with an existing `0.0.0.0`. Protocols are independent. Ports within the
//! incoming pod are not checked against each other.

use super::PredicateSpec;
use crate::cluster::{HostPort, NodeInfo};
use crate::v117::{CycleContext, FailureReason, FilterPlugin, FilterResult, Reason, State};
/// `PodFitsHostPorts` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "PodFitsHostPorts",
    order: Some(3),
    plain: true,
    default_provider: None,
    mandatory: false,
    build: Some(|| Box::new(PodFitsHostPorts)),
};

/// The 1.0 name of PodFitsHostPorts: registered in v1.17 but absent from `Ordering()`, so it is accepted and never runs.
pub(crate) static POD_FITS_PORTS: PredicateSpec = PredicateSpec {
    name: "PodFitsPorts",
    order: None,
    plain: true,
    default_provider: None,
    mandatory: false,
    build: None,
};

/// The predicate.
pub(crate) struct PodFitsHostPorts;

fn conflicts(wanted: &HostPort, used: &[HostPort]) -> bool {
    used.iter().any(|u| {
        u.protocol == wanted.protocol
            && u.port == wanted.port
            && (wanted.ip == "0.0.0.0" || u.ip == "0.0.0.0" || u.ip == wanted.ip)
    })
}

/// The check, shared with `GeneralPredicates`.
pub(crate) fn check(cx: &CycleContext, node: &NodeInfo) -> Option<Reason> {
    cx.pod
        .host_ports
        .iter()
        .any(|p| conflicts(p, node.used_ports()))
        .then_some(FailureReason::PodNotFitsHostPorts.into())
}

impl FilterPlugin for PodFitsHostPorts {
    fn filter(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> FilterResult {
        Ok(check(cx, node).into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::{json, Value};

    fn ports(list: Value) -> crate::model::Pod {
        pod(json!({"spec": {"containers": [{"name": "c", "ports": list}]}}))
    }

    #[test]
    fn host_port_conflicts() {
        let cases: Vec<(&str, Value, Value, bool)> = vec![
            ("nothing used", json!([]), json!([{"hostPort": 8080}]), true),
            (
                "same port and protocol",
                json!([{"hostPort": 8080}]),
                json!([{"hostPort": 8080}]),
                false,
            ),
            (
                "other protocol",
                json!([{"hostPort": 8080, "protocol": "UDP"}]),
                json!([{"hostPort": 8080}]),
                true,
            ),
            (
                "other port",
                json!([{"hostPort": 8081}]),
                json!([{"hostPort": 8080}]),
                true,
            ),
            (
                "specific IPs differ",
                json!([{"hostPort": 80, "hostIP": "10.0.0.1"}]),
                json!([{"hostPort": 80, "hostIP": "10.0.0.2"}]),
                true,
            ),
            (
                "wanted wildcard clashes with a specific IP",
                json!([{"hostPort": 80, "hostIP": "10.0.0.1"}]),
                json!([{"hostPort": 80}]),
                false,
            ),
            (
                "existing wildcard clashes with a specific IP",
                json!([{"hostPort": 80}]),
                json!([{"hostPort": 80, "hostIP": "10.0.0.1"}]),
                false,
            ),
            (
                "containerPort alone is no host port",
                json!([{"containerPort": 80}]),
                json!([{"containerPort": 80}]),
                true,
            ),
        ];
        for (name, used, wanted, fits) in cases {
            let c = cluster(
                vec![node(json!({"metadata": {"name": "n"}}))],
                vec![(ports(used), 0)],
            );
            let got = filter_all(&PodFitsHostPorts, &c, ports(wanted));
            assert_eq!(got[0].is_empty(), fits, "{name}");
            if !fits {
                assert_eq!(
                    got[0],
                    ["node(s) didn't have free ports for the requested pod ports"]
                );
            }
        }
    }
}
