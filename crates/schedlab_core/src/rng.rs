//! A tiny seeded random number generator (SplitMix64), identical on every platform.
//!
//! The core never reads OS entropy or a global RNG: every random choice (only `selectHost`
//! ties) draws from the run's own seeded generator. The state moves by a constant per draw, so
//! any draw ahead can be computed without the ones before it ([`Rng::intn_ahead`]).

/// SplitMix64.
#[derive(Clone, Debug)]
pub(crate) struct Rng {
    state: u64,
}

impl Rng {
    /// A generator for this seed.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A number in `[0, n)` (`rand.Intn`); `n` must be in `1..=2^32`.
    pub(crate) fn intn(&mut self, n: u64) -> u64 {
        below(self.next_u64(), n)
    }

    /// What the `k`-th [`Rng::intn`] from now (`k` ≥ 1) will return for `n`, without
    /// drawing: the state moves by a constant per draw, so any draw can be computed directly.
    pub(crate) fn intn_ahead(&self, k: u64, n: u64) -> u64 {
        below(mix(self.state.wrapping_add(k.wrapping_mul(GAMMA))), n)
    }

    /// Moves on `k` draws, as `k` calls of [`Rng::next_u64`] would.
    pub(crate) fn skip(&mut self, k: u64) {
        self.state = self.state.wrapping_add(k.wrapping_mul(GAMMA));
    }
}

/// What SplitMix64's state moves by at each draw.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output for a state.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `bits` as a number in `[0, n)`: multiply-shift on the top 32 bits, 64-bit arithmetic only
/// (cheap in wasm too), with a bias below n / 2^32, negligible for node counts.
fn below(bits: u64, n: u64) -> u64 {
    debug_assert!((1..=1 << 32).contains(&n));
    ((bits >> 32) * n) >> 32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..100 {
            let x = a.intn(5);
            assert_eq!(x, b.intn(5));
            assert!(x < 5);
        }
    }

    #[test]
    fn a_draw_ahead_is_the_draw_that_comes_then() {
        let mut r = Rng::new(42);
        let ahead: Vec<u64> = (1..=20).map(|k| r.intn_ahead(k, 1 + k % 7)).collect();
        let drawn: Vec<u64> = (1..=20).map(|k| r.intn(1 + k % 7)).collect();
        assert_eq!(ahead, drawn);
        let (mut skipped, mut walked) = (Rng::new(9), Rng::new(9));
        skipped.skip(13);
        (0..13).for_each(|_| {
            walked.next_u64();
        });
        assert_eq!(skipped.next_u64(), walked.next_u64());
    }

    #[test]
    fn every_value_is_reachable() {
        let mut r = Rng::new(1);
        let mut seen = [false; 3];
        for _ in 0..100 {
            seen[r.intn(3) as usize] = true;
        }
        assert_eq!(seen, [true; 3]);
    }
}
