//! `RequestedToCapacityRatioPriority`: a broken-linear function of utilisation per resource.
//!
//! Utilisation is `100 - (capacity - requested) * 100 / capacity` (integer, so it rounds up);
//! capacity 0 or over-commitment count as 100. Resources scoring 0 are dropped from the weighted
//! average (a v1.17 quirk) and the average is rounded half away from zero. Policy shapes use
//! scores 0–10, multiplied by 10. Default shape: {0 → 100}, {100 → 0} on cpu and memory.

use super::PrioritySpec;
use super::{allocatable_and_requested, mul_div, MAX_NODE_SCORE};
use crate::cluster::NodeInfo;
use crate::v117::{CycleContext, CycleError, ScorePlugin, State};
/// `RequestedToCapacityRatioPriority` in the legacy registry.
pub(crate) static SPEC: PrioritySpec = PrioritySpec {
    name: "RequestedToCapacityRatioPriority",
    default_weight: 1,
    default_provider: false,
    build: || Box::new(RequestedToCapacityRatio::default_shape()),
};

/// One point of the shape (score already on the 0–100 scale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShapePoint {
    /// Utilisation 0..=100.
    pub utilization: i64,
    /// Score 0..=100.
    pub score: i64,
}

/// The priority with its shape and resource weights.
pub(crate) struct RequestedToCapacityRatio {
    /// Points, utilisation strictly increasing.
    pub shape: Vec<ShapePoint>,
    /// (resource, weight).
    pub resources: Vec<(String, i64)>,
}

impl RequestedToCapacityRatio {
    /// The default: favour the least utilised nodes, on cpu and memory.
    pub(crate) fn default_shape() -> Self {
        RequestedToCapacityRatio {
            shape: vec![
                ShapePoint {
                    utilization: 0,
                    score: MAX_NODE_SCORE,
                },
                ShapePoint {
                    utilization: 100,
                    score: 0,
                },
            ],
            resources: vec![("cpu".into(), 1), ("memory".into(), 1)],
        }
    }

    fn broken_linear(&self, p: i64) -> i64 {
        let s = &self.shape;
        for i in 0..s.len() {
            if p <= s[i].utilization {
                if i == 0 {
                    return s[0].score;
                }
                return s[i - 1].score
                    + (s[i].score - s[i - 1].score) * (p - s[i - 1].utilization)
                        / (s[i].utilization - s[i - 1].utilization);
            }
        }
        s[s.len() - 1].score
    }

    fn resource_score(&self, requested: i64, capacity: i64) -> i64 {
        if capacity == 0 || requested > capacity {
            return self.broken_linear(100);
        }
        self.broken_linear(100 - mul_div(capacity - requested, 100, capacity))
    }
}

impl ScorePlugin for RequestedToCapacityRatio {
    fn normalizes(&self) -> bool {
        false
    }
    fn score(&self, cx: &CycleContext, _: &State, node: &NodeInfo) -> Result<i64, CycleError> {
        let mut total = 0i64;
        let mut weights = 0i64;
        for (resource, weight) in &self.resources {
            let (alloc, req) = allocatable_and_requested(cx, node, resource);
            let rs = self.resource_score(req, alloc);
            if rs > 0 {
                total += rs * weight;
                weights += weight;
            }
        }
        if weights == 0 {
            return Ok(0);
        }
        Ok((total as f64 / weights as f64).round() as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::*;
    use serde_json::json;

    #[test]
    fn default_shape_rounds_the_average() {
        let c = cluster(
            vec![node(
                json!({"metadata": {"name": "m1"}, "status": {"allocatable": {"cpu": "4", "memory": 10000}}}),
            )],
            vec![],
        );
        let p = pod(json!({"spec": {"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "3", "memory": 5000}}}]}}));
        // cpu utilisation 75 -> 100 - 75 = 25; memory 50 -> 50; (25 + 50) / 2 = 37.5 -> 38
        let rtcr = RequestedToCapacityRatio::default_shape();
        assert_eq!(score_all(&rtcr, &c, p).1, [38]);
    }

    #[test]
    fn zero_scoring_resources_leave_the_average() {
        let c = cluster(
            vec![node(
                json!({"metadata": {"name": "m1"}, "status": {"allocatable": {"cpu": "4", "memory": 10000}}}),
            )],
            vec![],
        );
        // cpu fully used -> f(100) = 0, dropped; memory 50 -> 50 alone.
        let p = pod(json!({"spec": {"containers": [
            {"name": "a", "resources": {"requests": {"cpu": "4", "memory": 5000}}}]}}));
        assert_eq!(
            score_all(&RequestedToCapacityRatio::default_shape(), &c, p).1,
            [50]
        );
    }

    #[test]
    fn broken_linear_function() {
        let r = RequestedToCapacityRatio {
            shape: vec![
                ShapePoint {
                    utilization: 10,
                    score: 10,
                },
                ShapePoint {
                    utilization: 30,
                    score: 50,
                },
                ShapePoint {
                    utilization: 70,
                    score: 20,
                },
            ],
            resources: vec![],
        };
        assert_eq!(r.broken_linear(0), 10);
        assert_eq!(r.broken_linear(20), 30);
        assert_eq!(r.broken_linear(30), 50);
        assert_eq!(r.broken_linear(50), 35); // 50 + (-30)*20/40 = 35
        assert_eq!(r.broken_linear(90), 20);
    }
}
