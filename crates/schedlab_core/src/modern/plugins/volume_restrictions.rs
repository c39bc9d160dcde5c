//! `VolumeRestrictions` (v1.35): not implemented yet; it passes every pod and scores 0.

use crate::modern::field::FieldError;
use crate::modern::plugin::Plugin;
use crate::modern::registry::{PluginSpec, Point, Points};

/// The registry entry.
pub static SPEC: PluginSpec = PluginSpec {
    name: "VolumeRestrictions",
    points: Points::of(&[Point::PreFilter, Point::Filter]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// The plugin.
pub struct VolumeRestrictions;

impl Plugin for VolumeRestrictions {
    fn name(&self) -> &'static str {
        SPEC.name
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(VolumeRestrictions))
}
