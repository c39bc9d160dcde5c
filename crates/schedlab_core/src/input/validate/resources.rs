//! Resource names and amounts: `validateResourceName`, `validateContainerResourceName`,
//! `IsIntegerResourceName` (`pkg/apis/core/validation`, `pkg/apis/core/helper`).

use crate::model::names::qualified_name;
use crate::model::quantity::Quantity;

/// `IsStandardResourceName`'s list (huge pages apart).
const STANDARD: [&str; 19] = [
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "quotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// `integerResources`: counted in whole numbers (extended resources too).
const INTEGER: [&str; 9] = [
    "pods",
    "quotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

/// `IsNativeResource`: no domain, or a `kubernetes.io/` one.
fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `IsExtendedResourceName`: not native, not `requests.`-prefixed, and a qualified name once
/// prefixed with `requests.` (as a quota names it).
pub(super) fn is_extended(name: &str) -> bool {
    !is_native(name)
        && !name.starts_with("requests.")
        && qualified_name(&format!("requests.{name}")).is_empty()
}

/// `IsIntegerResourceName`.
pub(super) fn is_integer_resource(name: &str) -> bool {
    INTEGER.contains(&name) || is_extended(name)
}

/// `validateResourceName`'s messages: a qualified name, and a standard one unless it has a
/// domain.
fn resource_name(name: &str) -> Vec<String> {
    let errs = qualified_name(name);
    if !errs.is_empty() {
        return errs;
    }
    let standard = STANDARD.contains(&name)
        || name.starts_with("hugepages-")
        || name.starts_with("requests.hugepages-");
    if !name.contains('/') && !standard {
        return vec!["must be a standard resource type or fully qualified".into()];
    }
    Vec::new()
}

/// `validateContainerResourceName`'s messages.
pub(super) fn container_resource_name(name: &str) -> Vec<String> {
    let mut errs = resource_name(name);
    if !name.contains('/') {
        let standard = ["cpu", "memory", "ephemeral-storage"].contains(&name)
            || name.starts_with("hugepages-");
        if !standard {
            errs.push("must be a standard resource for containers".into());
        }
    } else if !is_native(name) && !is_extended(name) {
        errs.push("doesn't follow extended resource name standard".into());
    }
    errs
}

/// A quantity as a message shows it: whole, or in thousandths (`1500m`), or in billionths.
pub(super) fn shown(q: &Quantity) -> String {
    match (q.milli_value(), q.nano_value()) {
        (Some(m), _) if m % 1000 == 0 => (m / 1000).to_string(),
        (_, Some(n)) if n % 1_000_000 == 0 => format!("{}m", n / 1_000_000),
        (_, Some(n)) => format!("{n}n"),
        (Some(m), None) => format!("{m}m"),
        (None, None) => "a quantity too large to show".into(),
    }
}
