//! A bounds-checked cursor over module bytes: LEB128 integers, floats, names, vectors.

use super::types::{LoadError, ValType};

/// Reads a module's bytes front to back; every read fails cleanly past the end.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes[0]` in the whole module, for error messages.
    base: usize,
}

pub(crate) type Res<T> = Result<T, LoadError>;

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], base: usize) -> Reader<'a> {
        Reader {
            bytes,
            pos: 0,
            base,
        }
    }

    /// Offset of the cursor in the whole module.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    pub(crate) fn err<T>(&self, message: impl Into<String>) -> Res<T> {
        Err(LoadError::new(self.offset(), message))
    }

    pub(crate) fn byte(&mut self) -> Res<u8> {
        match self.bytes.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.err("unexpected end of module"),
        }
    }

    pub(crate) fn peek(&self) -> Res<u8> {
        match self.bytes.get(self.pos) {
            Some(&b) => Ok(b),
            None => self.err("unexpected end of module"),
        }
    }

    pub(crate) fn take(&mut self, len: usize) -> Res<&'a [u8]> {
        let end = self
            .pos
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len());
        match end {
            Some(end) => {
                let slice = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(slice)
            }
            None => self.err("unexpected end of module"),
        }
    }

    /// An unsigned LEB128 integer of at most `bits` bits.
    fn uleb(&mut self, bits: u32) -> Res<u64> {
        let mut result: u64 = 0;
        for i in 0..bits.div_ceil(7) {
            let byte = self.byte()?;
            result |= u64::from(byte & 0x7F) << (7 * i);
            if byte & 0x80 == 0 {
                if bits < 64 && result >> bits != 0 {
                    return self.err("integer too large");
                }
                return Ok(result);
            }
        }
        self.err("integer representation too long")
    }

    /// A signed LEB128 integer of at most `bits` bits, sign-extended to 64.
    fn sleb(&mut self, bits: u32) -> Res<i64> {
        let mut result: i64 = 0;
        for i in 0..bits.div_ceil(7) {
            let byte = self.byte()?;
            let shift = 7 * i;
            result |= i64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                if shift + 7 < 64 && byte & 0x40 != 0 {
                    result |= -1i64 << (shift + 7);
                }
                let fits = bits >= 64
                    || (result >= -(1i64 << (bits - 1)) && result < (1i64 << (bits - 1)));
                return if fits {
                    Ok(result)
                } else {
                    self.err("integer too large")
                };
            }
        }
        self.err("integer representation too long")
    }

    pub(crate) fn u32(&mut self) -> Res<u32> {
        Ok(self.uleb(32)? as u32)
    }

    pub(crate) fn i32(&mut self) -> Res<i32> {
        Ok(self.sleb(32)? as i32)
    }

    pub(crate) fn i64(&mut self) -> Res<i64> {
        self.sleb(64)
    }

    /// A signed 33-bit block type index.
    pub(crate) fn s33(&mut self) -> Res<i64> {
        self.sleb(33)
    }

    pub(crate) fn f32_bits(&mut self) -> Res<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn f64_bits(&mut self) -> Res<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// A vector length, refused when it cannot possibly fit in the remaining bytes.
    pub(crate) fn len(&mut self) -> Res<usize> {
        let n = self.u32()? as usize;
        if n > self.bytes.len().saturating_sub(self.pos) {
            return self.err("length out of bounds");
        }
        Ok(n)
    }

    pub(crate) fn name(&mut self) -> Res<String> {
        let n = self.len()?;
        let bytes = self.take(n)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_string()),
            Err(_) => self.err("malformed UTF-8 name"),
        }
    }

    pub(crate) fn val_type(&mut self) -> Res<ValType> {
        let b = self.byte()?;
        match ValType::from_byte(b) {
            Some(t) => Ok(t),
            None => self.err(format!("unknown value type 0x{b:02x}")),
        }
    }
}
