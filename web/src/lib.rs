//! The schedlab playground: a Leptos CSR app that runs `schedlab_core` in the browser.
//!
//! Four editors (nodes, pods, policy, scheduler configuration) feed one scenario; every valid
//! edit reruns it. The controls step through the run cycle by cycle or phase by phase, under
//! kube-scheduler's own function names; the cluster view, the queue, the inspector and the
//! event log show the run at the current position; the lesson panel walks a guided lesson
//! ([`lesson`]) stop by stop. `main.rs` only reads what the page starts with and mounts
//! [`App`], which provides the page's small contexts ([`state`]) and lays out the components
//! (`components`, one per file, wiring only). The run lives in the engine ([`engine`], in a
//! Web Worker where one starts), which owns the simulation ([`session`]) and turns a cycle's
//! trace into the inspector's tables ([`analysis`]); [`link`] puts a scenario into the URL
//! fragment and reads it back. [`base`] is the bottom every file may import. Besides
//! `sessionStorage` (IndexedDB for big texts) and the address bar, the app's only I/O is
//! fetching the gallery's example files from its own site when one is first opened
//! ([`gallery`]).

/// Declares a split point: an `async fn` whose code `scripts/split-page.sh` cuts out of the
/// page's first load into a chunk fetched on its first call (Leptos's `#[lazy]`, with the
/// `split` feature on wasm32). Elsewhere (native tests, the threaded build, which is not split)
/// the same `async fn` with its code in place.
macro_rules! split_point {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        #[cfg(all(feature = "split", target_arch = "wasm32"))]
        $(#[$meta])*
        #[leptos::lazy]
        $vis fn $name($($arg: $ty),*) $(-> $ret)? $body

        #[cfg(not(all(feature = "split", target_arch = "wasm32")))]
        $(#[$meta])*
        $vis async fn $name($($arg: $ty),*) $(-> $ret)? $body
    };
}

pub mod analysis;
pub mod background;
pub mod base;
pub mod bundle;
mod components;
pub mod crash;
pub mod devices;
pub mod embed;
pub mod engine;
pub mod export;
pub mod extender_data;
pub mod extender_view;
pub mod forms;
pub mod gallery;
pub mod glossary;
pub mod history;
pub mod interned;
pub mod lesson;
pub mod link;
pub mod misplaced;
pub mod plugins;
pub mod questions;
pub mod scroll_hold;
pub mod session;
pub mod stash;
pub mod state;
pub mod tasks;

use components::controls::Controls;
use components::editors::Editors;
use components::first_screen::{FirstScreen, Part};
use components::header::Header;
use components::help::Help;
use components::link_banner::LinkBanner;
use components::questions_panel::QuestionsPanel;
use components::warnings::Warnings;
use embed::PageMode;
use leptos::prelude::*;
use state::{HelpOpen, RunPosition, SPEEDS};

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let mode = PageMode::of_page();
    state::provide(mode);
    install_shortcuts();
    if mode.embed {
        return view! {
            <FirstScreen part=Part::Embed/>
            <Help/>
        }
        .into_any();
    }
    view! {
        <Header/>
        <LinkBanner/>
        <Controls/>
        <main class="layout">
            <section class="inputs" aria-label="Lesson and inputs">
                <FirstScreen part=Part::Lesson/>
                <div class="inputs-editors">
                    <Editors/>
                </div>
            </section>
            <section class="world" aria-label="Cluster and queue">
                <Warnings/>
                <div class="world-row">
                    <FirstScreen part=Part::World/>
                </div>
            </section>
            <section class="analysis" aria-label="Cycle inspector and events">
                <FirstScreen part=Part::Analysis/>
            </section>
        </main>
        <QuestionsPanel/>
        <Help/>
    }
    .into_any()
}

/// The keyboard shortcuts of [`components::help::SHORTCUTS`]; ignored while typing in a field.
fn install_shortcuts() {
    let editors = expect_context::<state::Editors>();
    let position = expect_context::<RunPosition>();
    let lesson = expect_context::<state::OpenLesson>();
    let HelpOpen(help) = expect_context::<HelpOpen>();
    let embed = expect_context::<PageMode>().embed;
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        // Undo and redo of the work, in the editors too (a burst of typing is one change);
        // a form's single-line field keeps the browser's own undo of its unsaved text.
        if ev.ctrl_key() || ev.meta_key() {
            if !ev.alt_key() {
                undo_or_redo(&ev, editors);
            }
            return;
        }
        if typing(&ev) || ev.alt_key() {
            return;
        }
        let key = ev.key();
        let handled = match key.as_str() {
            "?" => {
                help.update(|h| *h = !*h);
                true
            }
            "Escape" => {
                help.set(false);
                true
            }
            "[" | "]" if lesson.at.get_untracked().is_none() => false,
            "[" => {
                lesson.previous_stop();
                true
            }
            "]" => {
                lesson.next_stop();
                true
            }
            key => control_key(key, position),
        };
        // In an embed, keys that would scroll never reach the host page: the panes scroll
        // with the wheel, and the keys step the run.
        let scrolls = matches!(
            key.as_str(),
            "ArrowUp" | "ArrowDown" | "PageUp" | "PageDown"
        );
        if handled || (embed && scrolls) {
            ev.prevent_default();
        }
    });
    // The listener lives as long as the page.
    std::mem::forget(handle);
}

/// The element a key went to.
fn key_target(ev: &web_sys::KeyboardEvent) -> Option<web_sys::Element> {
    ev.target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
}

/// Whether the key is typed into a field (or an element edited in place).
fn typing(ev: &web_sys::KeyboardEvent) -> bool {
    key_target(ev).is_some_and(|el| {
        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
            || el.has_attribute("contenteditable")
    })
}

/// Whether the key is typed into a single-line field (or a menu), which keeps the browser's
/// own undo of its unsaved text.
fn in_single_line_field(ev: &web_sys::KeyboardEvent) -> bool {
    key_target(ev).is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT"))
}

/// Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y (also with ⌘), except in a single-line field.
fn undo_or_redo(ev: &web_sys::KeyboardEvent, editors: state::Editors) {
    let action = match ev.key().as_str() {
        "z" | "Z" if ev.shift_key() => Some(state::Editors::redo as fn(&state::Editors)),
        "z" | "Z" => Some(state::Editors::undo as fn(&state::Editors)),
        "y" | "Y" if !ev.shift_key() => Some(state::Editors::redo as fn(&state::Editors)),
        _ => None,
    };
    if let (Some(action), false) = (action, in_single_line_field(ev)) {
        ev.prevent_default();
        action(&editors);
    }
}

/// The controls' keys; whether `key` is one.
fn control_key(key: &str, position: RunPosition) -> bool {
    match key {
        "ArrowRight" | "n" => {
            position.pause();
            position.step_cycle();
        }
        "ArrowLeft" | "b" => position.step_back(),
        "." => position.step_phase(),
        " " => position.toggle_run(),
        "Home" => position.rewind(),
        "End" => position.to_end(),
        "+" | "=" => position.set_speed((position.speed.get_untracked() + 1).min(SPEEDS.len() - 1)),
        "-" => position.set_speed(position.speed.get_untracked().saturating_sub(1)),
        _ => return false,
    }
    true
}
