//! The placements table: every pod in input order, its phase and its node. Clicking a row shows
//! that pod in the inspector.

use crate::analysis::PodRow;
use crate::state::Playground;
use leptos::prelude::*;

/// Where every pod went.
#[component]
pub fn Placements() -> impl IntoView {
    let state = expect_context::<Playground>();
    view! {
        <section class="card placements" class:stale=move || state.is_stale()>
            <header class="card-head">
                <h2>"Placements"</h2>
                <span class="card-hint">"Pods in input order; the queue takes them by priority. Click one to inspect its cycle."</span>
            </header>
            <Show when=move || state.is_stale()>
                <p class="stale-note" data-testid="stale-note">
                    "The inputs have errors: this is the last valid result."
                </p>
            </Show>
            <div class="table-scroll">
                <table class="placements-table" data-testid="placements">
                    <thead>
                        <tr>
                            <th scope="col">"Pod"</th>
                            <th scope="col" class="num">"Priority"</th>
                            <th scope="col">"Requests"</th>
                            <th scope="col">"Phase"</th>
                            <th scope="col">"Node"</th>
                            <th scope="col" class="num" title="Scheduling cycle">"Cycle"</th>
                        </tr>
                    </thead>
                    <tbody>
                        // Keyed by the whole row: a row whose placement changed is rebuilt.
                        <For
                            each=move || state.rows.get()
                            key=|row| row.clone()
                            children=move |row| view! { <PlacementRow row=row/> }
                        />
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn PlacementRow(row: PodRow) -> impl IntoView {
    let state = expect_context::<Playground>();
    let name = row.name.clone();
    let selected = {
        let name = name.clone();
        move || {
            state
                .current_pod
                .with(|p| p.as_deref() == Some(name.as_str()))
        }
    };
    let select = {
        let name = name.clone();
        move || state.select(&name)
    };
    let select_key = select.clone();
    let phase_class = format!("phase phase-{}", row.phase.to_lowercase());
    view! {
        <tr
            class="pod-row"
            class:selected=selected.clone()
            aria-selected=move || selected().to_string()
            tabindex="0"
            data-testid="pod-row"
            data-pod=row.short_name().to_string()
            on:click=move |_| select()
            on:keydown=move |ev| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    select_key();
                }
            }
        >
            <td class="pod-name">{row.short_name().to_string()}</td>
            <td class="num">{row.priority}</td>
            <td class="requests">{row.requests.clone()}</td>
            <td data-testid="pod-phase">
                <span class=phase_class>{row.phase}</span>
            </td>
            <td class="node" data-testid="pod-node">{row.node.clone().unwrap_or_else(|| "—".into())}</td>
            <td class="num muted cycle">{row.cycle.map(|c| c.to_string()).unwrap_or_else(|| "—".into())}</td>
        </tr>
    }
}
