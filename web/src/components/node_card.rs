//! One node's card: name, cordon mark, CPU / memory / pod bars, labels, taints and its pods as
//! chips coloured by priority; a pod covered by a PodDisruptionBudget carries a small mark, and
//! the pods of the budget hovered in the budget list are outlined.

use super::pdb_view::PdbHover;
use super::priority_class;
use super::term::Term;
use crate::session::{ChipKind, Usage};
use crate::state::{Playground, Selection};
use leptos::prelude::*;
use schedlab_core::model::resources::format_usage;

/// The card of node `index` in the current frame.
#[component]
pub fn NodeCard(index: usize) -> impl IntoView {
    let state = expect_context::<Playground>();
    let card = Memo::new(move |_| state.frame.with(|f| f.as_ref()?.nodes.get(index).cloned()));
    let hover = use_context::<PdbHover>();
    move || {
        let n = card.get()?;
        let info = state.info.get()?;
        let name = n.name.clone();
        let selected = {
            let name = name.clone();
            move || {
                state
                    .selection
                    .with(|s| matches!(s, Selection::Node(x) if *x == name))
            }
        };
        let select = {
            let name = name.clone();
            move |_| state.select_node(&name)
        };
        let chips = n
            .chips
            .iter()
            .map(|c| {
                let pod = c.pod;
                let p = info.pods.get(pod).cloned();
                let (short, priority, requests) = p
                    .map(|p| (p.short, p.priority, p.requests))
                    .unwrap_or_default();
                let class = format!("chip {} {}", c.kind.as_str(), priority_class(priority));
                let title = format!(
                    "{short} · priority {priority} · {requests}{}{}",
                    match c.kind {
                        ChipKind::Bound => "",
                        ChipKind::Assumed => " · assumed: binding in flight",
                        ChipKind::Nominated => " · nominated here by preemption",
                        ChipKind::Terminating => " · preempted: terminating",
                    },
                    if c.budgeted {
                        " · covered by a PodDisruptionBudget"
                    } else {
                        ""
                    }
                );
                let highlighted = move || hover.is_some_and(|h| h.pods.with(|p| p.contains(&pod)));
                view! {
                    <button
                        class=class
                        class:selected=move || state.selected_pod.get() == Some(pod)
                        class:budgeted=c.budgeted
                        class:pdb-hover=highlighted
                        title=title
                        data-testid="pod-chip"
                        data-pod=short.clone()
                        data-kind=c.kind.as_str()
                        data-budgeted=c.budgeted.then_some("true")
                        on:click=move |ev| {
                            ev.stop_propagation();
                            state.select_pod(pod);
                        }
                    >
                        {short.clone()}
                    </button>
                }
            })
            .collect_view();
        Some(view! {
            <article
                class="node-card"
                class:cordoned=n.cordoned
                class:selected=selected
                data-testid="node-card"
                data-node=name.clone()
                on:click=select
            >
                <header>
                    <span class="node-name">{name.clone()}</span>
                    {n.cordoned.then(|| view! { <Term name="cordoned"><span class="badge cordon">"cordoned"</span></Term> })}
                </header>
                <Bar label="cpu" usage=n.cpu resource="cpu"/>
                <Bar label="mem" usage=n.memory resource="memory"/>
                <Bar label="pods" usage=n.pods resource="pods"/>
                {(!n.labels.is_empty()).then(|| view! {
                    <ul class="labels">
                        {n.labels.iter().map(|(k, v)| {
                            let short_key = k.rsplit('/').next().unwrap_or(k).to_string();
                            view! { <li title=format!("{k}={v}")>{format!("{short_key}={v}")}</li> }
                        }).collect_view()}
                    </ul>
                })}
                {(!n.taints.is_empty()).then(|| view! {
                    <ul class="taints">
                        {n.taints.iter().map(|t| {
                            let t = t.clone();
                            view! { <li><Term name="taint">{t}</Term></li> }
                        }).collect_view()}
                    </ul>
                })}
                <div class="chips">{chips}</div>
            </article>
        })
    }
}

/// One requested / allocatable bar.
#[component]
fn Bar(label: &'static str, usage: Usage, resource: &'static str) -> impl IntoView {
    let ratio = usage.ratio();
    let width = format!("width: {:.1}%", (ratio * 100.0).min(100.0));
    let text = format_usage(resource, usage.used, usage.total);
    let level = if ratio > 0.9 {
        "full"
    } else if ratio > 0.6 {
        "busy"
    } else {
        "ok"
    };
    view! {
        <div class="bar-row" data-testid=format!("bar-{label}")>
            <span class="bar-label">{label}</span>
            <span class="bar"><span class=format!("fill {level}") style=width></span></span>
            <span class="bar-text">{text}</span>
        </div>
    }
}
