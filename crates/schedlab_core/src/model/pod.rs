//! `v1.Pod`: the spec fields the scheduler reads, plus the resource sums it derives from them.

use super::meta::{Labels, ObjectMeta};
use super::resources::ResourceList;
use super::selector::{LabelSelector, NodeSelector, NodeSelectorTerm};
use super::taint::Toleration;
use serde::{Deserialize, Serialize};

/// A pod as read from input.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: PodSpec,
    /// `status`.
    #[serde(default)]
    pub status: PodStatus,
}

/// `v1.PodSpec`, the scheduler's part of it.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    /// Bound node, if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub node_name: String,
    /// `schedulerName`; empty means `default-scheduler`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scheduler_name: String,
    /// Explicit priority.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
    /// Priority class name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub priority_class_name: String,
    /// `PreemptLowerPriority` or `Never`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preemption_policy: Option<String>,
    /// App containers.
    #[serde(default)]
    pub containers: Vec<Container>,
    /// Init containers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    /// `nodeSelector`.
    #[serde(default, skip_serializing_if = "Labels::is_empty")]
    pub node_selector: Labels,
    /// `affinity`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Box<Affinity>>,
    /// `tolerations`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
    /// `volumes`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<Volume>,
    /// `topologySpreadConstraints`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topology_spread_constraints: Vec<TopologySpreadConstraint>,
    /// `overhead` (ignored: the PodOverhead gate is off in v1.17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead: Option<Box<ResourceList>>,
    /// Grace period for preemption victims.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
    /// `schedulingGates` (v1.35: a gated pod is held out of the queue).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scheduling_gates: Vec<SchedulingGate>,
    /// `resourceClaims` (Dynamic Resource Allocation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_claims: Vec<super::dra::PodResourceClaim>,
    /// Pod-level `resources` (v1.35, `PodLevelResources`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Box<ResourceRequirements>>,
}

/// `v1.PodSchedulingGate`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SchedulingGate {
    /// The gate's name.
    #[serde(default)]
    pub name: String,
}

/// `v1.PodStatus`, the scheduler's part of it.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    /// `Pending`, `Running`, `Succeeded`, `Failed`, ...
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// `startTime`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// `nominatedNodeName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nominated_node_name: Option<String>,
    /// `resourceClaimStatuses` (the claims generated for template entries).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_claim_statuses: Vec<super::dra::PodResourceClaimStatus>,
}

/// A container: image, resources and ports.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    /// Container name.
    #[serde(default)]
    pub name: String,
    /// Image reference.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub image: String,
    /// Requests and limits.
    #[serde(default)]
    pub resources: ResourceRequirements,
    /// Ports (host ports matter).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    /// `restartPolicy`: `Always` on an init container makes it a sidecar (v1.35).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
}

impl Container {
    /// A restartable init container (a sidecar): `restartPolicy: Always`.
    pub fn is_sidecar(&self) -> bool {
        self.restart_policy.as_deref() == Some("Always")
    }
}

/// `resources`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRequirements {
    /// `requests`.
    #[serde(default)]
    pub requests: ResourceList,
    /// `limits`.
    #[serde(default)]
    pub limits: ResourceList,
}

/// `v1.ContainerPort`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    /// Container port.
    #[serde(default)]
    pub container_port: i32,
    /// Host port; only > 0 counts.
    #[serde(default)]
    pub host_port: i32,
    /// `TCP` (default), `UDP`, `SCTP`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub protocol: String,
    /// Host IP; empty means `0.0.0.0`.
    #[serde(rename = "hostIP", default, skip_serializing_if = "String::is_empty")]
    pub host_ip: String,
}

/// `v1.Affinity`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Affinity {
    /// Node affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<NodeAffinity>,
    /// Pod affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_affinity: Option<PodAffinity>,
    /// Pod anti-affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_anti_affinity: Option<PodAffinity>,
}

/// `v1.NodeAffinity`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeAffinity {
    /// Hard rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
    /// Soft rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredSchedulingTerm>,
}

/// A weighted node preference.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PreferredSchedulingTerm {
    /// 1..100.
    #[serde(default)]
    pub weight: i32,
    /// The term.
    #[serde(default)]
    pub preference: NodeSelectorTerm,
}

/// `v1.PodAffinity` / `v1.PodAntiAffinity` (same shape).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodAffinity {
    /// Hard terms.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_during_scheduling_ignored_during_execution: Vec<PodAffinityTerm>,
    /// Soft terms.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub preferred_during_scheduling_ignored_during_execution: Vec<WeightedPodAffinityTerm>,
}

/// `v1.PodAffinityTerm`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodAffinityTerm {
    /// Which pods; `None` matches nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// Namespaces; empty means the owning pod's namespace.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub namespaces: Vec<String>,
    /// Node label that defines the topology domain.
    #[serde(default)]
    pub topology_key: String,
    /// `namespaceSelector` (v1.35; `{}` matches every namespace).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<LabelSelector>,
    /// `matchLabelKeys` (v1.35: merged into the selector as the API server does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_label_keys: Vec<String>,
    /// `mismatchLabelKeys` (v1.35: merged into the selector as the API server does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mismatch_label_keys: Vec<String>,
}

/// A weighted pod affinity term.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct WeightedPodAffinityTerm {
    /// 1..100.
    #[serde(default)]
    pub weight: i32,
    /// The term.
    #[serde(default)]
    pub pod_affinity_term: PodAffinityTerm,
}

/// `whenUnsatisfiable: DoNotSchedule` (`v1.DoNotSchedule`).
pub const DO_NOT_SCHEDULE: &str = "DoNotSchedule";
/// `whenUnsatisfiable: ScheduleAnyway` (`v1.ScheduleAnyway`).
pub const SCHEDULE_ANYWAY: &str = "ScheduleAnyway";

/// `v1.TopologySpreadConstraint`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TopologySpreadConstraint {
    /// Allowed skew.
    #[serde(default)]
    pub max_skew: i32,
    /// Node label of the domain.
    #[serde(default)]
    pub topology_key: String,
    /// `DoNotSchedule` or `ScheduleAnyway`.
    #[serde(default)]
    pub when_unsatisfiable: String,
    /// Which pods count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// `minDomains` (v1.35; default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_domains: Option<i32>,
    /// `nodeAffinityPolicy`: `Honor` (default) or `Ignore` (v1.35).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_affinity_policy: Option<String>,
    /// `nodeTaintsPolicy`: `Ignore` (default) or `Honor` (v1.35).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_taints_policy: Option<String>,
    /// `matchLabelKeys` (v1.35).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_label_keys: Vec<String>,
}

/// `v1.Volume`: the sources the scheduler looks at; others are kept as opaque.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Volume {
    /// Volume name.
    #[serde(default)]
    pub name: String,
    /// A claim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persistent_volume_claim: Option<PvcSource>,
    /// GCE PD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gce_persistent_disk: Option<GcePdSource>,
    /// AWS EBS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aws_elastic_block_store: Option<EbsSource>,
    /// iSCSI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iscsi: Option<IscsiSource>,
    /// Ceph RBD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rbd: Option<RbdSource>,
    /// Azure disk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub azure_disk: Option<AzureDiskSource>,
    /// Cinder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cinder: Option<CinderSource>,
    /// CSI inline volume.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csi: Option<serde_json::Value>,
    /// Generic ephemeral volume (1.19+; treated as a claim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ephemeral: Option<serde_json::Value>,
}

impl Volume {
    /// `isVolumeConflict`: whether two inline volumes cannot be used at once (GCE PD with the
    /// same `pdName` unless both read-only, AWS EBS with the same `volumeID`, iSCSI with the
    /// same `iqn` unless both read-only, RBD with a common monitor, pool and image unless both
    /// read-only), in v1.17's `NoDiskConflict` and v1.35's `VolumeRestrictions` alike.
    pub fn conflicts_with(&self, other: &Volume) -> bool {
        let v = self;
        if let (Some(a), Some(b)) = (&v.gce_persistent_disk, &other.gce_persistent_disk) {
            if a.pd_name == b.pd_name && !(a.read_only && b.read_only) {
                return true;
            }
        }
        if let (Some(a), Some(b)) = (&v.aws_elastic_block_store, &other.aws_elastic_block_store) {
            if a.volume_id == b.volume_id {
                return true;
            }
        }
        if let (Some(a), Some(b)) = (&v.iscsi, &other.iscsi) {
            if a.iqn == b.iqn && !(a.read_only && b.read_only) {
                return true;
            }
        }
        if let (Some(a), Some(b)) = (&v.rbd, &other.rbd) {
            let overlap = a.monitors.iter().any(|m| b.monitors.contains(m));
            if overlap
                && rbd_pool(&a.pool) == rbd_pool(&b.pool)
                && a.image == b.image
                && !(a.read_only && b.read_only)
            {
                return true;
            }
        }
        false
    }
}

/// An RBD volume's pool, `rbd` by default.
fn rbd_pool(p: &Option<String>) -> &str {
    p.as_deref().unwrap_or("rbd")
}

/// `persistentVolumeClaim`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PvcSource {
    /// Claim name.
    #[serde(default)]
    pub claim_name: String,
    /// Read-only.
    #[serde(default)]
    pub read_only: bool,
}

/// `gcePersistentDisk`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GcePdSource {
    /// Disk name.
    #[serde(default)]
    pub pd_name: String,
    /// Read-only.
    #[serde(default)]
    pub read_only: bool,
}

/// `awsElasticBlockStore`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct EbsSource {
    /// Volume id.
    #[serde(rename = "volumeID", default)]
    pub volume_id: String,
    /// Read-only.
    #[serde(default)]
    pub read_only: bool,
}

/// `iscsi`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct IscsiSource {
    /// Target IQN.
    #[serde(default)]
    pub iqn: String,
    /// Read-only.
    #[serde(default)]
    pub read_only: bool,
}

/// `rbd`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RbdSource {
    /// Ceph monitors.
    #[serde(default)]
    pub monitors: Vec<String>,
    /// Pool (default `rbd`).
    #[serde(default)]
    pub pool: Option<String>,
    /// Image.
    #[serde(default)]
    pub image: String,
    /// Read-only.
    #[serde(default)]
    pub read_only: bool,
}

/// `azureDisk`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AzureDiskSource {
    /// Disk name.
    #[serde(default)]
    pub disk_name: String,
}

/// `cinder`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CinderSource {
    /// Volume id.
    #[serde(rename = "volumeID", default)]
    pub volume_id: String,
}

impl Pod {
    /// `spec.schedulerName`, or `default-scheduler` when empty.
    pub fn scheduler_name(&self) -> &str {
        match self.spec.scheduler_name.as_str() {
            "" => "default-scheduler",
            name => name,
        }
    }

    /// `namespace/name`.
    pub fn full_name(&self) -> String {
        format!(
            "{}/{}",
            self.metadata.namespace_or_default(),
            self.metadata.name
        )
    }

    /// True when the pod has any pod affinity or anti-affinity (required or preferred).
    pub fn has_pod_affinity(&self) -> bool {
        self.spec.affinity.as_ref().is_some_and(|a| {
            a.pod_affinity.as_ref().is_some_and(|p| {
                !p.required_during_scheduling_ignored_during_execution
                    .is_empty()
                    || !p
                        .preferred_during_scheduling_ignored_during_execution
                        .is_empty()
            }) || a.pod_anti_affinity.as_ref().is_some_and(|p| {
                !p.required_during_scheduling_ignored_during_execution
                    .is_empty()
                    || !p
                        .preferred_during_scheduling_ignored_during_execution
                        .is_empty()
            })
        })
    }

    /// The pod's node affinity, if any.
    pub fn node_affinity(&self) -> Option<&NodeAffinity> {
        self.spec.affinity.as_ref()?.node_affinity.as_ref()
    }

    /// The pod's pod affinity, if any.
    pub fn pod_affinity(&self) -> Option<&PodAffinity> {
        self.spec.affinity.as_ref()?.pod_affinity.as_ref()
    }

    /// The pod's pod anti-affinity, if any.
    pub fn pod_anti_affinity(&self) -> Option<&PodAffinity> {
        self.spec.affinity.as_ref()?.pod_anti_affinity.as_ref()
    }
}

/// Parses an RFC 3339 time (`2024-05-01T10:00:00Z`, `...T10:00:00.5+02:00`) into seconds and
/// nanoseconds since the Unix epoch; `None` if it is not one.
pub fn parse_rfc3339(s: &str) -> Option<(i64, u32)> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut rest = &s[19..];
    let mut nanos = 0u32;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        nanos = frac[..digits].parse::<u32>().ok()? * 10u32.pow(9 - digits as u32);
        rest = &frac[digits..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        o if o.len() == 6
            && (o.starts_with('+') || o.starts_with('-'))
            && o.get(3..4) == Some(":") =>
        {
            let oh: i64 = o.get(1..3)?.parse().ok()?;
            let om: i64 = o.get(4..6)?.parse().ok()?;
            let v = oh * 3600 + om * 60;
            if o.starts_with('-') {
                -v
            } else {
                v
            }
        }
        _ => return None,
    };
    // Days from civil (proleptic Gregorian), 1970-01-01 = 0.
    let (yy, mm) = if mo <= 2 {
        (y - 1, mo + 9)
    } else {
        (y, mo - 3)
    };
    let era = yy.div_euclid(400);
    let yoe = yy - era * 400;
    let doy = (153 * mm + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + h * 3600 + mi * 60 + sec - offset, nanos))
}

#[cfg(test)]
mod time_tests {
    use super::parse_rfc3339;

    #[test]
    fn rfc3339_times() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some((0, 0)));
        // 2020-02-29 is day 18 321 after the epoch (by hand: 50 years, 12 leap days, +59 days).
        assert_eq!(
            parse_rfc3339("2020-02-29T12:00:00Z"),
            Some((18_321 * 86_400 + 43_200, 0))
        );
        assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00"), Some((0, 0)));
        assert_eq!(
            parse_rfc3339("1970-01-01T00:00:01.25Z"),
            Some((1, 250_000_000))
        );
        for bad in [
            "",
            "yesterday",
            "2020-13-01T00:00:00Z",
            "2020-01-01T00:00:00",
            "2020-01-01T00:00:00.Z",
            // Six bytes of offset that are not six characters (found by fuzzing).
            "2024-01-01T00:00:00-00\u{fffd}",
            "2024-01-01T00:00:00-0\u{fffd}Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
