//! What a run leaves behind, in the figures policy authors compare: how full each node is,
//! how even the fill is, how many nodes stay empty, and the largest free block per resource.

use crate::simulation::{Phase, Run};
use crate::trace::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One node at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeUse {
    /// The node's name.
    pub name: String,
    /// Requested CPU / allocatable CPU (0 when nothing is allocatable).
    pub cpu_ratio: f64,
    /// Requested memory / allocatable memory.
    pub memory_ratio: f64,
    /// Pods on the node.
    pub pods: usize,
    /// The DRA devices the node sees (`None` when it sees none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices: Option<DeviceUse>,
}

/// How many of the DRA devices a node sees are allocated at the end of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceUse {
    /// Devices held by a claim's allocation (admin-access allocations hold none).
    pub allocated: usize,
    /// Devices of the pools the node sees (complete and valid ones).
    pub total: usize,
}

impl DeviceUse {
    fn json(self) -> Value {
        json!({"allocated": self.allocated, "total": self.total})
    }
}

/// The devices node `n` sees and how many are allocated (`None` when it sees none).
fn device_use(
    cluster: &crate::cluster::Cluster,
    n: &crate::cluster::NodeInfo,
) -> Option<DeviceUse> {
    let dra = cluster.dra();
    let table = dra.table();
    let pools = table.pools_for(n.name(), n.labels()).ok()?;
    let mut out = DeviceUse::default();
    for pool in pools.iter().filter(|p| !p.incomplete && !p.invalid) {
        for &s in &pool.slices {
            let e = &table.slices[s as usize];
            for d in e.first..e.first + e.len {
                out.total += 1;
                if dra.in_use(table.keys[d as usize]) {
                    out.allocated += 1;
                }
            }
        }
    }
    (out.total > 0).then_some(out)
}

/// Mean and (population) standard deviation of a per-node figure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The mean over nodes.
    pub mean: f64,
    /// The population standard deviation over nodes.
    pub stddev: f64,
}

impl Spread {
    /// The spread of `values` (zero for none).
    pub fn of(values: impl Iterator<Item = f64> + Clone) -> Spread {
        let n = values.clone().count();
        if n == 0 {
            return Spread::default();
        }
        let mean = values.clone().sum::<f64>() / n as f64;
        let var = values.map(|v| (v - mean) * (v - mean)).sum::<f64>() / n as f64;
        Spread {
            mean,
            stddev: var.sqrt(),
        }
    }
}

/// The largest free amount of each resource on any one schedulable node (fragmentation: a
/// pod bigger than this fits nowhere, however much is free in all).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FreeBlock {
    /// Millicores.
    pub milli_cpu: i64,
    /// Bytes.
    pub memory: i64,
    /// Pod slots.
    pub pods: i64,
}

/// A run's summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Pods the run placed (they had a cycle and are bound at the end).
    pub placed: usize,
    /// Pods the run left pending (they had a cycle and are not bound at the end).
    pub pending: usize,
    /// Cycles whose preemption nominated a node.
    pub preemptions: usize,
    /// Every node, in input order.
    pub nodes: Vec<NodeUse>,
    /// CPU ratio over nodes.
    pub cpu: Spread,
    /// Memory ratio over nodes.
    pub memory: Spread,
    /// Nodes with no pod at the end.
    pub empty_nodes: usize,
    /// Largest free block per resource, over nodes that are not cordoned.
    pub largest_free: FreeBlock,
    /// DRA devices over all nodes (`None` when no node sees any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices: Option<DeviceUse>,
}

fn ratio(requested: i64, allocatable: i64) -> f64 {
    if allocatable <= 0 {
        0.0
    } else {
        requested as f64 / allocatable as f64
    }
}

impl Summary {
    /// The summary of a run.
    pub fn of(run: &Run) -> Summary {
        let mut scheduled_pods = vec![false; run.cluster.pods().len()];
        let mut preemptions = 0;
        for c in &run.cycles {
            if let Some(seen) = scheduled_pods.get_mut(c.pod) {
                *seen = true;
            }
            if c.outcome != Outcome::Scheduled
                && c.preemption
                    .as_deref()
                    .is_some_and(|p| p.chosen().is_some())
            {
                preemptions += 1;
            }
        }
        // Folded repeats only retry pods that failed; their preemptions count too.
        for r in &run.repeats {
            let per_copy = run.cycles[r.cycles.clone()]
                .iter()
                .filter(|c| {
                    c.preemption
                        .as_deref()
                        .is_some_and(|p| p.chosen().is_some())
                })
                .count();
            preemptions += per_copy * r.times;
        }
        let mut placed = 0;
        let mut pending = 0;
        for (pod, had_cycle) in scheduled_pods.iter().enumerate() {
            if !had_cycle {
                continue;
            }
            match run.phase(pod) {
                Phase::Bound => placed += 1,
                Phase::Pending => pending += 1,
                Phase::Deleted => {}
            }
        }
        let nodes: Vec<NodeUse> = run
            .cluster
            .nodes()
            .iter()
            .map(|n| NodeUse {
                name: n.name().to_string(),
                cpu_ratio: ratio(n.requested().milli_cpu, n.allocatable().milli_cpu),
                memory_ratio: ratio(n.requested().memory, n.allocatable().memory),
                pods: n.pods().len(),
                devices: device_use(&run.cluster, n),
            })
            .collect();
        let devices = nodes
            .iter()
            .filter_map(|n| n.devices)
            .reduce(|a, b| DeviceUse {
                allocated: a.allocated + b.allocated,
                total: a.total + b.total,
            });
        let mut largest_free = FreeBlock::default();
        for n in run.cluster.nodes() {
            if n.facts().node.spec.unschedulable {
                continue;
            }
            let a = n.allocatable();
            let r = &n.requested();
            largest_free.milli_cpu = largest_free.milli_cpu.max(a.milli_cpu - r.milli_cpu);
            largest_free.memory = largest_free.memory.max(a.memory - r.memory);
            largest_free.pods = largest_free.pods.max(a.pods - n.pods().len() as i64);
        }
        Summary {
            placed,
            pending,
            preemptions,
            cpu: Spread::of(nodes.iter().map(|n| n.cpu_ratio)),
            memory: Spread::of(nodes.iter().map(|n| n.memory_ratio)),
            empty_nodes: nodes.iter().filter(|n| n.pods == 0).count(),
            largest_free,
            nodes,
            devices,
        }
    }

    /// The summary as the JSON outputs spell it (ratios as fractions, CPU in millicores,
    /// memory in bytes).
    pub fn to_json(&self) -> Value {
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .map(|n| {
                let mut v = json!({"node": n.name, "cpuRatio": n.cpu_ratio,
                                   "memoryRatio": n.memory_ratio, "pods": n.pods});
                if let Some(d) = n.devices {
                    v["devices"] = d.json();
                }
                v
            })
            .collect();
        let mut out = json!({
            "placed": self.placed,
            "pending": self.pending,
            "preemptions": self.preemptions,
            "cpuRatio": {"mean": self.cpu.mean, "stddev": self.cpu.stddev},
            "memoryRatio": {"mean": self.memory.mean, "stddev": self.memory.stddev},
            "emptyNodes": self.empty_nodes,
            "largestFree": {
                "milliCpu": self.largest_free.milli_cpu,
                "memoryBytes": self.largest_free.memory,
                "pods": self.largest_free.pods,
            },
            "nodes": nodes,
        });
        if let Some(d) = self.devices {
            out["devices"] = d.json();
        }
        out
    }

    /// The metrics a sweep charts, by CSV column name, in column order.
    pub fn metrics(&self) -> [(&'static str, f64); 11] {
        [
            ("placed", self.placed as f64),
            ("pending", self.pending as f64),
            ("preemptions", self.preemptions as f64),
            ("cpu_ratio_mean", self.cpu.mean),
            ("cpu_ratio_stddev", self.cpu.stddev),
            ("memory_ratio_mean", self.memory.mean),
            ("memory_ratio_stddev", self.memory.stddev),
            ("empty_nodes", self.empty_nodes as f64),
            (
                "largest_free_cpu_millicores",
                self.largest_free.milli_cpu as f64,
            ),
            ("largest_free_memory_bytes", self.largest_free.memory as f64),
            ("largest_free_pods", self.largest_free.pods as f64),
        ]
    }
}
