//! `NodeResourcesBalancedAllocation` (v1.35): not implemented yet; it passes every pod and scores 0.

use crate::modern::field::FieldError;
use crate::modern::plugin::Plugin;
use crate::modern::registry::{PluginSpec, Point, Points};

/// The registry entry.
pub static SPEC: PluginSpec = PluginSpec {
    name: "NodeResourcesBalancedAllocation",
    points: Points::of(&[Point::PreScore, Point::Score]),
    default_enabled: true,
    default_weight: Some(1),
    args_kind: Some("NodeResourcesBalancedAllocationArgs"),
    args_checked_by_validation: true,
    build,
};

/// The plugin.
pub struct NodeResourcesBalancedAllocation;

impl Plugin for NodeResourcesBalancedAllocation {
    fn name(&self) -> &'static str {
        SPEC.name
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(NodeResourcesBalancedAllocation))
}
