//! Work spread over a thread pool, with results in the order a sequential loop gives them,
//! so that every decision and report is the same byte for byte whatever the number of
//! threads:
//!
//! - independent runs ([`map`]): `schedlab bench --runs`, and the sweeps and comparisons that
//!   run one scenario many times;
//! - one run's full scans: when every cycle filters and scores every node
//!   (`percentageOfNodesToScore: 100` on at least [`MIN_SPLIT_NODES`] nodes), the cycle runners
//!   (`framework/runner.rs`, `modern/cycle.rs`) split each scan in two halves side by side
//!   ([`join`]) and put the halves' answers back in node order.
//!
//! A scan of 5000 nodes takes a fifth of a millisecond, about what waking a sleeping thread
//! costs, so split scans only pay under [`with_helper`]: the run keeps a second pool thread
//! looking for work, never asleep, for as long as it goes. The first attempt (chunks on rayon's
//! pool without a helper, eight hand-outs per cycle) was slower than one thread: see
//! `docs/benchmarks.md`.
//!
//! With the `parallel` feature (the native CLI's `--threads N`, the threaded wasm build) the
//! work runs on a rayon pool; without it (the page's wasm) everything runs on the calling
//! thread.

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

/// Nodes below which a full scan stays on one thread: splitting it would cost more than it
/// saves.
pub const MIN_SPLIT_NODES: usize = 1000;

thread_local! {
    /// Whether this thread runs under [`with_helper`]: a second thread is waiting for work.
    static HELPED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Whether this thread runs an item of [`map`]: the other items keep the other threads
    /// busy, so no helper is taken.
    static IN_MAP: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Calls of [`join`] so far: the tests check that the split paths ran.
#[cfg(all(test, feature = "parallel"))]
static JOINS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether a scan of every one of `nodes` nodes is split in two halves side by side
/// ([`join`]): only under [`with_helper`].
pub fn split_scan(nodes: usize) -> bool {
    nodes >= MIN_SPLIT_NODES && HELPED.with(std::cell::Cell::get)
}

/// `a` and `b`, side by side when there are several threads; `a` first otherwise.
pub fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(all(test, feature = "parallel"))]
    JOINS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    #[cfg(feature = "parallel")]
    {
        rayon::join(a, b)
    }
    #[cfg(not(feature = "parallel"))]
    {
        (a(), b())
    }
}

/// `f(job, nodes, row)` for each job, each filling its row of `matrix` (one row of
/// `nodes.len()` values per job): the first half of the nodes and the second side by side
/// ([`join`]). Each job's results, first half then second, in job order.
pub fn rows_in_halves<J: Sync, N: Sync, E: Send>(
    jobs: &[J],
    nodes: &[N],
    matrix: &mut [i64],
    f: impl Fn(&J, &[N], &mut [i64]) -> Result<(), E> + Sync,
) -> Vec<(Result<(), E>, Result<(), E>)> {
    let (n, half) = (nodes.len(), nodes.len() / 2);
    if n == 0 {
        return Vec::new();
    }
    let (mut rows_a, mut rows_b): (Vec<&mut [i64]>, Vec<&mut [i64]>) = matrix
        .chunks_mut(n)
        .map(|row| row.split_at_mut(half))
        .unzip();
    let map = |nodes: &[N], rows: &mut [&mut [i64]]| -> Vec<Result<(), E>> {
        jobs.iter()
            .zip(rows.iter_mut())
            .map(|(job, row)| f(job, nodes, row))
            .collect()
    };
    let (a, b) = join(
        || map(&nodes[..half], &mut rows_a),
        || map(&nodes[half..], &mut rows_b),
    );
    a.into_iter().zip(b).collect()
}

/// Spin-loop hints the helper of [`with_helper`] gives between two looks for work. A hint
/// (x86's `pause`) lasts a hundred cycles or more, so this is the helper's delay in taking a
/// half: 64 hints (about 3 µs) made a full 5000-node run 15–20 % slower than 4 did, and 0 and
/// 16 measured as 4 (`docs/benchmarks.md`, seventh round).
#[cfg(feature = "parallel")]
const HELPER_PAUSES: usize = 4;

/// Runs `f` (a whole run) with a second thread of the pool kept awake for it: the helper
/// looks for work without ever going to sleep, so the halves of each scan [`join`] hands out
/// start at once instead of after a wake-up (which costs as much as a whole scan of a few
/// thousand nodes). Only on a pool of several threads with nothing else running on it.
pub fn with_helper<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    {
        use std::sync::atomic::{AtomicBool, Ordering};
        let free = threads() > 1
            && !IN_MAP.with(std::cell::Cell::get)
            && rayon::current_thread_index().is_some()
            && !HELPED.with(std::cell::Cell::get);
        if free {
            /// Ends the helper however `f` ends (a panic included) and clears the flag.
            struct Done<'a>(&'a AtomicBool);
            impl Drop for Done<'_> {
                fn drop(&mut self) {
                    HELPED.with(|h| h.set(false));
                    self.0.store(true, Ordering::Release);
                }
            }
            let stop = AtomicBool::new(false);
            let (r, ()) = rayon::join(
                || {
                    let _done = Done(&stop);
                    HELPED.with(|h| h.set(true));
                    f()
                },
                || {
                    while !stop.load(Ordering::Acquire) {
                        match rayon::yield_now() {
                            Some(rayon::Yield::Executed) => {}
                            Some(rayon::Yield::Idle) => {
                                (0..HELPER_PAUSES).for_each(|_| std::hint::spin_loop())
                            }
                            None => break,
                        }
                    }
                },
            );
            return r;
        }
    }
    f()
}

/// `f` over every item, in parallel when there are several threads; the results in order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items
            .par_iter()
            .map(|item| {
                let was = IN_MAP.with(|m| m.replace(true));
                let out = f(item);
                IN_MAP.with(|m| m.set(was));
                out
            })
            .collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.iter().map(f).collect()
    }
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use crate::report::json_report;
    use crate::scenario::SchedulerVersion;
    use crate::simulation::Limits;
    use crate::workloads::{build, build_for, Workload};
    use std::sync::atomic::Ordering;

    #[test]
    fn scans_split_in_halves_decide_as_one_thread_does() {
        // Every workload under both schedulers with percentageOfNodesToScore 100 on 1000
        // nodes, so every cycle filters and scores every node: their scans are split in two
        // halves on a pool of two threads. The reports (placements, events, FitError
        // messages, preemptions and nominations) are the one-thread reports, byte for byte.
        // The workloads give nodes that fail (anti-affinity, affinity, spreading, full nodes
        // before preemption) and nominated pods (PreemptionBasic).
        for scheduler in [SchedulerVersion::V1_17, SchedulerVersion::V1_35] {
            for (name, workload) in Workload::ALL {
                let (bound, pending) = match workload {
                    Workload::Preemption => (4000, 40),
                    _ => (1000, 120),
                };
                let scenario = build_for(workload, 1000, bound, pending, 100, scheduler);
                let report = || {
                    let run = scenario.run_with(7, false, Limits::default());
                    json_report(&run, true).to_string()
                };
                let alone = super::with_threads(1, report).expect("a pool");
                let joins = super::JOINS.load(Ordering::Relaxed);
                let split = super::with_threads(2, report).expect("a pool");
                assert!(
                    super::JOINS.load(Ordering::Relaxed) >= joins + pending,
                    "{name} under {scheduler:?}: the scans were not split ({} joins)",
                    super::JOINS.load(Ordering::Relaxed) - joins
                );
                assert!(
                    alone == split,
                    "{name} under {scheduler:?}: the split scans decided otherwise"
                );
            }
        }
    }

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
