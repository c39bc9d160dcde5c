//! The gallery: the example scenarios a visitor can open, with their texts compiled in, and
//! each scheduler's default configuration.

use schedlab_core::scenario::SchedulerVersion;

/// An example scenario of the gallery: its name, a one-line summary and its texts.
pub struct Example {
    /// Folder name under `assets/scenarios/`.
    pub name: &'static str,
    /// What it shows.
    pub summary: &'static str,
    /// Nodes, pods (and any other objects), policy.
    pub texts: [&'static str; 3],
    /// The scheduler configuration: `None` for [`DEFAULT_CONFIG`] (v1.17's defaults); a
    /// `kubescheduler.config.k8s.io/v1` configuration runs the example under v1.35.
    pub config: Option<&'static str>,
}

/// A Policy that keeps the DefaultProvider (for examples that need no policy).
const DEFAULT_POLICY: &str = "{\n  \"kind\": \"Policy\",\n  \"apiVersion\": \"v1\"\n}\n";

/// The scheduler configuration of the v1.17 examples: v1.17's defaults, spelled out.
pub const DEFAULT_CONFIG: &str = include_str!("../../assets/scenarios/config.yaml");

/// v1.35's default configuration (a `kubescheduler.config.k8s.io/v1` document with one
/// `default-scheduler` profile, its defaults in comments).
pub const DEFAULT_CONFIG_V1: &str = include_str!("../../assets/scenarios/config-v1.yaml");

/// The default configuration text of a scheduler (what switching to it puts in the editor).
pub fn default_config(scheduler: SchedulerVersion) -> &'static str {
    match scheduler {
        SchedulerVersion::V1_17 => DEFAULT_CONFIG,
        SchedulerVersion::V1_35 => DEFAULT_CONFIG_V1,
    }
}

/// What the scheduler switch calls each scheduler.
pub fn scheduler_label(scheduler: SchedulerVersion) -> &'static str {
    match scheduler {
        SchedulerVersion::V1_17 => "kube-scheduler v1.17 (Policy)",
        SchedulerVersion::V1_35 => "v1.35 (profiles and plugins)",
    }
}

/// The gallery; the first is what every new visitor starts with.
pub const GALLERY: [Example; 15] = [
    Example {
        name: "classic",
        summary:
            "the classic policy on five nodes: resources, a selector, a taint, a cordon, host ports",
        texts: [
            include_str!("../../assets/scenarios/classic/nodes.yaml"),
            include_str!("../../assets/scenarios/classic/pods.yaml"),
            include_str!("../../assets/scenarios/classic/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "anti-affinity",
        summary: "a replica set kept apart by required pod anti-affinity",
        texts: [
            include_str!("../../assets/scenarios/anti-affinity/nodes.yaml"),
            include_str!("../../assets/scenarios/anti-affinity/pods.yaml"),
            include_str!("../../assets/scenarios/anti-affinity/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "follow-the-cache",
        summary: "a web tier that follows its cache with required pod affinity",
        texts: [
            include_str!("../../assets/scenarios/follow-the-cache/nodes.yaml"),
            include_str!("../../assets/scenarios/follow-the-cache/pods.yaml"),
            include_str!("../../assets/scenarios/follow-the-cache/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "zone-spread",
        summary: "spreading across three zones with topologySpreadConstraints",
        texts: [
            include_str!("../../assets/scenarios/zone-spread/nodes.yaml"),
            include_str!("../../assets/scenarios/zone-spread/pods.yaml"),
            include_str!("../../assets/scenarios/zone-spread/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "volume-zone",
        summary: "a pod that waits for the zone of its volume",
        texts: [
            include_str!("../../assets/scenarios/volume-zone/nodes.yaml"),
            concat!(
                include_str!("../../assets/scenarios/volume-zone/pods.yaml"),
                "\n---\n",
                include_str!("../../assets/scenarios/volume-zone/storage.yaml")
            ),
            DEFAULT_POLICY,
        ],
        config: None,
    },
    Example {
        name: "batch-displaced",
        summary: "a critical service preempts a low-priority batch job",
        texts: [
            include_str!("../../assets/scenarios/batch-displaced/nodes.yaml"),
            include_str!("../../assets/scenarios/batch-displaced/pods.yaml"),
            include_str!("../../assets/scenarios/batch-displaced/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "pdb-steers",
        summary: "a PodDisruptionBudget steers preemption to another node",
        texts: [
            include_str!("../../assets/scenarios/pdb-steers/nodes.yaml"),
            include_str!("../../assets/scenarios/pdb-steers/pods.yaml"),
            include_str!("../../assets/scenarios/pdb-steers/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "most-requested",
        summary: "LeastRequested against MostRequested: spreading pods out, or packing the fullest node",
        texts: [
            include_str!("../../assets/scenarios/most-requested/nodes.yaml"),
            include_str!("../../assets/scenarios/most-requested/pods.yaml"),
            include_str!("../../assets/scenarios/most-requested/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "node-affinity",
        summary: "a nodeSelector, required node affinity, and preferred terms weighed by NodeAffinityPriority",
        texts: [
            include_str!("../../assets/scenarios/node-affinity/nodes.yaml"),
            include_str!("../../assets/scenarios/node-affinity/pods.yaml"),
            include_str!("../../assets/scenarios/node-affinity/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "port-clash",
        summary: "host ports: one pod per node may take TCP 443, and UDP 443 is another port",
        texts: [
            include_str!("../../assets/scenarios/port-clash/nodes.yaml"),
            include_str!("../../assets/scenarios/port-clash/pods.yaml"),
            include_str!("../../assets/scenarios/port-clash/policy.json"),
        ],
        config: None,
    },
    Example {
        name: "backoff-node-added",
        summary: "a pod backs off and waits in unschedulableQ until a node with room joins",
        texts: [
            include_str!("../../assets/scenarios/backoff-node-added/nodes.yaml"),
            concat!(
                include_str!("../../assets/scenarios/backoff-node-added/pods.yaml"),
                "\n---\n",
                include_str!("../../assets/scenarios/backoff-node-added/timeline.yaml")
            ),
            DEFAULT_POLICY,
        ],
        config: None,
    },
    Example {
        name: "taints-first-v135",
        summary: "kube-scheduler v1.35 on the classic cluster: taints are checked before resources",
        texts: [
            include_str!("../../assets/scenarios/taints-first-v135/nodes.yaml"),
            include_str!("../../assets/scenarios/taints-first-v135/pods.yaml"),
            DEFAULT_POLICY,
        ],
        config: Some(include_str!("../../assets/scenarios/taints-first-v135/config.yaml")),
    },
    Example {
        name: "zone-spread-v135",
        summary: "v1.35 with no Policy: PodTopologySpread filters, and its system defaults spread a Service",
        texts: [
            include_str!("../../assets/scenarios/zone-spread-v135/nodes.yaml"),
            include_str!("../../assets/scenarios/zone-spread-v135/pods.yaml"),
            DEFAULT_POLICY,
        ],
        config: Some(include_str!("../../assets/scenarios/zone-spread-v135/config.yaml")),
    },
    Example {
        name: "preemption-v135",
        summary: "v1.35's PostFilter: DynamicResources, then DefaultPreemption with a PodDisruptionBudget",
        texts: [
            include_str!("../../assets/scenarios/preemption-v135/nodes.yaml"),
            include_str!("../../assets/scenarios/preemption-v135/pods.yaml"),
            DEFAULT_POLICY,
        ],
        config: Some(include_str!("../../assets/scenarios/preemption-v135/config.yaml")),
    },
    Example {
        name: "big-cluster",
        summary:
            "1000 nodes and 10 000 pods: the heat-map, preemption at scale, a node joining at 2m",
        texts: [
            include_str!("../../assets/scenarios/big-cluster/nodes.json"),
            include_str!("../../assets/scenarios/big-cluster/pods.json"),
            DEFAULT_POLICY,
        ],
        config: None,
    },
];

/// The gallery entry with this name (the first when unknown).
pub fn example_named(name: &str) -> &'static Example {
    GALLERY
        .iter()
        .find(|e| e.name == name)
        .unwrap_or(&GALLERY[0])
}
