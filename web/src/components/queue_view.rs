//! The scheduling queue at the current position: activeQ in pop order, podBackoffQ with the
//! virtual time left until each pod's retry, and unschedulableQ (v1.35: unschedulablePods) with
//! the reason each pod waits. Each sub-queue's name is a glossary term.

use super::priority_class;
use super::term::Term;
use crate::session::QueueRow;
use crate::state::{RunPosition, Selected};
use leptos::prelude::*;
use schedlab_core::scenario::SchedulerVersion;

/// Rows shown per sub-queue (the count says how many there are).
const SHOWN: usize = 100;

/// The three sub-queues.
#[component]
pub fn QueueView() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let selected = expect_context::<Selected>();
    let queue = Memo::new(move |_| position.frame.with(|f| f.as_ref().map(|f| f.queue.clone())));
    // v1.35 names and times some parts differently: (v1.17, v1.35).
    let v135 = Memo::new(move |_| {
        position.info.with(|i| {
            i.as_ref()
                .is_some_and(|i| i.scheduler == SchedulerVersion::V1_35)
        })
    });
    let section = move |title: (&'static str, &'static str),
                        id: &'static str,
                        hint: (&'static str, &'static str),
                        rows: fn(&crate::session::QueueView) -> &Vec<QueueRow>| {
        let pick =
            move |pair: (&'static str, &'static str)| if v135.get() { pair.1 } else { pair.0 };
        view! {
            <div class="subqueue" data-testid=format!("queue-{id}")>
                <h3>
                    {move || view! { <Term name=pick(title) code=true/> }}
                    <span class="count">{move || queue.with(|q| q.as_ref().map_or(0, |q| rows(q).len()))}</span>
                </h3>
                <p class="subqueue-hint">{move || pick(hint)}</p>
                <ol>
                    {move || {
                        let info = position.info.get();
                        queue.with(|q| {
                            let (Some(q), Some(info)) = (q.as_ref(), info) else {
                                return Vec::new();
                            };
                            let list = rows(q);
                            let mut out: Vec<AnyView> = list
                                .iter()
                                .take(SHOWN)
                                .map(|r| {
                                    let pod = r.pod;
                                    let p = info.pods.get(pod).cloned().unwrap_or_else(|| crate::session::PodStatic {
                                        name: String::new(),
                                        short: format!("pod {pod}"),
                                        priority: 0,
                                        requests: String::new(),
                                    });
                                    let retry = r.retry_in.map(|t| format!("retry in {t}"));
                                    let reason = r.reason.clone();
                                    let nominated = r.nominated.clone().map(|n| format!(" to {n}"));
                                    view! {
                                        <li
                                            class="queued"
                                            class:selected=move || selected.pod.get() == Some(pod)
                                            class:in-cycle=move || position.pod_in_cycle.get() == Some(pod)
                                            title=move || (position.pod_in_cycle.get() == Some(pod)).then_some("popped: scheduleOne is placing this pod")
                                            data-testid="queued-pod"
                                            data-pod=p.short.clone()
                                            on:click=move |_| selected.select_pod(pod)
                                        >
                                            <span class=format!("dot {}", priority_class(p.priority)) title=format!("priority {}", p.priority)></span>
                                            <span class="queued-name">{p.short.clone()}</span>
                                            <span class="attempts" title="times popped from activeQ">{format!("×{}", r.attempts)}</span>
                                            {retry.map(|t| view! { <span class="countdown" data-testid="countdown">{t}</span> })}
                                            {nominated.map(|t| view! { <span class="nominated-note"><Term name="nominatedNodeName">"nominated"</Term>{t}</span> })}
                                            {reason.map(|t| view! { <span class="queued-reason" title=t.clone()>{t.clone()}</span> })}
                                        </li>
                                    }
                                    .into_any()
                                })
                                .collect();
                            if list.len() > SHOWN {
                                out.push(view! { <li class="more">{format!("… and {} more", list.len() - SHOWN)}</li> }.into_any());
                            }
                            out
                        })
                    }}
                </ol>
            </div>
        }
    };
    view! {
        <section class="card queue" data-testid="queue-view">
            <header class="card-head">
                <h2>"Queue"</h2>
                <span class="card-hint">{move || position.frame.with(|f| f.as_ref().map(|f| format!("at t = {}", f.now)).unwrap_or_default())}</span>
            </header>
            {section(("activeQ", "activeQ"), "active", ("next to pop: highest priority, then oldest", "next to pop: highest priority, then oldest"), |q| &q.active)}
            {section(("podBackoffQ", "podBackoffQ"), "backoff", ("waiting out their backoff (1 s, 2 s, 4 s … 10 s)", "waiting out their backoff (1 s, 2 s, 4 s … 10 s)"), |q| &q.backoff)}
            {section(
                ("unschedulableQ", "unschedulablePods"),
                "unschedulable",
                ("waiting for a cluster change, or the 60 s flush", "waiting for an event a rejecting plugin cares about, or 5 minutes"),
                |q| &q.unschedulable,
            )}
        </section>
    }
}
