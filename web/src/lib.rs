//! The schedlab playground: a Leptos CSR app that runs `schedlab_core` in the browser.
//!
//! Three editors (nodes, pods, policy) feed one scenario; every edit reruns it and the page
//! shows where each pod went and, for the selected pod, the cycle step by step under
//! kube-scheduler's own function names. `main.rs` only mounts [`App`]; [`state`] holds the
//! signals and actions; [`analysis`] turns a run into what the views show; `components` holds one
//! component per file. The app does no I/O besides `localStorage` and never fetches anything.

pub mod analysis;
mod components;
pub mod forms;
pub mod state;

use components::editor::Editor;
use components::header::Header;
use components::inspector::Inspector;
use components::placements::Placements;
use components::warnings::Warnings;
use leptos::prelude::*;
use state::{EditorFile, Playground};

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    provide_context(Playground::new());
    view! {
        <Header/>
        <main class="layout">
            <section class="inputs" aria-label="Inputs">
                <Editor file=EditorFile::Nodes/>
                <Editor file=EditorFile::Pods/>
                <Editor file=EditorFile::Policy/>
                <Editor file=EditorFile::Config/>
            </section>
            <section class="results" aria-label="Results">
                <Warnings/>
                <Placements/>
                <Inspector/>
            </section>
        </main>
    }
}
