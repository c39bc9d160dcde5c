//! The thread pool: work spread over it with results in the order a sequential loop gives
//! them, so that every decision and report is the same byte for byte whatever the number of
//! threads. Independent runs ([`map`]: `schedlab bench --runs`, sweeps, comparisons, the
//! chunks of a large list), and one run kept company by a helper thread ([`with_helper`]) for
//! the split scans of `sched::split_scan`.
//!
//! With the `parallel` feature (the native CLI's `--threads N`, the threaded wasm build) the
//! work runs on a rayon pool; without it (the page's wasm) everything runs on the calling
//! thread.

use std::cell::Cell;

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

thread_local! {
    /// The run under [`with_helper`] on this thread, numbered (a second thread is waiting for
    /// work); `None` outside one.
    static HELPED: Cell<Option<u64>> = const { Cell::new(None) };
    /// Runs under [`with_helper`] started on this thread so far.
    static HELPED_RUNS: Cell<u64> = const { Cell::new(0) };
    /// Whether this thread runs an item of [`map`]: the other items keep the other threads
    /// busy, so no helper is taken.
    static IN_MAP: Cell<bool> = const { Cell::new(false) };
}

/// Calls of [`join`] so far: the tests check that the split paths ran.
#[cfg(all(test, feature = "parallel"))]
pub(crate) static JOINS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The number of the run under [`with_helper`] on this thread, `None` outside one: a
/// full scan is split in two parts only there (`sched::split_scan`), which starts each run's
/// cuts afresh.
pub(crate) fn helped_run() -> Option<u64> {
    HELPED.with(Cell::get)
}

/// `a` and `b`, side by side when there are several threads; `a` first otherwise.
pub(crate) fn join<A: Send, B: Send>(
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

/// Spin-loop hints the helper of [`with_helper`] gives between two looks for work. A hint
/// (x86's `pause`) lasts a hundred cycles or more, so this is the helper's delay in taking a
/// part: 64 hints (about 3 µs) made a full 5000-node run 15–20 % slower than 4 did, and 0 and
/// 16 measured as 4 (`docs/benchmarks.md`, seventh round).
#[cfg(feature = "parallel")]
const HELPER_PAUSES: usize = 4;

/// Runs `f` (a whole run) with a second thread of the pool kept awake for it: the helper
/// looks for work without ever going to sleep, so the parts of each scan `join_cut` hands
/// out start at once instead of after a wake-up (which costs as much as a whole scan of a few
/// thousand nodes). Only on a pool of several threads with nothing else running on it.
pub(crate) fn with_helper<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    {
        use std::sync::atomic::{AtomicBool, Ordering};
        let free = threads() > 1
            && !IN_MAP.with(std::cell::Cell::get)
            && rayon::current_thread_index().is_some()
            && HELPED.with(Cell::get).is_none();
        if free {
            /// Ends the helper however `f` ends (a panic included) and clears the flag.
            struct Done<'a>(&'a AtomicBool);
            impl Drop for Done<'_> {
                fn drop(&mut self) {
                    HELPED.with(|h| h.set(None));
                    self.0.store(true, Ordering::Release);
                }
            }
            let stop = AtomicBool::new(false);
            let (r, ()) = rayon::join(
                || {
                    let _done = Done(&stop);
                    let run = HELPED_RUNS.with(|n| {
                        n.set(n.get() + 1);
                        n.get()
                    });
                    HELPED.with(|h| h.set(Some(run)));
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
