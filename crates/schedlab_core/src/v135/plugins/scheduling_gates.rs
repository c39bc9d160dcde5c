//! `SchedulingGates` (v1.35, `schedulinggates/scheduling_gates.go`; reference §4.15):
//! PreEnqueue only. A pod with `spec.schedulingGates` may not enter the active queue:
//! UnschedulableAndUnresolvable `waiting for scheduling gates: [<names>]` (Go's `%v` of the
//! name list). The queue parks it as gated until its gates are removed; it takes no scheduling
//! attempt and no backoff.

use crate::cluster::PodInfo;
use crate::model::field::FieldError;
use crate::v135::plugin::Plugin;
use crate::v135::plugin::{PluginSpec, Point, Points};
use crate::v135::status::{Code, Status};

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "SchedulingGates",
    points: Points::of(&[Point::PreEnqueue]),
    default_enabled: true,
    default_weight: None,
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

/// The plugin.
pub(crate) struct SchedulingGates;

impl Plugin for SchedulingGates {
    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn pre_enqueue(&self, pod: &PodInfo, _cluster: &crate::cluster::Cluster) -> Status {
        let gates = &pod.pod.spec.scheduling_gates;
        if gates.is_empty() {
            return Status::success();
        }
        let names: Vec<&str> = gates.iter().map(|g| g.name.as_str()).collect();
        Status::new(
            Code::UnschedulableAndUnresolvable,
            format!("waiting for scheduling gates: [{}]", names.join(" ")),
        )
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(SchedulingGates))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::pod;
    use crate::v135::plugins::testkit::info;
    use serde_json::json;

    #[test]
    fn gated_pods_wait() {
        assert!(SchedulingGates
            .pre_enqueue(&info(pod(json!({}))), &crate::cluster::Cluster::default())
            .is_success());
        let one = info(pod(json!({"spec": {"schedulingGates": [{"name": "foo"}]}})));
        let st = SchedulingGates.pre_enqueue(&one, &crate::cluster::Cluster::default());
        assert_eq!(st.code, Code::UnschedulableAndUnresolvable);
        assert_eq!(st.message(), "waiting for scheduling gates: [foo]");
        let two = info(pod(
            json!({"spec": {"schedulingGates": [{"name": "foo"}, {"name": "example.com/bar"}]}}),
        ));
        assert_eq!(
            SchedulingGates
                .pre_enqueue(&two, &crate::cluster::Cluster::default())
                .message(),
            "waiting for scheduling gates: [foo example.com/bar]"
        );
    }
}
