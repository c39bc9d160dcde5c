//! The inspector: one pod's scheduling cycle, in the order kube-scheduler runs it, each section
//! titled with the upstream function name.

use super::find_nodes_that_fit::FindNodesThatFit;
use super::prioritize_nodes::PrioritizeNodes;
use super::schedule_one::ScheduleOne;
use super::select_host::SelectHost;
use crate::state::Playground;
use leptos::prelude::*;

/// The selected pod's cycle.
#[component]
pub fn Inspector() -> impl IntoView {
    let state = expect_context::<Playground>();
    let body = move || {
        match state.inspection.get() {
        None => view! { <p class="empty">"No pods in the scenario yet: add some in the Pods editor."</p> }
        .into_any(),
        Some(i) => match i.cycle.clone() {
            None => view! {
                <ScheduleOne inspection=i/>
                <p class="empty">
                    "This run did not schedule this pod: it is bound in the input, or it names another scheduler."
                </p>
            }
            .into_any(),
            Some(c) => view! {
                <ScheduleOne inspection=i/>
                <FindNodesThatFit table=c.filter.clone()/>
                <PrioritizeNodes table=c.scores.clone()/>
                <SelectHost cycle=c/>
            }
            .into_any(),
        },
    }
    };
    view! {
        <section class="card inspector" class:stale=move || state.is_stale() data-testid="inspector">
            <header class="card-head">
                <h2>"Cycle inspector"</h2>
                <span class="card-hint">"What kube-scheduler did for "
                    <strong class="inspected" data-testid="inspected-pod">
                        {move || state.current_pod.get().map(|p| p.strip_prefix("default/").map(str::to_string).unwrap_or(p))}
                    </strong>
                </span>
            </header>
            {body}
        </section>
    }
}
