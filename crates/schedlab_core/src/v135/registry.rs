//! The plugin registry, and nothing else: the list of every v1.35 plugin's [`PluginSpec`]
//! (each declared in its own file), from which every other list derives (the default plugin
//! set and its weights, which points a plugin can sit at, which plugins take args). Adding a
//! plugin is one file and one line here; see `ARCHITECTURE.md`, "Adding a plugin".

use super::plugin::PluginSpec;
use super::plugins;

/// Every plugin v1.35 registers, in the order of its default configuration.
pub static REGISTRY: &[&PluginSpec] = &[
    &plugins::scheduling_gates::SPEC,
    &plugins::priority_sort::SPEC,
    &plugins::node_unschedulable::SPEC,
    &plugins::node_name::SPEC,
    &plugins::taint_toleration::SPEC,
    &plugins::node_affinity::SPEC,
    &plugins::node_ports::SPEC,
    &plugins::node_resources::fit::SPEC,
    &plugins::volume_restrictions::SPEC,
    &plugins::node_volume_limits::SPEC,
    &plugins::volume_binding::SPEC,
    &plugins::volume_zone::SPEC,
    &plugins::pod_topology_spread::SPEC,
    &plugins::inter_pod_affinity::SPEC,
    &plugins::dynamic_resources::SPEC,
    &plugins::default_preemption::SPEC,
    &plugins::node_resources::balanced_allocation::SPEC,
    &plugins::image_locality::SPEC,
    &plugins::default_binder::SPEC,
];

/// Plugins that v1 configurations may no longer name (`invalidPluginsByVersion`).
pub(crate) const REMOVED_PLUGINS: [&str; 4] = [
    "AzureDiskLimits",
    "CinderLimits",
    "EBSLimits",
    "GCEPDLimits",
];

/// The spec registered under `name`, else the custom plugin of that name in scope
/// ([`super::custom::with_custom_plugins`]).
pub fn lookup(name: &str) -> Option<&'static PluginSpec> {
    REGISTRY
        .iter()
        .copied()
        .find(|s| s.name == name)
        .or_else(|| super::custom::lookup(name))
}

/// v1.35's default plugin list (`getDefaultPlugins`): `(name, weight)` in order.
pub fn default_plugins() -> impl Iterator<Item = (&'static str, Option<i64>)> {
    REGISTRY
        .iter()
        .filter(|s| s.default_enabled)
        .map(|s| (s.name, s.default_weight))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_list_is_upstreams_in_order_with_its_weights() {
        // Reference §1.2, getDefaultPlugins with DynamicResources inserted before
        // DefaultPreemption (weight 2).
        let expected: [(&str, Option<i64>); 19] = [
            ("SchedulingGates", None),
            ("PrioritySort", None),
            ("NodeUnschedulable", None),
            ("NodeName", None),
            ("TaintToleration", Some(3)),
            ("NodeAffinity", Some(2)),
            ("NodePorts", None),
            ("NodeResourcesFit", Some(1)),
            ("VolumeRestrictions", None),
            ("NodeVolumeLimits", None),
            ("VolumeBinding", None),
            ("VolumeZone", None),
            ("PodTopologySpread", Some(2)),
            ("InterPodAffinity", Some(2)),
            ("DynamicResources", Some(2)),
            ("DefaultPreemption", None),
            ("NodeResourcesBalancedAllocation", Some(1)),
            ("ImageLocality", Some(1)),
            ("DefaultBinder", None),
        ];
        assert_eq!(default_plugins().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn points_match_the_reference_table() {
        use crate::v135::plugin::{Point, Point::*, Points};
        // Reference §1.3.
        let table: [(&str, &[Point]); 19] = [
            ("SchedulingGates", &[PreEnqueue]),
            ("PrioritySort", &[QueueSort]),
            ("NodeUnschedulable", &[Filter]),
            ("NodeName", &[Filter]),
            ("TaintToleration", &[Filter, PreScore, Score]),
            ("NodeAffinity", &[PreFilter, Filter, PreScore, Score]),
            ("NodePorts", &[PreFilter, Filter]),
            ("NodeResourcesFit", &[PreFilter, Filter, PreScore, Score]),
            ("VolumeRestrictions", &[PreFilter, Filter]),
            ("NodeVolumeLimits", &[PreFilter, Filter]),
            (
                "VolumeBinding",
                &[PreFilter, Filter, PreScore, Score, Reserve, PreBind],
            ),
            ("VolumeZone", &[PreFilter, Filter]),
            ("PodTopologySpread", &[PreFilter, Filter, PreScore, Score]),
            ("InterPodAffinity", &[PreFilter, Filter, PreScore, Score]),
            (
                "DynamicResources",
                &[
                    PreEnqueue, PreFilter, Filter, PostFilter, Score, Reserve, PreBind,
                ],
            ),
            ("DefaultPreemption", &[PreEnqueue, PostFilter]),
            ("NodeResourcesBalancedAllocation", &[PreScore, Score]),
            ("ImageLocality", &[Score]),
            ("DefaultBinder", &[Bind]),
        ];
        for (name, points) in table {
            let spec = lookup(name).expect(name);
            assert_eq!(spec.points, Points::of(points), "{name}");
        }
    }
}
