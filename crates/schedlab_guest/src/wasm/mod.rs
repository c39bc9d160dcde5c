//! An own WebAssembly interpreter: the 1.0 binary format plus sign extension, saturating
//! float-to-int, bulk `memory.copy`/`memory.fill` and multi-value blocks.
//!
//! Modules are decoded once (`Module::decode`) into pre-compiled instruction vectors with
//! resolved branch targets; an `Instance` runs them on an explicit stack with a fuel budget,
//! a call-depth cap and a memory cap, so a guest can never hang or overflow the host.

mod compile;
mod decode;
mod exec;
mod instance;
mod numeric;
mod ops;
mod reader;
mod types;

pub use decode::{ExportKind, Module};
pub use instance::{HostContext, HostFunc, Instance, InstanceLimits, Memory, PAGE_SIZE};
pub use types::{FuncType, LoadError, Trap, ValType, Value};
