//! The virtual clock's unit: [`Millis`], a time or a duration in integer milliseconds.

/// Virtual time or a duration, in integer milliseconds.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Millis(pub u64);

impl Millis {
    /// Zero.
    pub const ZERO: Millis = Millis(0);

    /// Whole seconds.
    pub const fn secs(s: u64) -> Millis {
        Millis(s.saturating_mul(1000))
    }

    /// `self + d`, saturating.
    pub const fn plus(self, d: Millis) -> Millis {
        Millis(self.0.saturating_add(d.0))
    }

    /// Seconds as a float, for reports.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// The smallest multiple of `period` that is `>= self` (`period` > 0).
    pub fn ceil_to(self, period: Millis) -> Millis {
        Millis(self.0.div_ceil(period.0).saturating_mul(period.0))
    }

    /// The largest multiple of `period` that is `<= self` (`period` > 0): Go's
    /// `time.Truncate` on the virtual clock.
    pub const fn floor_to(self, period: Millis) -> Millis {
        Millis(self.0 / period.0 * period.0)
    }
}

/// Go's `time.Duration` spelling: `0s`, `500ms`, `1.5s`, `1m30s`, `2h0m5s`.
impl std::fmt::Display for Millis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = self.0;
        if ms == 0 {
            return f.write_str("0s");
        }
        if ms < 1000 {
            return write!(f, "{ms}ms");
        }
        let (h, m) = (ms / 3_600_000, ms / 60_000 % 60);
        let (s, frac) = (ms / 1000 % 60, ms % 1000);
        if h > 0 {
            write!(f, "{h}h{m}m")?;
        } else if m > 0 {
            write!(f, "{m}m")?;
        }
        if frac == 0 {
            write!(f, "{s}s")
        } else {
            let frac = format!("{frac:03}");
            write!(f, "{s}.{}s", frac.trim_end_matches('0'))
        }
    }
}
