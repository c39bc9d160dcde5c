//! Numeric instructions on raw stack slots, with WebAssembly's semantics: wrapping integer
//! arithmetic, traps on division by zero, signed overflow and invalid float-to-int
//! conversion, IEEE floats with NaN results made canonical (so every platform agrees bit for bit).

use super::types::{Trap, NULL_REF};

const F32_NAN: u32 = 0x7FC0_0000;
const F64_NAN: u64 = 0x7FF8_0000_0000_0000;

fn f32_of(x: u64) -> f32 {
    f32::from_bits(x as u32)
}

fn f64_of(x: u64) -> f64 {
    f64::from_bits(x)
}

fn from_f32(v: f32) -> u64 {
    u64::from(if v.is_nan() { F32_NAN } else { v.to_bits() })
}

fn from_f64(v: f64) -> u64 {
    if v.is_nan() {
        F64_NAN
    } else {
        v.to_bits()
    }
}

fn from_i32(v: i32) -> u64 {
    u64::from(v as u32)
}

fn from_bool(b: bool) -> u64 {
    u64::from(b)
}

/// A one-operand instruction by opcode (see `Op::Unary`).
pub(crate) fn unary(code: u8, x: u64) -> Result<u64, Trap> {
    match code {
        0x8B..=0x91 | 0x99..=0x9F => Ok(float_unary(code, x)),
        0xA7..=0xBF | 0xF0..=0xF7 => convert(code, x),
        _ => Ok(int_unary(code, x)),
    }
}

fn int_unary(code: u8, x: u64) -> u64 {
    let (a, l) = (x as u32, x as i64);
    match code {
        0x45 => from_bool(a == 0),
        0x50 => from_bool(x == 0),
        0x67 => u64::from(a.leading_zeros()),
        0x68 => u64::from(a.trailing_zeros()),
        0x69 => u64::from(a.count_ones()),
        0x79 => u64::from(x.leading_zeros()),
        0x7A => u64::from(x.trailing_zeros()),
        0x7B => u64::from(x.count_ones()),
        0xC0 => from_i32(i32::from(a as u8 as i8)),
        0xC1 => from_i32(i32::from(a as u16 as i16)),
        0xC2 => i64::from(l as u8 as i8) as u64,
        0xC3 => i64::from(l as u16 as i16) as u64,
        0xC4 => i64::from(l as u32 as i32) as u64,
        0xD1 => from_bool(x == NULL_REF),
        _ => 0,
    }
}

fn float_unary(code: u8, x: u64) -> u64 {
    let (f, d) = (f32_of(x), f64_of(x));
    match code {
        0x8B => x & 0x7FFF_FFFF,
        0x8C => x ^ 0x8000_0000,
        0x8D => from_f32(f.ceil()),
        0x8E => from_f32(f.floor()),
        0x8F => from_f32(f.trunc()),
        0x90 => from_f32(f.round_ties_even()),
        0x91 => from_f32(f.sqrt()),
        0x99 => x & 0x7FFF_FFFF_FFFF_FFFF,
        0x9A => x ^ 0x8000_0000_0000_0000,
        0x9B => from_f64(d.ceil()),
        0x9C => from_f64(d.floor()),
        0x9D => from_f64(d.trunc()),
        0x9E => from_f64(d.round_ties_even()),
        _ => from_f64(d.sqrt()),
    }
}

/// Truncates toward zero, trapping on NaN and on results outside `[lo, hi)`.
fn trunc_checked(v: f64, lo: f64, hi: f64) -> Result<f64, Trap> {
    if v.is_nan() {
        return Err(Trap::InvalidConversion);
    }
    let t = v.trunc();
    if t < lo || t >= hi {
        return Err(Trap::IntegerOverflow);
    }
    Ok(t)
}

const I32_RANGE: (f64, f64) = (-2_147_483_648.0, 2_147_483_648.0);
const U32_RANGE: (f64, f64) = (0.0, 4_294_967_296.0);
const I64_RANGE: (f64, f64) = (-9_223_372_036_854_775_808.0, 9_223_372_036_854_775_808.0);
const U64_RANGE: (f64, f64) = (0.0, 18_446_744_073_709_551_616.0);

fn convert(code: u8, x: u64) -> Result<u64, Trap> {
    let (f, d, i, l) = (f64::from(f32_of(x)), f64_of(x), x as u32 as i32, x as i64);
    // f32 -> f64 is exact, so one checked truncation serves both widths.
    let trunc = |v: f64, (lo, hi): (f64, f64)| trunc_checked(v, lo, hi);
    Ok(match code {
        0xA7 => x & 0xFFFF_FFFF,
        0xA8 => from_i32(trunc(f, I32_RANGE)? as i32),
        0xA9 => u64::from(trunc(f, U32_RANGE)? as u32),
        0xAA => from_i32(trunc(d, I32_RANGE)? as i32),
        0xAB => u64::from(trunc(d, U32_RANGE)? as u32),
        0xAC => i64::from(i) as u64,
        0xAD => x & 0xFFFF_FFFF,
        0xAE => trunc(f, I64_RANGE)? as i64 as u64,
        0xAF => trunc(f, U64_RANGE)? as u64,
        0xB0 => trunc(d, I64_RANGE)? as i64 as u64,
        0xB1 => trunc(d, U64_RANGE)? as u64,
        0xB2 => from_f32(i as f32),
        0xB3 => from_f32(x as u32 as f32),
        0xB4 => from_f32(l as f32),
        0xB5 => from_f32(x as f32),
        0xB6 => from_f32(d as f32),
        0xB7 => from_f64(f64::from(i)),
        0xB8 => from_f64(f64::from(x as u32)),
        0xB9 => from_f64(l as f64),
        0xBA => from_f64(x as f64),
        0xBB => from_f64(f),
        0xBC | 0xBE => x & 0xFFFF_FFFF,
        0xBD | 0xBF => x,
        // Saturating truncations: Rust's `as` saturates and maps NaN to 0, as wasm does.
        0xF0 => from_i32(f as i32),
        0xF1 => u64::from(f as u32),
        0xF2 => from_i32(d as i32),
        0xF3 => u64::from(d as u32),
        0xF4 => f as i64 as u64,
        0xF5 => f as u64,
        0xF6 => d as i64 as u64,
        _ => d as u64,
    })
}

/// A two-operand instruction by opcode; `a` was pushed first.
pub(crate) fn binary(code: u8, a: u64, b: u64) -> Result<u64, Trap> {
    match code {
        0x46..=0x4F | 0x6A..=0x78 => i32_binary(code, a as u32, b as u32),
        0x51..=0x5A | 0x7C..=0x8A => i64_binary(code, a, b),
        _ => Ok(float_binary(code, a, b)),
    }
}

fn i32_binary(code: u8, a: u32, b: u32) -> Result<u64, Trap> {
    let (sa, sb) = (a as i32, b as i32);
    let v = match code {
        0x46 => u32::from(a == b),
        0x47 => u32::from(a != b),
        0x48 => u32::from(sa < sb),
        0x49 => u32::from(a < b),
        0x4A => u32::from(sa > sb),
        0x4B => u32::from(a > b),
        0x4C => u32::from(sa <= sb),
        0x4D => u32::from(a <= b),
        0x4E => u32::from(sa >= sb),
        0x4F => u32::from(a >= b),
        0x6A => a.wrapping_add(b),
        0x6B => a.wrapping_sub(b),
        0x6C => a.wrapping_mul(b),
        0x6D => {
            if b == 0 {
                return Err(Trap::IntegerDivideByZero);
            }
            sa.checked_div(sb).ok_or(Trap::IntegerOverflow)? as u32
        }
        0x6E => a.checked_div(b).ok_or(Trap::IntegerDivideByZero)?,
        0x6F => {
            if b == 0 {
                return Err(Trap::IntegerDivideByZero);
            }
            sa.wrapping_rem(sb) as u32
        }
        0x70 => a.checked_rem(b).ok_or(Trap::IntegerDivideByZero)?,
        0x71 => a & b,
        0x72 => a | b,
        0x73 => a ^ b,
        0x74 => a.wrapping_shl(b),
        0x75 => sa.wrapping_shr(b) as u32,
        0x76 => a.wrapping_shr(b),
        0x77 => a.rotate_left(b % 32),
        _ => a.rotate_right(b % 32),
    };
    Ok(u64::from(v))
}

fn i64_binary(code: u8, a: u64, b: u64) -> Result<u64, Trap> {
    let (sa, sb) = (a as i64, b as i64);
    Ok(match code {
        0x51 => from_bool(a == b),
        0x52 => from_bool(a != b),
        0x53 => from_bool(sa < sb),
        0x54 => from_bool(a < b),
        0x55 => from_bool(sa > sb),
        0x56 => from_bool(a > b),
        0x57 => from_bool(sa <= sb),
        0x58 => from_bool(a <= b),
        0x59 => from_bool(sa >= sb),
        0x5A => from_bool(a >= b),
        0x7C => a.wrapping_add(b),
        0x7D => a.wrapping_sub(b),
        0x7E => a.wrapping_mul(b),
        0x7F => {
            if b == 0 {
                return Err(Trap::IntegerDivideByZero);
            }
            sa.checked_div(sb).ok_or(Trap::IntegerOverflow)? as u64
        }
        0x80 => a.checked_div(b).ok_or(Trap::IntegerDivideByZero)?,
        0x81 => {
            if b == 0 {
                return Err(Trap::IntegerDivideByZero);
            }
            sa.wrapping_rem(sb) as u64
        }
        0x82 => a.checked_rem(b).ok_or(Trap::IntegerDivideByZero)?,
        0x83 => a & b,
        0x84 => a | b,
        0x85 => a ^ b,
        0x86 => a.wrapping_shl(b as u32),
        0x87 => sa.wrapping_shr(b as u32) as u64,
        0x88 => a.wrapping_shr(b as u32),
        0x89 => a.rotate_left((b % 64) as u32),
        _ => a.rotate_right((b % 64) as u32),
    })
}

/// wasm `min`/`max`: NaN if either is NaN, and -0 below +0.
fn min_max<F: PartialOrd + Copy>(
    a: F,
    b: F,
    is_nan: fn(F) -> bool,
    want_min: bool,
    zero_pick: F,
) -> Option<F> {
    if is_nan(a) || is_nan(b) {
        return None;
    }
    if a == b {
        return Some(zero_pick);
    }
    Some(if (a < b) == want_min { a } else { b })
}

fn float_binary(code: u8, a: u64, b: u64) -> u64 {
    let (fa, fb, da, db) = (f32_of(a), f32_of(b), f64_of(a), f64_of(b));
    // For equal operands (only ±0 differ), OR-ing the bits picks -0 for min, AND-ing +0 for max.
    let f32_pick = |min: bool| {
        f32::from_bits(if min {
            a as u32 | b as u32
        } else {
            a as u32 & b as u32
        })
    };
    let f64_pick = |min: bool| f64::from_bits(if min { a | b } else { a & b });
    match code {
        0x5B => from_bool(fa == fb),
        0x5C => from_bool(fa != fb),
        0x5D => from_bool(fa < fb),
        0x5E => from_bool(fa > fb),
        0x5F => from_bool(fa <= fb),
        0x60 => from_bool(fa >= fb),
        0x61 => from_bool(da == db),
        0x62 => from_bool(da != db),
        0x63 => from_bool(da < db),
        0x64 => from_bool(da > db),
        0x65 => from_bool(da <= db),
        0x66 => from_bool(da >= db),
        0x92 => from_f32(fa + fb),
        0x93 => from_f32(fa - fb),
        0x94 => from_f32(fa * fb),
        0x95 => from_f32(fa / fb),
        0x96 | 0x97 => {
            let min = code == 0x96;
            from_f32(min_max(fa, fb, f32::is_nan, min, f32_pick(min)).unwrap_or(f32::NAN))
        }
        0x98 => (a & 0x7FFF_FFFF) | (b & 0x8000_0000),
        0xA0 => from_f64(da + db),
        0xA1 => from_f64(da - db),
        0xA2 => from_f64(da * db),
        0xA3 => from_f64(da / db),
        0xA4 | 0xA5 => {
            let min = code == 0xA4;
            from_f64(min_max(da, db, f64::is_nan, min, f64_pick(min)).unwrap_or(f64::NAN))
        }
        _ => (a & 0x7FFF_FFFF_FFFF_FFFF) | (b & 0x8000_0000_0000_0000),
    }
}
