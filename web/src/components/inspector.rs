//! The cycle inspector: one `scheduleOne`, in the order kube-scheduler runs it, each section
//! titled with the upstream function name. When stepping phase by phase, the current phase is
//! highlighted and the later ones wait.

use super::assume_bind::AssumeBind;
use super::extender_calls::ExtenderCalls;
use super::find_nodes_that_fit::FindNodesThatFit;
use super::preempt::Preempt;
use super::prioritize_nodes::PrioritizeNodes;
use super::schedule_one::ScheduleOne;
use super::select_host::SelectHost;
use crate::analysis::Phase;
use crate::embed::PageMode;
use crate::state::{CycleInspector, Loads, RunPosition};
use leptos::prelude::*;

/// The inspected cycle.
#[component]
pub fn Inspector() -> impl IntoView {
    let loads = expect_context::<Loads>();
    let position = expect_context::<RunPosition>();
    let inspector = expect_context::<CycleInspector>();
    let mode = expect_context::<PageMode>();
    // Walking a cycle phase by phase: keep the current phase in sight (on a first visit, only
    // once the visitor acts: [`crate::scroll_hold`]).
    let embed = mode.embed;
    Effect::new(move |_| {
        if position.phase.get().is_some() {
            request_animation_frame(move || {
                if let Ok(Some(el)) = document().query_selector(".phase-block.current") {
                    if embed {
                        scroll_pane_to(&el);
                    } else if !crate::scroll_hold::page_scroll_held() {
                        let options = web_sys::ScrollIntoViewOptions::new();
                        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                        el.scroll_into_view_with_scroll_into_view_options(&options);
                    }
                }
            });
        }
    });
    let body = move || {
        let Some(i) = inspector.inspection.get() else {
            let empty = position
                .frame
                .with(|f| f.as_ref().is_some_and(|f| f.position == 0));
            let text = if empty {
                "At the start: no cycle has run yet. Press Step ▶ (or →) to run the first one, or Phase ▸ (.) to walk through it."
            } else {
                "No cycle to show: add pending pods in the Pods editor."
            };
            return view! { <p class="empty" data-testid="inspector-empty">{text}</p> }.into_any();
        };
        let Some(c) = i.cycle.clone() else {
            return view! {
                <ScheduleOne inspection=i/>
                <p class="empty">
                    "No cycle for this pod yet: it is bound in the input, names another scheduler, or has not been popped from the queue at this point of the run."
                </p>
            }
            .into_any();
        };
        let scheduled = c.chosen.is_some();
        let phases = Phase::of(scheduled);
        let current = position.phase.get();
        let shown = move |p: Phase| current.is_none_or(|cur| p <= cur);
        let class = move |p: Phase| {
            if current == Some(p) {
                "phase-block current"
            } else {
                "phase-block"
            }
        };
        let strip = phases
            .iter()
            .map(|&p| {
                let state_class = match current {
                    Some(cur) if cur == p => "phase-chip current",
                    Some(cur) if p < cur => "phase-chip done",
                    Some(_) => "phase-chip later",
                    None => "phase-chip",
                };
                view! { <li class=state_class data-testid="phase-chip" data-phase=p.function()><code>{p.function()}</code></li> }
            })
            .collect_view();
        let pod = i.pod.clone();
        let waiting = current.map(|cur| {
            let next = phases.iter().find(|&&p| p > cur).map(|p| p.function());
            match next {
                Some(n) => format!("Press Phase ▸ (.) for {n}."),
                None => "Cycle done. Press Phase ▸ (.) for the next cycle.".to_string(),
            }
        });
        view! {
            <ol class="phase-strip" data-testid="phase-strip">{strip}</ol>
            {waiting.map(|w| view! { <p class="phase-hint" data-testid="phase-hint">{w}</p> })}
            <div class=class(Phase::QueuePop)><ScheduleOne inspection=i.clone() phase=current/></div>
            {shown(Phase::Filter).then(|| view! { <div class=class(Phase::Filter)><FindNodesThatFit table=c.filter.clone() modern=c.modern.clone() claims=c.claims.clone()/><ExtenderCalls calls=c.extenders.clone() phase=Phase::Filter/></div> })}
            {(scheduled && shown(Phase::Score)).then(|| view! { <div class=class(Phase::Score)><PrioritizeNodes table=c.scores.clone() modern=c.modern.clone()/><ExtenderCalls calls=c.extenders.clone() phase=Phase::Score fresh_nodes=c.fresh_nodes/></div> })}
            {(scheduled && shown(Phase::SelectHost)).then(|| view! { <div class=class(Phase::SelectHost)><SelectHost cycle=c.clone()/></div> })}
            {(scheduled && shown(Phase::Assume)).then(|| view! {
                <div class=move || if current == Some(Phase::Assume) || current == Some(Phase::Bind) { "phase-block current" } else { "phase-block" }>
                    <AssumeBind cycle=c.clone() pod=pod.clone() bound=current.is_none_or(|p| p >= Phase::Bind)/>
                    {current.is_none_or(|p| p >= Phase::Bind).then(|| view! { <ExtenderCalls calls=c.extenders.clone() phase=Phase::Bind/> })}
                </div>
            })}
            {(!scheduled && shown(Phase::Preempt)).then(|| view! { <div class=class(Phase::Preempt)><Preempt preemption=c.preemption.clone() modern=c.modern.clone()/><ExtenderCalls calls=c.extenders.clone() phase=Phase::Preempt/></div> })}
        }
        .into_any()
    };
    view! {
        <section class="card inspector" class:stale=move || loads.is_stale() data-testid="inspector">
            <header class="card-head">
                <h2>"Cycle inspector"</h2>
                <span class="card-hint">
                    {move || inspector.inspection.with(|i| i.as_ref().and_then(|i| i.cycle.as_ref()).map(|c| format!("cycle {} of {} at t = {} · ", c.number, c.of, c.time)))}
                    {move || inspector.inspection.with(|i| i.is_some()).then_some("what kube-scheduler did for ")}
                    <strong class="inspected" data-testid="inspected-pod">
                        {move || inspector.inspection.with(|i| i.as_ref().map(|i| crate::session::short_name(&i.pod).to_string()))}
                    </strong>
                </span>
            </header>
            {body}
        </section>
    }
}

/// Brings `el` into sight inside its embed pane only: `scrollIntoView` would scroll the host
/// page around the frame too.
fn scroll_pane_to(el: &web_sys::Element) {
    let Ok(Some(pane)) = el.closest(".embed-pane") else {
        return;
    };
    let top = el.get_bounding_client_rect().top() - pane.get_bounding_client_rect().top();
    let height = el.get_bounding_client_rect().height();
    let view = f64::from(pane.client_height());
    if top < 0.0 || top + height > view {
        let target = f64::from(pane.scroll_top()) + top - 8.0;
        pane.set_scroll_top(target.max(0.0) as i32);
    }
}
