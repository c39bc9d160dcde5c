//! The merge of a profile's `plugins` with v1.35's default plugins (`mergePlugins` /
//! `mergePluginSet`, reference §2.1).
//!
//! The default set is everything in `multiPoint.enabled`, in [`registry::default_plugins`]
//! order with its weights; every other default point is empty. For each of the 13 sets:
//!
//! 1. `disabled` = the configuration's disabled names, then the default set's own;
//! 2. unless that holds `"*"`, the default entries that are not disabled, in default order, each
//!    replaced in place by the configuration's entry of the same name (its weight, or none, wins;
//!    when the name is given twice the last one takes the slot);
//! 3. then every entry of the configuration that replaced nothing, in its order (duplicates
//!    too; the framework rejects them later).

use crate::v135::plugin::Point;
use crate::v135::registry;

/// One entry of an `enabled` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginEntry {
    /// The plugin name, as written.
    pub name: String,
    /// The weight given with it (`None`: none given; the framework reads 0 or none as 1).
    pub weight: Option<i64>,
    /// Its index in the configuration's own `enabled` list, for error paths; `None` for an
    /// entry of the default list.
    pub index: Option<usize>,
}

impl PluginEntry {
    /// An entry of the default list.
    pub fn default_entry(name: &str, weight: Option<i64>) -> PluginEntry {
        PluginEntry {
            name: name.to_string(),
            weight,
            index: None,
        }
    }
}

/// A `PluginSet`: what is enabled (in order) and which names are disabled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginSet {
    /// `enabled`, in order.
    pub enabled: Vec<PluginEntry>,
    /// `disabled` names (`"*"`: every default).
    pub disabled: Vec<String>,
}

impl PluginSet {
    /// Whether `disabled` holds `"*"`.
    pub fn disables_all(&self) -> bool {
        self.disabled.iter().any(|d| d == "*")
    }

    /// Whether `name` is disabled by name.
    pub fn disables(&self, name: &str) -> bool {
        self.disabled.iter().any(|d| d == name)
    }

    /// The enabled names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.enabled.iter().map(|e| e.name.as_str()).collect()
    }
}

/// A profile's `plugins`: `multiPoint` and the set of every extension point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plugins {
    /// `multiPoint`.
    pub multi_point: PluginSet,
    /// The set of each [`Point`], indexed by `Point as usize`.
    pub points: [PluginSet; 12],
}

impl Plugins {
    /// v1.35's default plugins (`getDefaultPlugins`): everything in `multiPoint.enabled`.
    pub fn defaults() -> Plugins {
        Plugins {
            multi_point: PluginSet {
                enabled: registry::default_plugins()
                    .map(|(name, weight)| PluginEntry::default_entry(name, weight))
                    .collect(),
                disabled: Vec::new(),
            },
            points: Default::default(),
        }
    }

    /// The set of `point`.
    pub fn at(&self, point: Point) -> &PluginSet {
        &self.points[point as usize]
    }

    /// `mergePlugins(defaults, custom)`: each set of `custom` merged into the default one;
    /// `None` (no `plugins` given) keeps the defaults.
    pub fn merged(custom: Option<&Plugins>) -> Plugins {
        let defaults = Plugins::defaults();
        let Some(custom) = custom else {
            return defaults;
        };
        Plugins {
            multi_point: merge_plugin_set(&defaults.multi_point, &custom.multi_point),
            points: Point::ALL.map(|p| merge_plugin_set(defaults.at(p), custom.at(p))),
        }
    }
}

/// `mergePluginSet(default, custom)` (see the module docs).
pub(crate) fn merge_plugin_set(default: &PluginSet, custom: &PluginSet) -> PluginSet {
    let disabled: Vec<String> = custom
        .disabled
        .iter()
        .chain(&default.disabled)
        .cloned()
        .collect();
    let mut result = PluginSet {
        enabled: Vec::new(),
        disabled,
    };
    let mut replaced = vec![false; custom.enabled.len()];
    if !result.disables_all() {
        for d in &default.enabled {
            if result.disables(&d.name) {
                continue;
            }
            // The last entry of a name is the one upstream's map keeps.
            match custom.enabled.iter().rposition(|c| c.name == d.name) {
                Some(i) => {
                    result.enabled.push(custom.enabled[i].clone());
                    replaced[i] = true;
                }
                None => result.enabled.push(d.clone()),
            }
        }
    }
    for (c, replaced) in custom.enabled.iter().zip(replaced) {
        if !replaced {
            result.enabled.push(c.clone());
        }
    }
    result
}
