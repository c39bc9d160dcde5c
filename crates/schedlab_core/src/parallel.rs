//! Work spread over a thread pool where it is coarse enough to pay for itself, with results
//! in the order a sequential loop gives them, so that every decision and report is the same
//! byte for byte whatever the number of threads.
//!
//! With the `parallel` feature (the native CLI's `--threads N`) the work runs on rayon's
//! global pool; without it (the wasm builds today) everything runs on the calling thread.
//! One thread (the default) always takes the sequential paths.

/// Nodes below which a full scan stays on one thread (a chunk's start-up would cost more
/// than it saves).
pub const MIN_PARALLEL_NODES: usize = 256;

/// Threads available to [`map_chunks`].
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

/// Sets the number of threads for the whole process (the CLI's `--threads`; 1 keeps every
/// path sequential). Call it once, before any work.
#[cfg(feature = "parallel")]
pub fn use_threads(threads: usize) -> Result<(), String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build_global()
        .map_err(|e| e.to_string())
}

/// Whether a scan of `nodes` nodes goes on the pool.
pub fn worth_it(nodes: usize) -> bool {
    nodes >= MIN_PARALLEL_NODES && threads() > 1
}

/// `f` over consecutive chunks of `items`, in parallel when there are several threads; the
/// results in chunk order. Chunks are a few per thread, so that threads that finish early
/// take more.
pub fn map_chunks<T: Sync, R: Send>(items: &[T], f: impl Fn(&[T]) -> R + Sync + Send) -> Vec<R> {
    let size = items.len().div_ceil(threads() * 4).max(1);
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.par_chunks(size).map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.chunks(size).map(f).collect()
    }
}

/// `f` over every item, in parallel when there are several threads; the results in order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    map_chunks(items, |chunk| chunk.iter().map(&f).collect::<Vec<R>>())
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use crate::report::json_report;
    use crate::scenario::SchedulerVersion;
    use crate::simulation::Limits;
    use crate::workloads::{build_for, Workload};

    /// The report of `f`'s run on a pool of `threads` threads.
    fn on_threads(threads: usize, f: impl FnOnce() -> String + Send) -> String {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
            .install(f)
    }

    #[test]
    fn full_scans_on_four_threads_decide_and_report_as_on_one() {
        // Every workload with `percentageOfNodesToScore: 100` on 300 nodes (above
        // MIN_PARALLEL_NODES): filters and scores run in chunks on four threads. The preemption
        // workload fails every node (FitError histograms, preemption), the affinity and
        // spreading ones filter some nodes out. Each report, with every table, must be the
        // one-thread report byte for byte.
        for (name, workload) in Workload::ALL {
            for scheduler in [SchedulerVersion::V1_17, SchedulerVersion::V1_35] {
                let scenario = build_for(workload, 300, 300, 40, 100, scheduler);
                let run = || {
                    assert!(super::threads() >= 1);
                    let run = scenario.run_with(3, true, Limits::default());
                    json_report(&run, true).to_string()
                };
                let one = on_threads(1, run);
                let four = on_threads(4, run);
                assert!(
                    one == four,
                    "{name} under {scheduler:?} differs on four threads"
                );
                assert!(one.contains("\"cycles\""));
            }
        }
    }

    #[test]
    fn map_keeps_the_order() {
        let items: Vec<usize> = (0..1000).collect();
        let doubled = on_threads(3, || format!("{:?}", super::map(&items, |i| i * 2)));
        let want: Vec<usize> = (0..1000).map(|i| i * 2).collect();
        assert_eq!(doubled, format!("{want:?}"));
    }
}
