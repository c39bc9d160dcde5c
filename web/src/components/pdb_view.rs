//! The PodDisruptionBudgets at the current position, under the cluster: each budget's name,
//! selector and `disruptionsAllowed` (as the input's status gives it), and the pods it covers
//! now, as chips (a pod deleted by then is no longer listed). Hovering a budget outlines its
//! pods on the node cards; clicking a pod selects it, as everywhere.

use super::priority_class;
use super::term::Term;
use crate::session::PodStatic;
use crate::state::{RunPosition, Selected};
use leptos::prelude::*;
use schedlab_core::simulation::PodId;

/// The budget under the pointer and its pods, shared with the node cards (a context the
/// cluster view provides).
#[derive(Clone, Copy)]
pub struct PdbHover {
    /// The hovered budget, by index in the frame's list.
    pub pdb: RwSignal<Option<usize>>,
    /// Its pods at the current position.
    pub pods: Memo<Vec<PodId>>,
}

impl PdbHover {
    /// Nothing hovered.
    pub fn new(position: RunPosition) -> PdbHover {
        let pdb = RwSignal::new(None::<usize>);
        let pods = Memo::new(move |_| {
            let Some(i) = pdb.get() else {
                return Vec::new();
            };
            position.frame.with(|f| {
                f.as_ref()
                    .and_then(|f| f.pdbs.get(i))
                    .map(|b| b.pods.clone())
                    .unwrap_or_default()
            })
        });
        PdbHover { pdb, pods }
    }
}

/// The budget list (nothing when the scenario has none).
#[component]
pub fn PdbList() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let selected = expect_context::<Selected>();
    let hover = expect_context::<PdbHover>();
    // Each budget with the phase of each of its pods (what the chips show).
    let pdbs = Memo::new(move |_| {
        position.frame.with(|f| {
            let Some(f) = f.as_ref() else {
                return Vec::new();
            };
            f.pdbs
                .iter()
                .map(|b| {
                    let phases: Vec<&'static str> = b
                        .pods
                        .iter()
                        .map(|&p| f.pods.get(p).map_or("Pending", |s| s.phase))
                        .collect();
                    (b.clone(), phases)
                })
                .collect::<Vec<_>>()
        })
    });
    move || {
        let list = pdbs.get();
        if list.is_empty() {
            return None;
        }
        let info = position.info.get()?;
        let count = list.len();
        let rows = list
            .into_iter()
            .enumerate()
            .map(|(i, (b, phases))| {
                let chips = b
                    .pods
                    .iter()
                    .zip(phases)
                    .map(|(&pod, phase)| {
                        let p = info.pods.get(pod).cloned().unwrap_or_else(|| PodStatic {
                            name: String::new(),
                            short: format!("pod {pod}"),
                            priority: 0,
                            requests: String::new(),
                        });
                        let class = format!(
                            "chip pdb-pod {} phase-{}",
                            priority_class(p.priority),
                            phase.to_lowercase().replace(' ', "-")
                        );
                        view! {
                            <button
                                class=class
                                class:selected=move || selected.pod.get() == Some(pod)
                                title=format!("{} · priority {} · {phase}", p.short, p.priority)
                                data-testid="pdb-pod"
                                data-pod=p.short.clone()
                                on:click=move |_| selected.select_pod(pod)
                            >
                                {p.short.clone()}
                            </button>
                        }
                    })
                    .collect_view();
                let empty = b.pods.is_empty();
                let selector = if b.selector.is_empty() {
                    "no selector: covers no pod".to_string()
                } else {
                    b.selector.clone()
                };
                view! {
                    <li
                        class="pdb"
                        class:hovered=move || hover.pdb.get() == Some(i)
                        data-testid="pdb"
                        data-pdb=b.name.clone()
                        on:mouseenter=move |_| hover.pdb.set(Some(i))
                        on:mouseleave=move |_| hover.pdb.set(None)
                    >
                        <div class="pdb-head">
                            <span class="pdb-name mono">{b.name.clone()}</span>
                            <span class="pdb-selector mono" data-testid="pdb-selector">{selector}</span>
                            <span class="pdb-allowed" class:none-left=b.disruptions_allowed <= 0>
                                <Term name="disruptionsAllowed"/>
                                " "
                                <b data-testid="pdb-allowed">{b.disruptions_allowed}</b>
                            </span>
                        </div>
                        <div class="pdb-pods">
                            {if empty {
                                view! { <span class="muted">"covers no pod at this point"</span> }.into_any()
                            } else {
                                chips.into_any()
                            }}
                        </div>
                    </li>
                }
            })
            .collect_view();
        Some(view! {
            <div class="pdbs" data-testid="pdb-view">
                <h3>
                    <Term name="PodDisruptionBudget">"PodDisruptionBudgets"</Term>
                    <span class="count">{count}</span>
                    <span class="card-hint">"the pods each covers now · hover one to mark its pods"</span>
                </h3>
                <ul>{rows}</ul>
            </div>
        })
    }
}
