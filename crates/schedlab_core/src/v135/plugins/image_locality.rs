//! `ImageLocality` (v1.35, `imagelocality/image_locality.go`; reference §4.14): Score only
//! (weight 1 by default), no NormalizeScore.
//!
//! For every init container and regular container whose normalized image name
//! (`:latest` added when the name has no tag after its last `/`) the node reports:
//! `sum += int64(float64(size) * (float64(nodesWithImage) / float64(allNodes)))`. The sum is
//! clamped into `[23 MiB, 1000 MiB × (init + regular containers)]` and mapped onto 0..100 with
//! integer division. v1.17 counted regular containers only, against a fixed 1000 MiB.
//!
//! Sizes: upstream's cache keeps, per image name, the size reported by the first node that
//! reported the name; this model keeps each node's own report (`NodeFacts::images`). The two
//! differ only when nodes report different sizes for one name.

use crate::cluster::NodeInfo;
use crate::model::field::FieldError;
use crate::v135::plugin::{Cx, Plugin, PluginState};
use crate::v135::plugin::{PluginSpec, Point, Points};

/// The registry entry.
pub(crate) static SPEC: PluginSpec = PluginSpec {
    name: "ImageLocality",
    points: Points::of(&[Point::Score]),
    default_enabled: true,
    default_weight: Some(1),
    args_kind: None,
    args_checked_by_validation: false,
    build,
};

const MB: i64 = 1024 * 1024;
/// `minThreshold`: 23 MiB.
const MIN_THRESHOLD: i64 = 23 * MB;
/// `maxContainerThreshold`: 1000 MiB per container.
const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;
use crate::model::node::with_normalized;
use crate::sched::MAX_NODE_SCORE;

/// `calculatePriority`.
fn calculate_priority(sum: i64, containers: usize) -> i64 {
    let max_threshold = MAX_CONTAINER_THRESHOLD * containers as i64;
    let clamped = if sum < MIN_THRESHOLD {
        MIN_THRESHOLD
    } else if sum > max_threshold {
        max_threshold
    } else {
        sum
    };
    MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) / (max_threshold - MIN_THRESHOLD)
}

/// The plugin.
pub(crate) struct ImageLocality;

impl Plugin for ImageLocality {
    fn normalizes(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        SPEC.name
    }

    fn uniform_score(&self, cx: &Cx, _state: Option<&dyn PluginState>) -> Option<i64> {
        // No node has any of the pod's images: every sum is 0.
        let spec = &cx.pod.pod.spec;
        let mut anywhere = false;
        for c in spec.init_containers.iter().chain(&spec.containers) {
            with_normalized(&c.image, |name| {
                anywhere |= cx.cluster.image_node_counts().contains_key(name);
            });
        }
        (!anywhere)
            .then(|| calculate_priority(0, spec.init_containers.len() + spec.containers.len()))
    }

    fn score(
        &self,
        cx: &Cx,
        _state: Option<&dyn PluginState>,
        node: &NodeInfo,
    ) -> Result<i64, String> {
        let spec = &cx.pod.pod.spec;
        let total = cx.cluster.nodes().len() as f64;
        let images = &node.facts().images;
        let mut sum = 0i64;
        if !images.is_empty() {
            for c in spec.init_containers.iter().chain(&spec.containers) {
                with_normalized(&c.image, |name| {
                    if let Some(&size) = images.get(name) {
                        let on = cx
                            .cluster
                            .image_node_counts()
                            .get(name)
                            .copied()
                            .unwrap_or(0);
                        let spread = on as f64 / total;
                        sum += (size as f64 * spread) as i64;
                    }
                });
            }
        }
        Ok(calculate_priority(
            sum,
            spec.init_containers.len() + spec.containers.len(),
        ))
    }
}

fn build(_args: Option<&serde_json::Value>) -> Result<Box<dyn Plugin>, Vec<FieldError>> {
    Ok(Box::new(ImageLocality))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{node, pod};
    use crate::v135::plugins::testkit::*;
    use serde_json::{json, Value};

    fn with_images(name: &str, images: Value) -> crate::model::Node {
        node(json!({"metadata": {"name": name}, "status": {"images": images}}))
    }

    #[test]
    fn thresholds_scale_with_the_number_of_containers() {
        // Four nodes: 250 MiB image "big" on a, b; 100 MiB "small" on a; 3000 MiB "huge" on all.
        let c = cluster135(
            vec![
                with_images(
                    "a",
                    json!([{"names": ["big:latest", "big:v1"], "sizeBytes": 250 * MB},
                           {"names": ["small:latest"], "sizeBytes": 100 * MB},
                           {"names": ["huge:latest"], "sizeBytes": 3000 * MB}]),
                ),
                with_images(
                    "b",
                    json!([{"names": ["big:latest"], "sizeBytes": 250 * MB},
                           {"names": ["huge:latest"], "sizeBytes": 3000 * MB}]),
                ),
                with_images(
                    "c",
                    json!([{"names": ["huge:latest"], "sizeBytes": 3000 * MB}]),
                ),
                with_images(
                    "d",
                    json!([{"names": ["huge:latest"], "sizeBytes": 3000 * MB}]),
                ),
            ],
            vec![],
        );
        // One container "big": a and b hold it, spread 2/4: 250 MiB * 0.5 = 125 MiB.
        // Score 100 * (125 - 23) / (1000 - 23) = 10200 / 977 = 10 (10.4); c, d: 0.
        let one = info(pod(
            json!({"spec": {"containers": [{"name": "x", "image": "big"}]}}),
        ));
        assert_eq!(
            run_score(&ImageLocality, &c, &one),
            Some((vec![10, 10, 0, 0], vec![10, 10, 0, 0]))
        );
        // An init container counts too and raises the maximum to 2000 MiB: init "small"
        // (100 MiB * 1/4 = 25 MiB) + "big:v1" (on a only: 250 * 1/4 = 62.5 MiB).
        // a: 25 MiB + 62.5 MiB = 87.5 MiB → sum in bytes 91750400;
        //    100 * (91750400 - 24117248) / (2097152000 - 24117248) = 6763315200 / 2073034752 = 3.
        // b, c, d: nothing → clamped to 23 MiB → 0.
        let two = info(pod(json!({"spec": {
            "initContainers": [{"name": "i", "image": "small"}],
            "containers": [{"name": "x", "image": "big:v1"}]}})));
        assert_eq!(
            run_score(&ImageLocality, &c, &two).map(|s| s.0),
            Some(vec![3, 0, 0, 0])
        );
        // "huge" everywhere: 3000 MiB * 4/4 = 3000 MiB, clamped to 1000 MiB → 100 with one
        // container; with three containers (two without a known image) the maximum is 3000 MiB:
        // 100 * (3000 - 23) / (3000 - 23) = 100.
        let huge = info(pod(
            json!({"spec": {"containers": [{"name": "x", "image": "huge"}]}}),
        ));
        assert_eq!(
            run_score(&ImageLocality, &c, &huge).map(|s| s.0),
            Some(vec![100; 4])
        );
        let three = info(pod(json!({"spec": {"containers": [
            {"name": "x", "image": "huge"}, {"name": "y", "image": "none"},
            {"name": "z", "image": "big"}]}})));
        // a, b: 3000 + 125 = 3125 MiB → clamped 3000 → 100; c, d: 3000 → 100.
        assert_eq!(
            run_score(&ImageLocality, &c, &three).map(|s| s.0),
            Some(vec![100; 4])
        );
        // Two containers, only "small" known: a: 25 MiB →
        // 100 * (25 - 23) MiB / (2000 - 23) MiB = 200 / 1977 = 0; the others 0.
        let small2 = info(pod(json!({"spec": {"containers": [
            {"name": "x", "image": "small"}, {"name": "y", "image": "none"}]}})));
        assert_eq!(
            run_score(&ImageLocality, &c, &small2).map(|s| s.0),
            Some(vec![0; 4])
        );
    }

    #[test]
    fn sum_truncates_per_image() {
        // One node of three holds a 100-byte image: int64(100 * (1/3)) = int64(33.33) = 33
        // bytes, far under 23 MiB → 0; the point is that no panic or overflow happens and the
        // formula clamps.
        let c = cluster135(
            vec![
                with_images("a", json!([{"names": ["tiny:latest"], "sizeBytes": 100}])),
                with_images("b", json!([])),
                with_images("c", json!([])),
            ],
            vec![],
        );
        let p = info(pod(
            json!({"spec": {"containers": [{"name": "x", "image": "tiny"}]}}),
        ));
        assert_eq!(
            run_score(&ImageLocality, &c, &p).map(|s| s.0),
            Some(vec![0, 0, 0])
        );
        // Score at the exact thresholds: 23 MiB → 0, 1000 MiB → 100, and one byte above the
        // minimum: 100 * 1 / (977 MiB) = 0.
        assert_eq!(calculate_priority(MIN_THRESHOLD, 1), 0);
        assert_eq!(calculate_priority(MAX_CONTAINER_THRESHOLD, 1), 100);
        assert_eq!(calculate_priority(MIN_THRESHOLD + 1, 1), 0);
        // 500 MiB over one container: 100 * 477 / 977 = 48 (48.8).
        assert_eq!(calculate_priority(500 * MB, 1), 48);
        // 500 MiB over two containers: 100 * 477 / 1977 = 24 (24.1).
        assert_eq!(calculate_priority(500 * MB, 2), 24);
    }
}
