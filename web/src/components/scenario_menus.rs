//! The scenario in the top bar: its name (edited or not), the gallery's menu, the lessons'
//! menu, and its size and seed.

use super::lesson_panel::may_replace_work;
use crate::gallery::GALLERY;
use crate::lesson::{LessonAt, LESSONS};
use crate::state::{Editors, ExampleFetch, OpenLesson, Picker, RunPosition};
use leptos::prelude::*;

/// The scenario's name, menus and size.
#[component]
pub fn ScenarioMenus() -> impl IntoView {
    let work = expect_context::<Editors>().work;
    let info = expect_context::<RunPosition>().info;
    let stats = move || {
        info.get().map(|a| {
            format!(
                "{} nodes · {} pods · seed {}",
                a.node_count,
                a.pods.len(),
                work.seed.get()
            )
        })
    };
    view! {
        <div class="scenario">
            <span class="scenario-label">"scenario"</span>
            <span class="scenario-name" data-testid="scenario-name">
                {move || work.example().name}
                {move || work.is_edited().then_some(" (edited)")}
            </span>
            <GalleryMenu/>
            <LessonsMenu/>
            <span class="scenario-stats" title=stats>{stats}</span>
        </div>
    }
}

/// The gallery's menu: opens an example (replacing edited texts once the user agrees).
#[component]
fn GalleryMenu() -> impl IntoView {
    let work = expect_context::<Editors>().work;
    let fetching = expect_context::<ExampleFetch>().fetching;
    let picker = expect_context::<Picker>();
    view! {
        <select
            class="gallery"
            data-testid="gallery"
            title="Open an example scenario (replaces the editors' texts)"
            aria-busy=move || fetching.get().is_some().to_string()
            // The example being fetched, while it is; else the editors' example.
            prop:value=move || fetching.get().unwrap_or_else(|| work.example().name)
            on:change=move |ev| {
                let name = event_target_value(&ev);
                // Edited texts are the user's work: replace them only when they agree.
                let agreed = !work.is_edited()
                    || window()
                        .confirm_with_message("Replace your edited texts with this example?")
                        .unwrap_or(false);
                if agreed {
                    picker.load_example(&name);
                } else {
                    // Put the menu back on the scenario still in the editors.
                    let el = event_target::<web_sys::HtmlSelectElement>(&ev);
                    el.set_value(work.example().name);
                }
            }
        >
            {GALLERY
                .iter()
                .map(|e| view! { <option value=e.name title=e.summary>{e.name}</option> })
                .collect_view()}
        </select>
    }
}

/// The lessons' menu: opens a lesson at its first stop. It always reads "Lessons"; the open
/// lesson is in its panel (and marked here).
#[component]
fn LessonsMenu() -> impl IntoView {
    let work = expect_context::<Editors>().work;
    let lesson = expect_context::<OpenLesson>();
    view! {
        <select
            class="lessons-pick"
            data-testid="lessons"
            aria-label="Lessons"
            title="Open a guided lesson: its scenario, walked stop by stop (replaces the editors' texts)"
            prop:value=""
            on:change=move |ev| {
                let name = event_target_value(&ev);
                event_target::<web_sys::HtmlSelectElement>(&ev).set_value("");
                if let Some(at) = LessonAt::named(&name, 0) {
                    if may_replace_work(work) {
                        lesson.open(at);
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
                        lesson.at.get().is_some_and(|l| l.index() == at.index())
                    };
                    view! {
                        <option value=at.source().name>
                            {move || format!("{}{}. {title}", if current() { "▸ " } else { "" }, at.index() + 1)}
                        </option>
                    }
                })
                .collect_view()}
        </select>
    }
}
