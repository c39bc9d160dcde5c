//! The top bar: the name, the scenario and its size, the gallery and the lessons, import,
//! export and Copy link, whether the results are current (or a load is running), and the reset
//! button.

use super::import_export::ImportExport;
use super::lesson_panel::may_replace_work;
use super::share_link::ShareLink;
use crate::gallery::GALLERY;
use crate::lesson::{LessonAt, LESSONS};
use crate::state::{EditorFile, Playground};
use leptos::prelude::*;
use std::time::Duration;

/// A load that takes longer than this shows in the status.
const SLOW_LOAD: Duration = Duration::from_millis(300);

/// The top bar.
#[component]
pub fn Header() -> impl IntoView {
    let state = expect_context::<Playground>();
    let stats = move || {
        state.info.get().map(|a| {
            format!(
                "{} nodes · {} pods · seed {}",
                a.node_count,
                a.pods.len(),
                state.seed.get()
            )
        })
    };
    // Which kube-scheduler produced the results on screen.
    let ran = move || {
        state
            .info
            .with(|i| i.as_ref().map(|i| i.scheduler.as_str()))
            .unwrap_or("…")
    };
    // A load that has taken more than a moment (a big example, a big paste): until it ends, the
    // results on screen are of the inputs before. (Loads of a few milliseconds, as each
    // keystroke's, do not make the status flicker.)
    let slow_load = RwSignal::new(false);
    let busy = Memo::new(move |_| state.loading.with(Option::is_some));
    let timer: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    Effect::new(move |_| {
        // Loads back to back count as one: the clock starts when none was running.
        if let Some(t) = timer.try_update_value(Option::take).flatten() {
            t.clear();
        }
        if busy.get() {
            let handle = set_timeout_with_handle(
                move || {
                    slow_load.try_set(true);
                },
                SLOW_LOAD,
            );
            timer.set_value(handle.ok());
        } else {
            slow_load.set(false);
        }
    });
    on_cleanup(move || {
        if let Some(t) = timer.try_update_value(Option::take).flatten() {
            t.clear();
        }
    });
    // The status in a few words, for headers too narrow for the sentence (CSS picks one).
    let short_status = move || {
        let n = state.errors().len();
        match n {
            0 if slow_load.get() => "running…".to_string(),
            0 => format!("{} · current", ran()),
            1 => "1 error".to_string(),
            n => format!("{n} errors"),
        }
    };
    let status = move || {
        let n = state.errors().len();
        if n == 0 && slow_load.get() {
            (
                "status busy",
                format!(
                    "running the new inputs · the results shown are the last ones (kube-scheduler {})",
                    ran()
                ),
            )
        } else if n == 0 {
            (
                "status ok",
                format!("kube-scheduler {} · results are current", ran()),
            )
        } else {
            let s = if n == 1 { "" } else { "s" };
            let text = if state.info.with(Option::is_some) {
                format!(
                    "{n} error{s} · showing the last valid result (kube-scheduler {})",
                    ran()
                )
            } else {
                // Nothing ever loaded (junk restored from a saved state, a bad link's texts).
                format!("{n} error{s} · nothing has run yet: fix the inputs to run them")
            };
            ("status stale", text)
        }
    };
    // When the inputs have errors, the status links to the first editor that has them: it
    // shows that editor's tab and scrolls to it without touching the address bar (whose
    // fragment is the link to the scenario).
    let to_first_error = move |ev: leptos::ev::MouseEvent| {
        let Some(file) = state
            .errors
            .with_untracked(|e| e.first().map(EditorFile::of_diagnostic))
        else {
            return;
        };
        ev.prevent_default();
        state.tab.set(file);
        if let Some(el) = document().get_element_by_id(&format!("editor-{}", file.stem())) {
            el.scroll_into_view();
        }
    };
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo">"schedlab"</span>
                <span class="tagline">"kube-scheduler v1.17 and v1.35, step by step"</span>
            </div>
            <div class="scenario">
                <span class="scenario-label">"scenario"</span>
                <span class="scenario-name" data-testid="scenario-name">
                    {move || state.example().name}
                    {move || state.is_edited().then_some(" (edited)")}
                </span>
                <select
                    class="gallery"
                    data-testid="gallery"
                    title="Open an example scenario (replaces the editors' texts)"
                    aria-busy=move || state.fetching.get().is_some().to_string()
                    // The example being fetched, while it is; else the editors' example.
                    prop:value=move || state.fetching.get().unwrap_or_else(|| state.example().name)
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        // Edited texts are the user's work: replace them only when they agree.
                        let agreed = !state.is_edited()
                            || window()
                                .confirm_with_message("Replace your edited texts with this example?")
                                .unwrap_or(false);
                        if agreed {
                            state.load_example(&name);
                        } else {
                            // Put the menu back on the scenario still in the editors.
                            let el = event_target::<web_sys::HtmlSelectElement>(&ev);
                            el.set_value(state.example().name);
                        }
                    }
                >
                    {GALLERY
                        .iter()
                        .map(|e| view! { <option value=e.name title=e.summary>{e.name}</option> })
                        .collect_view()}
                </select>
                <select
                    class="lessons-pick"
                    data-testid="lessons"
                    aria-label="Lessons"
                    title="Open a guided lesson: its scenario, walked stop by stop (replaces the editors' texts)"
                    prop:value=""
                    on:change=move |ev| {
                        let name = event_target_value(&ev);
                        // The menu always reads "Lessons"; the open lesson is in its panel.
                        event_target::<web_sys::HtmlSelectElement>(&ev).set_value("");
                        if let Some(at) = LessonAt::named(&name, 0) {
                            if may_replace_work(state) {
                                state.open_lesson(at);
                            }
                        }
                    }
                >
                    <option value="" hidden>"Lessons"</option>
                    {(0..LESSONS.len())
                        .filter_map(|i| LessonAt::new(i, 0))
                        .map(|at| {
                            let title = at.lesson().title.clone();
                            let current = move || {
                                state.lesson.get().is_some_and(|l| l.index() == at.index())
                            };
                            view! {
                                <option value=at.source().name>
                                    {move || format!("{}{}. {title}", if current() { "▸ " } else { "" }, at.index() + 1)}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                <span class="scenario-stats" title=stats>{stats}</span>
            </div>
            // When the inputs have errors, the status links to the first editor that has them.
            <a
                class=move || status().0
                title=move || status().1
                data-scheduler=ran
                href=move || {
                    state.errors().first().map(|d| format!("#editor-{}", EditorFile::of_diagnostic(d).stem()))
                }
                data-testid="status"
                aria-live="polite"
                on:click=to_first_error
            >
                <span class="long-form">{move || status().1}</span>
                <span class="short-form" aria-hidden="true">{short_status}</span>
            </a>
            <ImportExport/>
            <ShareLink/>
            <button
                class="button"
                data-testid="open-questions"
                title="Compare this configuration with another, sweep one setting, count how many more pods fit (the panel under the playground)"
                on:click=move |_| open_questions()
            >
                <span class="long-form">"Compare · Sweep"</span>
                <span class="short-form" aria-hidden="true">"Compare"</span>
            </button>
            {move || state.notice.get().map(|n| view! {
                <div class="notice" data-testid="notice" role="status">
                    <span>{n}</span>
                    {move || (state.undo.get() == Some(state.version.get())).then(|| view! {
                        <button class="link" data-testid="undo-import" on:click=move |_| state.undo_import()>"Undo"</button>
                    })}
                    <button class="link" aria-label="Dismiss" on:click=move |_| { state.notice.set(None); state.undo.set(None); }>"×"</button>
                </div>
            })}
            <span class="undo-redo">
                <button
                    class="button icon"
                    data-testid="undo"
                    title="Undo the last edit, import or example picked (Ctrl+Z)"
                    aria-label="Undo"
                    disabled=move || !state.can_undo.get()
                    on:click=move |_| state.undo()
                >
                    "↶"
                </button>
                <button
                    class="button icon"
                    data-testid="redo"
                    title="Redo what Undo undid (Ctrl+Shift+Z)"
                    aria-label="Redo"
                    disabled=move || !state.can_redo.get()
                    on:click=move |_| state.redo()
                >
                    "↷"
                </button>
            </span>
            <button
                class="button"
                data-testid="reset"
                title="Put the example back in every editor"
                on:click=move |_| state.reset()
            >
                <span class="long-form">"Reset to example"</span>
                <span class="short-form" aria-hidden="true">"Reset"</span>
            </button>
        </header>
    }
}

/// Opens the questions panel (under the playground, below the fold on most screens) and
/// scrolls to it.
fn open_questions() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(Some(details)) = document.query_selector("[data-testid=questions] details") {
        // Its `toggle` event tells the panel.
        let _ = details.set_attribute("open", "");
        details.scroll_into_view();
    }
}
