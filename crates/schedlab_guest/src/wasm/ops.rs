//! The pre-decoded instruction form that the interpreter runs: one `Op` per wasm instruction
//! (structured control flow already resolved to jump targets and stack heights).

/// One instruction of a compiled function body.
///
/// Heights count stack slots from the frame's base (parameters and locals included), so a
/// branch knows statically where the operand stack of its target block starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Unreachable,
    /// Jump without touching the stack.
    Jump(u32),
    /// Pop an i32; jump when it is zero (`if` to its `else` or `end`).
    JumpIfZero(u32),
    /// Pop an i32; jump when it is non-zero (a `br_if` that needs no stack fix-up).
    JumpIf(u32),
    /// Keep the top `keep` slots, cut the stack to `height`, jump.
    Br {
        target: u32,
        height: u32,
        keep: u32,
    },
    /// Pop an i32; when non-zero, do what `Br` does.
    BrIf {
        target: u32,
        height: u32,
        keep: u32,
    },
    /// Pop an index; continue at the `min(index, len)`-th of the `len + 1` branch ops that follow.
    BrTable {
        len: u32,
    },
    Return,
    /// Call a function by its index in the function space (imports first).
    Call(u32),
    /// Pop a table index and call that element, checking it has the type with this index.
    CallIndirect(u32),
    Drop,
    Select,
    LocalGet(u32),
    LocalSet(u32),
    LocalTee(u32),
    GlobalGet(u32),
    GlobalSet(u32),
    /// A load: `code` is the wasm opcode (0x28..=0x35).
    Load {
        code: u8,
        offset: u32,
    },
    /// A store: `code` is the wasm opcode (0x36..=0x3E).
    Store {
        code: u8,
        offset: u32,
    },
    MemorySize,
    MemoryGrow,
    MemoryCopy,
    MemoryFill,
    /// Push a constant slot.
    Const(u64),
    /// A one-operand numeric op by wasm opcode; 0xF0..=0xF7 are the saturating truncations
    /// (0xFC 0..=7) and 0xD1 is `ref.is_null`.
    Unary(u8),
    /// A two-operand numeric op by wasm opcode.
    Binary(u8),
}

/// Whether a numeric opcode in 0x45..=0xC4 takes one operand (else two).
pub(crate) fn is_unary(code: u8) -> bool {
    matches!(code, 0x45 | 0x50 | 0x67..=0x69 | 0x79..=0x7B | 0x8B..=0x91 | 0x99..=0x9F | 0xA7..=0xC4)
}
