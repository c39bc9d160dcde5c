//! Building a profile as upstream's `NewFramework` does (reference §2.2), in its order, so that
//! the first error is upstream's first error:
//!
//! 1. `pluginConfig` naming a plugin twice: `repeated config for plugin X`;
//! 2. every registered plugin named in an `enabled` list (per point or `multiPoint`) is built
//!    once from its args (`initializing plugin "X": …`); unknown names leave no instance;
//! 3. the per-point lists, in [`Point::FRAMEWORK_ORDER`] (`updatePluginList`): unknown
//!    (`<Interface> "X" does not exist`), not implementing the point
//!    (`plugin "X" does not extend <Interface> plugin`), twice (`already registered as`);
//! 4. `multiPoint`, point by point in the same order (`expandMultiPointPlugins`): skipped at a
//!    point whose `disabled` holds `"*"`; per entry: unknown is an error, a plugin that does not
//!    implement the point or that the point disables is skipped, one the point also enables
//!    explicitly is an override, a second plain entry is `already registered as`. The point's
//!    list becomes: overrides (explicit order), `multiPoint`-only plugins (`multiPoint` order),
//!    the other explicit plugins (explicit order);
//! 5. exactly one QueueSort plugin, at least one Bind plugin;
//! 6. Score weights (`getScoreWeights`) over `score.enabled` then `multiPoint.enabled`: the
//!    first entry of a name sets it, 0 or none is 1, and the running total must not overflow
//!    (Go's wrapping `int64` arithmetic, so a negative weight followed by any other Score
//!    plugin overflows).
//!
//! Every error is wrapped as `initializing profiles: creating profile for scheduler name <name>:`
//! and carries the path of the offending entry in the input.

use super::defaults::ProfileConfig;
use super::merge::PluginEntry;
use super::validate::plugin_args;
use super::{profile_path, ProfilePlan};
use crate::model::field::FieldError;
use crate::v135::plugin::Plugin;
use crate::v135::plugin::{PluginSpec, Point};
use crate::v135::profile::{Enabled, Profile};
use crate::v135::registry::{self, REGISTRY};
use std::fmt::Display;

pub(super) use crate::sched::MAX_NODE_SCORE;
/// `framework.MaxTotalScore`.
pub(super) const MAX_TOTAL_SCORE: i64 = i64::MAX;

/// Where each plugin runs, and the Score weights.
pub(crate) struct Layout {
    /// Per [`Point`] (indexed by `Point as usize`), the plugins in order.
    pub points: [Vec<&'static PluginSpec>; 12],
    /// `scorePluginWeight`, in the order set.
    pub weights: Vec<(&'static str, i64)>,
}

impl Layout {
    fn weight(&self, name: &str) -> Option<i64> {
        self.weights
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, w)| w)
    }
}

/// One profile being built.
struct Cx<'a> {
    i: usize,
    p: &'a ProfileConfig,
}

impl Cx<'_> {
    fn fail(&self, path: String, err: impl Display) -> FieldError {
        FieldError::plain(
            path,
            format!(
                "initializing profiles: creating profile for scheduler name {}: {err}",
                self.p.scheduler_name
            ),
        )
    }

    /// `profiles[i].plugins.<field>`, or `profiles[i]` when the input gave no `plugins`.
    fn set_path(&self, field: &str) -> String {
        if self.p.plugins_given {
            format!("{}.plugins.{field}", profile_path(self.i))
        } else {
            profile_path(self.i)
        }
    }

    /// The path of an `enabled` entry of `point` (`None`: `multiPoint`).
    fn entry_path(&self, point: Option<Point>, e: &PluginEntry) -> String {
        let field = point.map_or("multiPoint", Point::field);
        match e.index {
            Some(k) => format!("{}.enabled[{k}]", self.set_path(field)),
            None => self.set_path(field),
        }
    }
}

/// `pluginsNeeded`: every name in an `enabled` list, once, per-point lists first.
fn needed(p: &ProfileConfig) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let sets = Point::FRAMEWORK_ORDER
        .iter()
        .map(|&point| p.plugins.at(point))
        .chain([&p.plugins.multi_point]);
    for set in sets {
        for e in &set.enabled {
            if !names.contains(&e.name.as_str()) {
                names.push(&e.name);
            }
        }
    }
    names
}

fn check_repeated_config(cx: &Cx) -> Result<(), FieldError> {
    for (j, c) in cx.p.plugin_config.iter().enumerate() {
        if cx.p.plugin_config[..j].iter().any(|d| d.name == c.name) {
            return Err(cx.fail(
                format!("{}.pluginConfig[{j}]", profile_path(cx.i)),
                format!("repeated config for plugin {}", c.name),
            ));
        }
    }
    Ok(())
}

/// How an `Aggregate` of field errors prints: one error as itself, several as `[a, b]`
/// (duplicates dropped).
pub(super) fn aggregate(errs: &[FieldError]) -> String {
    let mut msgs: Vec<String> = Vec::new();
    for e in errs {
        let m = e.to_string();
        if !msgs.contains(&m) {
            msgs.push(m);
        }
    }
    match msgs.as_slice() {
        [one] => one.clone(),
        _ => format!("[{}]", msgs.join(", ")),
    }
}

type Instances = Vec<(&'static PluginSpec, Box<dyn Plugin>)>;

/// Builds every needed registered plugin, in registry order (upstream walks a Go map, so with
/// several bad args its first error is not deterministic).
fn instantiate(cx: &Cx, ignored_resources: &[String]) -> Result<Instances, FieldError> {
    let needed = needed(cx.p);
    let mut out = Instances::new();
    for &spec in REGISTRY {
        if !needed.contains(&spec.name) {
            continue;
        }
        let config = cx.p.config_of(spec.name);
        let mut args = plugin_args(spec, config.and_then(|(_, c)| c.args.as_ref()));
        if spec.name == "NodeResourcesFit" && !ignored_resources.is_empty() {
            // `buildExtenders`: the extenders' ignoredByScheduler resources replace the fit
            // plugin's `ignoredResources`.
            let a = args.get_or_insert_with(|| serde_json::json!({}));
            if let Some(o) = a.as_object_mut() {
                o.insert("ignoredResources".into(), ignored_resources.into());
            }
        }
        match (spec.build)(args.as_ref()) {
            Ok(plugin) => out.push((spec, plugin)),
            Err(errs) => {
                let path = match config {
                    Some((j, _)) => format!("{}.pluginConfig[{j}].args", profile_path(cx.i)),
                    None => profile_path(cx.i),
                };
                return Err(cx.fail(
                    path,
                    format!("initializing plugin {:?}: {}", spec.name, aggregate(&errs)),
                ));
            }
        }
    }
    // Custom plugins in scope, in the order they were given, built by their factories with
    // their args as written.
    for spec in super::super::custom::specs_in_scope() {
        if !needed.contains(&spec.name) {
            continue;
        }
        let config = cx.p.config_of(spec.name);
        let built = super::super::custom::build(spec, config.and_then(|(_, c)| c.args.as_ref()));
        match built {
            Some(Ok(plugin)) => out.push((spec, plugin)),
            Some(Err(message)) => {
                let path = match config {
                    Some((j, _)) => format!("{}.pluginConfig[{j}].args", profile_path(cx.i)),
                    None => profile_path(cx.i),
                };
                return Err(cx.fail(
                    path,
                    format!("initializing plugin {:?}: {message}", spec.name),
                ));
            }
            None => {}
        }
    }
    Ok(out)
}

/// Steps 3 to 6 of the module docs.
fn layout(cx: &Cx) -> Result<Layout, FieldError> {
    let plugins = &cx.p.plugins;
    let mut points: [Vec<&'static PluginSpec>; 12] = Default::default();

    // updatePluginList.
    for point in Point::FRAMEWORK_ORDER {
        let iface = point.interface();
        let list = &mut points[point as usize];
        for e in &plugins.at(point).enabled {
            let fail = |msg: String| cx.fail(cx.entry_path(Some(point), e), msg);
            let spec = registry::lookup(&e.name)
                .ok_or_else(|| fail(format!("{iface} {:?} does not exist", e.name)))?;
            if !spec.points.has(point) {
                return Err(fail(format!(
                    "plugin {:?} does not extend {iface} plugin",
                    e.name
                )));
            }
            if list.iter().any(|s| s.name == spec.name) {
                return Err(fail(format!(
                    "plugin {:?} already registered as {iface:?}",
                    e.name
                )));
            }
            list.push(spec);
        }
    }

    // expandMultiPointPlugins.
    if !plugins.multi_point.enabled.is_empty() {
        for point in Point::FRAMEWORK_ORDER {
            let iface = point.interface();
            let set = plugins.at(point);
            if set.disables_all() {
                continue;
            }
            let explicit = &points[point as usize];
            let mut overrides: Vec<&'static PluginSpec> = Vec::new();
            let mut multi: Vec<&'static PluginSpec> = Vec::new();
            for e in &plugins.multi_point.enabled {
                let fail = |msg: String| cx.fail(cx.entry_path(None, e), msg);
                let spec = registry::lookup(&e.name)
                    .ok_or_else(|| fail(format!("{iface} {:?} does not exist", e.name)))?;
                if !spec.points.has(point) || set.disables(&e.name) {
                    continue;
                }
                if explicit.iter().any(|s| s.name == spec.name) {
                    if !overrides.iter().any(|s| s.name == spec.name) {
                        overrides.push(spec);
                    }
                    continue;
                }
                if multi.iter().any(|s| s.name == spec.name) {
                    return Err(fail(format!(
                        "plugin {:?} already registered as {iface:?}",
                        e.name
                    )));
                }
                multi.push(spec);
            }
            let is_override = |s: &&PluginSpec| overrides.iter().any(|o| o.name == s.name);
            let list: Vec<&'static PluginSpec> = explicit
                .iter()
                .copied()
                .filter(is_override)
                .chain(multi)
                .chain(explicit.iter().copied().filter(|s| !is_override(s)))
                .collect();
            points[point as usize] = list;
        }
    }

    let queue_sort = points[Point::QueueSort as usize].len();
    if queue_sort != 1 {
        return Err(cx.fail(
            cx.set_path(Point::QueueSort.field()),
            format!(
                "only one queue sort plugin required for profile with scheduler name {:?}, but got {queue_sort}",
                cx.p.scheduler_name
            ),
        ));
    }
    if points[Point::Bind as usize].is_empty() {
        return Err(cx.fail(
            cx.set_path(Point::Bind.field()),
            format!(
                "at least one bind plugin is needed for profile with scheduler name {:?}",
                cx.p.scheduler_name
            ),
        ));
    }

    // getScoreWeights.
    let mut weights: Vec<(&'static str, i64)> = Vec::new();
    let mut total: i64 = 0;
    let entries = plugins
        .at(Point::Score)
        .enabled
        .iter()
        .map(|e| (Some(Point::Score), e))
        .chain(plugins.multi_point.enabled.iter().map(|e| (None, e)));
    for (point, e) in entries {
        // An unknown name can only get here when no point expanded multiPoint; upstream
        // would then crash on a nil plugin. It has no Score weight.
        let Some(spec) = registry::lookup(&e.name) else {
            continue;
        };
        if !spec.points.has(Point::Score) || weights.iter().any(|(n, _)| *n == spec.name) {
            continue;
        }
        let w = match e.weight.unwrap_or(0) {
            0 => 1,
            w => w,
        };
        weights.push((spec.name, w));
        let score = w.wrapping_mul(MAX_NODE_SCORE);
        if score > MAX_TOTAL_SCORE.wrapping_sub(total) {
            return Err(cx.fail(
                cx.entry_path(point, e),
                "total score of Score plugins could overflow",
            ));
        }
        total = total.wrapping_add(score);
    }
    Ok(Layout { points, weights })
}

/// The per-point lists and weights of profile `i`, without building any plugin.
pub(crate) fn plan_profile(i: usize, p: &ProfileConfig) -> Result<ProfilePlan, FieldError> {
    let cx = Cx { i, p };
    check_repeated_config(&cx)?;
    let layout = layout(&cx)?;
    Ok(ProfilePlan {
        scheduler_name: p.scheduler_name.clone(),
        percentage_of_nodes_to_score: p.percentage_of_nodes_to_score,
        plugins: p.plugins.clone(),
        points: Point::ALL.map(|point| {
            layout.points[point as usize]
                .iter()
                .map(|s| (s.name.to_string(), layout.weight(s.name).unwrap_or(1)))
                .collect()
        }),
    })
}

/// Profile `i`, built and ready to run.
pub(crate) fn build_profile(
    i: usize,
    p: &ProfileConfig,
    ignored_resources: &[String],
) -> Result<Profile, FieldError> {
    let cx = Cx { i, p };
    check_repeated_config(&cx)?;
    let instances = instantiate(&cx, ignored_resources)?;
    let layout = layout(&cx)?;

    // Plugins in the order first met at the points (in `Point::ALL` order), then the ones
    // built but placed nowhere, in `pluginsNeeded` order.
    let mut order: Vec<&'static str> = Vec::new();
    for list in &layout.points {
        for s in list {
            if !order.contains(&s.name) {
                order.push(s.name);
            }
        }
    }
    for name in needed(p) {
        if let Some(spec) = registry::lookup(name) {
            if !order.contains(&spec.name) {
                order.push(spec.name);
            }
        }
    }
    let mut instances: Vec<Option<(&'static PluginSpec, Box<dyn Plugin>)>> =
        instances.into_iter().map(Some).collect();
    let mut plugins = Vec::new();
    for name in &order {
        let slot = instances
            .iter_mut()
            .find(|s| s.as_ref().is_some_and(|(spec, _)| spec.name == *name));
        if let Some((spec, plugin)) = slot.and_then(Option::take) {
            plugins.push(Enabled {
                spec,
                plugin,
                weight: layout.weight(spec.name).unwrap_or(1),
            });
        }
    }
    let index = |name: &str| plugins.iter().position(|e: &Enabled| e.spec.name == name);
    let points = Point::ALL.map(|point| {
        layout.points[point as usize]
            .iter()
            .filter_map(|s| index(s.name))
            .collect()
    });
    Ok(Profile::new(
        p.scheduler_name.clone(),
        p.percentage_of_nodes_to_score,
        plugins,
        points,
    ))
}
