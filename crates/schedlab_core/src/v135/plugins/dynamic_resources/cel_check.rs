//! What cel-go's checker and cost estimator say about a DRA selector, over the `cel` crate's
//! AST: undeclared references, unknown fields of `device`, the result type, and the
//! worst-case cost (see the module docs of [`super::cel`]).

use cel::common::ast::{Expr, IdedExpr, LiteralValue};

/// A coarse static type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ty {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Null,
    List,
    Map,
    Semver,
    Quantity,
    Device,
    /// `device.attributes` (false) or `device.capacity` (true).
    Domains(bool),
    /// One domain's map.
    Ids(bool),
    Dyn,
}

impl Ty {
    /// cel-go's name of the type.
    pub(super) fn name(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::Int => "int",
            Ty::Uint => "uint",
            Ty::Double => "double",
            Ty::String => "string",
            Ty::Bytes => "bytes",
            Ty::Null => "null_type",
            Ty::List => "list(dyn)",
            Ty::Map | Ty::Domains(_) | Ty::Ids(_) => "map(dyn, dyn)",
            Ty::Semver => "kubernetes.Semver",
            Ty::Quantity => "kubernetes.Quantity",
            Ty::Device => "kubernetes.DRADevice",
            Ty::Dyn => "dyn",
        }
    }
}

/// A checker issue at an expression.
pub(super) struct Issue {
    pub(super) id: u64,
    pub(super) message: String,
}

/// The result type of a global or member function, or `None` when it is not declared.
fn function_type(name: &str) -> Option<Ty> {
    Some(match name {
        "size" | "int" | "compareTo" | "major" | "minor" | "patch" | "sign" | "asInteger"
        | "indexOf" | "lastIndexOf" | "getFullYear" => Ty::Int,
        "uint" => Ty::Uint,
        "double" | "asApproximateFloat" => Ty::Double,
        "string" | "charAt" | "lowerAscii" | "upperAscii" | "trim" | "replace" | "substring"
        | "reverse" | "join" | "format" | "strings.quote" => Ty::String,
        "bytes" => Ty::Bytes,
        "bool" | "matches" | "startsWith" | "endsWith" | "contains" | "isSemver" | "isQuantity"
        | "isGreaterThan" | "isLessThan" | "isInteger" => Ty::Bool,
        "split" => Ty::List,
        "semver" => Ty::Semver,
        "quantity" | "add" | "sub" => Ty::Quantity,
        "type" | "dyn" => Ty::Dyn,
        _ => return None,
    })
}

fn undeclared(id: u64, name: &str) -> Issue {
    Issue {
        id,
        message: format!("undeclared reference to '{name}' (in container '')"),
    }
}

/// The type of `e`, or the first issue.
pub(super) fn check(e: &IdedExpr, scope: &mut Vec<(String, Ty)>) -> Result<Ty, Issue> {
    match &e.expr {
        Expr::Literal(l) => Ok(match l {
            LiteralValue::Boolean(_) => Ty::Bool,
            LiteralValue::Bytes(_) => Ty::Bytes,
            LiteralValue::Double(_) => Ty::Double,
            LiteralValue::Int(_) => Ty::Int,
            LiteralValue::Null => Ty::Null,
            LiteralValue::String(_) => Ty::String,
            LiteralValue::UInt(_) => Ty::Uint,
        }),
        Expr::Ident(name) => match scope.iter().rev().find(|(n, _)| n == name) {
            Some((_, t)) => Ok(*t),
            None if name == "device" => Ok(Ty::Device),
            None => Err(undeclared(e.id, name)),
        },
        Expr::Select(s) => {
            let t = check(&s.operand, scope)?;
            if s.test {
                return Ok(Ty::Bool);
            }
            match t {
                Ty::Device => match s.field.as_str() {
                    "driver" => Ok(Ty::String),
                    "attributes" => Ok(Ty::Domains(false)),
                    "capacity" => Ok(Ty::Domains(true)),
                    f => Err(Issue {
                        id: e.id,
                        message: format!("undefined field '{f}'"),
                    }),
                },
                Ty::Domains(c) => Ok(Ty::Ids(c)),
                Ty::Ids(true) => Ok(Ty::Quantity),
                _ => Ok(Ty::Dyn),
            }
        }
        Expr::List(l) => {
            for x in &l.elements {
                check(x, scope)?;
            }
            Ok(Ty::List)
        }
        Expr::Map(m) => {
            for entry in &m.entries {
                if let cel::common::ast::EntryExpr::MapEntry(me) = &entry.expr {
                    check(&me.key, scope)?;
                    check(&me.value, scope)?;
                }
            }
            Ok(Ty::Map)
        }
        Expr::Struct(s) => Err(undeclared(e.id, &s.type_name)),
        Expr::Comprehension(c) => {
            let range = check(&c.iter_range, scope)?;
            let init = check(&c.accu_init, scope)?;
            let elem = match range {
                Ty::Domains(cap) => Ty::Ids(cap),
                _ => Ty::Dyn,
            };
            let depth = scope.len();
            scope.push((c.iter_var.clone(), elem));
            if let Some(v2) = &c.iter_var2 {
                scope.push((v2.clone(), Ty::Dyn));
            }
            scope.push((c.accu_var.clone(), init));
            let out = (|| {
                check(&c.loop_cond, scope)?;
                check(&c.loop_step, scope)?;
                check(&c.result, scope)
            })();
            scope.truncate(depth);
            out
        }
        Expr::Call(call) => check_call(e.id, call, scope),
        Expr::Unspecified => Ok(Ty::Dyn),
    }
}

fn check_call(
    id: u64,
    call: &cel::common::ast::CallExpr,
    scope: &mut Vec<(String, Ty)>,
) -> Result<Ty, Issue> {
    let target = match &call.target {
        Some(t) => Some(check(t, scope)?),
        None => None,
    };
    let mut args = Vec::with_capacity(call.args.len());
    for a in &call.args {
        args.push(check(a, scope)?);
    }
    let f = call.func_name.as_str();
    Ok(match f {
        "_&&_"
        | "_||_"
        | "!_"
        | "_==_"
        | "_!=_"
        | "_<_"
        | "_<=_"
        | "_>_"
        | "_>=_"
        | "@in"
        | "@not_strictly_false"
        | "not_strictly_false" => Ty::Bool,
        "_?_:_" => {
            if args.len() == 3 && args[1] == args[2] {
                args[1]
            } else {
                Ty::Dyn
            }
        }
        "_[_]" | "_[?_]" => match args.first() {
            Some(Ty::Domains(c)) => Ty::Ids(*c),
            Some(Ty::Ids(true)) => Ty::Quantity,
            _ => Ty::Dyn,
        },
        "_+_" | "_-_" | "_*_" | "_/_" | "_%_" | "-_" => match args.first() {
            Some(t @ (Ty::Int | Ty::Uint | Ty::Double | Ty::String | Ty::Bytes | Ty::List)) => *t,
            _ => Ty::Dyn,
        },
        _ => {
            let _ = target;
            match function_type(f) {
                Some(t) => t,
                None => return Err(undeclared(id, f)),
            }
        }
    })
}

/// cel-go's per-element cost of string work (`0.1` per character, rounded up).
fn string_cost(len: u64) -> u64 {
    len.div_ceil(10)
}

/// The worst-case (cost, size) of `e`: the cost of evaluating it, and a bound on the size of
/// its value (the length of a string, the elements of a list or map). Sizes of device data are
/// Kubernetes' limits: 32 attributes per domain, 64 characters per string attribute, 63 per
/// driver name.
pub(super) fn cost(e: &IdedExpr, scope: &mut Vec<(String, u64)>) -> (u64, u64) {
    match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => (0, s.inner().len() as u64),
        Expr::Literal(LiteralValue::Bytes(b)) => (0, b.inner().len() as u64),
        Expr::Literal(_) => (0, 1),
        Expr::Ident(name) => match scope.iter().rev().find(|(n, _)| n == name) {
            Some((_, size)) => (1, *size),
            None => (1, 1),
        },
        Expr::Select(s) => {
            let (c, _) = cost(&s.operand, scope);
            let size = match s.field.as_str() {
                "driver" => 63,
                "attributes" | "capacity" => 32,
                _ => 64,
            };
            (c.saturating_add(1), size)
        }
        Expr::List(l) => {
            let mut c = 10u64;
            let mut size = 0u64;
            for x in &l.elements {
                let (xc, xs) = cost(x, scope);
                c = c.saturating_add(xc);
                // A list of lists counts its elements' elements (a bound for flattening).
                size = size.saturating_add(xs.max(1));
            }
            (c, size.max(l.elements.len() as u64))
        }
        Expr::Map(m) => {
            let mut c = 30u64;
            for entry in &m.entries {
                if let cel::common::ast::EntryExpr::MapEntry(me) = &entry.expr {
                    c = c
                        .saturating_add(cost(&me.key, scope).0)
                        .saturating_add(cost(&me.value, scope).0);
                }
            }
            (c, m.entries.len() as u64)
        }
        Expr::Struct(_) | Expr::Unspecified => (1, 1),
        Expr::Comprehension(c) => {
            let (rc, n) = cost(&c.iter_range, scope);
            let (ic, isize) = cost(&c.accu_init, scope);
            let depth = scope.len();
            scope.push((c.iter_var.clone(), 64));
            if let Some(v2) = &c.iter_var2 {
                scope.push((v2.clone(), 64));
            }
            // An accumulator may collect one element per iteration.
            scope.push((c.accu_var.clone(), isize.saturating_add(n)));
            let (cc, _) = cost(&c.loop_cond, scope);
            let (sc, _) = cost(&c.loop_step, scope);
            let (resc, ress) = cost(&c.result, scope);
            scope.truncate(depth);
            let per = cc.saturating_add(sc).saturating_add(1);
            let total = rc
                .saturating_add(ic)
                .saturating_add(n.saturating_mul(per))
                .saturating_add(resc);
            (total, ress.max(1))
        }
        Expr::Call(call) => call_cost(call, scope),
    }
}

fn call_cost(call: &cel::common::ast::CallExpr, scope: &mut Vec<(String, u64)>) -> (u64, u64) {
    let mut c = 1u64;
    let mut sizes = Vec::with_capacity(call.args.len() + 1);
    if let Some(t) = &call.target {
        let (tc, ts) = cost(t, scope);
        c = c.saturating_add(tc);
        sizes.push(ts);
    }
    for a in &call.args {
        let (ac, s) = cost(a, scope);
        c = c.saturating_add(ac);
        sizes.push(s);
    }
    let total: u64 = sizes.iter().fold(0u64, |a, &b| a.saturating_add(b));
    let first = sizes.first().copied().unwrap_or(1);
    match call.func_name.as_str() {
        "_+_" => (c.saturating_add(string_cost(total)), total),
        "_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_" | "startsWith" | "endsWith"
        | "contains" | "lowerAscii" | "upperAscii" | "trim" | "reverse" | "indexOf"
        | "lastIndexOf" | "charAt" | "substring" => {
            let n = sizes.iter().copied().max().unwrap_or(1);
            (c.saturating_add(string_cost(n)), n)
        }
        "@in" => {
            let n = sizes.get(1).copied().unwrap_or(1);
            (c.saturating_add(n), 1)
        }
        "matches" => {
            let re = sizes.get(1).copied().unwrap_or(1);
            (c.saturating_add(string_cost(first.saturating_mul(re))), 1)
        }
        "split" | "replace" | "join" | "format" => (c.saturating_add(total), total.max(1)),
        "_[_]" | "_[?_]" => (c, 64),
        _ => (c, first.max(1)),
    }
}
