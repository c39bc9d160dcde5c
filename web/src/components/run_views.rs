//! The views of a run (the cluster, the queue, the cycle inspector, the events, and embed
//! mode's compact page) behind one split point: their code comes with the first screen but
//! not in the page's first module, fetched while the engine's own code arrives (nothing of a
//! run can be drawn before the engine has answered).

use super::cluster_view::ClusterView;
use super::embed_view::EmbedView;
use super::event_log::EventLog;
use super::inspector::Inspector;
use super::queue_view::QueueView;
use leptos::prelude::*;

/// Which of the run's views to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunPart {
    /// The cluster beside the queue.
    World,
    /// The cycle inspector above the event log.
    Analysis,
    /// Embed mode's whole page.
    Embed,
}

/// `part`, drawn once its code is here.
#[component]
pub fn RunViews(part: RunPart) -> impl IntoView {
    super::on_demand(run_view(part))
}

split_point! {
    /// A split point (`#[lazy]`): the code of every run view.
    fn run_view(part: RunPart) -> AnyView {
        match part {
            RunPart::World => view! { <ClusterView/> <QueueView/> }.into_any(),
            RunPart::Analysis => view! { <Inspector/> <EventLog/> }.into_any(),
            RunPart::Embed => view! { <EmbedView/> }.into_any(),
        }
    }
}
