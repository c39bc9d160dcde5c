//! The playground's Plugins editor: a JavaScript program that registers plugins by name.
//!
//! ```js
//! register("NodeNumber", (args) => ({
//!   score(pod, node) { return pod.metadata.name.slice(-1) === node.metadata.name.slice(-1) ? 10 : 0; },
//! }));
//! registerWasm("Guest", "AGFzbQEAAAAB…");   // a kube-scheduler-wasm-extension guest, base64
//! ```
//!
//! The program runs once per load as the body of a function of [`PROGRAM_GLOBALS`]; each
//! registered plugin is enabled, like an in-tree one, by the configuration.

use crate::object::js_plugin;
use base64::Engine as _;
use js_sys::{Array, Function, Reflect};
use schedlab_core::scheduler::v1_35::{wasm_guest_plugin, CustomPlugin, REGISTRY};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The names the program is given: its parameters.
pub const PROGRAM_GLOBALS: &str = "register, registerWasm";

/// Lines the function's header adds before the program's first line (V8 and SpiderMonkey
/// number a `new Function` body from line 3).
const HEADER_LINES: usize = 2;

/// A problem of the program, at a line of it when one is known (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramError {
    /// The program's line.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl ProgramError {
    fn plain(message: impl Into<String>) -> ProgramError {
        ProgramError {
            line: None,
            message: message.into(),
        }
    }
}

/// A plugin the program registered.
#[derive(Clone, Debug)]
pub struct ProgramPlugin {
    /// The plugin, ready to be enabled by name.
    pub plugin: CustomPlugin,
    /// Registered with `registerWasm`: a kube-scheduler-wasm-extension guest.
    pub wasm: bool,
}

/// One `register` or `registerWasm` call.
enum Registered {
    Script(String, JsValue),
    Wasm(String, Vec<u8>),
}

impl Registered {
    fn name(&self) -> &str {
        match self {
            Registered::Script(n, _) | Registered::Wasm(n, _) => n,
        }
    }
}

/// The plugins `text` registers, in the order registered; none for an empty program.
pub fn program_plugins(text: &str) -> Result<Vec<ProgramPlugin>, Vec<ProgramError>> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    if !cfg!(target_arch = "wasm32") {
        // No JavaScript engine here (a native test or tool): js-sys would panic.
        return Err(vec![ProgramError::plain(
            "JavaScript plugins run only where JavaScript does: the page and the JS API",
        )]);
    }
    let registered = run_program(text)?;
    let mut plugins = Vec::new();
    let mut errors = Vec::new();
    for r in registered {
        let built = match &r {
            Registered::Script(name, value) => js_plugin(name, value),
            Registered::Wasm(name, bytes) => wasm_guest_plugin(name, Arc::from(bytes.as_slice())),
        };
        match built {
            Ok(plugin) => plugins.push(ProgramPlugin {
                plugin,
                wasm: matches!(r, Registered::Wasm(..)),
            }),
            Err(e) => errors.push(ProgramError::plain(format!("plugin {:?}: {e}", r.name()))),
        }
    }
    if errors.is_empty() {
        Ok(plugins)
    } else {
        Err(errors)
    }
}

/// Runs the program; what it registered.
fn run_program(text: &str) -> Result<Vec<Registered>, Vec<ProgramError>> {
    let function = compile(text)?;
    let out: Rc<RefCell<Vec<Registered>>> = Rc::default();
    let seen = Rc::clone(&out);
    let register = Closure::<dyn FnMut(JsValue, JsValue) -> Result<(), JsValue>>::new(
        move |name: JsValue, plugin: JsValue| {
            let name = checked_name(&name, &seen.borrow(), "register")?;
            if !(plugin.is_object() || plugin.is_function()) {
                return Err(type_error(&format!(
                    "register({name:?}, …): expected a plugin object or a factory function"
                )));
            }
            seen.borrow_mut().push(Registered::Script(name, plugin));
            Ok(())
        },
    );
    let seen = Rc::clone(&out);
    let register_wasm = Closure::<dyn FnMut(JsValue, JsValue) -> Result<(), JsValue>>::new(
        move |name: JsValue, guest: JsValue| {
            let name = checked_name(&name, &seen.borrow(), "registerWasm")?;
            let bytes = guest_bytes(&name, &guest)?;
            seen.borrow_mut().push(Registered::Wasm(name, bytes));
            Ok(())
        },
    );
    let ran = function.call2(
        &JsValue::UNDEFINED,
        register.as_ref().unchecked_ref(),
        register_wasm.as_ref().unchecked_ref(),
    );
    if let Err(e) = ran {
        return Err(vec![ProgramError {
            line: line_of(&e),
            message: format!("the program threw {}", error_text(&e)),
        }]);
    }
    drop((register, register_wasm));
    Ok(Rc::try_unwrap(out)
        .map(RefCell::into_inner)
        .unwrap_or_default())
}

/// The program as a function of [`PROGRAM_GLOBALS`]; Err: its syntax error.
fn compile(text: &str) -> Result<Function, Vec<ProgramError>> {
    let constructor = Reflect::get(&js_sys::global(), &"Function".into())
        .ok()
        .and_then(|c| c.dyn_into::<Function>().ok())
        .ok_or_else(|| {
            vec![ProgramError::plain(
                "this JavaScript engine has no Function",
            )]
        })?;
    let args = Array::of2(&PROGRAM_GLOBALS.into(), &text.into());
    Reflect::construct(&constructor, &args)
        .map_err(|e| {
            vec![ProgramError {
                line: None,
                message: error_text(&e),
            }]
        })?
        .dyn_into::<Function>()
        .map_err(|_| {
            vec![ProgramError::plain(
                "the program did not compile to a function",
            )]
        })
}

/// A registered name: a non-empty string, not an in-tree plugin's, not registered before.
fn checked_name(name: &JsValue, before: &[Registered], call: &str) -> Result<String, JsValue> {
    let Some(name) = name.as_string().filter(|n| !n.trim().is_empty()) else {
        return Err(type_error(&format!(
            "{call}: the first argument is the plugin's name, a non-empty string"
        )));
    };
    if REGISTRY.iter().any(|s| s.name == name) {
        return Err(type_error(&format!(
            "{call}({name:?}): {name} is an in-tree plugin; give yours another name"
        )));
    }
    if before.iter().any(|r| r.name() == name) {
        return Err(type_error(&format!(
            "{call}({name:?}): a plugin named {name:?} is already registered"
        )));
    }
    Ok(name)
}

/// A guest's bytes: base64 text, a `Uint8Array` or an `ArrayBuffer`.
fn guest_bytes(name: &str, guest: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(text) = guest.as_string() {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        return base64::engine::general_purpose::STANDARD
            .decode(compact)
            .map_err(|e| type_error(&format!("registerWasm({name:?}, …): not base64: {e}")));
    }
    if let Some(a) = guest.dyn_ref::<js_sys::Uint8Array>() {
        return Ok(a.to_vec());
    }
    if let Some(b) = guest.dyn_ref::<js_sys::ArrayBuffer>() {
        return Ok(js_sys::Uint8Array::new(b).to_vec());
    }
    Err(type_error(&format!(
        "registerWasm({name:?}, …): expected the guest's bytes as base64 text, a Uint8Array or an ArrayBuffer"
    )))
}

/// A thrown error as `Name: message` (`SyntaxError: Unexpected end of input`).
fn error_text(e: &JsValue) -> String {
    let field = |name: &str| {
        Reflect::get(e, &name.into())
            .ok()
            .and_then(|v| v.as_string())
    };
    match (field("name"), field("message")) {
        (Some(name), Some(message)) => format!("{name}: {message}"),
        (None, Some(message)) => message,
        _ => e
            .as_string()
            .unwrap_or_else(|| "the program does not compile".into()),
    }
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The program's line that threw, from the error's stack (`<anonymous>:LINE:COLUMN`).
fn line_of(e: &JsValue) -> Option<usize> {
    let stack = Reflect::get(e, &"stack".into()).ok()?.as_string()?;
    let at = stack.find("<anonymous>:")? + "<anonymous>:".len();
    let digits: String = stack[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits
        .parse::<usize>()
        .ok()?
        .checked_sub(HEADER_LINES)
        .filter(|&l| l > 0)
}
