//! Typed resource amounts: milli-CPU, bytes, pod counts and scalar (extended) resources.
//!
//! `ResourceList` is how a Kubernetes `requests`/`limits`/`allocatable` map is read: each value is
//! parsed as a [`Quantity`] and converted by its name (`cpu` to milli-cores, everything else to
//! whole units), so an invalid value fails at its exact path. Scalar resources keep a sorted list,
//! so iteration order never depends on hashing.

use super::quantity::{format_bytes, format_milli_cpu, Quantity};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The resource names the scheduler treats specially.
pub const CPU: &str = "cpu";
/// Memory in bytes.
pub const MEMORY: &str = "memory";
/// Local ephemeral storage in bytes.
pub const EPHEMERAL_STORAGE: &str = "ephemeral-storage";
/// The node's pod capacity.
pub const PODS: &str = "pods";

/// Whether a resource name is a "scalar" resource for `PodFitsResources`: extended resources
/// (domain-prefixed), `hugepages-*` and `attachable-volumes-*`.
pub fn is_scalar_resource(name: &str) -> bool {
    name.contains('/') || name.starts_with("hugepages-") || name.starts_with("attachable-volumes-")
}

/// Whether a resource name is an extended resource (domain-prefixed, not `kubernetes.io/`).
pub fn is_extended_resource(name: &str) -> bool {
    name.contains('/') && !name.contains("kubernetes.io/")
}

/// Amounts of every resource kind the scheduler counts.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct Resources {
    /// CPU in thousandths of a core.
    pub milli_cpu: i64,
    /// Memory in bytes.
    pub memory: i64,
    /// Ephemeral storage in bytes.
    pub ephemeral_storage: i64,
    /// Pod count (only meaningful for node allocatable).
    pub pods: i64,
    /// Scalar resources, sorted by name.
    pub scalars: Vec<(String, i64)>,
    /// Which of cpu/memory were given explicitly (for the non-zero request defaults).
    #[serde(skip)]
    pub has_cpu: bool,
    /// Whether `memory` was given explicitly.
    #[serde(skip)]
    pub has_memory: bool,
}

impl Clone for Resources {
    fn clone(&self) -> Self {
        Resources {
            scalars: self.scalars.clone(),
            ..*self
        }
    }

    /// Reuses `self`'s scalar list (node copies in preemption and the nominated-pod pass).
    fn clone_from(&mut self, source: &Self) {
        self.milli_cpu = source.milli_cpu;
        self.memory = source.memory;
        self.ephemeral_storage = source.ephemeral_storage;
        self.pods = source.pods;
        self.scalars.clone_from(&source.scalars);
        self.has_cpu = source.has_cpu;
        self.has_memory = source.has_memory;
    }
}

impl Resources {
    /// The amount of a scalar resource (0 when absent).
    pub fn scalar(&self, name: &str) -> i64 {
        match self.scalars.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => self.scalars[i].1,
            Err(_) => 0,
        }
    }

    fn scalar_mut(&mut self, name: &str) -> &mut i64 {
        let i = match self.scalars.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(i) => i,
            Err(i) => {
                self.scalars.insert(i, (name.to_string(), 0));
                i
            }
        };
        &mut self.scalars[i].1
    }

    /// Adds another amount, saturating (inputs are bounded, so saturation never shows).
    pub fn add(&mut self, other: &Resources) {
        self.milli_cpu = self.milli_cpu.saturating_add(other.milli_cpu);
        self.memory = self.memory.saturating_add(other.memory);
        self.ephemeral_storage = self
            .ephemeral_storage
            .saturating_add(other.ephemeral_storage);
        self.pods = self.pods.saturating_add(other.pods);
        self.add_scalars(other);
    }

    /// Adds another amount's scalar resources only, saturating.
    pub fn add_scalars(&mut self, other: &Resources) {
        for (name, v) in &other.scalars {
            let slot = self.scalar_mut(name);
            *slot = slot.saturating_add(*v);
        }
    }

    /// Subtracts another amount (used when a pod leaves a node).
    pub fn sub(&mut self, other: &Resources) {
        self.milli_cpu = self.milli_cpu.saturating_sub(other.milli_cpu);
        self.memory = self.memory.saturating_sub(other.memory);
        self.ephemeral_storage = self
            .ephemeral_storage
            .saturating_sub(other.ephemeral_storage);
        self.pods = self.pods.saturating_sub(other.pods);
        for (name, v) in &other.scalars {
            let slot = self.scalar_mut(name);
            *slot = slot.saturating_sub(*v);
        }
    }

    /// Per-resource maximum (`SetMaxResource`, used for init containers).
    pub fn max_with(&mut self, other: &Resources) {
        self.milli_cpu = self.milli_cpu.max(other.milli_cpu);
        self.memory = self.memory.max(other.memory);
        self.ephemeral_storage = self.ephemeral_storage.max(other.ephemeral_storage);
        for (name, v) in &other.scalars {
            let slot = self.scalar_mut(name);
            *slot = (*slot).max(*v);
        }
    }

    /// True when nothing at all is requested: no cpu, memory or ephemeral storage and no scalar
    /// resource listed (`PodFitsResources`' zero-request test; a scalar listed with 0 counts as
    /// a request, as upstream's map entry does).
    pub fn is_zero(&self) -> bool {
        self.milli_cpu == 0
            && self.memory == 0
            && self.ephemeral_storage == 0
            && self.scalars.is_empty()
    }

    /// The amount of a named resource, in its natural unit.
    pub fn get(&self, name: &str) -> i64 {
        match name {
            CPU => self.milli_cpu,
            MEMORY => self.memory,
            EPHEMERAL_STORAGE => self.ephemeral_storage,
            PODS => self.pods,
            other => self.scalar(other),
        }
    }

    fn set(&mut self, name: &str, v: i64) {
        match name {
            CPU => {
                self.milli_cpu = v;
                self.has_cpu = true;
            }
            MEMORY => {
                self.memory = v;
                self.has_memory = true;
            }
            EPHEMERAL_STORAGE => self.ephemeral_storage = v,
            PODS => self.pods = v,
            other if is_scalar_resource(other) => *self.scalar_mut(other) = v,
            _ => {}
        }
    }
}

/// Formats an amount of a named resource for people: `1.5` cores, `512Mi`, `3`.
pub fn format_amount(resource: &str, amount: i64) -> String {
    match resource {
        CPU => format_milli_cpu(amount),
        MEMORY | EPHEMERAL_STORAGE => format_bytes(amount),
        r if r.starts_with("hugepages-") => format_bytes(amount),
        _ => amount.to_string(),
    }
}

/// Formats `used / total` of a named resource for people, both in one unit: bytes in the
/// largest binary unit the total reaches (`0.63 / 5.24Gi`, not `640Mi / 5497568Ki`), cpu in
/// cores, or in millicores when the total is under one core (`250m / 500m`), other resources
/// as plain counts.
pub fn format_usage(resource: &str, used: i64, total: i64) -> String {
    /// `v / unit` with the decimals that matter: none when exact, two below 10, else one.
    fn scaled(v: i64, unit: i64) -> String {
        if v % unit == 0 {
            return (v / unit).to_string();
        }
        let x = v as f64 / unit as f64;
        let s = if x.abs() < 10.0 {
            format!("{x:.2}")
        } else {
            format!("{x:.1}")
        };
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
    match resource {
        CPU if total.abs() < 1000 => format!("{used}m / {total}m"),
        CPU => format!("{} / {}", scaled(used, 1000), scaled(total, 1000)),
        r if r == MEMORY || r == EPHEMERAL_STORAGE || r.starts_with("hugepages-") => {
            const UNITS: [(&str, i64); 4] = [
                ("Ti", 1 << 40),
                ("Gi", 1 << 30),
                ("Mi", 1 << 20),
                ("Ki", 1 << 10),
            ];
            match UNITS.iter().find(|(_, size)| total.abs() >= *size) {
                Some(&(name, size)) => {
                    format!("{} / {}{name}", scaled(used, size), scaled(total, size))
                }
                None => format!("{used} / {total}"),
            }
        }
        _ => format!("{used} / {total}"),
    }
}

/// A `requests`/`limits`/`allocatable` map, parsed. Negative amounts are rejected.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceList(pub Resources);

/// Written back as Kubernetes writes it (what an extender receives): a map of resource names
/// to quantity strings, cpu in millicores when it is not a whole number of cores (`"500m"`),
/// the rest in units (`"1073741824"`). cpu and memory appear when they were given; the other
/// kinds when they are not zero, or (extended resources) when they were given.
impl Serialize for ResourceList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let r = &self.0;
        let mut map = s.serialize_map(None)?;
        if r.has_cpu || r.milli_cpu != 0 {
            let cpu = if r.milli_cpu % 1000 == 0 {
                (r.milli_cpu / 1000).to_string()
            } else {
                format!("{}m", r.milli_cpu)
            };
            map.serialize_entry(CPU, &cpu)?;
        }
        if r.has_memory || r.memory != 0 {
            map.serialize_entry(MEMORY, &r.memory.to_string())?;
        }
        if r.ephemeral_storage != 0 {
            map.serialize_entry(EPHEMERAL_STORAGE, &r.ephemeral_storage.to_string())?;
        }
        if r.pods != 0 {
            map.serialize_entry(PODS, &r.pods.to_string())?;
        }
        for (name, amount) in &r.scalars {
            map.serialize_entry(name, &amount.to_string())?;
        }
        map.end()
    }
}

struct AmountSeed<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for AmountSeed<'_> {
    type Value = i64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        let (q, text) = d.deserialize_any(QuantityVisitor)?;
        if q.is_negative() {
            return Err(de::Error::custom(format!(
                "negative quantity for {}: must be greater than or equal to 0",
                self.0
            )));
        }
        let v = if self.0 == CPU {
            q.milli_value()
        } else {
            q.value()
        };
        v.ok_or_else(|| {
            // Counted in millicores for cpu, in units (bytes, pods, devices) otherwise.
            let unit = if self.0 == CPU { "m" } else { "" };
            de::Error::custom(format!(
                "quantity {text:?} is too large for {}: at most {}{unit} can be counted",
                self.0,
                i64::MAX
            ))
        })
    }
}

/// Deserializes a quantity from a string or a number, with the text it was read from (for
/// error messages).
pub(crate) struct QuantityVisitor;

impl QuantityVisitor {
    fn parse<E: de::Error>(text: String) -> Result<(Quantity, String), E> {
        match Quantity::parse(&text) {
            Ok(q) => Ok((q, text)),
            Err(e) => Err(E::custom(e)),
        }
    }
}

impl Visitor<'_> for QuantityVisitor {
    type Value = (Quantity, String);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a quantity such as \"500m\", \"2Gi\" or 4")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Self::parse(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Self::parse(v.to_string())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Self::parse(v.to_string())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        if !v.is_finite() {
            return Err(E::custom(format!("invalid quantity {v}")));
        }
        Self::parse(v.to_string())
    }
}

impl<'de> Deserialize<'de> for ResourceList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = ResourceList;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of resource names to quantities")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResourceList, A::Error> {
                let mut r = Resources::default();
                while let Some(name) = map.next_key::<String>()? {
                    let v = map.next_value_seed(AmountSeed(&name))?;
                    r.set(&name, v);
                }
                Ok(ResourceList(r))
            }
        }
        d.deserialize_map(ListVisitor)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn usage_is_in_one_unit() {
        let mi = 1i64 << 20;
        let gi = 1i64 << 30;
        // 5497568Ki = 5629509632 bytes = 5.2429... Gi; 700Mi = 0.68359375Gi.
        assert_eq!(
            format_usage(MEMORY, 700 * mi, 5_497_568 << 10),
            "0.68 / 5.24Gi"
        );
        assert_eq!(format_usage(MEMORY, 2 * gi, 8 * gi), "2 / 8Gi");
        assert_eq!(format_usage(MEMORY, 0, 16 * gi), "0 / 16Gi");
        // 1536Mi of 100Gi: 1.5Gi; 37.5Gi keeps one decimal above 10.
        assert_eq!(format_usage(MEMORY, 1536 * mi, 100 * gi), "1.5 / 100Gi");
        assert_eq!(
            format_usage(MEMORY, 37 * gi + 512 * mi, 64 * gi),
            "37.5 / 64Gi"
        );
        assert_eq!(format_usage(MEMORY, 100, 512), "100 / 512");
        assert_eq!(format_usage(CPU, 1500, 4000), "1.5 / 4");
        assert_eq!(format_usage(CPU, 130, 2000), "0.13 / 2");
        assert_eq!(format_usage(CPU, 12_345, 64_000), "12.3 / 64");
        assert_eq!(format_usage(CPU, 250, 500), "250m / 500m");
        assert_eq!(format_usage(PODS, 3, 110), "3 / 110");
    }
    use super::*;

    #[test]
    fn reads_names_into_units() {
        let v = serde_json::json!({"cpu": "1500m", "memory": "1Gi", "pods": 110,
            "nvidia.com/gpu": "2", "storage": "1Gi", "hugepages-2Mi": "0"});
        let r: ResourceList = serde_json::from_value(v).unwrap();
        assert_eq!(r.0.milli_cpu, 1500);
        assert_eq!(r.0.memory, 1 << 30);
        assert_eq!(r.0.pods, 110);
        assert_eq!(r.0.scalar("nvidia.com/gpu"), 2);
        assert_eq!(r.0.scalar("hugepages-2Mi"), 0);
        assert_eq!(
            r.0.scalars.len(),
            2,
            "plain `storage` is not a scheduler resource"
        );
    }

    #[test]
    fn numbers_are_quantities() {
        let v = serde_json::json!({"cpu": 64, "memory": 0.5});
        let r: ResourceList = serde_json::from_value(v).unwrap();
        assert_eq!(r.0.milli_cpu, 64_000);
        assert_eq!(r.0.memory, 1);
    }
}
