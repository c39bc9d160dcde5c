//! Synthetic workloads mirroring kube-scheduler's `scheduler_perf` benchmarks, built directly
//! as model objects (no parsing), for `schedlab bench` and the wasm benchmark.

use crate::cluster::{Cluster, PodInfo};
use crate::model::resources::Resources;
use crate::model::{Node, Pod, ResourceList};
use crate::policy::config::SchedulerConfiguration;
use crate::scenario::Scenario;

/// `SchedulingBasic`-like: `nodes` nodes (4 CPU, 32Gi, 110 pods), `bound` pods already spread
/// round-robin over them, `pending` pods to schedule; every pod requests 100m and 500Mi.
/// `percentage` sets `percentageOfNodesToScore` (0 = adaptive).
pub fn scheduling_basic(nodes: usize, bound: usize, pending: usize, percentage: i32) -> Scenario {
    let mut cluster = Cluster::default();
    for i in 0..nodes {
        let mut n = Node::default();
        n.metadata.name = format!("node-{i}");
        n.metadata
            .labels
            .insert("kubernetes.io/hostname".into(), n.metadata.name.clone());
        n.status.allocatable = Some(ResourceList(Resources {
            milli_cpu: 4000,
            memory: 32 << 30,
            pods: 110,
            ..Resources::default()
        }));
        cluster.add_node(n);
    }
    let pod = |name: String| {
        let mut p = Pod::default();
        p.metadata.name = name;
        p.metadata.namespace = "default".into();
        let mut c = crate::model::pod::Container {
            name: "pause".into(),
            image: "registry.k8s.io/pause:3.1".into(),
            ..Default::default()
        };
        let mut r = Resources {
            milli_cpu: 100,
            memory: 500 << 20,
            ..Resources::default()
        };
        r.has_cpu = true;
        r.has_memory = true;
        c.resources.requests = ResourceList(r);
        p.spec.containers.push(c);
        p
    };
    for i in 0..bound {
        let id = cluster.add_pod(PodInfo::new(pod(format!("bound-{i}")), 0, i));
        if nodes > 0 {
            cluster.bind(id, i % nodes);
        }
    }
    let mut queue = Vec::with_capacity(pending);
    for i in 0..pending {
        queue.push(cluster.add_pod(PodInfo::new(pod(format!("pending-{i}")), 0, bound + i)));
    }
    Scenario {
        cluster,
        queue,
        policy: None,
        config: SchedulerConfiguration {
            percentage_of_nodes_to_score: percentage,
            ..SchedulerConfiguration::default()
        },
        warnings: Vec::new(),
    }
}
