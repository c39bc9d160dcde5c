//! `VolumeBinding` (v1.35): not implemented yet; it passes every pod and scores 0.

use crate::modern::field::FieldError;
use crate::modern::plugin::Plugin;
use crate::modern::registry::{PluginSpec, Point, Points};

/// The registry entry.
pub static SPEC: PluginSpec = PluginSpec {
    name: "VolumeBinding",
    points: Points::of(&[Point::PreFilter, Point::Filter, Point::PreScore, Point::Score, Point::Reserve, Point::PreBind]),
    default_enabled: true,
    default_weight: None,
    args_kind: Some("VolumeBindingArgs"),
    args_checked_by_validation: true,
    build,
};

/// The plugin.
pub struct VolumeBinding;

impl Plugin for VolumeBinding {
    fn name(&self) -> &'static str {
        SPEC.name
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(VolumeBinding))
}
