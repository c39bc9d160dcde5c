//! The head of the Plugins editor, above its program: what the program registers and whether
//! the configuration enables it, a button that writes the NodeNumber example, and a file
//! picker that adds a kube-scheduler-wasm-extension guest (`registerWasm`, its bytes as
//! base64). The program reruns on every valid edit, like any editor's text.

use crate::base::EditorFile;
use crate::plugins::{guest_name, register_wasm_line, NODE_NUMBER_JS};
use crate::state::{Editors, RunPosition};
use base64::Engine as _;
use leptos::prelude::*;

/// The panel, drawn once the Plugins tab is first shown.
#[component]
pub fn PluginsPanel() -> impl IntoView {
    let tab = expect_context::<Editors>().tab;
    super::on_demand_once(move || tab.get() == EditorFile::Plugins, plugins_panel_view)
}

split_point! {
    /// A split point (`#[lazy]`): the panel's code, fetched when first drawn.
    fn plugins_panel_view() -> AnyView {
        view! { <PluginsPanelNow/> }.into_any()
    }
}

/// The panel itself.
#[component]
fn PluginsPanelNow() -> impl IntoView {
    let editors = expect_context::<Editors>();
    let position = expect_context::<RunPosition>();
    let text = editors.text(EditorFile::Plugins);
    let problem = RwSignal::new(None::<String>);
    let registered = Memo::new(move |_| {
        position
            .info
            .with(|i| i.as_ref().map(|i| i.custom_plugins.clone()))
            .unwrap_or_default()
    });
    let add_example = move |_| {
        let mut program = text.get_untracked();
        if program.contains("register(\"NodeNumber\"") {
            problem.set(Some("NodeNumber is registered already.".into()));
            return;
        }
        if !program.trim().is_empty() {
            program.push_str("\n\n");
        }
        program.push_str(NODE_NUMBER_JS);
        problem.set(None);
        editors.commit(EditorFile::Plugins, program);
    };
    let add_guest = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        leptos::task::spawn_local(async move {
            let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await;
            let Ok(buffer) = bytes else {
                problem.set(Some(format!("{} could not be read.", file.name())));
                return;
            };
            let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
            if !bytes.starts_with(b"\0asm") {
                problem.set(Some(format!(
                    "{} is not a WebAssembly module (it does not start with \\0asm).",
                    file.name()
                )));
                return;
            }
            let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
            let mut program = text.get_untracked();
            if !program.trim().is_empty() && !program.ends_with('\n') {
                program.push('\n');
            }
            program.push_str(&register_wasm_line(&guest_name(&file.name()), &encoded));
            problem.set(None);
            editors.commit(EditorFile::Plugins, program);
        });
    };
    view! {
        <div class="ext-panel plugins-panel" data-testid="plugins-panel">
            <p>
                "Plugins run inside the engine on every cycle, beside the in-tree ones (kube-scheduler v1.35 only). "
                "Register each by name here, then enable it in the Config tab: in "<code>"multiPoint"</code>
                " or at an extension point, with a "<code>"weight"</code>"; its "<code>"pluginConfig"</code>
                " args are handed to its factory."
            </p>
            <p class="plugins-actions">
                <button class="form-button" data-testid="plugins-add-example" on:click=add_example>
                    "Add the example (NodeNumber)"
                </button>
                <label class="form-button file" title="A kube-scheduler-wasm-extension guest (.wasm), run unmodified by schedlab's own interpreter">
                    "Load a .wasm guest…"
                    <input type="file" accept=".wasm" data-testid="plugins-load-wasm" on:change=add_guest/>
                </label>
            </p>
            {move || problem.get().map(|p| view! { <p class="form-error" role="alert">{p}</p> })}
            <ul class="plugin-list" data-testid="plugins-registered">
                {move || registered.get().into_iter().map(|p| {
                    let state = if p.enabled {
                        "enabled".to_string()
                    } else {
                        "registered, not enabled by any profile".to_string()
                    };
                    view! {
                        <li class:disabled=!p.enabled>
                            <code>{p.name.clone()}</code>
                            <span class="tag">{p.kind}</span>
                            <span class="plugin-points">{p.points.clone()}</span>
                            <span class="plugin-state">{state}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </div>
    }
}

/// The "custom" mark beside a plugin's name in the inspector's tables, when the Plugins
/// program registered it.
pub fn custom_mark(name: &str) -> Option<AnyView> {
    let position = expect_context::<RunPosition>();
    let custom = position.info.with_untracked(|i| {
        i.as_ref()
            .is_some_and(|i| i.custom_plugins.iter().any(|p| p.name == name))
    });
    custom.then(|| {
        view! {
            <span class="custom-mark" data-testid="custom-mark" title="A custom plugin, registered in the Plugins editor">
                "custom"
            </span>
        }
        .into_any()
    })
}
