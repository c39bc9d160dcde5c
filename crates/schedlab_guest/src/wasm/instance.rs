//! A module instantiated: its memory, globals, table and host functions, and calls into it.

use std::sync::Arc;

use super::decode::{ConstExpr, ExportKind, Module};
use super::types::{Trap, Value};

/// Bytes in a wasm page.
pub const PAGE_SIZE: usize = 65536;

/// A linear memory with bounds-checked access.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    bytes: Vec<u8>,
    max_pages: u32,
}

impl Memory {
    pub fn size_pages(&self) -> u32 {
        (self.bytes.len() / PAGE_SIZE) as u32
    }

    pub fn data(&self) -> &[u8] {
        &self.bytes
    }

    /// `len` bytes at `ptr`, or `None` when any is out of bounds.
    pub fn read(&self, ptr: u32, len: u32) -> Option<&[u8]> {
        let start = ptr as usize;
        self.bytes.get(start..start.checked_add(len as usize)?)
    }

    /// Writes `data` at `ptr`; `false` (nothing written) when out of bounds.
    pub fn write(&mut self, ptr: u32, data: &[u8]) -> bool {
        let start = ptr as usize;
        let Some(end) = start.checked_add(data.len()) else {
            return false;
        };
        match self.bytes.get_mut(start..end) {
            Some(dst) => {
                dst.copy_from_slice(data);
                true
            }
            None => false,
        }
    }

    pub(super) fn array<const N: usize>(&self, addr: u64) -> Result<[u8; N], Trap> {
        let start = usize::try_from(addr).map_err(|_| Trap::OutOfBoundsMemory)?;
        let end = start.checked_add(N).ok_or(Trap::OutOfBoundsMemory)?;
        self.bytes
            .get(start..end)
            .and_then(|s| s.try_into().ok())
            .ok_or(Trap::OutOfBoundsMemory)
    }

    pub(super) fn store(&mut self, addr: u64, data: &[u8]) -> Result<(), Trap> {
        let start = usize::try_from(addr).map_err(|_| Trap::OutOfBoundsMemory)?;
        let end = start
            .checked_add(data.len())
            .ok_or(Trap::OutOfBoundsMemory)?;
        let dst = self
            .bytes
            .get_mut(start..end)
            .ok_or(Trap::OutOfBoundsMemory)?;
        dst.copy_from_slice(data);
        Ok(())
    }

    /// Grows by `delta` pages; the old size, or `None` past the maximum.
    pub(super) fn grow(&mut self, delta: u32) -> Option<u32> {
        let old = self.size_pages();
        let new = old.checked_add(delta).filter(|&n| n <= self.max_pages)?;
        self.bytes.resize(new as usize * PAGE_SIZE, 0);
        Some(old)
    }

    pub(super) fn copy(&mut self, dst: u64, src: u64, len: u64) -> Result<(), Trap> {
        let size = self.bytes.len() as u64;
        if src.checked_add(len).is_none_or(|e| e > size)
            || dst.checked_add(len).is_none_or(|e| e > size)
        {
            return Err(Trap::OutOfBoundsMemory);
        }
        let (src, dst, len) = (src as usize, dst as usize, len as usize);
        self.bytes.copy_within(src..src + len, dst);
        Ok(())
    }

    pub(super) fn fill(&mut self, dst: u64, value: u8, len: u64) -> Result<(), Trap> {
        let start = usize::try_from(dst).map_err(|_| Trap::OutOfBoundsMemory)?;
        let len = usize::try_from(len).map_err(|_| Trap::OutOfBoundsMemory)?;
        let end = start.checked_add(len).ok_or(Trap::OutOfBoundsMemory)?;
        self.bytes
            .get_mut(start..end)
            .ok_or(Trap::OutOfBoundsMemory)?
            .fill(value);
        Ok(())
    }
}

/// What a host function sees: the guest's memory and the embedder's data.
pub struct HostContext<'a, T> {
    pub memory: &'a mut Memory,
    pub data: &'a mut T,
}

/// A host function bound to one import.
pub type HostFunc<T> =
    Box<dyn FnMut(&mut HostContext<'_, T>, &[Value]) -> Result<Vec<Value>, Trap> + Send>;

/// Resource caps of an instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceLimits {
    /// Most memory pages (64 KiB each) the guest may have; `memory.grow` past it returns -1.
    pub max_memory_pages: u32,
    /// Deepest nesting of wasm calls before the trap `call stack exhausted`.
    pub max_call_depth: usize,
    /// Most value-stack slots (locals and operands of all frames).
    pub max_stack_slots: usize,
}

impl Default for InstanceLimits {
    fn default() -> Self {
        InstanceLimits {
            max_memory_pages: 4096,
            max_call_depth: 1024,
            max_stack_slots: 1 << 20,
        }
    }
}

/// A return address.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub func: u32,
    pub pc: usize,
    pub base: usize,
}

/// A running module. Every executed instruction costs one unit of fuel.
pub struct Instance<T> {
    pub(super) module: Arc<Module>,
    pub(super) memory: Memory,
    pub(super) globals: Vec<u64>,
    pub(super) table: Vec<Option<u32>>,
    pub(super) hosts: Vec<HostFunc<T>>,
    pub(super) data: T,
    pub(super) limits: InstanceLimits,
    pub(super) fuel: u64,
    pub(super) stack: Vec<u64>,
    pub(super) frames: Vec<Frame>,
    pub(super) args: Vec<Value>,
}

impl<T> Instance<T> {
    /// Instantiates `module` with one host function per import, in import order: globals,
    /// table elements and data segments are initialized; the start function is not run
    /// (see `run_start`).
    pub fn new(
        module: Arc<Module>,
        hosts: Vec<HostFunc<T>>,
        data: T,
        limits: InstanceLimits,
    ) -> Result<Instance<T>, Trap> {
        if hosts.len() != module.imports.len() {
            return Err(Trap::Host(format!(
                "{} imports but {} host functions",
                module.imports.len(),
                hosts.len()
            )));
        }
        let mut globals = Vec::with_capacity(module.globals.len());
        for g in &module.globals {
            let value = eval(g.init, &globals);
            globals.push(value);
        }
        let mut memory = Memory::default();
        if let Some(m) = module.memory {
            let max = m.max.unwrap_or(65536).min(limits.max_memory_pages);
            if m.min > max {
                return Err(Trap::Host(format!(
                    "the guest needs {} memory pages, more than the cap of {max}",
                    m.min
                )));
            }
            memory = Memory {
                bytes: vec![0; m.min as usize * PAGE_SIZE],
                max_pages: max,
            };
        }
        let table_size = module.table.map_or(0, |t| t.min.min(1 << 20) as usize);
        let mut table = vec![None; table_size];
        for seg in &module.elements {
            let offset = eval(seg.offset, &globals) as u32 as usize;
            let slots = offset
                .checked_add(seg.funcs.len())
                .and_then(|end| table.get_mut(offset..end));
            let slots = slots.ok_or(Trap::OutOfBoundsTable)?;
            for (slot, &f) in slots.iter_mut().zip(&seg.funcs) {
                *slot = Some(f);
            }
        }
        for seg in &module.data {
            let offset = eval(seg.offset, &globals) as u32;
            memory.store(u64::from(offset), &seg.bytes)?;
        }
        Ok(Instance {
            module,
            memory,
            globals,
            table,
            hosts,
            data,
            limits,
            fuel: 0,
            stack: Vec::new(),
            frames: Vec::new(),
            args: Vec::new(),
        })
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    pub fn memory_mut(&mut self) -> &mut Memory {
        &mut self.memory
    }

    pub fn data(&self) -> &T {
        &self.data
    }

    pub fn data_mut(&mut self) -> &mut T {
        &mut self.data
    }

    /// Fuel left.
    pub fn fuel(&self) -> u64 {
        self.fuel
    }

    /// Sets the fuel for the next calls.
    pub fn set_fuel(&mut self, fuel: u64) {
        self.fuel = fuel;
    }

    /// Runs the start function, if the module names one.
    pub fn run_start(&mut self) -> Result<(), Trap> {
        match self.module.start {
            Some(f) => self.invoke(f, &[]).map(|_| ()),
            None => Ok(()),
        }
    }

    /// Calls an exported function by name.
    pub fn call(&mut self, name: &str, args: &[Value]) -> Result<Vec<Value>, Trap> {
        let export = self
            .module
            .exports
            .iter()
            .find(|e| e.name == name && e.kind == ExportKind::Func);
        let Some(func) = export.map(|e| e.index) else {
            return Err(Trap::Host(format!("no exported function {name}")));
        };
        self.invoke(func, args)
    }

    fn invoke(&mut self, func: u32, args: &[Value]) -> Result<Vec<Value>, Trap> {
        let module = Arc::clone(&self.module);
        let Some(ty) = module.func_type(func) else {
            return Err(Trap::Host(format!("unknown function {func}")));
        };
        if args.len() != ty.params.len() || args.iter().zip(&ty.params).any(|(a, t)| a.ty() != *t) {
            return Err(Trap::Host(format!(
                "arguments {args:?} do not match the parameters {:?}",
                ty.params
            )));
        }
        self.stack.clear();
        self.frames.clear();
        self.stack.extend(args.iter().map(|a| a.to_raw()));
        let outcome = self.run(func);
        let results = match outcome {
            Ok(()) if self.stack.len() == ty.results.len() => Ok(ty
                .results
                .iter()
                .zip(&self.stack)
                .map(|(t, raw)| Value::from_raw(*t, *raw))
                .collect()),
            Ok(()) => Err(Trap::Host(
                "internal error: unbalanced stack after a call".into(),
            )),
            Err(trap) => Err(trap),
        };
        self.stack.clear();
        self.frames.clear();
        results
    }
}

fn eval(expr: ConstExpr, globals: &[u64]) -> u64 {
    match expr {
        ConstExpr::Value(v) => v,
        ConstExpr::Global(i) => globals.get(i as usize).copied().unwrap_or(0),
    }
}
