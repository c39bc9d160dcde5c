//! `ImageLocalityPriority`: favours nodes that already hold the pod's images.
//!
//! For each app container whose image (normalised: `:latest` added when untagged) is on the
//! node: `int64(size * (nodesWithImage / allNodes))`. The sum is clamped to [23 MiB, 1000 MiB]
//! and mapped linearly onto 0–100.

use super::PrioritySpec;
use super::MAX_NODE_SCORE;
use crate::cluster::NodeInfo;
use crate::model::node::normalized_image_name;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `ImageLocalityPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "ImageLocalityPriority",
    default_weight: 1,
    default_provider: true,
    build: || Box::new(ImageLocality),
};

/// The priority.
pub(crate) struct ImageLocality;

const MB: i64 = 1024 * 1024;
const MIN_THRESHOLD: i64 = 23 * MB;
const MAX_THRESHOLD: i64 = 1000 * MB;

impl ScorePlugin for ImageLocality {
    fn normalizes(&self) -> bool {
        false
    }
    fn normalize_uniform(&self, raw: i64) -> Option<i64> {
        Some(raw) // no normalize: scores are kept
    }

    fn pre_score(&self, cx: &CycleContext, _: &[&NodeInfo]) -> Result<State, CycleError> {
        let names: Vec<String> = cx
            .pod
            .pod
            .spec
            .containers
            .iter()
            .map(|c| normalized_image_name(&c.image))
            .collect();
        if !names
            .iter()
            .any(|n| cx.cluster.image_node_counts().contains_key(n))
        {
            // No node holds any of the images: every sum is 0, clamped to the minimum.
            return Ok(State::uniform(0));
        }
        Ok(State::new(names))
    }

    fn score(&self, cx: &CycleContext, state: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let names = state.get::<Vec<String>>().map(Vec::as_slice).unwrap_or(&[]);
        let total = cx.cluster.nodes().len() as f64;
        let mut sum = 0i64;
        for name in names {
            if let Some(size) = node.facts().images.get(name) {
                let spread = *cx.cluster.image_node_counts().get(name).unwrap_or(&0) as f64 / total;
                sum += (*size as f64 * spread) as i64;
            }
        }
        let clamped = sum.clamp(MIN_THRESHOLD, MAX_THRESHOLD);
        Ok(MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) / (MAX_THRESHOLD - MIN_THRESHOLD))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn big_images_present_on_the_node_score() {
        let c = cluster(
            vec![
                node(json!({"metadata": {"name": "a"}, "status": {"images": [
                    {"names": ["gcr.io/40:latest", "gcr.io/40:v1"], "sizeBytes": 40 * MB},
                    {"names": ["gcr.io/250:latest"], "sizeBytes": 250 * MB}]}})),
                node(json!({"metadata": {"name": "b"}, "status": {"images": [
                    {"names": ["gcr.io/250:latest"], "sizeBytes": 250 * MB},
                    {"names": ["gcr.io/2000:latest"], "sizeBytes": 2000 * MB}]}})),
            ],
            vec![],
        );
        let p = pod(json!({"spec": {"containers": [
            {"name": "a", "image": "gcr.io/40"}, {"name": "b", "image": "gcr.io/250"}]}}));
        // a: 40MB * 1/2 = 20MB + 250MB * 2/2 = 250MB -> 270MB; 100*(270-23)/(1000-23) = 25
        // b: 250MB -> 100*(250-23)/977 = 23
        assert_eq!(score_all(&ImageLocality, &c, p).1, [25, 23]);
        let big = pod(json!({"spec": {"containers": [{"name": "a", "image": "gcr.io/2000"}]}}));
        // b: 2000MB * 1/2 = 1000MB -> 100
        assert_eq!(score_all(&ImageLocality, &c, big).1, [0, 100]);
    }
}
