//! Dynamic Resource Allocation objects (`resource.k8s.io/v1`): DeviceClass, ResourceSlice,
//! ResourceClaim and ResourceClaimTemplate, with the fields the scheduler reads (reference
//! `dra.md` §1). Alpha fields whose gates are off in v1.35 (`sharedCounters`,
//! `consumesCounters`, `bindingConditions`, taints, tolerations, `capacity` requests) are kept
//! only as far as the allocator must skip what carries them.
//!
//! [`apply_request_defaults`] applies the API server's defaults (`allocationMode: ExactCount`,
//! `count: 1`), which every claim the scheduler sees has.

pub mod catalog;
pub mod generate;

use super::meta::ObjectMeta;
use super::quantity::Quantity;
use super::selector::NodeSelector;
use super::Labels;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `resource.k8s.io/v1`.
pub const API_VERSION: &str = "resource.k8s.io/v1";
/// `resourceapi.Finalizer`, added by PreBind before it writes an allocation.
pub const FINALIZER: &str = "resource.kubernetes.io/delete-protection";
/// The annotation the claim controller puts on a generated claim: the pod's entry name.
pub const POD_CLAIM_NAME_ANNOTATION: &str = "resource.kubernetes.io/pod-claim-name";
/// `AllocationResultsMaxSize` (and `DeviceRequestsMaxSize`): devices per claim.
pub const ALLOCATION_RESULTS_MAX_SIZE: usize = 32;
/// `FirstAvailableDeviceRequestMaxSize`.
pub const FIRST_AVAILABLE_MAX_SIZE: usize = 8;

/// `ExactCount`.
pub const EXACT_COUNT: &str = "ExactCount";
/// `All`.
pub const ALL: &str = "All";

/// `DeviceSelector`: only CEL selectors exist.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceSelector {
    /// `cel`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cel: Option<CelDeviceSelector>,
}

/// `CELDeviceSelector`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CelDeviceSelector {
    /// `expression`.
    #[serde(default)]
    pub expression: String,
}

/// `OpaqueDeviceConfiguration`: `parameters` is kept as given.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct OpaqueDeviceConfiguration {
    /// `driver`.
    #[serde(default)]
    pub driver: String,
    /// `parameters`.
    #[serde(default)]
    pub parameters: serde_json::Value,
}

/// `DeviceClassConfiguration`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceClassConfiguration {
    /// `opaque`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opaque: Option<OpaqueDeviceConfiguration>,
}

/// `DeviceClassSpec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceClassSpec {
    /// `selectors`.
    #[serde(default)]
    pub selectors: Vec<DeviceSelector>,
    /// `config`.
    #[serde(default)]
    pub config: Vec<DeviceClassConfiguration>,
    /// `extendedResourceName` (alpha, ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_resource_name: Option<String>,
}

/// `DeviceClass` (cluster-scoped).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceClass {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: DeviceClassSpec,
}

/// `ResourcePool`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourcePool {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `generation`.
    #[serde(default)]
    pub generation: i64,
    /// `resourceSliceCount`.
    #[serde(default)]
    pub resource_slice_count: i64,
}

/// `DeviceAttribute`: exactly one of the four is set.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceAttribute {
    /// `int`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int: Option<i64>,
    /// `bool`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bool: Option<bool>,
    /// `string`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string: Option<String>,
    /// `version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// `DeviceCapacity`: its `value` (the `requestPolicy` is consumable capacity, off).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceCapacity {
    /// `value`, as written.
    #[serde(deserialize_with = "quantity_text")]
    pub value: String,
}

impl DeviceCapacity {
    /// The value as a quantity (validated when read).
    pub fn quantity(&self) -> Quantity {
        Quantity::parse(&self.value).unwrap_or_else(|_| Quantity::parse("0").expect("zero"))
    }
}

/// A quantity given as a string or a number, checked and kept as text.
fn quantity_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    let text = match &v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => return Err(de::Error::custom("expected a quantity such as \"80Gi\"")),
    };
    Quantity::parse(&text).map_err(de::Error::custom)?;
    Ok(text)
}

/// `Device`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Device {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `attributes`, by qualified name.
    #[serde(default)]
    pub attributes: BTreeMap<String, DeviceAttribute>,
    /// `capacity`, by qualified name.
    #[serde(default)]
    pub capacity: BTreeMap<String, DeviceCapacity>,
    /// `consumesCounters` (partitionable devices, off: such a device is never allocated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub consumes_counters: Vec<serde_json::Value>,
    /// `bindingConditions` (off: such a device is never selectable).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub binding_conditions: Vec<String>,
    /// `taints` (`DRADeviceTaints`, off: ignored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<serde_json::Value>,
}

/// `ResourceSliceSpec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSliceSpec {
    /// `driver`.
    #[serde(default)]
    pub driver: String,
    /// `pool`.
    #[serde(default)]
    pub pool: ResourcePool,
    /// `nodeName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_name: Option<String>,
    /// `nodeSelector` (exactly one term).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<NodeSelector>,
    /// `allNodes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_nodes: Option<bool>,
    /// `perDeviceNodeSelection` (partitionable, off: the slice is skipped).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_device_node_selection: Option<bool>,
    /// `sharedCounters` (partitionable, off: the slice is skipped).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_counters: Vec<serde_json::Value>,
    /// `devices`.
    #[serde(default)]
    pub devices: Vec<Device>,
}

/// `ResourceSlice` (cluster-scoped).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSlice {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ResourceSliceSpec,
}

/// `ExactDeviceRequest`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExactDeviceRequest {
    /// `deviceClassName`.
    #[serde(default)]
    pub device_class_name: String,
    /// `selectors`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectors: Vec<DeviceSelector>,
    /// `allocationMode` (`ExactCount` when not given).
    #[serde(default)]
    pub allocation_mode: String,
    /// `count` (1 when not given, for `ExactCount`).
    #[serde(default)]
    pub count: i64,
    /// `adminAccess`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_access: Option<bool>,
    /// `tolerations` (`DRADeviceTaints`, off: ignored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<serde_json::Value>,
    /// `capacity` (consumable capacity, off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<serde_json::Value>,
}

/// `DeviceSubRequest`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceSubRequest {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `deviceClassName`.
    #[serde(default)]
    pub device_class_name: String,
    /// `selectors`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectors: Vec<DeviceSelector>,
    /// `allocationMode`.
    #[serde(default)]
    pub allocation_mode: String,
    /// `count`.
    #[serde(default)]
    pub count: i64,
    /// `tolerations` (ignored).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<serde_json::Value>,
    /// `capacity` (consumable capacity, off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<serde_json::Value>,
}

/// `DeviceRequest`: exactly one of `exactly` and `firstAvailable`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceRequest {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `exactly`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exactly: Option<ExactDeviceRequest>,
    /// `firstAvailable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_available: Option<Vec<DeviceSubRequest>>,
}

/// `DeviceConstraint`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceConstraint {
    /// `requests` (empty: all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    /// `matchAttribute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_attribute: Option<String>,
    /// `distinctAttribute` (consumable capacity, off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct_attribute: Option<String>,
}

/// `DeviceClaimConfiguration`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceClaimConfiguration {
    /// `requests` (empty: all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    /// `opaque`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opaque: Option<OpaqueDeviceConfiguration>,
}

/// `DeviceClaim`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceClaim {
    /// `requests`.
    #[serde(default)]
    pub requests: Vec<DeviceRequest>,
    /// `constraints`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<DeviceConstraint>,
    /// `config`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<DeviceClaimConfiguration>,
}

/// `ResourceClaimSpec`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceClaimSpec {
    /// `devices`.
    #[serde(default)]
    pub devices: DeviceClaim,
}

/// `DeviceRequestAllocationResult`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceRequestAllocationResult {
    /// `request` (`req` or `req/sub`).
    #[serde(default)]
    pub request: String,
    /// `driver`.
    #[serde(default)]
    pub driver: String,
    /// `pool`.
    #[serde(default)]
    pub pool: String,
    /// `device`.
    #[serde(default)]
    pub device: String,
    /// `adminAccess` (only when true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_access: Option<bool>,
}

/// `DeviceAllocationConfiguration`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceAllocationConfiguration {
    /// `FromClass` or `FromClaim`.
    #[serde(default)]
    pub source: String,
    /// `requests`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<String>,
    /// `opaque`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opaque: Option<OpaqueDeviceConfiguration>,
}

/// `DeviceAllocationResult`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct DeviceAllocationResult {
    /// `results`.
    #[serde(default)]
    pub results: Vec<DeviceRequestAllocationResult>,
    /// `config`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<DeviceAllocationConfiguration>,
}

/// `AllocationResult`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AllocationResult {
    /// `devices`.
    #[serde(default)]
    pub devices: DeviceAllocationResult,
    /// `nodeSelector` (nil: usable everywhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<NodeSelector>,
}

/// `ResourceClaimConsumerReference`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceClaimConsumerReference {
    /// `apiGroup` (empty for pods).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_group: String,
    /// `resource` (`pods`).
    #[serde(default)]
    pub resource: String,
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `uid`.
    #[serde(default)]
    pub uid: String,
}

/// `ResourceClaimStatus`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceClaimStatus {
    /// `allocation`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allocation: Option<AllocationResult>,
    /// `reservedFor`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved_for: Vec<ResourceClaimConsumerReference>,
}

/// `ResourceClaim` (namespaced).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceClaim {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ResourceClaimSpec,
    /// `status`.
    #[serde(default)]
    pub status: ResourceClaimStatus,
}

impl ResourceClaim {
    /// `<namespace>/<name>` (`klog.KObj`).
    pub fn key(&self) -> String {
        format!(
            "{}/{}",
            self.metadata.namespace_or_default(),
            self.metadata.name
        )
    }
}

/// `ResourceClaimTemplateSpec`: the claim's labels and annotations, and its spec.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceClaimTemplateSpec {
    /// `metadata` (labels and annotations copied into the claim).
    #[serde(default)]
    pub metadata: TemplateMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ResourceClaimSpec,
}

/// The labels and annotations of a template's `spec.metadata`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TemplateMeta {
    /// `labels`.
    #[serde(default, skip_serializing_if = "Labels::is_empty")]
    pub labels: Labels,
    /// `annotations`.
    #[serde(default, skip_serializing_if = "Labels::is_empty")]
    pub annotations: Labels,
}

/// `ResourceClaimTemplate` (namespaced).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ResourceClaimTemplate {
    /// `metadata`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `spec`.
    #[serde(default)]
    pub spec: ResourceClaimTemplateSpec,
}

/// A pod's `spec.resourceClaims[]` entry.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodResourceClaim {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `resourceClaimName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_claim_name: Option<String>,
    /// `resourceClaimTemplateName`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_claim_template_name: Option<String>,
}

/// A pod's `status.resourceClaimStatuses[]` entry.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PodResourceClaimStatus {
    /// `name`.
    #[serde(default)]
    pub name: String,
    /// `resourceClaimName` (unset: no claim needed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_claim_name: Option<String>,
}

/// Applies `SetDefaults_ExactDeviceRequest` / `SetDefaults_DeviceSubRequest`: an empty
/// `allocationMode` is `ExactCount`, and `ExactCount` with `count: 0` counts 1.
pub fn apply_request_defaults(spec: &mut ResourceClaimSpec) {
    fn fix(mode: &mut String, count: &mut i64) {
        if mode.is_empty() {
            *mode = EXACT_COUNT.to_string();
        }
        if mode == EXACT_COUNT && *count == 0 {
            *count = 1;
        }
    }
    for r in &mut spec.devices.requests {
        if let Some(e) = &mut r.exactly {
            fix(&mut e.allocation_mode, &mut e.count);
        }
        for s in r.first_available.iter_mut().flatten() {
            fix(&mut s.allocation_mode, &mut s.count);
        }
    }
}

/// `parseQualifiedName`: a `"domain/id"` name, or a bare `"id"` in the driver's domain.
pub fn split_qualified_name<'a>(name: &'a str, driver: &'a str) -> (&'a str, &'a str) {
    match name.split_once('/') {
        Some((domain, id)) => (domain, id),
        None => (driver, name),
    }
}
