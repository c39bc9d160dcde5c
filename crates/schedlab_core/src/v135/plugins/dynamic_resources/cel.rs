//! DRA's CEL selectors (reference `dra.md` §4), evaluated by the `cel` crate (cel-rust), with
//! what Kubernetes' environment adds for devices:
//!
//! - the variable `device`: `driver` (string), `attributes` and `capacity`, maps from domain
//!   to maps from id to value; a bare attribute name belongs to the driver's domain; an unknown
//!   domain is an empty map (`"x" in device.attributes` is false, `device.attributes["x"].y`
//!   fails with `no such key: y`);
//! - versions as `semver` values (`semver(s)`, `semver(s, true)`, `isSemver`, `compareTo`,
//!   `isGreaterThan`, `isLessThan`, `major`, `minor`, `patch`, `==`), capacities as `quantity`
//!   values (`quantity(s)`, `isQuantity`, `compareTo`, `isGreaterThan`, `isLessThan`, `add`,
//!   `sub`, `asInteger`, `isInteger`, `asApproximateFloat`, `sign`, `==`);
//! - `cel.bind(name, init, expr)` (`ext.Bindings`), and the crate's strings extension.
//!
//! The crate parses and interprets but has no type checker and no cost estimator, so this
//! module adds what cel-go's checker reports at compile time for DRA (`compile.go`):
//! undeclared references (`undeclared reference to 'x' (in container '')`), unknown fields of
//! `device` (`undefined field 'x'`), and a result that is not a bool
//! (`must evaluate to bool or the unknown type, not int`), each rendered as cel-go renders an
//! issue (`ERROR: <input>:1:1: ...` with the source line and a caret), after
//! `compilation failed: `. The worst-case cost ([`Compiled::max_cost`]) is estimated over the
//! AST with the sizes Kubernetes declares for a device (32 attributes per domain, strings of at
//! most 64 characters); the API server refuses an expression above
//! `CELSelectorExpressionMaxCost` (1 000 000), so no expression that reaches the scheduler can
//! run away.
//!
//! Deviations, stated (also in `docs/fidelity.md`): the cost estimate follows cel-go's model
//! (one unit per node, comprehensions multiplied by the size of what they range over, string
//! work by length) without reproducing its exact numbers; Kubernetes' URL, IP, CIDR, regex
//! `find`, sets and authz libraries are not provided (a call to one is an undeclared reference).

use super::cel_check;
use crate::model::dra::{split_qualified_name, Device};
use crate::model::Quantity;
use cel::common::ast::{Expr, IdedExpr, LiteralValue};
use cel::common::types::{CelBool, CelDouble, CelInt, CelMap, CelMapKey, CelString, Type};
use cel::common::value::{CowVal, StaticVal, Val};
use cel::objects::Value;
use cel::parser::Macro;
use cel::{Context, Env, ExecutionError, Program};
use std::any::Any;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

/// `CELSelectorExpressionMaxCost`.
pub(crate) const MAX_COST: u64 = 1_000_000;
/// `CELSelectorExpressionMaxLength`.
pub(crate) const MAX_LENGTH: usize = 10 * 1024;

/// A compiled selector.
#[derive(Debug)]
pub(crate) struct Compiled {
    program: Program,
    /// The worst-case cost (cel-go's `EstimateCost`, estimated).
    pub(crate) max_cost: u64,
}

impl Compiled {
    /// Evaluates the selector for `device` of `driver`: the bool, or the runtime error as
    /// cel-go words the common ones (`no such key: x`).
    pub(crate) fn matches(&self, driver: &str, device: &Device) -> Result<bool, String> {
        let mut ctx = Context::with_env(Arc::clone(env()));
        ctx.add_variable_as_val("device", device_value(driver, device)?);
        match self.program.execute(&ctx) {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(v) => Err(format!(
                "CEL result of type {} could not be converted to bool: type conversion error from '{}' to 'bool'",
                v.type_of(),
                v.type_of()
            )),
            Err(e) => Err(runtime_message(&e)),
        }
    }
}

/// cel-go's wording of a runtime error.
fn runtime_message(e: &ExecutionError) -> String {
    match e {
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        ExecutionError::DivisionByZero(_) => "division by zero".into(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".into(),
        ExecutionError::NoSuchOverload(_) => "no such overload".into(),
        ExecutionError::FunctionError { message, .. } => message.clone(),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
}

/// Compiles a selector as `CompileCELExpression` does (with cost estimation): the program,
/// or the error after `compilation failed: ` / `must evaluate to bool ...`.
pub(crate) fn compile(expression: &str) -> Result<Compiled, String> {
    let program = env().compile(expression).map_err(|errs| {
        let issues: Vec<String> = errs
            .errors
            .iter()
            .map(|e| {
                render_issue(
                    expression,
                    e.pos.0.max(1) as usize,
                    e.pos.1 as usize + 1,
                    &e.msg,
                )
            })
            .collect();
        format!("compilation failed: {}", issues.join("\n"))
    })?;
    let root = program.expression();
    let mut scope = Vec::new();
    let ty = cel_check::check(root, &mut scope).map_err(|issue| {
        let (line, col) = position(expression, &program, issue.id);
        format!(
            "compilation failed: {}",
            render_issue(expression, line, col, &issue.message)
        )
    })?;
    if !matches!(
        ty,
        cel_check::Ty::Bool | cel_check::Ty::Dyn | cel_check::Ty::Ids(false)
    ) {
        return Err(format!(
            "must evaluate to bool or the unknown type, not {}",
            ty.name()
        ));
    }
    let (max_cost, _) = cel_check::cost(root, &mut Vec::new());
    Ok(Compiled { program, max_cost })
}

/// The 1-based line and column of an expression node.
fn position(source: &str, program: &Program, id: u64) -> (usize, usize) {
    let offset = program
        .source_info()
        .offset_for(id)
        .map(|(start, _)| start as usize)
        .unwrap_or(0);
    let before: Vec<char> = source.chars().take(offset).collect();
    let line = 1 + before.iter().filter(|&&c| c == '\n').count();
    let col = 1 + before.iter().rev().take_while(|&&c| c != '\n').count();
    (line, col)
}

/// One issue as cel-go renders it: `ERROR: <input>:L:C: msg`, the source line and a caret.
fn render_issue(source: &str, line: usize, col: usize, msg: &str) -> String {
    let mut out = format!("ERROR: <input>:{line}:{col}: {msg}");
    if let Some(text) = source.lines().nth(line - 1) {
        out.push_str(&format!(
            "\n | {text}\n | {}^",
            ".".repeat(col.saturating_sub(1))
        ));
    }
    out
}

/// The environment: the standard library, the strings extension, `cel.bind`, and Kubernetes'
/// semver and quantity functions.
fn env() -> &'static Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Env::stdlib();
        let _ = env.add_extension(cel::extensions::strings);
        let _ = env.add_macro(Macro::receiver("bind", 3, bind_macro));
        let _ = add_kubernetes_functions(&mut env);
        Arc::new(env)
    })
}

/// `cel.bind(var, init, expr)`: a comprehension over no elements whose accumulator is `var`.
fn bind_macro(
    helper: &mut cel::parser::MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<Option<IdedExpr>, cel::ParseError> {
    use cel::common::ast::{ComprehensionExpr, ListExpr};
    let is_cel = matches!(target.as_ref().map(|t| &t.expr), Some(Expr::Ident(n)) if n == "cel");
    if !is_cel {
        return Ok(None);
    }
    let result = args.pop().expect("three arguments");
    let init = args.pop().expect("three arguments");
    let var = args.pop().expect("three arguments");
    let Expr::Ident(name) = &var.expr else {
        return Err(helper.new_error(
            var.id,
            "cel.bind() variable names must be simple identifiers",
        ));
    };
    let name = name.clone();
    let iter_range = helper.next_expr(Expr::List(ListExpr::new(Vec::new())));
    let loop_cond = helper.next_expr(Expr::Literal(LiteralValue::Boolean(false.into())));
    let loop_step = helper.next_expr(Expr::Ident(name.clone()));
    Ok(Some(helper.next_expr(Expr::Comprehension(Box::new(
        ComprehensionExpr {
            iter_range,
            iter_var: "#unused".to_string(),
            iter_var2: None,
            accu_var: name,
            accu_init: init,
            loop_cond,
            loop_step,
            result,
        },
    )))))
}

// ---- semver and quantity values ------------------------------------------------------------

static SEMVER_TYPE: Type = Type::new_unspecified_type("kubernetes.Semver");
static QUANTITY_TYPE: Type = Type::new_unspecified_type("kubernetes.Quantity");

/// A semantic version (blang/semver): numbers, pre-release identifiers; build metadata is
/// kept only for equality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Semver {
    nums: [u64; 3],
    pre: Vec<String>,
    build: Vec<String>,
}

impl Semver {
    /// `semver.Parse` (strict); with `normalize`, a leading `v` and missing minor or patch
    /// numbers are accepted (`semver(s, true)`).
    pub(crate) fn parse(s: &str, normalize: bool) -> Option<Semver> {
        let mut text = s;
        if normalize {
            text = text.strip_prefix('v').unwrap_or(text);
        }
        let (rest, build) = match text.split_once('+') {
            Some((a, b)) => (a, b.split('.').map(str::to_string).collect::<Vec<_>>()),
            None => (text, Vec::new()),
        };
        let (core, pre) = match rest.split_once('-') {
            Some((a, b)) => (a, b.split('.').map(str::to_string).collect::<Vec<_>>()),
            None => (rest, Vec::new()),
        };
        let ident_ok =
            |p: &String| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !pre.iter().all(ident_ok) || !build.iter().all(ident_ok) {
            return None;
        }
        if pre
            .iter()
            .any(|p| p.len() > 1 && p.starts_with('0') && p.bytes().all(|b| b.is_ascii_digit()))
        {
            return None;
        }
        let mut parts: Vec<&str> = core.split('.').collect();
        if normalize {
            while parts.len() < 3 {
                parts.push("0");
            }
        }
        if parts.len() != 3 {
            return None;
        }
        let mut nums = [0u64; 3];
        for (n, p) in nums.iter_mut().zip(&parts) {
            let leading_zero = p.len() > 1 && p.starts_with('0') && !normalize;
            if p.is_empty() || leading_zero || !p.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            *n = p.parse().ok()?;
        }
        Some(Semver { nums, pre, build })
    }

    fn precedence(&self, other: &Semver) -> Ordering {
        self.nums
            .cmp(&other.nums)
            .then_with(|| match (self.pre.is_empty(), other.pre.is_empty()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                (false, false) => {
                    for (a, b) in self.pre.iter().zip(&other.pre) {
                        let o = match (a.parse::<u64>(), b.parse::<u64>()) {
                            (Ok(x), Ok(y)) => x.cmp(&y),
                            (Ok(_), Err(_)) => Ordering::Less,
                            (Err(_), Ok(_)) => Ordering::Greater,
                            (Err(_), Err(_)) => a.cmp(b),
                        };
                        if o != Ordering::Equal {
                            return o;
                        }
                    }
                    self.pre.len().cmp(&other.pre.len())
                }
            })
    }
}

impl Val for Semver {
    fn get_type(&self) -> &Type {
        &SEMVER_TYPE
    }
    fn cel_type() -> &'static Type {
        &SEMVER_TYPE
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other
            .as_any()
            .and_then(|o| o.downcast_ref::<Semver>())
            .is_some_and(|o| o.precedence(self) == Ordering::Equal)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}
impl StaticVal for Semver {}

/// A `resource.Quantity`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Qty(pub(crate) Quantity);

impl Qty {
    fn nano(&self) -> i128 {
        self.0.nano_value().unwrap_or(if self.0.is_negative() {
            i128::MIN
        } else {
            i128::MAX
        })
    }
}

impl Val for Qty {
    fn get_type(&self) -> &Type {
        &QUANTITY_TYPE
    }
    fn cel_type() -> &'static Type {
        &QUANTITY_TYPE
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other
            .as_any()
            .and_then(|o| o.downcast_ref::<Qty>())
            .is_some_and(|o| o.nano() == self.nano())
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}
impl StaticVal for Qty {}

type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;
type Out<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

fn arg<'a, T: 'static>(args: &'a Args, i: usize, f: &str) -> Result<&'a T, ExecutionError> {
    args.get(i)
        .and_then(|a| a.as_any())
        .and_then(|a| a.downcast_ref::<T>())
        .ok_or_else(|| ExecutionError::function_error(f, "unexpected argument type"))
}

fn text<'a>(args: &'a Args, i: usize, f: &str) -> Result<&'a str, ExecutionError> {
    args.get(i)
        .and_then(|a| a.downcast_ref::<CelString>())
        .map(|s| s.inner())
        .ok_or_else(|| ExecutionError::function_error(f, "expected a string"))
}

fn flag(args: &Args, i: usize) -> bool {
    args.get(i)
        .and_then(|a| a.downcast_ref::<CelBool>())
        .is_some_and(|b| *b.inner())
}

fn ord(o: Ordering) -> i64 {
    match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

fn int<'b, 'v>(v: i64) -> Out<'b, 'v> {
    Ok(CowVal::owned(CelInt::from(v)))
}

fn boolean<'b, 'v>(v: bool) -> Out<'b, 'v> {
    Ok(CowVal::owned(CelBool::from(v)))
}

fn semver_fn<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    let s = text(&args, 0, "semver")?;
    match Semver::parse(s, flag(&args, 1)) {
        Some(v) => Ok(CowVal::owned(v)),
        None => Err(ExecutionError::function_error(
            "semver",
            format!("could not parse {s:?} as semver"),
        )),
    }
}

fn is_semver_fn<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    let s = text(&args, 0, "isSemver")?;
    boolean(Semver::parse(s, flag(&args, 1)).is_some())
}

fn quantity_fn<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    let s = text(&args, 0, "quantity")?;
    match Quantity::parse(s) {
        Ok(q) => Ok(CowVal::owned(Qty(q))),
        Err(e) => Err(ExecutionError::function_error("quantity", e.to_string())),
    }
}

fn is_quantity_fn<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    boolean(Quantity::parse(text(&args, 0, "isQuantity")?).is_ok())
}

/// The order of two semvers or two quantities.
fn compare(args: &Args, f: &str) -> Result<Ordering, ExecutionError> {
    if let (Ok(a), Ok(b)) = (arg::<Semver>(args, 0, f), arg::<Semver>(args, 1, f)) {
        return Ok(a.precedence(b));
    }
    let (a, b) = (arg::<Qty>(args, 0, f)?, arg::<Qty>(args, 1, f)?);
    Ok(a.nano().cmp(&b.nano()))
}

fn compare_to<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    int(ord(compare(&args, "compareTo")?))
}

fn greater<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    boolean(compare(&args, "isGreaterThan")? == Ordering::Greater)
}

fn less<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    boolean(compare(&args, "isLessThan")? == Ordering::Less)
}

fn part<'b, 'v>(args: &Args<'b, 'v>, i: usize, f: &str) -> Out<'b, 'v> {
    int(arg::<Semver>(args, 0, f)?.nums[i] as i64)
}

fn major<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    part(&args, 0, "major")
}
fn minor<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    part(&args, 1, "minor")
}
fn patch<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    part(&args, 2, "patch")
}

fn sign<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    int(ord(arg::<Qty>(&args, 0, "sign")?.nano().cmp(&0)))
}

fn is_integer<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    let q = arg::<Qty>(&args, 0, "isInteger")?;
    boolean(q.nano() % 1_000_000_000 == 0 && q.0.value().is_some())
}

fn as_integer<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    let q = arg::<Qty>(&args, 0, "asInteger")?;
    if q.nano() % 1_000_000_000 != 0 {
        return Err(ExecutionError::function_error(
            "asInteger",
            "cannot convert value to integer",
        ));
    }
    match q.0.value() {
        Some(v) => int(v),
        None => Err(ExecutionError::function_error(
            "asInteger",
            "cannot convert value to integer",
        )),
    }
}

fn as_float<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    let q = arg::<Qty>(&args, 0, "asApproximateFloat")?;
    Ok(CowVal::owned(CelDouble::from(q.nano() as f64 / 1e9)))
}

/// `add`/`sub` of a quantity and a quantity or an int.
fn arith<'b, 'v>(args: &Args<'b, 'v>, f: &str, negate: bool) -> Out<'b, 'v> {
    let a = arg::<Qty>(args, 0, f)?.nano();
    let b = match args.get(1).and_then(|v| v.downcast_ref::<CelInt>()) {
        Some(i) => i128::from(*i.inner()).saturating_mul(1_000_000_000),
        None => arg::<Qty>(args, 1, f)?.nano(),
    };
    let sum = if negate {
        a.checked_sub(b)
    } else {
        a.checked_add(b)
    };
    let sum = sum.ok_or_else(|| ExecutionError::function_error(f, "overflow"))?;
    let text = format!("{}n", sum);
    Quantity::parse(&text)
        .map(|q| CowVal::owned(Qty(q)))
        .map_err(|e| ExecutionError::function_error(f, e.to_string()))
}

fn add<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    arith(&args, "add", false)
}
fn sub<'b, 'v>(args: Args<'b, 'v>) -> Out<'b, 'v> {
    arith(&args, "sub", true)
}

fn add_kubernetes_functions(env: &mut Env) -> Result<(), cel::DeclarationError> {
    use cel::common::types::{BOOL_TYPE, INT_TYPE, STRING_TYPE};
    let (s, q) = (SEMVER_TYPE.to_owned(), QUANTITY_TYPE.to_owned());
    env.add_overload("semver", "string_to_semver", vec![STRING_TYPE], semver_fn)?;
    env.add_overload(
        "semver",
        "string_bool_to_semver",
        vec![STRING_TYPE, BOOL_TYPE],
        semver_fn,
    )?;
    env.add_overload(
        "isSemver",
        "is_semver_string",
        vec![STRING_TYPE],
        is_semver_fn,
    )?;
    env.add_overload(
        "isSemver",
        "is_semver_string_bool",
        vec![STRING_TYPE, BOOL_TYPE],
        is_semver_fn,
    )?;
    env.add_overload(
        "quantity",
        "string_to_quantity",
        vec![STRING_TYPE],
        quantity_fn,
    )?;
    env.add_overload(
        "isQuantity",
        "is_quantity_string",
        vec![STRING_TYPE],
        is_quantity_fn,
    )?;
    for (ty, tag) in [(s.to_owned(), "semver"), (q.to_owned(), "quantity")] {
        let id = |f: &str| format!("{tag}_{f}");
        env.add_member_overload(
            "compareTo",
            &id("compare_to"),
            ty.to_owned(),
            vec![ty.to_owned()],
            compare_to,
        )?;
        env.add_member_overload(
            "isGreaterThan",
            &id("greater"),
            ty.to_owned(),
            vec![ty.to_owned()],
            greater,
        )?;
        env.add_member_overload(
            "isLessThan",
            &id("less"),
            ty.to_owned(),
            vec![ty.to_owned()],
            less,
        )?;
    }
    env.add_member_overload("major", "semver_major", s.to_owned(), vec![], major)?;
    env.add_member_overload("minor", "semver_minor", s.to_owned(), vec![], minor)?;
    env.add_member_overload("patch", "semver_patch", s, vec![], patch)?;
    env.add_member_overload("sign", "quantity_sign", q.to_owned(), vec![], sign)?;
    env.add_member_overload(
        "isInteger",
        "quantity_is_integer",
        q.to_owned(),
        vec![],
        is_integer,
    )?;
    env.add_member_overload(
        "asInteger",
        "quantity_as_integer",
        q.to_owned(),
        vec![],
        as_integer,
    )?;
    env.add_member_overload(
        "asApproximateFloat",
        "quantity_as_float",
        q.to_owned(),
        vec![],
        as_float,
    )?;
    for (f, op) in [
        ("add", add as cel::common::functions::Function),
        ("sub", sub),
    ] {
        env.add_member_overload(
            f,
            &format!("quantity_{f}_quantity"),
            q.to_owned(),
            vec![q.to_owned()],
            op,
        )?;
        env.add_member_overload(
            f,
            &format!("quantity_{f}_int"),
            q.to_owned(),
            vec![INT_TYPE],
            op,
        )?;
    }
    Ok(())
}

// ---- the device -------------------------------------------------------------------------

/// `device.attributes` / `device.capacity`: domains → ids → values; an unknown domain reads as
/// an empty map.
#[derive(Debug, Clone, Default)]
struct Domains(CelMap<'static>);

static DOMAINS_TYPE: &Type = &cel::common::types::MAP_TYPE;

impl Val for Domains {
    fn get_type(&self) -> &Type {
        DOMAINS_TYPE
    }
    fn cel_type() -> &'static Type {
        DOMAINS_TYPE
    }
    fn as_container(&self) -> Option<&dyn cel::common::traits::Container> {
        self.0.as_container()
    }
    fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn cel::common::traits::Indexer + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn as_sizer(&self) -> Option<&dyn cel::common::traits::Sizer> {
        self.0.as_sizer()
    }
    fn as_iterable<'b, 'v>(&'b self) -> Option<&'b (dyn cel::common::traits::Iterable + 'v)>
    where
        Self: 'v,
    {
        self.0.as_iterable()
    }
    fn equals(&self, other: &dyn Val) -> bool {
        self.0.equals(other)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
}

impl cel::common::traits::Indexer for Domains {
    fn get<'b, 'v>(&'b self, idx: &dyn Val) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        let present = self
            .0
            .as_container()
            .is_some_and(|c| c.contains(idx).unwrap_or(false));
        if present {
            if let Some(i) = self.0.as_indexer() {
                return i.get(idx);
            }
        }
        Ok(CowVal::owned(CelMap::default()))
    }

    fn steal<'v>(self: Box<Self>, idx: &dyn Val) -> Result<Box<dyn Val + 'v>, ExecutionError>
    where
        Self: 'v,
    {
        self.get(idx).map(CowVal::into_owned)
    }
}

/// A map of string keys.
fn string_map(entries: Vec<(String, Box<dyn Val>)>) -> CelMap<'static> {
    let map: HashMap<CelMapKey<'static>, Box<dyn Val>> = entries
        .into_iter()
        .map(|(k, v)| (CelMapKey::from(k), v))
        .collect();
    CelMap::from(map)
}

fn boxed(v: Value) -> Box<dyn Val> {
    Box::<dyn Val>::try_from(v).expect("a built-in value")
}

/// Values by domain, then id.
type ByDomain<'a> = BTreeMap<&'a str, Vec<(String, Box<dyn Val>)>>;

/// The `device` variable of one device.
fn device_value(driver: &str, device: &Device) -> Result<Box<dyn Val>, String> {
    let mut attributes: ByDomain<'_> = BTreeMap::new();
    for (name, a) in &device.attributes {
        let (domain, id) = split_qualified_name(name, driver);
        let v: Box<dyn Val> = if let Some(i) = a.int {
            boxed(Value::Int(i))
        } else if let Some(b) = a.bool {
            boxed(Value::Bool(b))
        } else if let Some(s) = &a.string {
            boxed(Value::String(Arc::new(s.to_owned())))
        } else if let Some(v) = &a.version {
            Box::new(Semver::parse(v, false).ok_or_else(|| {
                format!("attribute {name}: parse semantic version: invalid version {v:?}")
            })?)
        } else {
            return Err(format!("attribute {name}: unsupported attribute value"));
        };
        attributes
            .entry(domain)
            .or_default()
            .push((id.to_string(), v));
    }
    let mut capacity: ByDomain<'_> = BTreeMap::new();
    for (name, c) in &device.capacity {
        let (domain, id) = split_qualified_name(name, driver);
        let q: Box<dyn Val> = Box::new(Qty(c.quantity()));
        capacity
            .entry(domain)
            .or_default()
            .push((id.to_string(), q));
    }
    let domains = |m: ByDomain<'_>| -> Box<dyn Val> {
        let entries = m
            .into_iter()
            .map(|(d, ids)| (d.to_string(), Box::new(string_map(ids)) as Box<dyn Val>))
            .collect();
        Box::new(Domains(string_map(entries)))
    };
    Ok(Box::new(string_map(vec![
        (
            "driver".into(),
            boxed(Value::String(Arc::new(driver.to_string()))),
        ),
        ("attributes".into(), domains(attributes)),
        ("capacity".into(), domains(capacity)),
    ])))
}

#[cfg(test)]
mod tests {
    //! `cel/compile_test.go`'s examples (reference `dra.md` §4), and the limits.
    use super::*;
    use crate::model::dra::{DeviceAttribute, DeviceCapacity};

    fn device(attrs: &[(&str, DeviceAttribute)], caps: &[(&str, &str)]) -> Device {
        Device {
            name: "d".into(),
            attributes: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            capacity: caps
                .iter()
                .map(|(k, v)| {
                    (
                        k.to_string(),
                        DeviceCapacity {
                            value: v.to_string(),
                        },
                    )
                })
                .collect(),
            ..Device::default()
        }
    }

    fn eval(expr: &str, d: &Device) -> Result<bool, String> {
        compile(expr)?.matches("dra.example.com", d)
    }

    fn attr_bool(b: bool) -> DeviceAttribute {
        DeviceAttribute {
            bool: Some(b),
            ..DeviceAttribute::default()
        }
    }

    #[test]
    fn the_driver_and_attributes_of_every_type_are_visible() {
        let none = device(&[], &[]);
        assert_eq!(
            eval(r#"device.driver == "dra.example.com""#, &none),
            Ok(true)
        );
        let b = device(&[("name", attr_bool(true))], &[]);
        assert_eq!(
            eval(r#"device.attributes["dra.example.com"].name"#, &b),
            Ok(true)
        );
        let i = device(
            &[(
                "name",
                DeviceAttribute {
                    int: Some(1),
                    ..Default::default()
                },
            )],
            &[],
        );
        assert_eq!(
            eval(r#"device.attributes["dra.example.com"].name > 0"#, &i),
            Ok(true)
        );
        let s = device(
            &[(
                "name",
                DeviceAttribute {
                    string: Some("fish".into()),
                    ..Default::default()
                },
            )],
            &[],
        );
        assert_eq!(
            eval(r#"device.attributes["dra.example.com"].name == "fish""#, &s),
            Ok(true)
        );
        let v = device(
            &[(
                "name",
                DeviceAttribute {
                    version: Some("1.0.0".into()),
                    ..Default::default()
                },
            )],
            &[],
        );
        assert_eq!(
            eval(
                r#"device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1"))"#,
                &v
            ),
            Ok(true)
        );
        let c = device(&[], &[("name", "1Mi")]);
        assert_eq!(
            eval(
                r#"device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki"))"#,
                &c
            ),
            Ok(true)
        );
        // A qualified name in another domain.
        let q = device(&[("other.example.com/x", attr_bool(true))], &[]);
        assert_eq!(
            eval(r#"device.attributes["other.example.com"].x"#, &q),
            Ok(true)
        );
    }

    #[test]
    fn an_unknown_domain_is_an_empty_map_and_an_unknown_id_a_runtime_error() {
        let none = device(&[], &[]);
        assert_eq!(
            eval(r#""no-such-domain" in device.attributes"#, &none),
            Ok(false)
        );
        assert_eq!(
            eval(
                r#"device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("1Ki"))"#,
                &none
            ),
            Err("no such key: noSuchAttr".to_string())
        );
        assert_eq!(
            eval(r#"device.attributes["some-driver"].healthy"#, &none),
            Err("no such key: healthy".to_string())
        );
    }

    #[test]
    fn compile_errors_are_worded_as_cel_go_words_them() {
        let e = compile("noSuchVar").unwrap_err();
        assert!(e.starts_with("compilation failed: ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')"), "{e}");
        assert_eq!(
            compile("1").unwrap_err(),
            "must evaluate to bool or the unknown type, not int"
        );
        let e = compile("device.driver ==").unwrap_err();
        assert!(
            e.starts_with("compilation failed: ERROR: <input>:1:"),
            "{e}"
        );
        assert!(e.contains("Syntax error"), "{e}");
        let e = compile("device.allowMultipleAllocations").unwrap_err();
        assert!(
            e.contains("undefined field 'allowMultipleAllocations'"),
            "{e}"
        );
    }

    #[test]
    fn semver_and_quantity_compare_by_value() {
        let none = device(&[], &[]);
        for (expr, want) in [
            (r#"semver("1.2.3").compareTo(semver("1.10.0")) == -1"#, true),
            (r#"semver("1.0.0-alpha").isLessThan(semver("1.0.0"))"#, true),
            (r#"semver("v1.2", true) == semver("1.2.0")"#, true),
            (r#"isSemver("01.2.3")"#, false),
            (r#"quantity("1Gi") == quantity("1024Mi")"#, true),
            (r#"quantity("1Gi").compareTo(quantity("2Gi")) < 0"#, true),
            (r#"quantity("500m").isInteger()"#, false),
            (
                r#"quantity("1k").add(quantity("1")).asInteger() == 1001"#,
                true,
            ),
            (r#"cel.bind(x, 2, x * x == 4)"#, true),
        ] {
            assert_eq!(eval(expr, &none), Ok(want), "{expr}");
        }
    }

    #[test]
    fn a_runaway_expression_is_over_the_cost_limit() {
        let list = format!(
            "[{}]",
            (0..100)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
        let runaway = format!("{list}.all(a, {list}.all(b, {list}.all(c, a + b + c >= 0)))");
        assert!(compile(&runaway).expect("compiles").max_cost > MAX_COST);
        let fine = r#"device.attributes["dra.example.com"].exists(k, k == "model")"#;
        assert!(compile(fine).expect("compiles").max_cost < MAX_COST);
    }
}
