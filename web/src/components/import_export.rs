//! Import and export. Export downloads every editor as one multi-document YAML file; import
//! reads one or more files, sorts their documents into the editors by kind, and leaves the
//! editors it has nothing for alone.

use crate::state::{EditorFile, Playground};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The two buttons.
#[component]
pub fn ImportExport() -> impl IntoView {
    let state = expect_context::<Playground>();
    let export = move |_| {
        let texts: Vec<(EditorFile, String)> = EditorFile::ALL
            .iter()
            .map(|&f| (f, state.text(f).get_untracked()))
            .collect();
        let bundle = crate::bundle::export(&texts);
        let name = format!("schedlab-{}.yaml", state.example().name);
        download(&name, &bundle);
    };
    let import = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(files) = input.files() else {
            return;
        };
        let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
        input.set_value("");
        leptos::task::spawn_local(async move {
            let mut texts = Vec::new();
            for file in files {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                if let Some(t) = text.ok().and_then(|v| v.as_string()) {
                    texts.push(t);
                }
            }
            let imported = crate::bundle::import(&texts);
            let left_out = match imported.skipped {
                0 => String::new(),
                1 => " (1 document of another kind left out)".to_string(),
                n => format!(" ({n} documents of other kinds left out)"),
            };
            if imported.texts.is_empty() {
                state.notify(format!(
                    "Nothing imported: no Node, Pod, Policy or other object schedlab reads{left_out}."
                ));
            } else {
                let names: Vec<&str> = imported.texts.iter().map(|(f, _)| f.tab_title()).collect();
                state.import(imported.texts);
                state.notify(format!("Imported into {}{left_out}.", names.join(", ")));
            }
        });
    };
    view! {
        <label class="button file" title="Open YAML or JSON files: nodes, pods, a Policy, a KubeSchedulerConfiguration, or an exported scenario">
            "Import"
            <input type="file" accept=".yaml,.yml,.json,.txt" multiple data-testid="import" on:change=import/>
        </label>
        <button class="button" data-testid="export" title="Download every editor as one YAML file" on:click=export>
            "Export"
        </button>
    }
}

/// Offers `text` as a download named `name`.
fn download(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/yaml");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}
