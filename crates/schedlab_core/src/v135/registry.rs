//! The plugin registry: every v1.35 plugin declares its [`PluginSpec`] in its own file, and
//! every list (the default plugin set and its weights, which points a plugin can sit at, which
//! plugins take args) is derived from [`REGISTRY`]. Adding a plugin is one file and one line
//! here; see `ARCHITECTURE.md`, "Adding a plugin".

use super::plugin::Plugin;
use super::plugins;
use crate::model::field::FieldError;
use std::fmt;

/// An extension point of the framework.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Point {
    /// `PreEnqueue`.
    PreEnqueue,
    /// `QueueSort`.
    QueueSort,
    /// `PreFilter`.
    PreFilter,
    /// `Filter`.
    Filter,
    /// `PostFilter`.
    PostFilter,
    /// `PreScore`.
    PreScore,
    /// `Score`.
    Score,
    /// `Reserve`.
    Reserve,
    /// `Permit`.
    Permit,
    /// `PreBind`.
    PreBind,
    /// `Bind`.
    Bind,
    /// `PostBind`.
    PostBind,
}

impl Point {
    /// Every point, in the order of the `Plugins` struct.
    pub const ALL: [Point; 12] = [
        Point::PreEnqueue,
        Point::QueueSort,
        Point::PreFilter,
        Point::Filter,
        Point::PostFilter,
        Point::PreScore,
        Point::Score,
        Point::Reserve,
        Point::Permit,
        Point::PreBind,
        Point::Bind,
        Point::PostBind,
    ];

    /// The order in which `NewFramework` processes the per-point lists (`updatePluginList`)
    /// and then expands `multiPoint`: the order in which it meets an unknown plugin.
    pub const FRAMEWORK_ORDER: [Point; 12] = [
        Point::PreFilter,
        Point::Filter,
        Point::PostFilter,
        Point::Reserve,
        Point::PreScore,
        Point::Score,
        Point::PreBind,
        Point::Bind,
        Point::PostBind,
        Point::Permit,
        Point::PreEnqueue,
        Point::QueueSort,
    ];

    /// The field name in a configuration (`preFilter`).
    pub fn field(self) -> &'static str {
        match self {
            Point::PreEnqueue => "preEnqueue",
            Point::QueueSort => "queueSort",
            Point::PreFilter => "preFilter",
            Point::Filter => "filter",
            Point::PostFilter => "postFilter",
            Point::PreScore => "preScore",
            Point::Score => "score",
            Point::Reserve => "reserve",
            Point::Permit => "permit",
            Point::PreBind => "preBind",
            Point::Bind => "bind",
            Point::PostBind => "postBind",
        }
    }

    /// The Go interface name (`PreFilterPlugin`), as upstream's errors print it.
    pub fn interface(self) -> &'static str {
        match self {
            Point::PreEnqueue => "PreEnqueuePlugin",
            Point::QueueSort => "QueueSortPlugin",
            Point::PreFilter => "PreFilterPlugin",
            Point::Filter => "FilterPlugin",
            Point::PostFilter => "PostFilterPlugin",
            Point::PreScore => "PreScorePlugin",
            Point::Score => "ScorePlugin",
            Point::Reserve => "ReservePlugin",
            Point::Permit => "PermitPlugin",
            Point::PreBind => "PreBindPlugin",
            Point::Bind => "BindPlugin",
            Point::PostBind => "PostBindPlugin",
        }
    }

    /// The name the page and the trace use (`PreFilter`).
    pub fn title(self) -> &'static str {
        self.interface().trim_end_matches("Plugin")
    }

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// A set of extension points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Points(u16);

impl Points {
    /// No point.
    pub const NONE: Points = Points(0);

    /// These points.
    pub const fn of(points: &[Point]) -> Points {
        let mut bits = 0;
        let mut i = 0;
        while i < points.len() {
            bits |= points[i].bit();
            i += 1;
        }
        Points(bits)
    }

    /// Whether `p` is in the set.
    pub fn has(self, p: Point) -> bool {
        self.0 & p.bit() != 0
    }

    /// The points in the set, in [`Point::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Point> {
        Point::ALL.into_iter().filter(move |&p| self.has(p))
    }
}

/// How a plugin's args are read: strictly, defaulted, validated (`field.Error`s relative to
/// `args`), and turned into an instance.
pub type BuildFn = fn(args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>>;

/// What a plugin file declares about its plugin.
pub struct PluginSpec {
    /// The registered name (`NodeResourcesFit`).
    pub name: &'static str,
    /// The extension points it implements.
    pub points: Points,
    /// Whether v1.35's default configuration enables it (`getDefaultPlugins`, multiPoint).
    pub default_enabled: bool,
    /// Its weight in that default list, where it gives one (`TaintToleration` 3); a Score
    /// plugin without one gets 1.
    pub default_weight: Option<i64>,
    /// The kind of its args (`NodeResourcesFitArgs`), for plugins that take any.
    pub args_kind: Option<&'static str>,
    /// Whether configuration validation checks its args (`ValidateKubeSchedulerConfiguration`).
    /// False for NodeResourcesFit, whose args are checked only when the plugin is built
    /// (upstream's map key quirk, reference §2.3).
    pub args_checked_by_validation: bool,
    /// Builds an instance from its args (`None`: every default).
    pub build: BuildFn,
}

/// Every plugin v1.35 registers, in the order of its default configuration.
pub static REGISTRY: &[&PluginSpec] = &[
    &plugins::scheduling_gates::SPEC,
    &plugins::priority_sort::SPEC,
    &plugins::node_unschedulable::SPEC,
    &plugins::node_name::SPEC,
    &plugins::taint_toleration::SPEC,
    &plugins::node_affinity::SPEC,
    &plugins::node_ports::SPEC,
    &plugins::node_resources_fit::SPEC,
    &plugins::volume_restrictions::SPEC,
    &plugins::node_volume_limits::SPEC,
    &plugins::volume_binding::SPEC,
    &plugins::volume_zone::SPEC,
    &plugins::pod_topology_spread::SPEC,
    &plugins::inter_pod_affinity::SPEC,
    &plugins::dynamic_resources::SPEC,
    &plugins::default_preemption::SPEC,
    &plugins::node_resources_balanced_allocation::SPEC,
    &plugins::image_locality::SPEC,
    &plugins::default_binder::SPEC,
];

/// Plugins that v1 configurations may no longer name (`invalidPluginsByVersion`).
pub const REMOVED_PLUGINS: [&str; 4] = [
    "AzureDiskLimits",
    "CinderLimits",
    "EBSLimits",
    "GCEPDLimits",
];

/// The spec registered under `name`.
pub fn lookup(name: &str) -> Option<&'static PluginSpec> {
    REGISTRY.iter().copied().find(|s| s.name == name)
}

/// The spec whose args are of kind `kind`.
pub fn lookup_args_kind(kind: &str) -> Option<&'static PluginSpec> {
    REGISTRY.iter().copied().find(|s| s.args_kind == Some(kind))
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
        use Point::*;
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
