//! The binary format: a module's sections decoded into a `Module`, function bodies compiled.
//!
//! Validation is light (indices, operand counts, block shapes) but complete enough that the
//! interpreter can never index out of range; any malformed input is an `Err`, never a panic.

use super::compile::compile_body;
use super::ops::Op;
use super::reader::{Reader, Res};
use super::types::{FuncType, LoadError, ValType, NULL_REF};

/// Most locals one function may declare (a guard against absurd counts).
const MAX_LOCALS: u64 = 50_000;

/// A function import (the only kind of import supported).
#[derive(Clone, Debug)]
pub(crate) struct Import {
    pub module: String,
    pub name: String,
    pub type_index: u32,
}

/// A constant expression, evaluated at instantiation.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ConstExpr {
    Value(u64),
    Global(u32),
}

#[derive(Clone, Debug)]
pub(crate) struct Global {
    pub init: ConstExpr,
}

/// What an export names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    Func,
    Table,
    Memory,
    Global,
}

#[derive(Clone, Debug)]
pub(crate) struct Export {
    pub name: String,
    pub kind: ExportKind,
    pub index: u32,
}

/// Page limits of a memory or element limits of a table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub min: u32,
    pub max: Option<u32>,
}

/// An active element segment: functions written into table 0 at an offset.
#[derive(Clone, Debug)]
pub(crate) struct Element {
    pub offset: ConstExpr,
    pub funcs: Vec<u32>,
}

/// An active data segment: bytes written into memory 0 at an offset.
#[derive(Clone, Debug)]
pub(crate) struct Data {
    pub offset: ConstExpr,
    pub bytes: Vec<u8>,
}

/// A compiled function body.
#[derive(Clone, Debug, Default)]
pub(crate) struct Body {
    /// Parameters plus declared locals.
    pub locals: u32,
    pub params: u32,
    pub results: u32,
    /// The deepest the frame's stack gets (locals included).
    pub max_height: u32,
    pub code: Vec<Op>,
}

/// A decoded and compiled module, ready to instantiate any number of times.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub(crate) types: Vec<FuncType>,
    pub(crate) imports: Vec<Import>,
    /// The type index of every function, imports first.
    pub(crate) func_types: Vec<u32>,
    pub(crate) bodies: Vec<Body>,
    pub(crate) table: Option<Limits>,
    pub(crate) memory: Option<Limits>,
    pub(crate) globals: Vec<Global>,
    pub(crate) global_types: Vec<ValType>,
    pub(crate) exports: Vec<Export>,
    pub(crate) start: Option<u32>,
    pub(crate) elements: Vec<Element>,
    pub(crate) data: Vec<Data>,
}

impl Module {
    /// Decodes and compiles a binary module.
    pub fn decode(bytes: &[u8]) -> Result<Module, LoadError> {
        let mut r = Reader::new(bytes, 0);
        if r.take(4).ok() != Some(b"\0asm".as_slice()) {
            return Err(LoadError::new(
                0,
                "not a WebAssembly module (bad magic number)",
            ));
        }
        if r.take(4)? != [1, 0, 0, 0] {
            return Err(LoadError::new(4, "unsupported WebAssembly version"));
        }
        let mut module = Module::default();
        let mut last_id = 0u8;
        let mut declared_funcs = 0usize;
        while !r.is_empty() {
            let id = r.byte()?;
            let size = r.len()?;
            let offset = r.offset();
            let mut section = Reader::new(r.take(size)?, offset);
            if id != 0 && id != 12 {
                if id <= last_id && last_id != 12 {
                    return section.err(format!("section {id} out of order"));
                }
                last_id = id;
            }
            match id {
                0 | 12 => continue, // custom, data count
                1 => module.read_types(&mut section)?,
                2 => module.read_imports(&mut section)?,
                3 => declared_funcs = module.read_functions(&mut section)?,
                4 => module.read_table(&mut section)?,
                5 => module.read_memory(&mut section)?,
                6 => module.read_globals(&mut section)?,
                7 => module.read_exports(&mut section)?,
                8 => module.start = Some(module.func_index(&mut section)?),
                9 => module.read_elements(&mut section)?,
                10 => module.read_code(&mut section, declared_funcs)?,
                11 => module.read_data(&mut section)?,
                _ => return section.err(format!("unknown section {id}")),
            }
            if !section.is_empty() {
                return section.err(format!("section {id} size mismatch"));
            }
        }
        if module.bodies.len() != declared_funcs {
            return Err(LoadError::new(
                r.offset(),
                "function and code section have inconsistent lengths",
            ));
        }
        Ok(module)
    }

    /// The function imports, in order: (module, name, signature).
    pub fn imports(&self) -> impl Iterator<Item = (&str, &str, &FuncType)> {
        self.imports.iter().map(|i| {
            (
                i.module.as_str(),
                i.name.as_str(),
                &self.types[i.type_index as usize],
            )
        })
    }

    /// The exports: (name, kind).
    pub fn exports(&self) -> impl Iterator<Item = (&str, ExportKind)> {
        self.exports.iter().map(|e| (e.name.as_str(), e.kind))
    }

    /// The signature of an exported function.
    pub fn exported_func(&self, name: &str) -> Option<&FuncType> {
        let export = self
            .exports
            .iter()
            .find(|e| e.name == name && e.kind == ExportKind::Func)?;
        self.func_type(export.index)
    }

    pub(crate) fn func_type(&self, func: u32) -> Option<&FuncType> {
        let type_index = *self.func_types.get(func as usize)?;
        self.types.get(type_index as usize)
    }

    fn type_index(&self, r: &mut Reader) -> Res<u32> {
        let index = r.u32()?;
        if index as usize >= self.types.len() {
            return r.err(format!("unknown type {index}"));
        }
        Ok(index)
    }

    fn func_index(&self, r: &mut Reader) -> Res<u32> {
        let index = r.u32()?;
        if index as usize >= self.func_types.len() {
            return r.err(format!("unknown function {index}"));
        }
        Ok(index)
    }

    fn read_types(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            if r.byte()? != 0x60 {
                return r.err("malformed function type");
            }
            let params = (0..r.len()?)
                .map(|_| r.val_type())
                .collect::<Res<Vec<_>>>()?;
            let results = (0..r.len()?)
                .map(|_| r.val_type())
                .collect::<Res<Vec<_>>>()?;
            self.types.push(FuncType { params, results });
        }
        Ok(())
    }

    fn read_imports(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            let module = r.name()?;
            let name = r.name()?;
            match r.byte()? {
                0x00 => {
                    let type_index = self.type_index(r)?;
                    self.func_types.push(type_index);
                    self.imports.push(Import {
                        module,
                        name,
                        type_index,
                    });
                }
                kind => {
                    let what = ["function", "table", "memory", "global"]
                        .get(kind as usize)
                        .unwrap_or(&"unknown");
                    return r.err(format!("unsupported {what} import {module}.{name}"));
                }
            }
        }
        Ok(())
    }

    fn read_functions(&mut self, r: &mut Reader) -> Res<usize> {
        let n = r.len()?;
        for _ in 0..n {
            let type_index = self.type_index(r)?;
            self.func_types.push(type_index);
        }
        Ok(n)
    }

    fn read_limits(r: &mut Reader) -> Res<Limits> {
        match r.byte()? {
            0x00 => Ok(Limits {
                min: r.u32()?,
                max: None,
            }),
            0x01 => {
                let (min, max) = (r.u32()?, r.u32()?);
                if min > max {
                    return r.err("size minimum must not be greater than maximum");
                }
                Ok(Limits {
                    min,
                    max: Some(max),
                })
            }
            _ => r.err("malformed limits (shared or 64-bit memories are not supported)"),
        }
    }

    fn read_table(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            if r.val_type()? != ValType::FuncRef {
                return r.err("only funcref tables are supported");
            }
            let limits = Self::read_limits(r)?;
            if self.table.replace(limits).is_some() {
                return r.err("multiple tables");
            }
        }
        Ok(())
    }

    fn read_memory(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            let limits = Self::read_limits(r)?;
            if limits.min > 65536 || limits.max.is_some_and(|m| m > 65536) {
                return r.err("memory size must be at most 65536 pages (4GiB)");
            }
            if self.memory.replace(limits).is_some() {
                return r.err("multiple memories");
            }
        }
        Ok(())
    }

    /// A constant expression ending with `end`.
    fn const_expr(&self, r: &mut Reader) -> Res<ConstExpr> {
        let expr = match r.byte()? {
            0x41 => ConstExpr::Value(u64::from(r.i32()? as u32)),
            0x42 => ConstExpr::Value(r.i64()? as u64),
            0x43 => ConstExpr::Value(u64::from(r.f32_bits()?)),
            0x44 => ConstExpr::Value(r.f64_bits()?),
            0xD0 => {
                r.byte()?;
                ConstExpr::Value(NULL_REF)
            }
            0xD2 => ConstExpr::Value(u64::from(self.func_index(r)?)),
            0x23 => {
                let index = r.u32()?;
                if index as usize >= self.globals.len() {
                    return r.err(format!("unknown global {index}"));
                }
                ConstExpr::Global(index)
            }
            op => return r.err(format!("unsupported constant expression opcode 0x{op:02x}")),
        };
        if r.byte()? != 0x0B {
            return r.err("constant expression must end with `end`");
        }
        Ok(expr)
    }

    fn read_globals(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            let ty = r.val_type()?;
            if r.byte()? > 1 {
                return r.err("malformed mutability");
            }
            let init = self.const_expr(r)?;
            self.globals.push(Global { init });
            self.global_types.push(ty);
        }
        Ok(())
    }

    fn read_exports(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            let name = r.name()?;
            let (kind, count) = match r.byte()? {
                0 => (ExportKind::Func, self.func_types.len()),
                1 => (ExportKind::Table, usize::from(self.table.is_some())),
                2 => (ExportKind::Memory, usize::from(self.memory.is_some())),
                3 => (ExportKind::Global, self.globals.len()),
                _ => return r.err("malformed export kind"),
            };
            let index = r.u32()?;
            if index as usize >= count {
                return r.err(format!("export {name} names an unknown index {index}"));
            }
            if self.exports.iter().any(|e| e.name == name) {
                return r.err(format!("duplicate export name {name}"));
            }
            self.exports.push(Export { name, kind, index });
        }
        Ok(())
    }

    fn read_elements(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            let flags = r.u32()?;
            let offset = match flags {
                0 => Some(self.const_expr(r)?),
                2 => {
                    if r.u32()? != 0 {
                        return r.err("unknown table");
                    }
                    Some(self.const_expr(r)?)
                }
                1 | 3 => None,
                _ => return r.err(format!("unsupported element segment kind {flags}")),
            };
            if flags != 0 && r.byte()? != 0x00 {
                return r.err("only funcref element segments are supported");
            }
            let funcs = (0..r.len()?)
                .map(|_| self.func_index(r))
                .collect::<Res<Vec<_>>>()?;
            if let Some(offset) = offset {
                if self.table.is_none() {
                    return r.err("unknown table 0");
                }
                self.elements.push(Element { offset, funcs });
            }
        }
        Ok(())
    }

    fn read_code(&mut self, r: &mut Reader, declared: usize) -> Res<()> {
        let n = r.len()?;
        if n != declared {
            return r.err("function and code section have inconsistent lengths");
        }
        let imported = self.imports.len();
        for i in 0..n {
            let size = r.len()?;
            let offset = r.offset();
            let mut body = Reader::new(r.take(size)?, offset);
            let type_index = self.func_types[imported + i];
            let ty = self.types[type_index as usize].clone();
            let mut locals = ty.params.len() as u64;
            for _ in 0..body.len()? {
                locals += u64::from(body.u32()?);
                body.val_type()?;
                if locals > MAX_LOCALS {
                    return body.err("too many locals");
                }
            }
            let compiled = compile_body(&mut body, self, &ty, locals as u32)?;
            if !body.is_empty() {
                return body.err("code after the function's end");
            }
            self.bodies.push(compiled);
        }
        Ok(())
    }

    fn read_data(&mut self, r: &mut Reader) -> Res<()> {
        for _ in 0..r.len()? {
            let offset = match r.u32()? {
                0 => Some(self.const_expr(r)?),
                1 => None,
                2 => {
                    if r.u32()? != 0 {
                        return r.err("unknown memory");
                    }
                    Some(self.const_expr(r)?)
                }
                _ => return r.err("malformed data segment kind"),
            };
            let n = r.len()?;
            let bytes = r.take(n)?.to_vec();
            if let Some(offset) = offset {
                if self.memory.is_none() {
                    return r.err("unknown memory 0");
                }
                self.data.push(Data { offset, bytes });
            }
        }
        Ok(())
    }
}
