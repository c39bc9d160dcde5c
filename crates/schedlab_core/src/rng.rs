//! A tiny seeded random number generator (SplitMix64), identical on every platform.
//!
//! The core never reads OS entropy or a global RNG: every random choice (only `selectHost`
//! ties) draws from the run's own seeded generator.

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator for this seed.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[0, n)` (`rand.Intn`); `n` must be in `1..=2^32`.
    pub fn intn(&mut self, n: u64) -> u64 {
        // Multiply-shift on the top 32 bits: 64-bit arithmetic only (cheap in wasm too), bias
        // below n / 2^32, which is negligible for node counts.
        debug_assert!((1..=1 << 32).contains(&n));
        ((self.next_u64() >> 32) * n) >> 32
    }
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
    fn every_value_is_reachable() {
        let mut r = Rng::new(1);
        let mut seen = [false; 3];
        for _ in 0..100 {
            seen[r.intn(3) as usize] = true;
        }
        assert_eq!(seen, [true; 3]);
    }
}
