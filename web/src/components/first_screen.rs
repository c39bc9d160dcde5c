//! The views of the first screen that are not in the page's first module: the run's (the
//! cluster, the queue, the cycle inspector, the events, and embed mode's page), the header's
//! Import and Export, and the lesson panel. They are one split point, fetched at start beside
//! the engine's own code: nothing of a run can be drawn before the engine's first answer, and
//! one chunk for them all loads faster than one per view (wasm-split gives every set of split
//! points that share a function a chunk of its own, so each split point brings small chunks).

use super::cluster_view::ClusterView;
use super::embed_view::EmbedView;
use super::event_log::EventLog;
use super::import_export::ImportExport;
use super::inspector::Inspector;
use super::lesson_panel::LessonPanel;
use super::queue_view::QueueView;
use crate::state::OpenLesson;
use leptos::prelude::*;

/// Which of the views to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The cluster beside the queue.
    World,
    /// The cycle inspector above the event log.
    Analysis,
    /// Embed mode's whole page.
    Embed,
    /// The header's Import and Export buttons and their menus.
    ImportExport,
    /// The lesson panel (nothing while no lesson is open and the list is closed; its code is
    /// fetched once one is).
    Lesson,
}

/// `part`, drawn once its code is here.
#[component]
pub fn FirstScreen(part: Part) -> impl IntoView {
    if part == Part::Lesson {
        let lesson = expect_context::<OpenLesson>();
        let wanted = move || lesson.at.with(Option::is_some) || lesson.list.get();
        return super::on_demand_once(wanted, || first_screen_view(Part::Lesson)).into_any();
    }
    super::on_demand(first_screen_view(part)).into_any()
}

split_point! {
    /// A split point (`#[lazy]`): the code of every view of [`Part`].
    pub fn first_screen_view(part: Part) -> AnyView {
        match part {
            Part::World => view! { <ClusterView/> <QueueView/> }.into_any(),
            Part::Analysis => view! { <Inspector/> <EventLog/> }.into_any(),
            Part::Embed => view! { <EmbedView/> }.into_any(),
            Part::ImportExport => view! { <ImportExport/> }.into_any(),
            Part::Lesson => view! { <LessonPanel/> }.into_any(),
        }
    }
}
