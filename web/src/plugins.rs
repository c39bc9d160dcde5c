//! The Plugins editor's pieces that are plain data: the NodeNumber example, the line that
//! registers a wasm guest, and what the page shows of each registered plugin
//! ([`CustomPluginFact`], made by the engine's host when it runs the program).

use schedlab_core::scheduler::v1_35::Point;
use schedlab_core::scheduler::Scheduler;
use schedlab_js_plugins::ProgramPlugin;
use serde::{Deserialize, Serialize};

/// NodeNumber, the kube-scheduler-wasm-extension's example plugin, in JavaScript (the
/// custom-plugin example's program): the same scores as the hand-written guest
/// (`crates/schedlab_guest/guests/node_number.wat`).
pub const NODE_NUMBER_JS: &str = include_str!("../../assets/scenarios/custom-plugin/plugins.js");

/// Characters of base64 per line of a `registerWasm` call.
const BASE64_LINE: usize = 96;

/// The plugin name for a guest file: its stem in PascalCase (`node_number.wasm`:
/// `NodeNumber`), `Guest` when nothing is left.
pub fn guest_name(file_name: &str) -> String {
    let stem = file_name.rsplit_once('.').map_or(file_name, |(s, _)| s);
    let name: String = stem
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    if name.is_empty() {
        "Guest".into()
    } else {
        name
    }
}

/// The program's line that registers a guest (its bytes as base64, in a template literal
/// cut into lines: whitespace in it is ignored).
pub fn register_wasm_line(name: &str, base64: &str) -> String {
    let mut out = format!("registerWasm({name:?}, `\n");
    for chunk in base64.as_bytes().chunks(BASE64_LINE) {
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push('\n');
    }
    out.push_str("`);\n");
    out
}

/// A plugin the Plugins program registered, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomPluginFact {
    /// Its name.
    pub name: String,
    /// `JavaScript` or `wasm guest`.
    pub kind: String,
    /// Its extension points (`PreScore, Score`).
    pub points: String,
    /// Whether a profile of the configuration enables it.
    pub enabled: bool,
}

impl CustomPluginFact {
    /// The facts of the program's plugins under `scheduler`.
    pub fn of(plugins: &[ProgramPlugin], scheduler: &Scheduler) -> Vec<CustomPluginFact> {
        plugins
            .iter()
            .map(|p| CustomPluginFact {
                name: p.plugin.name.clone(),
                kind: if p.wasm { "wasm guest" } else { "JavaScript" }.into(),
                points: p
                    .plugin
                    .points
                    .iter()
                    .map(|point: Point| point.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                enabled: scheduler.enables(&p.plugin.name),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{guest_name, register_wasm_line};

    #[test]
    fn a_guest_is_named_after_its_file() {
        assert_eq!(guest_name("node_number.wasm"), "NodeNumber");
        assert_eq!(guest_name("image-locality.v2.wasm"), "ImageLocalityV2");
        assert_eq!(guest_name("main.wasm"), "Main");
        assert_eq!(guest_name("__.wasm"), "Guest");
    }

    #[test]
    fn a_guest_line_cuts_its_base64() {
        let b64 = "A".repeat(100);
        let line = register_wasm_line("G", &b64);
        // 96 characters, then the other 4, each on its own line, inside a template literal.
        assert_eq!(
            line,
            format!("registerWasm(\"G\", `\n{}\nAAAA\n`);\n", "A".repeat(96))
        );
    }
}

/// For the native tests, which have no JavaScript engine: NodeNumber written in Rust from its
/// description (the same rule as [`NODE_NUMBER_JS`]), to run the custom-plugin example.
#[cfg(test)]
pub mod native {
    use schedlab_core::scheduler::v1_35::{
        script_plugin, CustomPlugin, Point, Points, ScriptObject, ScriptPlugin, ScriptStatus,
    };
    use serde_json::Value;
    use std::sync::Arc;

    struct NodeNumber {
        reverse: bool,
    }

    /// The last character of a name, when it is a digit.
    fn last_digit(name: &str) -> Option<char> {
        name.chars().last().filter(char::is_ascii_digit)
    }

    fn name(object: &Value) -> &str {
        object["metadata"]["name"].as_str().unwrap_or_default()
    }

    impl ScriptPlugin for NodeNumber {
        fn points(&self) -> Points {
            Points::of(&[Point::Score])
        }
        fn filter(&self, _: &ScriptObject, _: &ScriptObject) -> Result<ScriptStatus, String> {
            Ok(("Success".into(), Vec::new()))
        }
        fn score(&self, pod: &ScriptObject, node: &ScriptObject) -> Result<i64, String> {
            let want = last_digit(name(&pod.json())).map(String::from);
            let matched =
                want.is_none() || last_digit(name(&node.json())).map(String::from) == want;
            Ok(if matched != self.reverse { 10 } else { 0 })
        }
        fn normalizes(&self) -> bool {
            false
        }
        fn normalize(&self, _: &ScriptObject, _: &mut [(String, i64)]) -> Result<(), String> {
            Ok(())
        }
    }

    /// NodeNumber as a custom plugin (its args' `reverse` read as the JavaScript reads it).
    pub fn node_number() -> CustomPlugin {
        script_plugin(
            "NodeNumber",
            Points::of(&[Point::Score]),
            Arc::new(|args: Option<&Value>| {
                let reverse = args.and_then(|a| a["reverse"].as_bool()).unwrap_or(false);
                Ok(Arc::new(NodeNumber { reverse }) as Arc<dyn ScriptPlugin>)
            }),
        )
    }
}
