//! The cluster view: a card per node with its bars and pods, or, past
//! [`HEAT_MAP_THRESHOLD`] nodes, a heat-map with the selected node's card beneath it; then the
//! PodDisruptionBudgets, when the scenario has any.

use super::heat_map::HeatMap;
use super::node_card::NodeCard;
use super::pdb_view::{PdbHover, PdbList};
use super::placements::Placements;
use super::PriorityLegend;
use crate::state::{Loads, RunPosition, Selected, Selection};
use leptos::prelude::*;

/// More nodes than this are drawn as a heat-map.
pub const HEAT_MAP_THRESHOLD: usize = 200;

/// The nodes at the current position.
#[component]
pub fn ClusterView() -> impl IntoView {
    let loads = expect_context::<Loads>();
    let position = expect_context::<RunPosition>();
    let selected = expect_context::<Selected>();
    provide_context(PdbHover::new(position));
    let count = Memo::new(move |_| {
        position
            .frame
            .with(|f| f.as_ref().map_or(0, |f| f.nodes.len()))
    });
    let big = move || count.get() > HEAT_MAP_THRESHOLD;
    let pods_tab = RwSignal::new(false);
    let cards = move || {
        position.frame.with(|f| {
            f.as_ref()
                .map(|f| {
                    f.nodes
                        .iter()
                        .enumerate()
                        .map(|(i, _)| view! { <NodeCard index=i/> })
                        .collect_view()
                })
                .unwrap_or_default()
        })
    };
    let selected_index = move || {
        let Selection::Node(name) = selected.selection.get() else {
            return None;
        };
        position
            .frame
            .with(|f| f.as_ref()?.nodes.iter().position(|n| n.name == name))
    };
    view! {
        <section class="card cluster" data-testid="cluster-view" class:stale=move || loads.is_stale()>
            <header class="card-head">
                <h2>"Cluster"</h2>
                <span class="segmented" role="tablist">
                    <button role="tab" class:active=move || !pods_tab.get() data-testid="view-nodes" on:click=move |_| pods_tab.set(false)>"Nodes"</button>
                    <button role="tab" class:active=move || pods_tab.get() data-testid="view-pods" on:click=move |_| pods_tab.set(true)>"Pods"</button>
                </span>
                <PriorityLegend/>
            </header>
            <Show when=move || loads.is_stale()>
                <p class="stale-note" data-testid="stale-note">
                    {move || if position.info.with(Option::is_some) {
                        "The inputs have errors: this is the last valid result."
                    } else {
                        "The inputs have errors, and no valid version of them has run yet: fix them to see the cluster."
                    }}
                </p>
            </Show>
            <Show when=move || pods_tab.get()>
                <Placements/>
            </Show>
            <Show when=move || !pods_tab.get()>
            <p class="card-hint cluster-hint">
                {move || {
                    if big() {
                        format!("{} nodes at this point of the run · one cell per node, coloured by CPU requested / allocatable", count.get())
                    } else {
                        format!("{} nodes · bars: requested / allocatable · chips are pods: solid bound, dashed assumed, dotted nominated, struck through terminating", count.get())
                    }
                }}
            </p>
            <Show
                when=big
                fallback=move || view! { <div class="node-grid" data-testid="node-grid">{cards}</div> }
            >
                <HeatMap/>
                {move || match selected_index() {
                    Some(i) => view! { <div class="node-grid single"><NodeCard index=i/></div> }.into_any(),
                    None => view! {
                        <p class="empty">"Click a cell to see that node's card. Colour is CPU requested / allocatable."</p>
                    }
                    .into_any(),
                }}
            </Show>
            </Show>
            <PdbList/>
        </section>
    }
}
