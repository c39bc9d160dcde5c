//! Independent work spread over a thread pool, with results in the order a sequential loop
//! gives them: `schedlab bench --runs` today, and the sweeps and comparisons that run one
//! scenario many times.
//!
//! With the `parallel` feature (the native CLI's `--threads N`) the work runs on a rayon pool;
//! without it (the wasm builds today) everything runs on the calling thread.
//!
//! Full scans of one cycle (every node filtered and scored, in chunks, merged in node order)
//! were built and measured here too, and removed: on the 2-core VM they were slower than one
//! thread (0.6× at 5000 nodes, 0.84× at 15 000), because the per-node merge and the per-cycle
//! wake-ups cost as much as the filters themselves. See `docs/benchmarks.md`.

/// Threads available to [`map`].
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Runs `f` on a pool of `threads` threads (the CLI's `--threads`; 1 keeps everything on one
/// thread). `f` itself runs on one of the pool's threads, so the work it shares out is taken by
/// the others without waking a thread outside the pool.
#[cfg(feature = "parallel")]
pub fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pool.install(f))
}

/// `f` over every item, in parallel when there are several threads; the results in order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.iter().map(f).collect()
    }
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use crate::report::json_report;
    use crate::simulation::Limits;
    use crate::workloads::{build, Workload};

    #[test]
    fn runs_shared_out_over_threads_come_back_in_order_and_unchanged() {
        // Four runs of one scenario under four seeds on three threads: each report is the one
        // the same seed gives on one thread, and they come back in seed order. The nodes are
        // identical, so selectHost breaks ties with the seed and the seeds' reports differ.
        let scenario = build(Workload::Basic, 40, 40, 30, 0);
        let seeds = [0u64, 1, 2, 3];
        let report = |seed: &u64| {
            json_report(&scenario.run_with(*seed, true, Limits::default()), true).to_string()
        };
        let alone: Vec<String> = seeds.iter().map(report).collect();
        let shared = super::with_threads(3, || {
            assert_eq!(super::threads(), 3);
            super::map(&seeds, report)
        })
        .expect("a pool");
        assert!(alone == shared, "a run changed on the pool");
        assert!(
            alone.windows(2).any(|w| w[0] != w[1]),
            "the seeds should differ"
        );
    }
}
