//! Kubernetes `resource.Quantity` parsing with exact integer arithmetic.
//!
//! A quantity is `<number><suffix>`: a decimal number (`0.5`, `12`, `.5`), then a binary suffix
//! (`Ki Mi Gi Ti Pi Ei`), a decimal SI suffix (`n u m k M G T P E`) or a decimal exponent
//! (`e3`, `E-2`). The value is kept exactly as `digits × 10^exp10 × 2^exp2`, and read out with
//! upstream's rounding: [`Quantity::milli_value`] and [`Quantity::value`] round *up* (towards
//! +∞), as `Quantity.MilliValue()` and `Quantity.Value()` do. YAML and JSON numbers are accepted
//! too (`cpu: 64`). This module does not know resource names; see `resources.rs`.

use std::fmt;

/// An exact parsed quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantity {
    negative: bool,
    digits: u128,
    exp10: i32,
    exp2: u32,
}

/// Why a quantity string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantityError {
    /// Not a quantity at all.
    Invalid(String),
    /// Syntactically fine but too large to count in 64 bits.
    TooLarge(String),
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuantityError::Invalid(s) => write!(f, "invalid quantity {s:?}"),
            QuantityError::TooLarge(s) => {
                write!(f, "quantity {s:?} is too large (the limit is 2^63-1 units)")
            }
        }
    }
}

const MAX_INPUT_LEN: usize = 64;

impl Quantity {
    /// Parses a quantity string such as `500m`, `1.5Gi`, `1e3` or `64`.
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        let invalid = || QuantityError::Invalid(text.to_string());
        let s = text.trim();
        if s.is_empty() || s.len() > MAX_INPUT_LEN {
            return Err(invalid());
        }
        let bytes = s.as_bytes();
        let mut i = 0;
        let mut negative = false;
        if bytes[0] == b'+' || bytes[0] == b'-' {
            negative = bytes[0] == b'-';
            i = 1;
        }
        let mut digits: u128 = 0;
        let mut seen_digit = false;
        let mut frac_len: i32 = 0;
        let mut in_frac = false;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_digit() {
                seen_digit = true;
                digits = digits
                    .checked_mul(10)
                    .and_then(|d| d.checked_add(u128::from(c - b'0')))
                    .ok_or_else(|| QuantityError::TooLarge(text.to_string()))?;
                if in_frac {
                    frac_len += 1;
                }
            } else if c == b'.' && !in_frac {
                in_frac = true;
            } else {
                break;
            }
            i += 1;
        }
        if !seen_digit {
            return Err(invalid());
        }
        let suffix = &s[i..];
        let (exp10, exp2) = match suffix {
            "" => (0, 0),
            "n" => (-9, 0),
            "u" => (-6, 0),
            "m" => (-3, 0),
            "k" => (3, 0),
            "M" => (6, 0),
            "G" => (9, 0),
            "T" => (12, 0),
            "P" => (15, 0),
            "E" => (18, 0),
            "Ki" => (0, 10),
            "Mi" => (0, 20),
            "Gi" => (0, 30),
            "Ti" => (0, 40),
            "Pi" => (0, 50),
            "Ei" => (0, 60),
            _ => {
                let rest = suffix
                    .strip_prefix('e')
                    .or_else(|| suffix.strip_prefix('E'))
                    .ok_or_else(invalid)?;
                let body = rest.strip_prefix(['+', '-']).unwrap_or(rest);
                if body.is_empty() || body.len() > 4 || !body.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(invalid());
                }
                let e: i32 = rest.parse().map_err(|_| invalid())?;
                (e, 0)
            }
        };
        Ok(Quantity {
            negative: negative && digits != 0,
            digits,
            exp10: exp10 - frac_len,
            exp2,
        })
    }

    /// A quantity from a JSON/YAML number (`cpu: 64`, `cpu: 0.5`).
    pub fn from_number(n: &serde_json::Number) -> Result<Quantity, QuantityError> {
        Quantity::parse(&n.to_string())
    }

    /// The value scaled by `10^scale`, rounded up; `None` if it does not fit in an `i64`.
    fn scaled_ceil(&self, scale: i32) -> Option<i64> {
        let p = self.exp10 + scale;
        let base = self.digits.checked_mul(1u128.checked_shl(self.exp2)?)?;
        let magnitude_floor;
        let mut exact = true;
        if p >= 0 {
            magnitude_floor = base.checked_mul(10u128.checked_pow(p as u32)?)?;
        } else if -p > 38 {
            magnitude_floor = 0;
            exact = base == 0;
        } else {
            let div = 10u128.pow((-p) as u32);
            magnitude_floor = base / div;
            exact = base % div == 0;
        }
        let signed: i128 = if self.negative {
            // ceil(-x) = -floor(x)
            -(magnitude_floor as i128)
        } else {
            magnitude_floor as i128 + i128::from(!exact)
        };
        i64::try_from(signed).ok()
    }

    /// `Quantity.MilliValue()`: thousandths, rounded up.
    pub fn milli_value(&self) -> Option<i64> {
        self.scaled_ceil(3)
    }

    /// `Quantity.Value()`: whole units, rounded up.
    pub fn value(&self) -> Option<i64> {
        self.scaled_ceil(0)
    }

    /// The value in billionths, rounded towards zero (`None` past `i128`): exact for every
    /// quantity with at most nine decimals, which is how DRA's CEL compares capacities.
    pub fn nano_value(&self) -> Option<i128> {
        let p = self.exp10 + 9;
        let base = self.digits.checked_mul(1u128.checked_shl(self.exp2)?)?;
        let magnitude = if p >= 0 {
            base.checked_mul(10u128.checked_pow(p as u32)?)?
        } else if -p > 38 {
            0
        } else {
            base / 10u128.pow((-p) as u32)
        };
        let m = i128::try_from(magnitude).ok()?;
        Some(if self.negative { -m } else { m })
    }

    /// True when the quantity is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }
}

/// Formats a milli-CPU amount the way people write it: `2`, `1.5`, `250m`.
pub fn format_milli_cpu(milli: i64) -> String {
    if milli % 1000 == 0 {
        format!("{}", milli / 1000)
    } else if milli.abs() < 1000 {
        format!("{milli}m")
    } else {
        let s = format!("{}.{:03}", milli / 1000, (milli % 1000).abs());
        s.trim_end_matches('0').to_string()
    }
}

/// Formats a byte amount with the largest binary suffix that divides it, else in plain bytes
/// or a rounded `Mi`/`Gi` figure for readability.
pub fn format_bytes(bytes: i64) -> String {
    const UNITS: [(&str, i64); 4] = [
        ("Ti", 1 << 40),
        ("Gi", 1 << 30),
        ("Mi", 1 << 20),
        ("Ki", 1 << 10),
    ];
    if bytes == 0 {
        return "0".into();
    }
    for (name, size) in UNITS {
        if bytes % size == 0 {
            return format!("{}{name}", bytes / size);
        }
    }
    for (name, size) in UNITS {
        if bytes.abs() >= size {
            return format!("{:.1}{name}", bytes as f64 / size as f64);
        }
    }
    format!("{bytes}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn milli(s: &str) -> i64 {
        Quantity::parse(s).unwrap().milli_value().unwrap()
    }
    fn value(s: &str) -> i64 {
        Quantity::parse(s).unwrap().value().unwrap()
    }

    #[test]
    fn plain_decimal_and_exponent_forms() {
        assert_eq!(milli("1"), 1000);
        assert_eq!(milli("0.5"), 500);
        assert_eq!(milli(".5"), 500);
        assert_eq!(milli("250m"), 250);
        assert_eq!(value("1e3"), 1000);
        assert_eq!(value("1E3"), 1000);
        assert_eq!(milli("1e-3"), 1);
        assert_eq!(value("12k"), 12_000);
        assert_eq!(value("2M"), 2_000_000);
        assert_eq!(value("3G"), 3_000_000_000);
        assert_eq!(value("1T"), 1_000_000_000_000);
        assert_eq!(value("1P"), 1_000_000_000_000_000);
        assert_eq!(value("1E"), 1_000_000_000_000_000_000);
    }

    #[test]
    fn binary_suffixes() {
        assert_eq!(value("1Ki"), 1024);
        assert_eq!(value("500Mi"), 500 * 1024 * 1024);
        assert_eq!(value("32Gi"), 32 * 1024 * 1024 * 1024);
        assert_eq!(value("1Ti"), 1 << 40);
        assert_eq!(value("1Pi"), 1 << 50);
        assert_eq!(value("1Ei"), 1 << 60);
        assert_eq!(value("1.5Gi"), 1610612736);
        assert_eq!(value("8163684Ki"), 8163684 * 1024);
    }

    #[test]
    fn rounding_is_upwards_like_milli_value() {
        // 0.1m CPU is 0.1 milli-cores: MilliValue rounds it up to 1.
        assert_eq!(milli("100u"), 1);
        assert_eq!(milli("1n"), 1);
        assert_eq!(milli("0"), 0);
        // 1.0001 cores -> 1000.1 m -> 1001 m
        assert_eq!(milli("1.0001"), 1001);
        // Value() of 500m is 1 (rounded up).
        assert_eq!(value("500m"), 1);
        assert_eq!(value("-500m"), 0);
        assert_eq!(milli("-1.5"), -1500);
    }

    #[test]
    fn invalid_strings_are_rejected() {
        for s in [
            "", "12x", "K", "1K", "1.2.3", "m", "1e", "1e+", "Gi", "1 Gi", "--1", "1ee3", "0x10",
        ] {
            assert!(
                matches!(Quantity::parse(s), Err(QuantityError::Invalid(_))),
                "{s:?} should be invalid"
            );
        }
        assert_eq!(
            Quantity::parse("12x").unwrap_err().to_string(),
            "invalid quantity \"12x\""
        );
    }

    #[test]
    fn absurd_values_do_not_overflow() {
        assert!(Quantity::parse("99999999999999999999999999999999999999999").is_err());
        assert_eq!(Quantity::parse("100E").unwrap().value(), None);
        assert_eq!(Quantity::parse("1e9999").unwrap().value(), None);
        assert_eq!(Quantity::parse("1e-9999").unwrap().value(), Some(1));
        assert_eq!(Quantity::parse("8Ei").unwrap().value(), None);
        assert_eq!(Quantity::parse("7Ei").unwrap().value(), Some(7 << 60));
    }

    #[test]
    fn formatting() {
        assert_eq!(format_milli_cpu(2000), "2");
        assert_eq!(format_milli_cpu(1500), "1.5");
        assert_eq!(format_milli_cpu(250), "250m");
        assert_eq!(format_bytes(512 * 1024 * 1024), "512Mi");
        assert_eq!(format_bytes(32 << 30), "32Gi");
    }
}
