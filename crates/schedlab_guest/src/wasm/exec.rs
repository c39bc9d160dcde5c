//! The interpreter loop: an explicit value stack and frame stack (no Rust recursion per wasm
//! call), one unit of fuel per instruction, traps as values.

use std::sync::Arc;

use super::decode::{Body, Module};
use super::instance::{Frame, HostContext, Instance};
use super::numeric::{binary, unary};
use super::ops::Op;
use super::types::{Trap, Value};

fn internal(what: &str) -> Trap {
    Trap::Host(format!("internal interpreter error: {what}"))
}

/// The function being run.
struct Cursor<'m> {
    func: u32,
    body: &'m Body,
    pc: usize,
    base: usize,
}

impl<T> Instance<T> {
    #[inline]
    fn pop(&mut self) -> u64 {
        self.stack.pop().unwrap_or(0)
    }

    /// Runs function `func` whose arguments are on top of the stack, leaving its results there.
    pub(super) fn run(&mut self, func: u32) -> Result<(), Trap> {
        let module = Arc::clone(&self.module);
        let imported = module.imports.len() as u32;
        if func < imported {
            return self.call_host(&module, func);
        }
        let entry_depth = self.frames.len();
        let mut cur = self.enter(&module, func)?;
        loop {
            if self.fuel == 0 {
                return Err(Trap::OutOfFuel);
            }
            self.fuel -= 1;
            let op = *cur
                .body
                .code
                .get(cur.pc)
                .ok_or_else(|| internal("pc out of range"))?;
            cur.pc += 1;
            match op {
                Op::Jump(t) => cur.pc = t as usize,
                Op::JumpIfZero(t) => {
                    if self.pop() as u32 == 0 {
                        cur.pc = t as usize;
                    }
                }
                Op::JumpIf(t) => {
                    if self.pop() as u32 != 0 {
                        cur.pc = t as usize;
                    }
                }
                Op::Br {
                    target,
                    height,
                    keep,
                } => {
                    self.branch(cur.base, height, keep)?;
                    cur.pc = target as usize;
                }
                Op::BrIf {
                    target,
                    height,
                    keep,
                } => {
                    if self.pop() as u32 != 0 {
                        self.branch(cur.base, height, keep)?;
                        cur.pc = target as usize;
                    }
                }
                Op::BrTable { len } => {
                    let index = (self.pop() as u32).min(len);
                    cur.pc += index as usize;
                }
                Op::Return => {
                    let keep = cur.body.results;
                    self.branch(cur.base, 0, keep)?;
                    if self.frames.len() == entry_depth {
                        return Ok(());
                    }
                    let frame = self
                        .frames
                        .pop()
                        .ok_or_else(|| internal("frame underflow"))?;
                    cur = self.resume(&module, frame)?;
                }
                Op::Call(f) => {
                    if f < imported {
                        self.call_host(&module, f)?;
                    } else {
                        cur = self.call_wasm(&module, cur, f)?;
                    }
                }
                Op::CallIndirect(type_index) => {
                    let f = self.resolve_indirect(&module, type_index)?;
                    if f < imported {
                        self.call_host(&module, f)?;
                    } else {
                        cur = self.call_wasm(&module, cur, f)?;
                    }
                }
                _ => self.step(op, cur.base)?,
            }
        }
    }

    /// Instructions that never change the current function.
    #[inline]
    fn step(&mut self, op: Op, base: usize) -> Result<(), Trap> {
        match op {
            Op::Unreachable => return Err(Trap::Unreachable),
            Op::Drop => {
                self.pop();
            }
            Op::Select => {
                let c = self.pop() as u32;
                let b = self.pop();
                let a = self.pop();
                self.stack.push(if c != 0 { a } else { b });
            }
            Op::LocalGet(i) => {
                let v = self.stack.get(base + i as usize).copied().unwrap_or(0);
                self.stack.push(v);
            }
            Op::LocalSet(i) => {
                let v = self.pop();
                if let Some(slot) = self.stack.get_mut(base + i as usize) {
                    *slot = v;
                }
            }
            Op::LocalTee(i) => {
                let v = self.stack.last().copied().unwrap_or(0);
                if let Some(slot) = self.stack.get_mut(base + i as usize) {
                    *slot = v;
                }
            }
            Op::GlobalGet(i) => {
                let v = self.globals.get(i as usize).copied().unwrap_or(0);
                self.stack.push(v);
            }
            Op::GlobalSet(i) => {
                let v = self.pop();
                if let Some(slot) = self.globals.get_mut(i as usize) {
                    *slot = v;
                }
            }
            Op::Const(v) => self.stack.push(v),
            Op::Unary(code) => {
                let x = self.pop();
                self.stack.push(unary(code, x)?);
            }
            Op::Binary(code) => {
                let b = self.pop();
                let a = self.pop();
                self.stack.push(binary(code, a, b)?);
            }
            _ => self.memory_op(op)?,
        }
        Ok(())
    }

    fn memory_op(&mut self, op: Op) -> Result<(), Trap> {
        match op {
            Op::Load { code, offset } => {
                let addr = u64::from(self.pop() as u32) + u64::from(offset);
                let v = self.load(code, addr)?;
                self.stack.push(v);
            }
            Op::Store { code, offset } => {
                let v = self.pop();
                let addr = u64::from(self.pop() as u32) + u64::from(offset);
                self.store(code, addr, v)?;
            }
            Op::MemorySize => self.stack.push(u64::from(self.memory.size_pages())),
            Op::MemoryGrow => {
                let delta = self.pop() as u32;
                let old = self.memory.grow(delta).unwrap_or(u32::MAX);
                self.stack.push(u64::from(old));
            }
            Op::MemoryCopy => {
                let len = u64::from(self.pop() as u32);
                let src = u64::from(self.pop() as u32);
                let dst = u64::from(self.pop() as u32);
                self.memory.copy(dst, src, len)?;
            }
            Op::MemoryFill => {
                let len = u64::from(self.pop() as u32);
                let value = self.pop() as u8;
                let dst = u64::from(self.pop() as u32);
                self.memory.fill(dst, value, len)?;
            }
            _ => return Err(internal("unexpected instruction")),
        }
        Ok(())
    }

    fn load(&self, code: u8, addr: u64) -> Result<u64, Trap> {
        let m = &self.memory;
        Ok(match code {
            0x28 | 0x2A | 0x35 => u64::from(u32::from_le_bytes(m.array(addr)?)),
            0x29 | 0x2B => u64::from_le_bytes(m.array(addr)?),
            0x2C => u64::from(i32::from(i8::from_le_bytes(m.array(addr)?)) as u32),
            0x2D | 0x31 => u64::from(u8::from_le_bytes(m.array(addr)?)),
            0x2E => u64::from(i32::from(i16::from_le_bytes(m.array(addr)?)) as u32),
            0x2F | 0x33 => u64::from(u16::from_le_bytes(m.array(addr)?)),
            0x30 => i64::from(i8::from_le_bytes(m.array(addr)?)) as u64,
            0x32 => i64::from(i16::from_le_bytes(m.array(addr)?)) as u64,
            0x34 => i64::from(i32::from_le_bytes(m.array(addr)?)) as u64,
            _ => return Err(internal("unknown load")),
        })
    }

    fn store(&mut self, code: u8, addr: u64, v: u64) -> Result<(), Trap> {
        let bytes = v.to_le_bytes();
        let width = match code {
            0x36 | 0x38 | 0x3E => 4,
            0x37 | 0x39 => 8,
            0x3A | 0x3C => 1,
            _ => 2,
        };
        self.memory.store(addr, &bytes[..width])
    }

    /// Keeps the top `keep` slots and cuts the stack to `base + height` below them.
    #[inline]
    fn branch(&mut self, base: usize, height: u32, keep: u32) -> Result<(), Trap> {
        let dst = base + height as usize;
        let len = self.stack.len();
        let keep = keep as usize;
        let src = len
            .checked_sub(keep)
            .filter(|&src| src >= dst)
            .ok_or_else(|| internal("branch below its block"))?;
        if keep > 0 && src != dst {
            self.stack.copy_within(src..len, dst);
        }
        self.stack.truncate(dst + keep);
        Ok(())
    }

    /// Sets up a frame for defined function `func` whose arguments are on the stack.
    fn enter<'m>(&mut self, module: &'m Module, func: u32) -> Result<Cursor<'m>, Trap> {
        let index = func as usize - module.imports.len();
        let body = module
            .bodies
            .get(index)
            .ok_or_else(|| internal("unknown function"))?;
        let base = self
            .stack
            .len()
            .checked_sub(body.params as usize)
            .ok_or_else(|| internal("missing arguments"))?;
        if base + body.max_height as usize > self.limits.max_stack_slots {
            return Err(Trap::ValueStackExhausted);
        }
        self.stack.resize(base + body.locals as usize, 0);
        Ok(Cursor {
            func,
            body,
            pc: 0,
            base,
        })
    }

    fn call_wasm<'m>(
        &mut self,
        module: &'m Module,
        cur: Cursor<'m>,
        f: u32,
    ) -> Result<Cursor<'m>, Trap> {
        if self.frames.len() + 1 >= self.limits.max_call_depth {
            return Err(Trap::CallStackExhausted);
        }
        self.frames.push(Frame {
            func: cur.func,
            pc: cur.pc,
            base: cur.base,
        });
        self.enter(module, f)
    }

    fn resume<'m>(&self, module: &'m Module, frame: Frame) -> Result<Cursor<'m>, Trap> {
        let index = frame.func as usize - module.imports.len();
        let body = module
            .bodies
            .get(index)
            .ok_or_else(|| internal("unknown function"))?;
        Ok(Cursor {
            func: frame.func,
            body,
            pc: frame.pc,
            base: frame.base,
        })
    }

    fn resolve_indirect(&mut self, module: &Module, type_index: u32) -> Result<u32, Trap> {
        let index = self.pop() as u32;
        let f = self
            .table
            .get(index as usize)
            .ok_or(Trap::OutOfBoundsTable)?
            .ok_or(Trap::UninitializedElement)?;
        let expected = module.types.get(type_index as usize);
        if expected.is_none() || module.func_type(f) != expected {
            return Err(Trap::IndirectCallTypeMismatch);
        }
        Ok(f)
    }

    fn call_host(&mut self, module: &Module, f: u32) -> Result<(), Trap> {
        let ty = module
            .func_type(f)
            .ok_or_else(|| internal("unknown import"))?;
        let start = self
            .stack
            .len()
            .checked_sub(ty.params.len())
            .ok_or_else(|| internal("missing arguments"))?;
        let Instance {
            stack,
            args,
            hosts,
            memory,
            data,
            ..
        } = self;
        args.clear();
        args.extend(
            ty.params
                .iter()
                .zip(&stack[start..])
                .map(|(t, raw)| Value::from_raw(*t, *raw)),
        );
        stack.truncate(start);
        let host = hosts
            .get_mut(f as usize)
            .ok_or_else(|| internal("unknown import"))?;
        let results = host(&mut HostContext { memory, data }, args)?;
        if results.len() != ty.results.len()
            || results.iter().zip(&ty.results).any(|(v, t)| v.ty() != *t)
        {
            let import = &module.imports[f as usize];
            return Err(Trap::Host(format!(
                "host function {}.{} returned {results:?}, expected {:?}",
                import.module, import.name, ty.results
            )));
        }
        stack.extend(results.iter().map(|v| v.to_raw()));
        Ok(())
    }
}
