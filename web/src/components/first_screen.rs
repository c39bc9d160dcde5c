//! The views of the first screen that are not in the page's first module: the run's (the
//! cluster, the queue, the cycle inspector, the events, and embed mode's page), the header's
//! Import and Export, and the lesson panel. They are one split point, fetched at start beside
//! the engine's own code: nothing of a run can be drawn before the engine's first answer, and
//! one chunk for them all loads faster than one per view (wasm-split gives every set of split
//! points that share a function a chunk of its own, so each split point brings small chunks).

use super::cluster_view::ClusterView;
use super::embed_view::EmbedView;
use super::event_log::EventLog;
use super::import_export::ImportExportNow;
use super::inspector::Inspector;
use super::lesson_panel::LessonPanelNow;
use super::queue_view::QueueView;
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
    /// The lesson panel.
    Lesson,
}

/// `part`, drawn once its code is here.
#[component]
pub fn FirstScreen(part: Part) -> impl IntoView {
    super::on_demand(first_screen_view(part))
}

split_point! {
    /// A split point (`#[lazy]`): the code of every view of [`Part`].
    pub fn first_screen_view(part: Part) -> AnyView {
        match part {
            Part::World => view! { <ClusterView/> <QueueView/> }.into_any(),
            Part::Analysis => view! { <Inspector/> <EventLog/> }.into_any(),
            Part::Embed => view! { <EmbedView/> }.into_any(),
            Part::ImportExport => view! { <ImportExportNow/> }.into_any(),
            Part::Lesson => view! { <LessonPanelNow/> }.into_any(),
        }
    }
}
