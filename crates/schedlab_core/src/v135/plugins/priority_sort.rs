//! `PrioritySort` (v1.35, `queuesort/priority_sort.go`; reference §4.17): QueueSort only.
//!
//! There is nothing to compute here: the scheduling queue orders its active queue with
//! `Less(a, b) = priority(a) > priority(b) || (priority(a) == priority(b) &&
//! timestamp(a) < timestamp(b))`, where priority is `spec.priority` (nil → 0) and the
//! timestamp is when the pod was (re)added to the queue. The queue implements that order
//! itself; this plugin only has to be present (exactly one QueueSort plugin per profile).

use crate::model::field::FieldError;
use crate::v135::plugin::Plugin;
use crate::v135::plugin::{PluginSpec, Point, Points};

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "PrioritySort",
    points: Points::of(&[Point::QueueSort]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// The plugin: a marker for the queue order described above.
pub(crate) struct PrioritySort;

impl Plugin for PrioritySort {
    fn name(&self) -> &'static str {
        SPEC.name
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(PrioritySort))
}
