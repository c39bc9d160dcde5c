//! The threaded build of the benchmark API, for `assets/bench.html` only: independent runs of a
//! benchmark workload (seeds `seed`, `seed + 1`, ...) on one thread or shared out over a pool
//! of Web Workers, through the core's `parallel::map` (rayon, started by wasm-bindgen-rayon's
//! `initThreadPool(n)`), as `schedlab --threads N bench --runs K` does natively.
//!
//! Call it from a Web Worker, never from a page's main thread: a rayon call there spin-waits.
//! The page must be cross-origin isolated (SharedArrayBuffer).

use schedlab_core::Workload;
use schedlab_core::Scenario;
use wasm_bindgen::prelude::*;

pub use wasm_bindgen_rayon::init_thread_pool;

/// The questions panel's answers (compare, sweep, capacity) for `assets/engine-worker.js`:
/// the page's own `answerQuestion` (exported by `schedlab_web`), whose independent runs share
/// out over the pool here.
pub use schedlab_web::background::answer;

/// Threads in the pool (1 before `initThreadPool`).
#[wasm_bindgen]
pub fn threads() -> usize {
    schedlab_core::threads()
}

/// A benchmark workload, built once (outside the timed part), run under several seeds.
#[wasm_bindgen]
pub struct ThreadedWorkload {
    scenario: Scenario,
}

#[wasm_bindgen]
impl ThreadedWorkload {
    /// A named workload (`scheduling-basic`, `pod-anti-affinity`, `pod-affinity`,
    /// `topology-spreading`, `preemption`), v1.17; `undefined` for an unknown name.
    pub fn named(
        workload: &str,
        nodes: usize,
        bound: usize,
        pending: usize,
        percentage: i32,
    ) -> Option<ThreadedWorkload> {
        let w = Workload::parse(workload)?;
        Some(ThreadedWorkload {
            scenario: schedlab_core::build(w, nodes, bound, pending, percentage),
        })
    }

    /// `count` whole runs (as `schedlab run` makes them: no history), seeds `seed` to
    /// `seed + count - 1`, on the calling thread or (`parallel`) on the pool. Returns JSON:
    /// `{"scheduled": total pods scheduled, "runs": [{"scheduled": n, "decisions": "fnv hex"}]}`,
    /// where `decisions` fingerprints each cycle's (pod, node) as `schedlab bench --runs` does,
    /// so the same seeds give the same fingerprints here, on the pool and natively.
    #[wasm_bindgen(js_name = runSeeds)]
    pub fn run_seeds(&self, seed: u64, count: usize, parallel: bool) -> String {
        let seeds: Vec<u64> = (0..count as u64).map(|i| seed + i).collect();
        let one = |seed: &u64| {
            let run = self.scenario.run(*seed, false);
            let decisions: Vec<(usize, Option<usize>)> =
                run.cycles.iter().map(|c| (c.pod, c.node)).collect();
            (run.scheduled_count(), fingerprint(&decisions))
        };
        let runs: Vec<(usize, u64)> = if parallel {
            schedlab_core::map(&seeds, one)
        } else {
            seeds.iter().map(one).collect()
        };
        let total: usize = runs.iter().map(|r| r.0).sum();
        let items: Vec<String> = runs
            .iter()
            .map(|(n, f)| format!("{{\"scheduled\":{n},\"decisions\":\"{f:016x}\"}}"))
            .collect();
        format!("{{\"scheduled\":{total},\"runs\":[{}]}}", items.join(","))
    }
}

/// FNV-1a over the debug text of `v` (as `schedlab bench --runs` prints it).
fn fingerprint<T: std::fmt::Debug>(v: &T) -> u64 {
    format!("{v:?}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
}
