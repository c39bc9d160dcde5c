//! One function body from bytes to `Op`s: structured control flow becomes jumps with
//! resolved targets, and operand counts are checked so the interpreter never underflows.

use super::decode::Module;
use super::ops::{is_unary, Op};
use super::reader::{Reader, Res};
use super::types::{FuncType, NULL_REF};

/// Deepest operand stack one function may need (a guard, far above real code).
const MAX_HEIGHT: u32 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Block,
    Loop,
    If,
    Else,
    Func,
}

/// An open block while compiling.
struct Ctrl {
    kind: Kind,
    /// Operand height below the block's parameters.
    height: u32,
    params: u32,
    results: u32,
    /// Code after `br`, `return` or `unreachable`: operand counts are not checked.
    unreachable: bool,
    /// Where a branch to a loop goes.
    loop_pc: u32,
    /// Ops whose target is this block's end.
    fixups: Vec<usize>,
    /// The `if`'s jump to its `else` or `end`, until one is reached.
    if_jump: Option<usize>,
}

struct Compiler<'m> {
    module: &'m Module,
    locals: u32,
    code: Vec<Op>,
    ctrls: Vec<Ctrl>,
    height: u32,
    max_height: u32,
}

/// Compiles a body whose locals were already read; the reader ends after the final `end`.
pub(crate) fn compile_body(
    r: &mut Reader,
    module: &Module,
    ty: &FuncType,
    locals: u32,
) -> Res<super::decode::Body> {
    let results = ty.results.len() as u32;
    let mut c = Compiler {
        module,
        locals,
        code: Vec::new(),
        ctrls: Vec::new(),
        height: locals,
        max_height: locals,
    };
    c.ctrls.push(Ctrl {
        kind: Kind::Func,
        height: locals,
        params: 0,
        results,
        unreachable: false,
        loop_pc: 0,
        fixups: Vec::new(),
        if_jump: None,
    });
    while !c.ctrls.is_empty() {
        let opcode = r.byte()?;
        c.instruction(r, opcode)?;
    }
    Ok(super::decode::Body {
        locals,
        params: ty.params.len() as u32,
        results,
        max_height: c.max_height,
        code: c.code,
    })
}

impl Compiler<'_> {
    fn pc(&self) -> u32 {
        self.code.len() as u32
    }

    fn top(&self) -> &Ctrl {
        // The function's own frame is popped only by its final `end`, after which nothing runs.
        &self.ctrls[self.ctrls.len() - 1]
    }

    fn pop(&mut self, r: &Reader, n: u32) -> Res<()> {
        let (floor, unreachable) = (self.top().height, self.top().unreachable);
        if self.height < floor.saturating_add(n) {
            if unreachable {
                self.height = floor;
                return Ok(());
            }
            return r.err("type mismatch: not enough operands");
        }
        self.height -= n;
        Ok(())
    }

    fn push(&mut self, r: &Reader, n: u32) -> Res<()> {
        self.height = self.height.saturating_add(n);
        self.max_height = self.max_height.max(self.height);
        if self.height > MAX_HEIGHT {
            return r.err("function needs too deep an operand stack");
        }
        Ok(())
    }

    fn pop_push(&mut self, r: &Reader, pops: u32, pushes: u32) -> Res<()> {
        self.pop(r, pops)?;
        self.push(r, pushes)
    }

    fn set_unreachable(&mut self) {
        let floor = self.top().height;
        self.height = floor;
        if let Some(top) = self.ctrls.last_mut() {
            top.unreachable = true;
        }
    }

    fn needs_memory(&self, r: &Reader) -> Res<()> {
        if self.module.memory.is_none() {
            return r.err("unknown memory 0");
        }
        Ok(())
    }

    /// (params, results) of a block type.
    fn block_type(&self, r: &mut Reader) -> Res<(u32, u32)> {
        let b = r.peek()?;
        if b == 0x40 {
            r.byte()?;
            return Ok((0, 0));
        }
        if super::types::ValType::from_byte(b).is_some() {
            r.byte()?;
            return Ok((0, 1));
        }
        let index = r.s33()?;
        match usize::try_from(index)
            .ok()
            .and_then(|i| self.module.types.get(i))
        {
            Some(t) => Ok((t.params.len() as u32, t.results.len() as u32)),
            None => r.err(format!("unknown block type {index}")),
        }
    }

    fn open(&mut self, r: &mut Reader, kind: Kind) -> Res<()> {
        let (params, results) = self.block_type(r)?;
        let mut if_jump = None;
        if kind == Kind::If {
            self.pop(r, 1)?;
            if_jump = Some(self.code.len());
            self.code.push(Op::JumpIfZero(0));
        }
        self.pop(r, params)?;
        let height = self.height;
        self.push(r, params)?;
        let loop_pc = self.pc();
        self.ctrls.push(Ctrl {
            kind,
            height,
            params,
            results,
            unreachable: false,
            loop_pc,
            fixups: Vec::new(),
            if_jump,
        });
        Ok(())
    }

    fn patch(&mut self, at: usize, pc: u32) {
        match self.code.get_mut(at) {
            Some(Op::Jump(t) | Op::JumpIf(t) | Op::JumpIfZero(t)) => *t = pc,
            Some(Op::Br { target, .. } | Op::BrIf { target, .. }) => *target = pc,
            _ => {}
        }
    }

    fn check_block_end(&self, r: &Reader) -> Res<()> {
        let top = self.top();
        if !top.unreachable && self.height != top.height + top.results {
            return r.err("type mismatch: block leaves the wrong number of values");
        }
        Ok(())
    }

    fn else_(&mut self, r: &Reader) -> Res<()> {
        if self.top().kind != Kind::If {
            return r.err("`else` without `if`");
        }
        self.check_block_end(r)?;
        let at = self.code.len();
        self.code.push(Op::Jump(0));
        let pc = self.pc();
        let top = self.ctrls.len() - 1;
        let ctrl = &mut self.ctrls[top];
        ctrl.fixups.push(at);
        ctrl.kind = Kind::Else;
        ctrl.unreachable = false;
        let if_jump = ctrl.if_jump.take();
        self.height = ctrl.height + ctrl.params;
        if let Some(at) = if_jump {
            self.patch(at, pc);
        }
        Ok(())
    }

    fn end(&mut self, r: &Reader) -> Res<()> {
        self.check_block_end(r)?;
        let Some(ctrl) = self.ctrls.pop() else {
            return r.err("unbalanced `end`");
        };
        if ctrl.kind == Kind::If && ctrl.params != ctrl.results {
            return r.err("type mismatch: `if` without `else` must not change the stack");
        }
        if ctrl.kind == Kind::Func {
            // Branches to the function's label land on its `return`.
            for at in ctrl.fixups {
                let pc = self.pc();
                self.patch(at, pc);
            }
            self.code.push(Op::Return);
            return Ok(());
        }
        let pc = self.pc();
        for at in ctrl.fixups.into_iter().chain(ctrl.if_jump) {
            self.patch(at, pc);
        }
        self.height = ctrl.height + ctrl.results;
        Ok(())
    }

    /// Emits a branch to label `depth`: a plain or conditional `Br`, or a bare jump when the
    /// stack is already in place.
    fn branch(&mut self, r: &Reader, depth: u32, conditional: bool) -> Res<Op> {
        let Some(index) = (self.ctrls.len() as u32).checked_sub(depth + 1) else {
            return r.err(format!("unknown label {depth}"));
        };
        let ctrl = &self.ctrls[index as usize];
        let keep = if ctrl.kind == Kind::Loop {
            ctrl.params
        } else {
            ctrl.results
        };
        let (height, target) = (
            ctrl.height,
            if ctrl.kind == Kind::Loop {
                ctrl.loop_pc
            } else {
                0
            },
        );
        let needs_fixup = ctrl.kind != Kind::Loop;
        self.pop(r, keep)?;
        let in_place = self.height == height;
        self.push(r, keep)?;
        if needs_fixup {
            let at = self.code.len();
            self.ctrls[index as usize].fixups.push(at);
        }
        Ok(match (in_place, conditional) {
            (true, false) => Op::Jump(target),
            (true, true) => Op::JumpIf(target),
            (false, false) => Op::Br {
                target,
                height,
                keep,
            },
            (false, true) => Op::BrIf {
                target,
                height,
                keep,
            },
        })
    }

    fn br_table(&mut self, r: &mut Reader) -> Res<()> {
        let n = r.len()?;
        let labels = (0..=n).map(|_| r.u32()).collect::<Res<Vec<_>>>()?;
        self.pop(r, 1)?;
        self.code.push(Op::BrTable { len: n as u32 });
        let height = self.height;
        for depth in labels {
            self.height = height;
            let op = self.branch(r, depth, false)?;
            self.code.push(op);
        }
        self.set_unreachable();
        Ok(())
    }

    fn call(&mut self, r: &Reader, ty: Option<&FuncType>, op: Op) -> Res<()> {
        let Some(ty) = ty else {
            return r.err("unknown function or type");
        };
        let (params, results) = (ty.params.len() as u32, ty.results.len() as u32);
        self.pop_push(r, params, results)?;
        self.code.push(op);
        Ok(())
    }

    fn local(&mut self, r: &mut Reader) -> Res<u32> {
        let index = r.u32()?;
        if index >= self.locals {
            return r.err(format!("unknown local {index}"));
        }
        Ok(index)
    }

    fn global(&mut self, r: &mut Reader) -> Res<u32> {
        let index = r.u32()?;
        if index as usize >= self.module.globals.len() {
            return r.err(format!("unknown global {index}"));
        }
        Ok(index)
    }

    fn instruction(&mut self, r: &mut Reader, opcode: u8) -> Res<()> {
        match opcode {
            0x00 => {
                self.code.push(Op::Unreachable);
                self.set_unreachable();
            }
            0x01 => {}
            0x02 => self.open(r, Kind::Block)?,
            0x03 => self.open(r, Kind::Loop)?,
            0x04 => self.open(r, Kind::If)?,
            0x05 => self.else_(r)?,
            0x0B => self.end(r)?,
            0x0C => {
                let depth = r.u32()?;
                let op = self.branch(r, depth, false)?;
                self.code.push(op);
                self.set_unreachable();
            }
            0x0D => {
                let depth = r.u32()?;
                self.pop(r, 1)?;
                let op = self.branch(r, depth, true)?;
                self.code.push(op);
            }
            0x0E => self.br_table(r)?,
            0x0F => {
                let results = self.ctrls[0].results;
                self.pop(r, results)?;
                self.code.push(Op::Return);
                self.set_unreachable();
            }
            0x10 => {
                let f = r.u32()?;
                self.call(r, self.module.func_type(f), Op::Call(f))?;
            }
            0x11 => {
                let type_index = r.u32()?;
                if r.byte()? != 0 || self.module.table.is_none() {
                    return r.err("unknown table");
                }
                self.pop(r, 1)?;
                self.call(
                    r,
                    self.module.types.get(type_index as usize),
                    Op::CallIndirect(type_index),
                )?;
            }
            _ => self.variable_or_memory(r, opcode)?,
        }
        Ok(())
    }

    fn variable_or_memory(&mut self, r: &mut Reader, opcode: u8) -> Res<()> {
        let (pops, pushes, op) = match opcode {
            0x1A => (1, 0, Op::Drop),
            0x1B => (3, 1, Op::Select),
            0x1C => {
                for _ in 0..r.len()? {
                    r.val_type()?;
                }
                (3, 1, Op::Select)
            }
            0x20 => (0, 1, Op::LocalGet(self.local(r)?)),
            0x21 => (1, 0, Op::LocalSet(self.local(r)?)),
            0x22 => (1, 1, Op::LocalTee(self.local(r)?)),
            0x23 => (0, 1, Op::GlobalGet(self.global(r)?)),
            0x24 => (1, 0, Op::GlobalSet(self.global(r)?)),
            0x28..=0x3E => {
                self.needs_memory(r)?;
                let _align = r.u32()?;
                let offset = r.u32()?;
                if opcode <= 0x35 {
                    (
                        1,
                        1,
                        Op::Load {
                            code: opcode,
                            offset,
                        },
                    )
                } else {
                    (
                        2,
                        0,
                        Op::Store {
                            code: opcode,
                            offset,
                        },
                    )
                }
            }
            0x3F | 0x40 => {
                self.needs_memory(r)?;
                if r.byte()? != 0 {
                    return r.err("unknown memory");
                }
                if opcode == 0x3F {
                    (0, 1, Op::MemorySize)
                } else {
                    (1, 1, Op::MemoryGrow)
                }
            }
            _ => return self.numeric(r, opcode),
        };
        self.pop_push(r, pops, pushes)?;
        self.code.push(op);
        Ok(())
    }

    fn numeric(&mut self, r: &mut Reader, opcode: u8) -> Res<()> {
        let (pops, pushes, op) = match opcode {
            0x41 => (0, 1, Op::Const(u64::from(r.i32()? as u32))),
            0x42 => (0, 1, Op::Const(r.i64()? as u64)),
            0x43 => (0, 1, Op::Const(u64::from(r.f32_bits()?))),
            0x44 => (0, 1, Op::Const(r.f64_bits()?)),
            0x45..=0xC4 if is_unary(opcode) => (1, 1, Op::Unary(opcode)),
            0x45..=0xC4 => (2, 1, Op::Binary(opcode)),
            0xD0 => {
                r.val_type()?;
                (0, 1, Op::Const(NULL_REF))
            }
            0xD1 => (1, 1, Op::Unary(0xD1)),
            0xD2 => {
                let f = r.u32()?;
                if self.module.func_type(f).is_none() {
                    return r.err(format!("unknown function {f}"));
                }
                (0, 1, Op::Const(u64::from(f)))
            }
            0xFC => self.prefixed(r)?,
            _ => return r.err(format!("unsupported opcode 0x{opcode:02x}")),
        };
        self.pop_push(r, pops, pushes)?;
        self.code.push(op);
        Ok(())
    }

    fn prefixed(&mut self, r: &mut Reader) -> Res<(u32, u32, Op)> {
        let sub = r.u32()?;
        match sub {
            0..=7 => Ok((1, 1, Op::Unary(0xF0 + sub as u8))),
            10 => {
                self.needs_memory(r)?;
                if r.byte()? != 0 || r.byte()? != 0 {
                    return r.err("unknown memory");
                }
                Ok((3, 0, Op::MemoryCopy))
            }
            11 => {
                self.needs_memory(r)?;
                if r.byte()? != 0 {
                    return r.err("unknown memory");
                }
                Ok((3, 0, Op::MemoryFill))
            }
            _ => r.err(format!("unsupported instruction 0xfc {sub}")),
        }
    }
}
