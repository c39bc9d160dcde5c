//! `NoVolumeZoneConflict` (filters.md B.6): a bound volume labelled with a zone or region
//! (`failure-domain.beta.kubernetes.io/zone`, `.../region`, values split on `__`) keeps the pod
//! on nodes whose label has one of those values: `node(s) had no available volume zone`.
//!
//! A node without either label fits at once. Otherwise the pod's claims are walked in volume
//! order: an unbound claim of a `WaitForFirstConsumer` class is skipped; any other unbound
//! claim is the error `PersistentVolumeClaim was not found: "NAME"` (or `VolumeBindingMode not
//! set for StorageClass "NAME"`); a bound claim whose volume is missing is the lister's error
//! `persistentvolume "NAME" not found`. Errors abort the cycle, as upstream. The walk is resolved
//! once per cycle in `pre_filter`; per node only the label comparison runs.

use super::PredicateSpec;
use crate::cluster::NodeInfo;
use crate::model::volume::{label_zones_to_set, LABEL_REGION, LABEL_ZONE};
use crate::v117::{CycleContext, CycleError, FailureReason, FilterPlugin, FilterResult, State};
/// `NoVolumeZoneConflict` in the legacy registry.
pub(crate) static SPEC: PredicateSpec = PredicateSpec {
    name: "NoVolumeZoneConflict",
    order: Some(17),
    plain: true,
    default_provider: Some(0),
    mandatory: false,
    build: Some(|| Box::new(NoVolumeZoneConflict)),
};

/// The predicate.
pub(crate) struct NoVolumeZoneConflict;

/// One claim of the pod, resolved.
#[derive(Clone, Debug)]
enum Step {
    /// The volume's zone/region constraints: (label key, allowed values).
    Constraints(Vec<(String, Vec<String>)>),
    /// The walk stops with this error.
    Error(CycleError),
}

impl FilterPlugin for NoVolumeZoneConflict {
    fn pre_filter(&self, cx: &CycleContext) -> Result<State, CycleError> {
        let pod = &cx.pod.pod;
        let ns = pod.metadata.namespace_or_default();
        let vols = &cx.cluster.volumes();
        let mut steps = Vec::new();
        for v in &pod.spec.volumes {
            let Some(src) = &v.persistent_volume_claim else {
                continue;
            };
            let name = &src.claim_name;
            if name.is_empty() {
                steps.push(Step::Error(CycleError(
                    "PersistentVolumeClaim had no name".into(),
                )));
                break;
            }
            let Some(pvc) = vols.pvc(ns, name) else {
                steps.push(Step::Error(CycleError(format!(
                    "persistentvolumeclaim {name:?} not found"
                ))));
                break;
            };
            let pv_name = &pvc.spec.volume_name;
            if pv_name.is_empty() {
                let class = pvc.class();
                if let Some(sc) = (!class.is_empty()).then(|| vols.class(class)).flatten() {
                    match sc.volume_binding_mode.as_deref() {
                        None => {
                            steps.push(Step::Error(CycleError(format!(
                                "VolumeBindingMode not set for StorageClass {class:?}"
                            ))));
                            break;
                        }
                        Some("WaitForFirstConsumer") => continue,
                        Some(_) => {}
                    }
                }
                steps.push(Step::Error(CycleError(format!(
                    "PersistentVolumeClaim was not found: {name:?}"
                ))));
                break;
            }
            let Some(pv) = vols.pv(pv_name) else {
                steps.push(Step::Error(CycleError(format!(
                    "persistentvolume {pv_name:?} not found"
                ))));
                break;
            };
            let constraints = pv
                .metadata
                .labels
                .iter()
                .filter(|(k, _)| *k == LABEL_ZONE || *k == LABEL_REGION)
                .filter_map(|(k, v)| {
                    // An unparsable value is ignored (upstream logs a warning).
                    label_zones_to_set(v)
                        .map(|set| (k.clone(), set.into_iter().map(String::from).collect()))
                })
                .collect();
            steps.push(Step::Constraints(constraints));
        }
        if steps.is_empty() {
            return Ok(State::skip());
        }
        Ok(State::new(steps))
    }

    fn filter(&self, _: &CycleContext, state: &State, node: &NodeInfo) -> FilterResult {
        let Some(steps) = state.get::<Vec<Step>>() else {
            return Ok(vec![]);
        };
        let labels = node.labels();
        if !labels.contains_key(LABEL_ZONE) && !labels.contains_key(LABEL_REGION) {
            return Ok(vec![]);
        }
        for step in steps {
            match step {
                Step::Error(e) => return Err(e.clone()),
                Step::Constraints(cs) => {
                    for (key, allowed) in cs {
                        let have = labels.get(key).map(String::as_str).unwrap_or("");
                        if !allowed.iter().any(|z| z == have) {
                            return Ok(vec![FailureReason::VolumeZoneConflict.into()]);
                        }
                    }
                }
            }
        }
        Ok(vec![])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use crate::model::volume::{PersistentVolume, StorageClass};
    use crate::testing::*;
    use serde_json::{json, Value};

    fn setup(pvs: Vec<Value>, pvcs: Vec<Value>, classes: Vec<Value>) -> Cluster {
        let z = |name: &str, zone: &str| {
            node(json!({"metadata": {"name": name, "labels": {
                "failure-domain.beta.kubernetes.io/zone": zone,
                "failure-domain.beta.kubernetes.io/region": "r1"}}}))
        };
        let mut c = cluster(
            vec![
                z("a", "zone-a"),
                z("b", "zone-b"),
                node(json!({"metadata": {"name": "plain"}})),
            ],
            vec![],
        );
        for v in pvs {
            let v: PersistentVolume = serde_json::from_value(v).unwrap();
            c.volumes_mut().pvs.insert(v.metadata.name.clone(), v);
        }
        for v in pvcs {
            c.volumes_mut().add_pvc(serde_json::from_value(v).unwrap());
        }
        for v in classes {
            let s: StorageClass = serde_json::from_value(v).unwrap();
            c.volumes_mut().classes.insert(s.metadata.name.clone(), s);
        }
        c
    }

    fn claim_pod(claim: &str) -> crate::model::Pod {
        pod(
            json!({"spec": {"volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": claim}}]}}),
        )
    }

    fn run(c: &Cluster, p: crate::model::Pod) -> Vec<Result<Vec<String>, String>> {
        try_filter_all(&NoVolumeZoneConflict, c, p)
            .expect("pre_filter")
            .into_iter()
            .map(|r| r.map_err(|e| e.0))
            .collect()
    }

    const CONFLICT: &str = "node(s) had no available volume zone";

    #[test]
    fn bound_volume_zones() {
        let c = setup(
            vec![
                json!({"metadata": {"name": "pv-a", "labels": {"failure-domain.beta.kubernetes.io/zone": "zone-a"}}}),
                json!({"metadata": {"name": "pv-ab", "labels": {"failure-domain.beta.kubernetes.io/zone": "zone-b__zone-a"}}}),
                json!({"metadata": {"name": "pv-r2", "labels": {"failure-domain.beta.kubernetes.io/region": "r2"}}}),
                json!({"metadata": {"name": "pv-bad", "labels": {"failure-domain.beta.kubernetes.io/zone": "zone-c__"}}}),
            ],
            vec![
                json!({"metadata": {"name": "ca"}, "spec": {"volumeName": "pv-a"}}),
                json!({"metadata": {"name": "cab"}, "spec": {"volumeName": "pv-ab"}}),
                json!({"metadata": {"name": "cr2"}, "spec": {"volumeName": "pv-r2"}}),
                json!({"metadata": {"name": "cbad"}, "spec": {"volumeName": "pv-bad"}}),
            ],
            vec![],
        );
        let ok = || Ok(vec![]);
        let no = || Ok(vec![CONFLICT.to_string()]);
        assert_eq!(
            run(&c, claim_pod("ca")),
            [ok(), no(), ok()],
            "plain node has no labels: fits"
        );
        assert_eq!(run(&c, claim_pod("cab")), [ok(), ok(), ok()]);
        assert_eq!(run(&c, claim_pod("cr2")), [no(), no(), ok()]);
        assert_eq!(
            run(&c, claim_pod("cbad")),
            [ok(), ok(), ok()],
            "unparsable label ignored"
        );
        assert_eq!(run(&c, pod(json!({}))), [ok(), ok(), ok()]);
    }

    #[test]
    fn unbound_claims() {
        let c = setup(
            vec![],
            vec![
                json!({"metadata": {"name": "wait"}, "spec": {"storageClassName": "wait"}}),
                json!({"metadata": {"name": "imm"}, "spec": {"storageClassName": "imm"}}),
                json!({"metadata": {"name": "unset"}, "spec": {"storageClassName": "unset"}}),
                json!({"metadata": {"name": "none"}, "spec": {}}),
                json!({"metadata": {"name": "lost"}, "spec": {"volumeName": "gone"}}),
            ],
            vec![
                json!({"metadata": {"name": "wait"}, "volumeBindingMode": "WaitForFirstConsumer"}),
                json!({"metadata": {"name": "imm"}, "volumeBindingMode": "Immediate"}),
                json!({"metadata": {"name": "unset"}}),
            ],
        );
        assert_eq!(run(&c, claim_pod("wait"))[0], Ok(vec![]));
        assert_eq!(
            run(&c, claim_pod("imm"))[0],
            Err("PersistentVolumeClaim was not found: \"imm\"".into())
        );
        assert_eq!(
            run(&c, claim_pod("imm"))[2],
            Ok(vec![]),
            "no zone labels: no error"
        );
        assert_eq!(
            run(&c, claim_pod("none"))[1],
            Err("PersistentVolumeClaim was not found: \"none\"".into())
        );
        assert_eq!(
            run(&c, claim_pod("unset"))[0],
            Err("VolumeBindingMode not set for StorageClass \"unset\"".into())
        );
        assert_eq!(
            run(&c, claim_pod("lost"))[0],
            Err("persistentvolume \"gone\" not found".into())
        );
    }
}
