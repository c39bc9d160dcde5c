//! `NodePorts` (v1.35, `nodeports/node_ports.go`; reference §4.5): PreFilter, Filter.
//!
//! The wanted ports (`GetHostPorts`) are those with `hostPort > 0` of the regular containers and
//! of the restartable init containers (sidecars); [`crate::cluster::PodInfo::new_v135`] already
//! lists them in `host_ports`, with an empty host IP read as `0.0.0.0` and an empty protocol as
//! `TCP`, and a node's `used_ports` are built the same way.
//!
//! - PreFilter: no wanted port → `Skip`.
//! - Filter (`HostPortInfo.CheckConflict` for each wanted port): a wanted `0.0.0.0` conflicts
//!   with the same protocol and port on any IP; a specific IP conflicts with the same IP or
//!   `0.0.0.0`. A conflict → **Unschedulable** (preemption may free the port),
//!   `node(s) didn't have free ports for the requested pod ports`.

use crate::cluster::{Cluster, HostPort, NodeInfo, PodInfo};
use crate::model::field::FieldError;
use crate::queue::ClusterChange;
use crate::sched::Reason;
use crate::v135::plugin::QueueingHint;
use crate::v135::plugin::{Cx, Plugin, PluginState, PreFilterOutput};
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::Code;

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "NodePorts",
    points: Points::of(&[Point::PreFilter, Point::Filter]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// `ErrReason`.
pub(crate) const ERR_REASON: &str = "node(s) didn't have free ports for the requested pod ports";

/// `DefaultBindAllHostIP`.
const BIND_ALL: &str = "0.0.0.0";

/// `HostPortInfo.CheckConflict`: whether `want` collides with a port in use.
fn conflicts(want: &HostPort, used: &[HostPort]) -> bool {
    if want.port <= 0 {
        return false;
    }
    used.iter().any(|u| {
        u.port == want.port
            && u.protocol == want.protocol
            && (want.ip == BIND_ALL || u.ip == BIND_ALL || u.ip == want.ip)
    })
}

/// The plugin.
pub(crate) struct NodePorts;

impl Plugin for NodePorts {
    /// A deleted pod that held host ports, or a new node.
    fn queueing_hint(
        &self,
        change: &ClusterChange,
        pod: &PodInfo,
        cluster: &Cluster,
    ) -> QueueingHint {
        let _ = pod;
        QueueingHint::queue_if(match *change {
            ClusterChange::PodDelete(p) => !cluster.pods()[p].host_ports.is_empty(),
            ClusterChange::NodeAdd(_) => true,
            ClusterChange::NodeUpdate { .. } | ClusterChange::PodAdd(_) => false,
        })
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_filter(&self, cx: &Cx) -> PreFilterOutput {
        if cx.pod.host_ports.is_empty() {
            return PreFilterOutput::skip();
        }
        // The wanted ports are the pod's `host_ports`: Filter reads them from the pod.
        PreFilterOutput::default()
    }

    fn filter(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
        reasons: &mut Vec<Reason>,
    ) -> Code {
        if node.used_ports().is_empty()
            || !cx
                .pod
                .host_ports
                .iter()
                .any(|w| conflicts(w, node.used_ports()))
        {
            return Code::Success;
        }
        reasons.push(ERR_REASON.into());
        Code::Unschedulable
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(NodePorts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::{json, Value};

    fn with_ports(ports: Value) -> crate::model::Pod {
        pod(json!({"spec": {"containers": [{"name": "c", "ports": ports}]}}))
    }

    fn busy() -> (Code, Vec<String>) {
        (
            Code::Unschedulable,
            vec!["node(s) didn't have free ports for the requested pod ports".to_string()],
        )
    }

    #[test]
    fn no_host_ports_skips() {
        let c = cluster135(vec![node(json!({"metadata": {"name": "n"}}))], vec![]);
        let p = info(with_ports(json!([{"containerPort": 80}])));
        assert_eq!(run_pre_filter(&NodePorts, &c, &p).status.code, Code::Skip);
    }

    #[test]
    fn conflict_rules() {
        // Node 0 has 0.0.0.0:8080/TCP in use (empty IP and protocol); node 1 has
        // 10.0.0.1:8080/TCP; node 2 has 0.0.0.0:8080/UDP; node 3 nothing.
        let c = cluster135(
            vec![
                node(json!({"metadata": {"name": "any"}})),
                node(json!({"metadata": {"name": "ip"}})),
                node(json!({"metadata": {"name": "udp"}})),
                node(json!({"metadata": {"name": "free"}})),
            ],
            vec![
                (
                    with_ports(json!([{"containerPort": 1, "hostPort": 8080}])),
                    0,
                ),
                (
                    with_ports(
                        json!([{"containerPort": 1, "hostPort": 8080, "hostIP": "10.0.0.1"}]),
                    ),
                    1,
                ),
                (
                    with_ports(json!([{"containerPort": 1, "hostPort": 8080, "protocol": "UDP"}])),
                    2,
                ),
            ],
        );
        // Wanted 0.0.0.0:8080/TCP: conflicts with any IP, same protocol.
        let p = info(with_ports(json!([{"containerPort": 1, "hostPort": 8080}])));
        assert_eq!(run_filter(&NodePorts, &c, &p), [busy(), busy(), ok(), ok()]);
        // Wanted 10.0.0.1:8080/TCP: conflicts with 0.0.0.0 and the same IP.
        let p = info(with_ports(
            json!([{"containerPort": 1, "hostPort": 8080, "hostIP": "10.0.0.1", "protocol": "TCP"}]),
        ));
        assert_eq!(run_filter(&NodePorts, &c, &p), [busy(), busy(), ok(), ok()]);
        // Wanted 10.0.0.2:8080/TCP: only the 0.0.0.0 one.
        let p = info(with_ports(
            json!([{"containerPort": 1, "hostPort": 8080, "hostIP": "10.0.0.2"}]),
        ));
        assert_eq!(run_filter(&NodePorts, &c, &p), [busy(), ok(), ok(), ok()]);
        // Wanted UDP: only the UDP node.
        let p = info(with_ports(
            json!([{"containerPort": 1, "hostPort": 8080, "protocol": "UDP"}]),
        ));
        assert_eq!(run_filter(&NodePorts, &c, &p), [ok(), ok(), busy(), ok()]);
        // Another port: free everywhere.
        let p = info(with_ports(json!([{"containerPort": 1, "hostPort": 9090}])));
        assert_eq!(run_filter(&NodePorts, &c, &p), [ok(), ok(), ok(), ok()]);
    }

    #[test]
    fn sidecar_ports_count_and_plain_init_ports_do_not() {
        // A sidecar's host port on a bound pod is in use; a plain init container's is not.
        let bound_sidecar = pod(json!({"spec": {
            "initContainers": [{"name": "s", "restartPolicy": "Always",
                "ports": [{"containerPort": 1, "hostPort": 7000}]}],
            "containers": [{"name": "c"}]}}));
        let bound_init = pod(json!({"spec": {
            "initContainers": [{"name": "i", "ports": [{"containerPort": 1, "hostPort": 7000}]}],
            "containers": [{"name": "c"}]}}));
        let c = cluster135(
            vec![
                node(json!({"metadata": {"name": "a"}})),
                node(json!({"metadata": {"name": "b"}})),
            ],
            vec![(bound_sidecar, 0), (bound_init, 1)],
        );
        let p = info(with_ports(json!([{"containerPort": 1, "hostPort": 7000}])));
        assert_eq!(run_filter(&NodePorts, &c, &p), [busy(), ok()]);
        // The incoming pod's sidecar port is wanted; its plain init port is not.
        let wants_sidecar = info(pod(json!({"spec": {
            "initContainers": [{"name": "s", "restartPolicy": "Always",
                "ports": [{"containerPort": 1, "hostPort": 7000}]}],
            "containers": [{"name": "c"}]}})));
        assert_eq!(run_filter(&NodePorts, &c, &wants_sidecar), [busy(), ok()]);
        let wants_init = info(pod(json!({"spec": {
            "initContainers": [{"name": "i", "ports": [{"containerPort": 1, "hostPort": 7000}]}],
            "containers": [{"name": "c"}]}})));
        assert_eq!(
            run_pre_filter(&NodePorts, &c, &wants_init).status.code,
            Code::Skip
        );
    }
}
