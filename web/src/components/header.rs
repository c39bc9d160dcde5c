//! The top bar: the name, the scenario and its size, the gallery and the lessons
//! ([`ScenarioMenus`]), whether the results are current ([`RunStatus`]), import, export and
//! Copy link, the questions panel's button, the notice, Undo and Redo, and the reset button.

use super::first_screen::{FirstScreen, Part};
use super::notice_bar::NoticeBar;
use super::run_status::RunStatus;
use super::scenario_menus::ScenarioMenus;
use super::share_link::ShareLink;
use super::undo_redo::UndoRedo;
use crate::state::Picker;
use leptos::prelude::*;

/// The top bar.
#[component]
pub fn Header() -> impl IntoView {
    let picker = expect_context::<Picker>();
    view! {
        <header class="topbar">
            <div class="brand">
                <span class="logo">"schedlab"</span>
                <span class="tagline">"kube-scheduler v1.17 and v1.35, step by step"</span>
            </div>
            <ScenarioMenus/>
            <RunStatus/>
            <FirstScreen part=Part::ImportExport/>
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
            <NoticeBar/>
            <UndoRedo/>
            <button
                class="button"
                data-testid="reset"
                title="Put the example back in every editor"
                on:click=move |_| picker.reset()
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
        // Before its body's code has loaded the panel is a title only, and the page may not
        // scroll far enough to bring it up: the body scrolls it into view once drawn.
        if matches!(
            document.query_selector("[data-testid=questions-tab-compare]"),
            Ok(Some(_))
        ) {
            details.scroll_into_view();
        } else {
            let _ = details.set_attribute(super::questions_panel::SCROLL_WHEN_DRAWN, "");
        }
    }
}
