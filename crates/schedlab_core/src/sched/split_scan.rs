//! One run's full scans in two parts side by side: when every cycle filters and scores every
//! node (`percentageOfNodesToScore: 100` on at least [`MIN_SPLIT_NODES`] nodes), both versions'
//! cycles split each scan ([`join_cut`], [`rows_in_parts`]) and put the parts' answers back in
//! node order. Where the scan is cut ([`cut`]) moves from cycle to cycle so that the helper's
//! part tends to end first: the answers are the same wherever the cut falls.
//!
//! A scan of 5000 nodes takes a fifth of a millisecond, about what waking a sleeping thread
//! costs, so split scans only pay under [`parallel::with_helper`], which keeps a second pool
//! thread looking for work for the whole run (see `docs/benchmarks.md`).

use crate::parallel;
use std::cell::Cell;

/// Nodes below which a full scan stays on one thread: splitting it would cost more than it
/// saves.
pub(crate) const MIN_SPLIT_NODES: usize = 1000;

/// Whether a scan of every one of `nodes` nodes is split in two parts side by side
/// ([`join_cut`]): only under [`parallel::with_helper`].
pub(crate) fn split_scan(nodes: usize) -> bool {
    nodes >= MIN_SPLIT_NODES && parallel::helped_run().is_some()
}

/// The scans cut in two by [`cut`], each with its own cut: a node's filters and its scores
/// cost different times.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scan {
    /// The Filter plugins (predicates) over the nodes.
    Filters = 0,
    /// The Score plugins (priorities) over the feasible nodes.
    Scores = 1,
}

/// The unit of the helper's share of a scan ([`cut`]).
const SHARE_ONE: usize = 1024;
/// How far the helper's share moves after a [`join_cut`]: up by [`SHARE_UP`] when the helper's
/// part ended first, down by [`SHARE_DOWN`] when the caller waited for it. The shares settle
/// where the caller waits in one cut of five (`UP / (UP + DOWN)`): a caller that waits for the
/// helper may yield or sleep and be woken (several microseconds), a helper that waits only
/// looks for work.
const SHARE_UP: usize = 1;
const SHARE_DOWN: usize = 4;

thread_local! {
    /// The helper's share of each [`Scan`], in [`SHARE_ONE`]ths, on the thread that cuts.
    static SHARES: [Cell<usize>; 2] = const {
        [Cell::new(SHARE_ONE / 2), Cell::new(SHARE_ONE / 2)]
    };
    /// The helped run ([`parallel::helped_run`]) the shares were moved in: a new run starts
    /// from one half again, so one run's cuts never depend on an earlier run.
    static SHARES_RUN: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Where to cut a scan of `n` nodes in two: the caller takes the nodes before the cut, the
/// helper the ones from it on ([`join_cut`]). Half and half at the start of each run; then
/// each [`join_cut`] of the same `scan` moves it.
pub(crate) fn cut(scan: Scan, n: usize) -> usize {
    let run = parallel::helped_run();
    if SHARES_RUN.with(Cell::get) != run {
        SHARES_RUN.with(|r| r.set(run));
        reset_shares();
    }
    let helper = SHARES.with(|s| s[scan as usize].get());
    #[cfg(all(test, feature = "parallel"))]
    let helper = FIXED_SHARE.with(std::cell::Cell::get).unwrap_or(helper);
    n - n * helper / SHARE_ONE
}

#[cfg(all(test, feature = "parallel"))]
thread_local! {
    /// The helper's share every [`cut`] on this thread takes when set: the tests put the cut
    /// where they want it.
    static FIXED_SHARE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Sets the helper's share of every scan to one half.
fn reset_shares() {
    SHARES.with(|s| s.iter().for_each(|c| c.set(SHARE_ONE / 2)));
}

/// [`parallel::join`] of the caller's part `a` and the helper's part `b` of a scan cut by [`cut`], then
/// moves that scan's cut: the helper's part grows when it ended before `a`, and shrinks when
/// the caller had to wait for it (or ran it itself). Measured, not timed: no clock is read,
/// so the same code runs in wasm.
pub(crate) fn join_cut<A: Send, B: Send>(
    scan: Scan,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let helper_done = AtomicBool::new(false);
    let ((a, waited), b) = parallel::join(
        || {
            let a = a();
            (a, !helper_done.load(Ordering::Acquire))
        },
        || {
            let b = b();
            helper_done.store(true, Ordering::Release);
            b
        },
    );
    SHARES.with(|s| {
        let share = &s[scan as usize];
        share.set(if waited {
            share.get().saturating_sub(SHARE_DOWN)
        } else {
            (share.get() + SHARE_UP).min(SHARE_ONE)
        })
    });
    (a, b)
}

/// The two parts of `items` taken from `start` on and wrapping around (the order of a scan
/// that starts at `start`), cut after `cut` of them: each part as at most two slices.
pub(crate) fn rotated_parts<T>(items: &[T], start: usize, cut: usize) -> [RotatedPart<'_, T>; 2] {
    let (to_end, from_start) = (&items[start..], &items[..start]);
    if cut <= to_end.len() {
        let (a, b) = to_end.split_at(cut);
        [a.iter().chain(&[]), b.iter().chain(from_start)]
    } else {
        let (a, b) = from_start.split_at(cut - to_end.len());
        [to_end.iter().chain(a), b.iter().chain(&[])]
    }
}

/// A part of [`rotated_parts`]: one iterator type for both, so that a scan's code is compiled
/// once (no call through a `dyn Iterator` per node).
pub(crate) type RotatedPart<'a, T> =
    std::iter::Chain<std::slice::Iter<'a, T>, std::slice::Iter<'a, T>>;

/// `f(job, nodes, row, sums)` for each job, each filling its row of `matrix` (one row of
/// `nodes.len()` values per job) and adding to `sums` (one value per node) what it wants added
/// there: the nodes before the cut and the ones after it side by side ([`cut`] and
/// [`join_cut`] of [`Scan::Scores`]), each part with its own part of every row and of `sums`.
/// Each job's results, first part then second, in job order.
pub(crate) fn rows_in_parts<J: Sync, N: Sync, R: Send>(
    jobs: &[J],
    nodes: &[N],
    matrix: &mut [i64],
    sums: &mut [i64],
    f: impl Fn(&J, &[N], &mut [i64], &mut [i64]) -> R + Sync,
) -> Vec<(R, R)> {
    let n = nodes.len();
    if n == 0 || jobs.is_empty() {
        return Vec::new();
    }
    let at = cut(Scan::Scores, n);
    let (mut rows_a, mut rows_b): (Vec<&mut [i64]>, Vec<&mut [i64]>) =
        matrix.chunks_mut(n).map(|row| row.split_at_mut(at)).unzip();
    let (sums_a, sums_b) = sums.split_at_mut(at);
    let map = |nodes: &[N], rows: &mut [&mut [i64]], sums: &mut [i64]| -> Vec<R> {
        jobs.iter()
            .zip(rows.iter_mut())
            .map(|(job, row)| f(job, nodes, row, sums))
            .collect()
    };
    let (a, b) = join_cut(
        Scan::Scores,
        || map(&nodes[..at], &mut rows_a, sums_a),
        || map(&nodes[at..], &mut rows_b, sums_b),
    );
    a.into_iter().zip(b).collect()
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use crate::report::json_report;
    use crate::scenario::SchedulerVersion;
    use crate::simulation::Limits;
    use crate::workloads::{build_for, Workload};
    use std::sync::atomic::Ordering;

    #[test]
    fn split_scans_decide_as_one_thread_does() {
        // Every workload under both schedulers with percentageOfNodesToScore 100 on 1000
        // nodes, so every cycle filters and scores every node: their scans are split in two
        // parts on a pool of two threads. The reports (placements, events, FitError
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
                let alone = crate::parallel::with_threads(1, report).expect("a pool");
                let joins = crate::parallel::JOINS.load(Ordering::Relaxed);
                let split = crate::parallel::with_threads(2, report).expect("a pool");
                assert!(
                    crate::parallel::JOINS.load(Ordering::Relaxed) >= joins + pending,
                    "{name} under {scheduler:?}: the scans were not split ({} joins)",
                    crate::parallel::JOINS.load(Ordering::Relaxed) - joins
                );
                assert!(
                    alone == split,
                    "{name} under {scheduler:?}: the split scans decided otherwise"
                );
            }
        }
    }

    #[test]
    fn scans_decide_the_same_wherever_they_are_cut() {
        // The cut moves from cycle to cycle with the threads' speeds, so the decisions must
        // not depend on it. With the cut held at the ends (the helper takes every node, or
        // none) and at an uneven place, each report is the one-thread report.
        for scheduler in [SchedulerVersion::V1_17, SchedulerVersion::V1_35] {
            for workload in [
                Workload::Basic,
                Workload::PodAntiAffinity,
                Workload::TopologySpreading,
                Workload::Preemption,
            ] {
                let (bound, pending) = match workload {
                    Workload::Preemption => (4000, 30),
                    _ => (1000, 60),
                };
                let scenario = build_for(workload, 1000, bound, pending, 100, scheduler);
                let report = || {
                    let run = scenario.run_with(3, false, Limits::default());
                    json_report(&run, true).to_string()
                };
                let alone = crate::parallel::with_threads(1, report).expect("a pool");
                for share in [0, super::SHARE_ONE, 301] {
                    let joins = crate::parallel::JOINS.load(Ordering::Relaxed);
                    let split = crate::parallel::with_threads(2, || {
                        super::FIXED_SHARE.with(|f| f.set(Some(share)));
                        report()
                    })
                    .expect("a pool");
                    assert!(
                        crate::parallel::JOINS.load(Ordering::Relaxed) >= joins + pending,
                        "{workload:?} under {scheduler:?}: the scans were not split"
                    );
                    assert!(
                        alone == split,
                        "{workload:?} under {scheduler:?}, helper's share {share}/1024: \
                         the cut scans decided otherwise"
                    );
                }
            }
        }
    }

    #[test]
    fn rotated_parts_are_the_scan_order_cut_in_two() {
        // Five nodes scanned from index 3: 3, 4, 0, 1, 2. Cut after c of them, the first
        // part is the first c of that order and the second the rest.
        let items = [0, 1, 2, 3, 4];
        let expected: [(&[i32], &[i32]); 6] = [
            (&[], &[3, 4, 0, 1, 2]),
            (&[3], &[4, 0, 1, 2]),
            (&[3, 4], &[0, 1, 2]),
            (&[3, 4, 0], &[1, 2]),
            (&[3, 4, 0, 1], &[2]),
            (&[3, 4, 0, 1, 2], &[]),
        ];
        for (cut, (first, second)) in expected.into_iter().enumerate() {
            let [a, b] = super::rotated_parts(&items, 3, cut);
            assert_eq!(a.copied().collect::<Vec<_>>(), first, "cut {cut}");
            assert_eq!(b.copied().collect::<Vec<_>>(), second, "cut {cut}");
        }
    }

    #[test]
    fn a_caller_that_runs_the_helpers_part_itself_keeps_more() {
        // On a pool of one thread the caller runs both parts, so each join counts as a wait:
        // the helper's share falls by SHARE_DOWN (4/1024) each time, and a fresh start puts it
        // back at one half. Of 1024 nodes the caller first takes 512, then 516, then 520.
        crate::parallel::with_threads(1, || {
            super::reset_shares();
            assert_eq!(super::cut(super::Scan::Scores, 1024), 512);
            super::join_cut(super::Scan::Scores, || (), || ());
            assert_eq!(super::cut(super::Scan::Scores, 1024), 516);
            super::join_cut(super::Scan::Scores, || (), || ());
            assert_eq!(super::cut(super::Scan::Scores, 1024), 520);
            // The filters' cut is apart from the scores'.
            assert_eq!(super::cut(super::Scan::Filters, 1024), 512);
            super::reset_shares();
            assert_eq!(super::cut(super::Scan::Scores, 1024), 512);
        })
        .expect("a pool");
    }
}
