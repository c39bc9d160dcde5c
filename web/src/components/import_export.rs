//! Import and export, two split buttons in the top bar.
//!
//! - **Import** reads one or more files, sorts their documents into the editors by kind, and
//!   replaces the texts of the editors it has something for (the others are left alone). Its
//!   menu (▾) also offers **Add**, which appends the documents to the editors' texts instead
//!   ([`crate::bundle::add`]). Either can be undone.
//! - **Export** downloads the scenario: every editor as one multi-document YAML file. Its menu
//!   also offers the **report** (what `schedlab run --output json` prints for that file) and
//!   the **placements** as CSV ([`crate::export`]).

use crate::base::EditorFile;
use crate::engine::{self, Export};
use crate::export::{cli_command, BIG_REPORT, BYTES_PER_ROW};
use crate::state::{Editors, Loads, Notice, RunPosition};
use leptos::prelude::*;
use schedlab_core::simulation::StopReason;
use wasm_bindgen::JsCast;

/// A menu's width in pixels (`.split-menu` in style.css), and some room.
const MENU_WIDTH: f64 = 320.0;

/// Which menu is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Menu {
    Import,
    Export,
}

/// What an import does with the editors' texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Replace them.
    Replace,
    /// Append to them.
    Add,
}

/// The two split buttons and their menus (their code comes with the first screen's other
/// views: [`super::first_screen`]).
#[component]
pub fn ImportExport() -> impl IntoView {
    let open = RwSignal::new(None::<Menu>);
    // A click outside the open menu closes it.
    let outside = window_event_listener(leptos::ev::mousedown, move |ev| {
        if open.get_untracked().is_none() {
            return;
        }
        let inside = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest(".split.open").ok().flatten())
            .is_some();
        if !inside {
            open.set(None);
        }
    });
    on_cleanup(move || outside.remove());
    // A menu hangs from its button's right edge, unless that is too near the left of the
    // window (a narrow screen wraps the top bar): then from its left edge.
    let anchor_left = RwSignal::new(false);
    view! {
        <ImportButton open=open anchor_left=anchor_left/>
        <ExportButton open=open anchor_left=anchor_left/>
    }
}

/// Import, and its menu: replace the editors' texts, or add to them.
#[component]
fn ImportButton(open: RwSignal<Option<Menu>>, anchor_left: RwSignal<bool>) -> impl IntoView {
    let editors = expect_context::<Editors>();
    let notice = expect_context::<Notice>();
    let import = move |mode: Mode| {
        move |ev: leptos::ev::Event| {
            open.set(None);
            let input: web_sys::HtmlInputElement = event_target(&ev);
            let Some(files) = input.files() else {
                return;
            };
            let files: Vec<web_sys::File> =
                (0..files.length()).filter_map(|i| files.get(i)).collect();
            input.set_value("");
            leptos::task::spawn_local(async move {
                let mut texts = Vec::new();
                for file in files {
                    let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                    if let Some(t) = text.ok().and_then(|v| v.as_string()) {
                        texts.push(t);
                    }
                }
                apply_import(editors, notice, mode, &texts);
            });
        }
    };
    let is_open = move || open.get() == Some(Menu::Import);
    view! {
        <div class="split" class:open=is_open class:anchor-left=move || anchor_left.get() on:keydown=menu_keys(open, Menu::Import)>
            <label class="button file split-main" title="Import: open YAML or JSON files (nodes, pods, a Policy, a KubeSchedulerConfiguration, or an exported scenario) and replace the texts of the editors they have objects for">
                "Import"
                <input type="file" accept=".yaml,.yml,.json,.txt" multiple data-testid="import" on:change=import(Mode::Replace)/>
            </label>
            <button
                class="button split-toggle"
                data-testid="import-menu"
                aria-haspopup="menu"
                aria-expanded=move || is_open().to_string()
                aria-label="More ways to import"
                title="More ways to import: replace the editors' texts, or add to them"
                on:click=toggle_menu(open, anchor_left, Menu::Import)
            >
                "▾"
            </button>
            <div class="split-menu" role="menu" aria-label="Import" hidden=move || !is_open()>
                <label class="menu-item file" role="menuitem" tabindex="-1" title="Open files and replace the texts of the editors they have objects for (Undo puts them back)">
                    <span class="menu-title">"Replace editors…"</span>
                    <span class="menu-hint">"The files' objects instead of the editors' texts"</span>
                    <input type="file" accept=".yaml,.yml,.json,.txt" multiple tabindex="-1" data-testid="import-replace" on:change=import(Mode::Replace)/>
                </label>
                <label class="menu-item file" role="menuitem" tabindex="-1" title="Open files and append their objects to the editors' texts: more nodes, more pods (Undo takes them out)">
                    <span class="menu-title">"Add to editors…"</span>
                    <span class="menu-hint">"The files' objects after the editors' own"</span>
                    <input type="file" accept=".yaml,.yml,.json,.txt" multiple tabindex="-1" data-testid="import-add" on:change=import(Mode::Add)/>
                </label>
            </div>
        </div>
    }
}

/// Export, and its menu: the scenario, the report, the placements.
#[component]
fn ExportButton(open: RwSignal<Option<Menu>>, anchor_left: RwSignal<bool>) -> impl IntoView {
    let exports = Exports {
        editors: expect_context::<Editors>(),
        loads: expect_context::<Loads>(),
        info: expect_context::<RunPosition>().info,
        notice: expect_context::<Notice>(),
    };
    let is_open = move || open.get() == Some(Menu::Export);
    let then = move |export: fn(Exports)| {
        move |_: leptos::ev::MouseEvent| {
            open.set(None);
            export(exports);
        }
    };
    view! {
        <div class="split" class:open=is_open class:anchor-left=move || anchor_left.get() on:keydown=menu_keys(open, Menu::Export)>
            <button class="button split-main" data-testid="export" title="Download the scenario: every editor as one YAML file, which Import and `schedlab run` read" on:click=then(Exports::scenario)>
                "Export"
            </button>
            <button
                class="button split-toggle"
                data-testid="export-menu"
                aria-haspopup="menu"
                aria-expanded=move || is_open().to_string()
                aria-label="More to export"
                title="More to export: the report of the run, the placements as CSV"
                on:click=toggle_menu(open, anchor_left, Menu::Export)
            >
                "▾"
            </button>
            <div class="split-menu" role="menu" aria-label="Export" hidden=move || !is_open()>
                <button class="menu-item" role="menuitem" tabindex="-1" data-testid="export-scenario" title="Every editor as one multi-document YAML file: Import reads it back, `schedlab run` runs it" on:click=then(Exports::scenario)>
                    <span class="menu-title">"Scenario (YAML)"</span>
                    <span class="menu-hint">"Every editor in one file"</span>
                </button>
                <button class="menu-item" role="menuitem" tabindex="-1" data-testid="export-report" title="The JSON report of the whole run: exactly what `schedlab run --output json` prints for the scenario file (pods, every cycle with its filter and score tables, events)" on:click=then(Exports::report)>
                    <span class="menu-title">"Report (JSON)"</span>
                    <span class="menu-hint">"What "<code>"schedlab run --output json"</code>" prints"</span>
                </button>
                <button class="menu-item" role="menuitem" tabindex="-1" data-testid="export-csv" title="One row per pod, in input order, at the end of the run: namespace, pod, phase, node, nominated node, priority, the cycle that placed it and when, attempts, why it is pending" on:click=then(Exports::placements)>
                    <span class="menu-title">"Placements (CSV)"</span>
                    <span class="menu-hint">"One row per pod, for a spreadsheet"</span>
                </button>
            </div>
        </div>
    }
}

/// Opens `menu`, or closes it when it is open.
fn toggle_menu(
    open: RwSignal<Option<Menu>>,
    anchor_left: RwSignal<bool>,
    menu: Menu,
) -> impl Fn(leptos::ev::MouseEvent) + Copy {
    move |ev| {
        let right = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|b| b.parent_element())
            .map(|split| split.get_bounding_client_rect().right());
        anchor_left.set(right.is_some_and(|r| r < MENU_WIDTH));
        open.update(|o| *o = if *o == Some(menu) { None } else { Some(menu) });
    }
}

/// The keys of an open menu: Escape closes it (and puts the focus back on its toggle); the
/// arrows move between its items; Enter and Space do an item's work.
fn menu_keys(
    open: RwSignal<Option<Menu>>,
    menu: Menu,
) -> impl Fn(leptos::ev::KeyboardEvent) + Copy {
    move |ev| {
        if open.get_untracked() != Some(menu) {
            return;
        }
        let Some(root) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        match ev.key().as_str() {
            "Escape" => {
                ev.prevent_default();
                ev.stop_propagation();
                open.set(None);
                focus(&root, ".split-toggle", 0);
            }
            // An item does its work (the page's shortcut for Space is not for it); a file
            // item opens its file dialog from the keyboard too.
            "Enter" | " " => press_item(&ev),
            "ArrowDown" | "ArrowUp" => {
                ev.prevent_default();
                ev.stop_propagation();
                move_between_items(&root, ev.key() == "ArrowDown");
            }
            _ => {}
        }
    }
}

/// Enter or Space on a menu item: a file item opens its file dialog.
fn press_item(ev: &leptos::ev::KeyboardEvent) {
    let Some(item) = document()
        .active_element()
        .filter(|a| a.matches("[role=menuitem]").unwrap_or(false))
    else {
        return;
    };
    ev.stop_propagation();
    let input = item
        .query_selector("input")
        .ok()
        .flatten()
        .and_then(|i| i.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(input) = input {
        ev.prevent_default();
        input.click();
    }
}

/// Focuses the next (`down`) or the previous item of the menu under `root`, round.
fn move_between_items(root: &web_sys::Element, down: bool) {
    let items = root.query_selector_all("[role=menuitem]").ok();
    let n = items.as_ref().map_or(0, |l| l.length());
    if n == 0 {
        return;
    }
    let active = document().active_element();
    let at = (0..n).find(|&i| {
        items
            .as_ref()
            .and_then(|l| l.item(i))
            .and_then(|e| e.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| {
                active
                    .as_ref()
                    .is_some_and(|a| e == *a || e.contains(Some(a.as_ref())))
            })
    });
    let next = match (down, at) {
        (true, Some(i)) => (i + 1) % n,
        (false, Some(i)) => (i + n - 1) % n,
        (true, None) => 0,
        (false, None) => n - 1,
    };
    focus(root, "[role=menuitem]", next);
}

/// What Export reads: the editors, the run and its loads; it tells what it did in the notice.
#[derive(Clone, Copy)]
struct Exports {
    editors: Editors,
    loads: Loads,
    info: RwSignal<Option<std::sync::Arc<crate::session::SessionInfo>>>,
    notice: Notice,
}

impl Exports {
    /// Downloads the scenario: every editor in one YAML file.
    fn scenario(self) {
        let bundle = crate::bundle::export(&self.editors.files_untracked());
        download(&self.file_name("", "yaml"), &bundle, "application/yaml");
    }

    /// Downloads the report `schedlab run --output json` prints (or its summary, when the
    /// user takes it for a big run).
    fn report(self) {
        let Some(checked) = self.ready() else {
            return;
        };
        let Some(info) = self.info.get_untracked() else {
            return;
        };
        let bytes = info.evaluated_nodes.saturating_mul(BYTES_PER_ROW);
        let summary = bytes > BIG_REPORT && offer_summary(bytes);
        let seed = info.seed;
        engine::export(Export::Report { summary }, move |text| {
            let Some(text) = text else {
                return;
            };
            download(
                &self.file_name("-report", "json"),
                &text,
                "application/json",
            );
            let mut notes = checked;
            if seed != 0 || summary {
                let command = cli_command(&self.file_name("", "yaml"), seed, summary);
                notes.push(format!(
                    "The report is what \u{201c}{command}\u{201d} prints."
                ));
            }
            self.notice.tell(notes);
        });
    }

    /// Downloads the placements as CSV.
    fn placements(self) {
        let Some(mut notes) = self.ready() else {
            return;
        };
        let Some(info) = self.info.get_untracked() else {
            return;
        };
        let stopped = info.stop != StopReason::Quiescent;
        engine::export(Export::PlacementsCsv, move |text| {
            let Some(text) = text else {
                return;
            };
            download(&self.file_name("-placements", "csv"), &text, "text/csv");
            if stopped {
                notes.push(
                    "The run stopped at a default bound with more still to happen, as schedlab run stops it: the placements are those at that point."
                        .to_string(),
                );
            }
            self.notice.tell(notes);
        });
    }

    /// Whether a report or CSV can be made now: `None` (the user is told why) while no run
    /// has loaded or a newer one is loading; else the notes to add to what the download says
    /// (the inputs have errors: the run is of the last ones that loaded).
    fn ready(self) -> Option<Vec<String>> {
        if self.loads.loading.get_untracked().is_some() {
            self.notice.tell(vec![
                "The run is still loading: export it when it has finished.".into(),
            ]);
            return None;
        }
        if !self.loads.has_run() {
            self.notice.tell(vec![
                "Nothing to export yet: no run has loaded (fix the inputs first).".into(),
            ]);
            return None;
        }
        let mut notes = Vec::new();
        if self.loads.errors.with_untracked(|e| !e.is_empty()) {
            notes.push(
                "The inputs have errors: this is the run of the last inputs that loaded, not of the editors' texts."
                    .to_string(),
            );
        }
        Some(notes)
    }

    /// `schedlab-EXAMPLE{suffix}.{ext}`.
    fn file_name(self, suffix: &str, ext: &str) -> String {
        format!(
            "schedlab-{}{suffix}.{ext}",
            self.editors.work.example().name
        )
    }
}

/// Reads an import into the editors: Replace as [`crate::bundle::import`] sorts it, Add as
/// [`crate::bundle::add`] appends it; either through [`Editors::import`], so Undo puts the
/// old texts back.
fn apply_import(editors: Editors, notice: Notice, mode: Mode, texts: &[String]) {
    let imported = crate::bundle::import(texts);
    let left_out = match imported.skipped {
        0 => String::new(),
        1 => " (1 document of another kind left out)".to_string(),
        n => format!(" ({n} documents of other kinds left out)"),
    };
    if imported.texts.is_empty() {
        notice.notify(format!(
            "Nothing imported: no Node, Pod, Policy or other object schedlab reads{left_out}."
        ));
        return;
    }
    match mode {
        Mode::Replace => {
            let names: Vec<&str> = imported
                .texts
                .iter()
                .filter(|(f, t)| *f != EditorFile::Devices || !t.is_empty())
                .map(|(f, _)| f.tab_title())
                .collect();
            editors.import(imported.texts);
            notice.notify(format!("Imported into {}{left_out}.", names.join(", ")));
        }
        Mode::Add => {
            let added = crate::bundle::add(&editors.files_untracked(), &imported);
            let summary = added.summary();
            if added.texts.is_empty() {
                notice.notify(format!("Nothing added. {summary}").trim().to_string());
                return;
            }
            editors.import(added.texts);
            let left_out = match imported.skipped {
                0 => String::new(),
                1 => " 1 document of another kind was left out.".to_string(),
                n => format!(" {n} documents of other kinds were left out."),
            };
            notice.notify(format!("{summary}{left_out}"));
        }
    }
}

/// Asks whether to download the summary of a big report instead (true: the summary).
fn offer_summary(bytes: usize) -> bool {
    let mb = bytes.div_ceil(1 << 20);
    window()
        .confirm_with_message(&format!(
            "The full report of this run is about {mb} MB: every cycle's filter and score tables.\n\nOK downloads the summary instead (schedlab run --summary: the same report without the tables). Cancel downloads the full report."
        ))
        .unwrap_or(false)
}

/// Focuses the `index`-th element under `root` that matches `selector`.
fn focus(root: &web_sys::Element, selector: &str, index: u32) {
    if let Some(el) = root
        .query_selector_all(selector)
        .ok()
        .and_then(|l| l.item(index))
        .and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

/// Offers `text` as a download named `name`, of MIME type `kind`.
fn download(name: &str, text: &str, kind: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(kind);
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
