//! What kube-apiserver's validation reads but the typed objects leave out (they keep only what
//! the scheduler reads): read from the same document as the typed object, a file's tree or a
//! timeline change's value, so that both are checked by the same functions.

use crate::model::quantity::Quantity;
use crate::model::resources::QuantityVisitor;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// The keys of a map, its values skipped (which sources a volume names).
#[derive(Debug, Default)]
pub(crate) struct Keys(pub Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Keys, D::Error> {
        struct KeysVisitor;
        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = Keys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(KeysVisitor)
    }
}

/// A resource list as written: each name with its quantity, in document order.
#[derive(Debug, Default)]
pub(crate) struct Amounts(pub Vec<(String, Quantity)>);

impl<'de> Deserialize<'de> for Amounts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Amounts, D::Error> {
        struct AmountsVisitor;
        impl<'de> Visitor<'de> for AmountsVisitor {
            type Value = Amounts;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of resource names to quantities")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Amounts, A::Error> {
                let mut list = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    let (q, _) = map.next_value_seed(Quantity1)?;
                    list.push((k, q));
                }
                Ok(Amounts(list))
            }
        }
        d.deserialize_map(AmountsVisitor)
    }
}

/// One quantity, as the typed resource lists read it.
struct Quantity1;

impl<'de> serde::de::DeserializeSeed<'de> for Quantity1 {
    type Value = (Quantity, String);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(QuantityVisitor)
    }
}

/// A container's requests and limits.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct RequirementFacts {
    pub requests: Amounts,
    pub limits: Amounts,
}

/// A container.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ContainerFacts {
    pub resources: RequirementFacts,
}

/// A pod's spec.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PodSpecFacts {
    pub host_network: bool,
    pub restart_policy: Option<String>,
    pub dns_policy: Option<String>,
    pub volumes: Vec<Keys>,
    pub containers: Vec<ContainerFacts>,
    pub init_containers: Vec<ContainerFacts>,
    pub resources: Option<RequirementFacts>,
    pub overhead: Option<Amounts>,
}

/// A pod (or a pod template).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PodFacts {
    pub spec: PodSpecFacts,
}

/// A node's spec.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct NodeSpecFacts {
    #[serde(rename = "podCIDR")]
    pub pod_cidr: Option<String>,
    #[serde(rename = "podCIDRs")]
    pub pod_cidrs: Vec<String>,
}

/// A node's status.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct NodeStatusFacts {
    pub capacity: Amounts,
    pub allocatable: Amounts,
}

/// A node.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct NodeFacts {
    pub spec: NodeSpecFacts,
    pub status: NodeStatusFacts,
}

/// A PersistentVolume's spec: the reclaim policy and whether `capacity` is given; every other
/// key (its sources among them) in `other`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PvSpecFacts {
    pub persistent_volume_reclaim_policy: Option<String>,
    pub capacity: Option<Keys>,
    #[serde(flatten)]
    pub other: std::collections::BTreeMap<String, IgnoredAny>,
}

/// A PersistentVolume.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PvFacts {
    pub spec: PvSpecFacts,
}

/// A StorageClass.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct StorageClassFacts {
    pub reclaim_policy: Option<String>,
}

/// A PodDisruptionBudget's spec.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PdbSpecFacts {
    pub unhealthy_pod_eviction_policy: Option<String>,
}

/// A PodDisruptionBudget's status.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PdbStatusFacts {
    pub current_healthy: Option<i64>,
    pub desired_healthy: Option<i64>,
    pub expected_pods: Option<i64>,
}

/// A PodDisruptionBudget.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PdbFacts {
    pub spec: PdbSpecFacts,
    pub status: PdbStatusFacts,
}
