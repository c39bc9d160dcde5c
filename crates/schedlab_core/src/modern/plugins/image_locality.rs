//! `ImageLocality` (v1.35): not implemented yet; it passes every pod and scores 0.

use crate::modern::field::FieldError;
use crate::modern::plugin::Plugin;
use crate::modern::registry::{PluginSpec, Point, Points};

/// The registry entry.
pub static SPEC: PluginSpec = PluginSpec {
    name: "ImageLocality",
    points: Points::of(&[Point::Score]),
    default_enabled: true,
    default_weight: Some(1),
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// The plugin.
pub struct ImageLocality;

impl Plugin for ImageLocality {
    fn name(&self) -> &'static str {
        SPEC.name
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(ImageLocality))
}
