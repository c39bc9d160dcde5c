//! The interpreter's vocabulary: value types, function types, values, traps and load errors.

use std::fmt;

/// A WebAssembly value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValType {
    I32,
    I64,
    F32,
    F64,
    FuncRef,
    ExternRef,
}

impl ValType {
    /// The type of a value-type byte, if it is one this interpreter knows.
    pub(crate) fn from_byte(byte: u8) -> Option<ValType> {
        match byte {
            0x7F => Some(ValType::I32),
            0x7E => Some(ValType::I64),
            0x7D => Some(ValType::F32),
            0x7C => Some(ValType::F64),
            0x70 => Some(ValType::FuncRef),
            0x6F => Some(ValType::ExternRef),
            _ => None,
        }
    }
}

/// A function signature: parameter and result types.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct FuncType {
    pub params: Vec<ValType>,
    pub results: Vec<ValType>,
}

/// A typed value crossing the boundary between Rust and the guest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    I32(i32),
    I64(i64),
    F32(f32),
    F64(f64),
    /// A function reference (an index into the function space), or null.
    FuncRef(Option<u32>),
    /// An external reference, or null.
    ExternRef(Option<u32>),
}

/// The raw slot of a null reference.
pub(crate) const NULL_REF: u64 = u64::MAX;

impl Value {
    /// The type of this value.
    pub fn ty(&self) -> ValType {
        match self {
            Value::I32(_) => ValType::I32,
            Value::I64(_) => ValType::I64,
            Value::F32(_) => ValType::F32,
            Value::F64(_) => ValType::F64,
            Value::FuncRef(_) => ValType::FuncRef,
            Value::ExternRef(_) => ValType::ExternRef,
        }
    }

    /// The 64-bit stack slot holding this value.
    pub(crate) fn to_raw(self) -> u64 {
        match self {
            Value::I32(v) => u64::from(v as u32),
            Value::I64(v) => v as u64,
            Value::F32(v) => u64::from(v.to_bits()),
            Value::F64(v) => v.to_bits(),
            Value::FuncRef(r) | Value::ExternRef(r) => r.map_or(NULL_REF, u64::from),
        }
    }

    /// The value of type `ty` held in a stack slot.
    pub(crate) fn from_raw(ty: ValType, raw: u64) -> Value {
        let reference = (raw != NULL_REF).then_some(raw as u32);
        match ty {
            ValType::I32 => Value::I32(raw as u32 as i32),
            ValType::I64 => Value::I64(raw as i64),
            ValType::F32 => Value::F32(f32::from_bits(raw as u32)),
            ValType::F64 => Value::F64(f64::from_bits(raw)),
            ValType::FuncRef => Value::FuncRef(reference),
            ValType::ExternRef => Value::ExternRef(reference),
        }
    }

    /// The value as an i32, if it is one.
    pub fn as_i32(&self) -> Option<i32> {
        match self {
            Value::I32(v) => Some(*v),
            _ => None,
        }
    }

    /// The value as an i64, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::I64(v) => Some(*v),
            _ => None,
        }
    }
}

/// Why a running guest stopped. The same input and budget always give the same trap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trap {
    Unreachable,
    IntegerDivideByZero,
    IntegerOverflow,
    InvalidConversion,
    OutOfBoundsMemory,
    OutOfBoundsTable,
    UninitializedElement,
    IndirectCallTypeMismatch,
    OutOfFuel,
    CallStackExhausted,
    ValueStackExhausted,
    /// `proc_exit` (WASI) with this exit code.
    Exit(i32),
    /// A host function failed, or a call was made with the wrong arguments.
    Host(String),
}

impl fmt::Display for Trap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trap::Unreachable => f.write_str("unreachable"),
            Trap::IntegerDivideByZero => f.write_str("integer divide by zero"),
            Trap::IntegerOverflow => f.write_str("integer overflow"),
            Trap::InvalidConversion => f.write_str("invalid conversion to integer"),
            Trap::OutOfBoundsMemory => f.write_str("out of bounds memory access"),
            Trap::OutOfBoundsTable => f.write_str("undefined element"),
            Trap::UninitializedElement => f.write_str("uninitialized element"),
            Trap::IndirectCallTypeMismatch => f.write_str("indirect call type mismatch"),
            Trap::OutOfFuel => f.write_str("out of fuel"),
            Trap::CallStackExhausted => f.write_str("call stack exhausted"),
            Trap::ValueStackExhausted => f.write_str("value stack exhausted"),
            Trap::Exit(code) => write!(f, "exit with code {code}"),
            Trap::Host(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Trap {}

/// Why a module could not be decoded or instantiated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// Byte offset in the module where the problem was found (0 when unknown).
    pub offset: usize,
    pub message: String,
}

impl LoadError {
    pub(crate) fn new(offset: usize, message: impl Into<String>) -> LoadError {
        LoadError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for LoadError {}
