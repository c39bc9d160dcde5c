//! `selectHost`: the node with the highest total score, ties broken by reservoir sampling
//! (`scores.md` 4.1). Upstream walks the scores once, and each score equal to the highest so
//! far draws `rand.Intn(cntOfMaxScore)`; the last tie whose draw is 0 wins.
//!
//! [`select_host`] gives the same node and leaves the generator where that walk leaves it,
//! with fewer draws. The generator ([`Rng`]) can compute any draw ahead, so the highest score
//! and the number of draws before its first node are found first (comparisons only). Then only
//! the ties of the highest score are visited, from the last one back, until one's draw is 0:
//! about half of them, where the forward walk draws for every one.

use crate::rng::Rng;

/// The index in `scores` of the node `selectHost` picks; `rng` moves on as many draws as
/// upstream's walk makes. `scores` must not be empty.
pub(crate) fn select_host(scores: &[i64], rng: &mut Rng) -> usize {
    let Some(&best) = scores.iter().max() else {
        debug_assert!(false, "selectHost of no scores");
        return 0;
    };
    let first = scores.iter().position(|&s| s == best).unwrap_or(0);
    // Draws before `first`: the scores equal to the highest one so far.
    let mut draws_before = 0u64;
    if let Some((&head, before)) = scores[..first].split_first() {
        let mut running = head;
        for &s in before {
            if s > running {
                running = s;
            } else if s == running {
                draws_before += 1;
            }
        }
    }
    let after = &scores[first + 1..];
    let ties_after = after.iter().filter(|&&s| s == best).count() as u64;
    // The tie of rank r after `first` (r from 1) is the (r + 1)-th node of the highest score:
    // upstream's draw number `draws_before + r` is `rand.Intn(r + 1)` for it.
    let mut chosen = first;
    let mut rank = ties_after;
    for (i, &s) in after.iter().enumerate().rev() {
        if s != best {
            continue;
        }
        if rng.intn_ahead(draws_before + rank, rank + 1) == 0 {
            chosen = first + 1 + i;
            break;
        }
        rank -= 1;
    }
    rng.skip(draws_before + ties_after);
    chosen
}

/// The indices of the highest score, in order: the ties `selectHost` chose among (the trace's
/// tie set).
pub(crate) fn ties_of_best(scores: &[i64]) -> impl Iterator<Item = usize> + '_ {
    let best = scores.iter().max().copied();
    (0..scores.len()).filter(move |&i| Some(scores[i]) == best)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Upstream's walk, as `scores.md` 4.1 gives it: the definition `select_host` must match.
    fn upstream_walk(scores: &[i64], rng: &mut Rng) -> usize {
        let (mut max, mut selected, mut count) = (scores[0], 0, 1);
        for (i, &s) in scores.iter().enumerate().skip(1) {
            if s > max {
                (max, selected, count) = (s, i, 1);
            } else if s == max {
                count += 1;
                if rng.intn(count) == 0 {
                    selected = i;
                }
            }
        }
        selected
    }

    #[test]
    fn picks_the_node_and_leaves_the_generator_as_upstreams_walk_does() {
        // Short score lists over few values, so that ties, earlier maxima with ties of their
        // own, and a highest score first, last or alone all come up.
        let mut make = Rng::new(2026);
        for case in 0..5000u64 {
            let len = 1 + make.intn(12) as usize;
            let values = 1 + make.intn(4);
            let scores: Vec<i64> = (0..len).map(|_| make.intn(values) as i64).collect();
            let (mut fast, mut walk) = (Rng::new(case), Rng::new(case));
            let picked = select_host(&scores, &mut fast);
            assert_eq!(picked, upstream_walk(&scores, &mut walk), "{scores:?}");
            assert_eq!(
                fast.next_u64(),
                walk.next_u64(),
                "draws made for {scores:?}"
            );
        }
    }

    #[test]
    fn a_single_highest_score_wins_without_drawing_for_it() {
        // [3, 3, 9, 1]: one draw for the second 3 (a tie with the highest so far), none after
        // the 9.
        let mut rng = Rng::new(5);
        assert_eq!(select_host(&[3, 3, 9, 1], &mut rng), 2);
        let mut once = Rng::new(5);
        once.next_u64();
        assert_eq!(rng.next_u64(), once.next_u64());
    }

    #[test]
    fn every_tie_is_picked_about_as_often() {
        // Four nodes of the highest score after a lower one: each wins about a quarter of
        // 4000 picks, as reservoir sampling gives (uniform among the ties).
        let scores = [1, 7, 7, 2, 7, 7];
        let mut counts = [0usize; 6];
        let mut rng = Rng::new(1);
        for _ in 0..4000 {
            counts[select_host(&scores, &mut rng)] += 1;
        }
        assert_eq!((counts[0], counts[3]), (0, 0));
        for i in [1, 2, 4, 5] {
            assert!((850..1150).contains(&counts[i]), "{counts:?}");
        }
    }
}
