//! Storage objects the volume predicates read: PersistentVolume, PersistentVolumeClaim,
//! StorageClass and CSINode, and the [`VolumeCatalog`] that indexes them on the cluster.
//!
//! Only the fields the v1.17 volume predicates and the volume binder read are modelled; the rest
//! is ignored on input. Storage sizes are kept in bytes, rounded up (`Quantity.Value()`).
//!
//! Inconsistent inputs are tolerated, as the API server would hold them: a claim bound to a
//! volume that is not in the input, a volume whose `claimRef` names another claim. The
//! predicates report what upstream reports when they meet them.

use super::meta::ObjectMeta;
use super::pod::{AzureDiskSource, CinderSource, EbsSource, GcePdSource};
use super::quantity::Quantity;
use super::selector::{LabelSelector, NodeSelector};
use super::Labels;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// `pv.kubernetes.io/bind-completed`: the PV controller finished binding the claim.
pub const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
/// `volume.kubernetes.io/selected-node`: the scheduler chose a node for provisioning.
pub const ANN_SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
/// `volume.beta.kubernetes.io/storage-class`: the beta class annotation, read before the field.
pub const ANN_STORAGE_CLASS: &str = "volume.beta.kubernetes.io/storage-class";
/// `storage.alpha.kubernetes.io/migrated-plugins` on a CSINode.
pub const ANN_MIGRATED_PLUGINS: &str = "storage.alpha.kubernetes.io/migrated-plugins";
/// `failure-domain.beta.kubernetes.io/zone`.
pub const LABEL_ZONE: &str = "failure-domain.beta.kubernetes.io/zone";
/// `failure-domain.beta.kubernetes.io/region`.
pub const LABEL_REGION: &str = "failure-domain.beta.kubernetes.io/region";

/// A storage size in bytes (`Quantity.Value()`, rounded up; saturating at `i64::MAX`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct StorageSize(pub i64);

impl<'de> Deserialize<'de> for StorageSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StorageSize;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a quantity such as \"10Gi\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StorageSize, E> {
                let q = Quantity::parse(v).map_err(E::custom)?;
                Ok(size_of(&q))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StorageSize, E> {
                Ok(StorageSize(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StorageSize, E> {
                Ok(StorageSize(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<StorageSize, E> {
                let q = Quantity::parse(&v.to_string()).map_err(E::custom)?;
                Ok(size_of(&q))
            }
        }
        d.deserialize_any(V)
    }
}

fn size_of(q: &Quantity) -> StorageSize {
    StorageSize(
        q.value()
            .unwrap_or(if q.is_negative() { i64::MIN } else { i64::MAX }),
    )
}

/// `{storage: <quantity>}` (capacity or requests); other resources are ignored.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct StorageResources {
    /// `storage`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage: Option<StorageSize>,
}

/// `spec.csi` of a PersistentVolume.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CsiPvSource {
    /// Driver name.
    #[serde(default)]
    pub driver: String,
    /// Volume handle.
    #[serde(default)]
    pub volume_handle: String,
}

/// `spec.claimRef` of a PersistentVolume.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ClaimRef {
    /// Claim name.
    #[serde(default)]
    pub name: String,
    /// Claim namespace.
    #[serde(default)]
    pub namespace: String,
    /// Claim UID (empty matches any).
    #[serde(default)]
    pub uid: String,
}

/// `spec.nodeAffinity` of a PersistentVolume.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct VolumeNodeAffinity {
    /// `required`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<NodeSelector>,
}

/// `PersistentVolume.spec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeSpec {
    /// `capacity.storage`.
    #[serde(default)]
    pub capacity: StorageResources,
    /// Access modes.
    #[serde(default)]
    pub access_modes: Vec<String>,
    /// Storage class (`""` = none).
    #[serde(default)]
    pub storage_class_name: String,
    /// `Filesystem` (default) or `Block`.
    #[serde(default)]
    pub volume_mode: Option<String>,
    /// The claim this volume is bound or reserved to.
    #[serde(default)]
    pub claim_ref: Option<ClaimRef>,
    /// Node affinity.
    #[serde(default)]
    pub node_affinity: Option<VolumeNodeAffinity>,
    /// GCE PD source.
    #[serde(default)]
    pub gce_persistent_disk: Option<GcePdSource>,
    /// AWS EBS source.
    #[serde(default)]
    pub aws_elastic_block_store: Option<EbsSource>,
    /// Azure disk source.
    #[serde(default)]
    pub azure_disk: Option<AzureDiskSource>,
    /// Cinder source.
    #[serde(default)]
    pub cinder: Option<CinderSource>,
    /// CSI source.
    #[serde(default)]
    pub csi: Option<CsiPvSource>,
}

/// `status` of a PV or PVC.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct VolumeStatus {
    /// `phase` (`Available`, `Bound`, `Pending`, ...).
    #[serde(default)]
    pub phase: String,
}

/// A PersistentVolume.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct PersistentVolume {
    /// Metadata (name, labels for zone/region).
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Spec.
    #[serde(default)]
    pub spec: PersistentVolumeSpec,
    /// Status.
    #[serde(default)]
    pub status: VolumeStatus,
}

/// `PersistentVolumeClaim.spec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaimSpec {
    /// Storage class (`None` = not set).
    #[serde(default)]
    pub storage_class_name: Option<String>,
    /// The bound (or pre-bound) volume.
    #[serde(default)]
    pub volume_name: String,
    /// Access modes.
    #[serde(default)]
    pub access_modes: Vec<String>,
    /// `resources.requests.storage`.
    #[serde(default)]
    pub resources: ClaimResources,
    /// A label selector over volumes.
    #[serde(default)]
    pub selector: Option<LabelSelector>,
    /// `Filesystem` (default) or `Block`.
    #[serde(default)]
    pub volume_mode: Option<String>,
}

/// `resources` of a claim.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct ClaimResources {
    /// `requests`.
    #[serde(default)]
    pub requests: StorageResources,
}

/// A PersistentVolumeClaim.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct PersistentVolumeClaim {
    /// Metadata (name, namespace, uid, annotations, deletionTimestamp).
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Spec.
    #[serde(default)]
    pub spec: PersistentVolumeClaimSpec,
    /// Status.
    #[serde(default)]
    pub status: VolumeStatus,
}

impl PersistentVolumeClaim {
    /// `GetPersistentVolumeClaimClass`: the beta annotation, else the field, else `""`.
    pub fn class(&self) -> &str {
        if let Some(c) = self.metadata.annotations.get(ANN_STORAGE_CLASS) {
            return c;
        }
        self.spec.storage_class_name.as_deref().unwrap_or("")
    }

    /// Whether a class is named at all (annotation or field); `matchProvisioner` needs one.
    pub fn has_class(&self) -> bool {
        self.spec.storage_class_name.is_some()
    }

    /// `isPVCFullyBound`: a volume name and the bind-completed annotation.
    pub fn fully_bound(&self) -> bool {
        !self.spec.volume_name.is_empty()
            && self.metadata.annotations.contains_key(ANN_BIND_COMPLETED)
    }

    /// The storage request in bytes (0 when absent).
    pub fn request(&self) -> i64 {
        self.spec.resources.requests.storage.unwrap_or_default().0
    }
}

impl PersistentVolume {
    /// `GetPersistentVolumeClass` (beta annotation, else the field).
    pub fn class(&self) -> &str {
        if let Some(c) = self.metadata.annotations.get(ANN_STORAGE_CLASS) {
            return c;
        }
        &self.spec.storage_class_name
    }

    /// Capacity in bytes.
    pub fn capacity(&self) -> i64 {
        self.spec.capacity.storage.unwrap_or_default().0
    }

    /// `CheckNodeAffinity`: the required node selector against the node's labels (no fields).
    pub fn node_affinity_matches(&self, labels: &Labels) -> bool {
        match self
            .spec
            .node_affinity
            .as_ref()
            .and_then(|a| a.required.as_ref())
        {
            None => true,
            // MatchNodeSelectorTerms is called with nil fields: a field term sees name "".
            Some(sel) => sel.matches(labels, ""),
        }
    }

    /// `IsVolumeBoundToClaim`.
    pub fn bound_to(&self, claim: &PersistentVolumeClaim) -> bool {
        let Some(r) = &self.spec.claim_ref else {
            return false;
        };
        r.name == claim.metadata.name
            && r.namespace == claim.metadata.namespace_or_default()
            && (r.uid.is_empty() || r.uid == claim.metadata.uid)
    }
}

/// `allowedTopologies[].matchLabelExpressions[]`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct TopologyRequirement {
    /// Label key.
    #[serde(default)]
    pub key: String,
    /// Allowed values.
    #[serde(default)]
    pub values: Vec<String>,
}

/// One `allowedTopologies` term.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TopologySelectorTerm {
    /// Requirements (ANDed).
    #[serde(default)]
    pub match_label_expressions: Vec<TopologyRequirement>,
}

/// A StorageClass.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StorageClass {
    /// Metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The provisioner.
    #[serde(default)]
    pub provisioner: String,
    /// `Immediate` or `WaitForFirstConsumer`; `None` when not set (the API server defaults it
    /// to `Immediate`, so only hand-written inputs lack it).
    #[serde(default)]
    pub volume_binding_mode: Option<String>,
    /// Allowed topologies (empty = everywhere).
    #[serde(default)]
    pub allowed_topologies: Vec<TopologySelectorTerm>,
}

impl StorageClass {
    /// `MatchTopologySelectorTerms` over the node's labels.
    pub fn topology_allows(&self, labels: &Labels) -> bool {
        if self.allowed_topologies.is_empty() {
            return true;
        }
        self.allowed_topologies.iter().any(|t| {
            !t.match_label_expressions.is_empty()
                && t.match_label_expressions.iter().all(|r| {
                    !r.values.is_empty() && labels.get(&r.key).is_some_and(|v| r.values.contains(v))
                })
        })
    }
}

/// `spec.drivers[].allocatable`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct DriverAllocatable {
    /// `count`.
    #[serde(default)]
    pub count: Option<i64>,
}

/// `spec.drivers[]` of a CSINode.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct CsiNodeDriver {
    /// Driver name.
    #[serde(default)]
    pub name: String,
    /// Attach limit.
    #[serde(default)]
    pub allocatable: Option<DriverAllocatable>,
}

/// `CSINode.spec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct CsiNodeSpec {
    /// Drivers.
    #[serde(default)]
    pub drivers: Vec<CsiNodeDriver>,
}

/// A CSINode (named after its node).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct CsiNode {
    /// Metadata (name = node name; the migrated-plugins annotation).
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Spec.
    #[serde(default)]
    pub spec: CsiNodeSpec,
}

impl CsiNode {
    /// `isCSIMigrationOn` for an in-tree plugin name such as `kubernetes.io/aws-ebs`: the plugin
    /// is listed in the migrated-plugins annotation.
    pub fn migrated(&self, plugin: &str) -> bool {
        self.metadata
            .annotations
            .get(ANN_MIGRATED_PLUGINS)
            .is_some_and(|a| !a.is_empty() && a.split(',').any(|p| p == plugin))
    }
}

/// Every storage object of the scenario, indexed for the volume predicates. Maps are
/// `BTreeMap`s so every walk over them is in name order.
#[derive(Clone, Debug, Default)]
pub struct VolumeCatalog {
    /// PersistentVolumes by name.
    pub pvs: BTreeMap<String, PersistentVolume>,
    /// PersistentVolumeClaims by (namespace, name).
    pub pvcs: BTreeMap<(String, String), PersistentVolumeClaim>,
    /// StorageClasses by name.
    pub classes: BTreeMap<String, StorageClass>,
    /// CSINodes by (node) name.
    pub csi_nodes: BTreeMap<String, CsiNode>,
}

impl VolumeCatalog {
    /// A claim by namespace and name.
    pub fn pvc(&self, namespace: &str, name: &str) -> Option<&PersistentVolumeClaim> {
        self.pvcs.get(&(namespace.to_string(), name.to_string()))
    }

    /// A volume by name.
    pub fn pv(&self, name: &str) -> Option<&PersistentVolume> {
        self.pvs.get(name)
    }

    /// A class by name.
    pub fn class(&self, name: &str) -> Option<&StorageClass> {
        self.classes.get(name)
    }

    /// The CSINode of a node.
    pub fn csi_node(&self, node: &str) -> Option<&CsiNode> {
        self.csi_nodes.get(node)
    }

    /// Adds a claim (namespace defaulted to `default`); false if one with that name exists.
    pub fn add_pvc(&mut self, mut pvc: PersistentVolumeClaim) -> bool {
        pvc.metadata.namespace = pvc.metadata.namespace_or_default().to_string();
        let key = (pvc.metadata.namespace.clone(), pvc.metadata.name.clone());
        if self.pvcs.contains_key(&key) {
            return false;
        }
        self.pvcs.insert(key, pvc);
        true
    }

    /// Binds a volume to a claim as the PV controller completes it after the scheduler's
    /// `BindPodVolumes`: the PV gets the `claimRef` and phase `Bound`, the claim the volume name,
    /// the bind-completed annotation and phase `Bound`.
    pub fn bind(&mut self, namespace: &str, claim: &str, pv: &str) {
        let key = (namespace.to_string(), claim.to_string());
        let Some(c) = self.pvcs.get_mut(&key) else {
            return;
        };
        c.spec.volume_name = pv.to_string();
        c.metadata
            .annotations
            .insert(ANN_BIND_COMPLETED.into(), "yes".into());
        c.status.phase = "Bound".into();
        let uid = c.metadata.uid.clone();
        if let Some(v) = self.pvs.get_mut(pv) {
            v.spec.claim_ref = Some(ClaimRef {
                name: claim.to_string(),
                namespace: namespace.to_string(),
                uid,
            });
            v.status.phase = "Bound".into();
        }
    }

    /// Marks a claim for dynamic provisioning on a node (`AnnSelectedNode`), as
    /// `AssumePodVolumes` does; the provisioner's volume is not simulated.
    pub fn select_node(&mut self, namespace: &str, claim: &str, node: &str) {
        let key = (namespace.to_string(), claim.to_string());
        if let Some(c) = self.pvcs.get_mut(&key) {
            c.metadata
                .annotations
                .insert(ANN_SELECTED_NODE.into(), node.to_string());
        }
    }
}

/// `LabelZonesToSet`: `__`-separated zones, trimmed; an empty element is an error (`None`).
pub fn label_zones_to_set(value: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    for z in value.split("__") {
        let z = z.trim();
        if z.is_empty() {
            return None;
        }
        out.push(z);
    }
    Some(out)
}

/// The CSI driver an in-tree volume plugin migrates to (CSI migration, in both versions).
pub fn csi_name_of(plugin: &str) -> Option<&'static str> {
    Some(match plugin {
        "kubernetes.io/aws-ebs" => "ebs.csi.aws.com",
        "kubernetes.io/gce-pd" => "pd.csi.storage.gke.io",
        "kubernetes.io/azure-disk" => "disk.csi.azure.com",
        "kubernetes.io/azure-file" => "file.csi.azure.com",
        "kubernetes.io/cinder" => "cinder.csi.openstack.org",
        _ => return None,
    })
}
