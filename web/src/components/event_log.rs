//! The event log, as `kubectl get events` lists it (newest first), up to the current position.
//! A filter keeps the events of one pod or node; clicking an event jumps to its cycle. The
//! newest [`FIRST_SHOWN`] show at first, and more on request: a big run's 200 rows took some
//! 20 ms of the browser's style and layout in the frame that shows the run.

use super::search_box::SearchBox;
use crate::state::{CycleInspector, Loads, RunPosition};
use leptos::prelude::*;

/// Events shown at first (the filter, or the button under the table, finds the rest).
const FIRST_SHOWN: usize = 50;
/// Events the button under the table adds.
const MORE_SHOWN: usize = 200;

/// The event log.
#[component]
pub fn EventLog() -> impl IntoView {
    let loads = expect_context::<Loads>();
    let position = expect_context::<RunPosition>();
    let inspector = expect_context::<CycleInspector>();
    let filter = RwSignal::new(String::new());
    // Rows asked for, by run and filter: a new run or another filter starts from the first
    // rows again.
    let asked = RwSignal::new((0_u64, String::new(), FIRST_SHOWN));
    let rows = Memo::new(move |_| {
        let run = loads.loads.get();
        let shown = filter
            .with(|f| asked.with(|(r, a, n)| if *r == run && a == f { *n } else { FIRST_SHOWN }));
        let done = position
            .frame
            .with(|f| f.as_ref().map_or(0, |f| f.events_done));
        let needle = filter.get().to_lowercase();
        position.info.with(|i| {
            let Some(i) = i else {
                return (0, Vec::new());
            };
            let done = done.min(i.events.len());
            let matching: Vec<usize> = (0..done)
                .rev()
                .filter(|&k| {
                    needle.is_empty() || {
                        let e = &i.events[k];
                        e.object.to_lowercase().contains(&needle)
                            || e.message.to_lowercase().contains(&needle)
                    }
                })
                .collect();
            let total = matching.len();
            (total, matching.into_iter().take(shown).collect())
        })
    });
    let inspected_cycle = move || match inspector.inspected.get() {
        Some(crate::state::Inspected::Cycle(c)) => Some(c),
        _ => None,
    };
    view! {
        <section class="card events" data-testid="event-log">
            <header class="card-head">
                <h2>"Events"</h2>
                <span class="card-hint">"kubectl get events, newest first · click one to inspect its cycle"</span>
                <SearchBox value=filter class="filter" placeholder="filter by pod or node" label="Filter events by pod or node" test_id="event-filter"/>
            </header>
            <div class="table-scroll events-scroll">
                <table class="events-table">
                    <thead>
                        <tr>
                            <th scope="col">"LAST SEEN"</th>
                            <th scope="col">"TYPE"</th>
                            <th scope="col">"REASON"</th>
                            <th scope="col">"OBJECT"</th>
                            <th scope="col">"MESSAGE"</th>
                        </tr>
                    </thead>
                    <tbody>
                        // Keyed by event index: a step adds its new rows and keeps the others.
                        <For
                            each=move || {
                                // A new run never reuses the rows of the old one, even when
                                // the indices are the same.
                                let generation = loads.loads.get();
                                rows.get().1.into_iter().map(move |k| (generation, k))
                            }
                            key=|key| *key
                            children=move |(_, k)| {
                                let e = position.info.with_untracked(|i| i.as_ref().and_then(|i| i.events.get(k).cloned()));
                                e.map(|e| {
                                    let cycle = e.cycle;
                                    let step = e.step;
                                    view! {
                                        <tr
                                            class=format!("event {}", e.kind.to_lowercase())
                                            class:current=move || inspected_cycle() == Some(cycle)
                                            data-testid="event-row"
                                            data-reason=e.reason
                                            tabindex="0"
                                            on:click=move |_| position.jump_to_event(cycle, step)
                                            on:keydown=move |ev| {
                                                if ev.key() == "Enter" {
                                                    position.jump_to_event(cycle, step);
                                                }
                                            }
                                        >
                                            <td class="mono">{e.time.to_string()}</td>
                                            <td>{e.kind}</td>
                                            <td>{e.reason}</td>
                                            <td class="mono">{e.object.clone()}</td>
                                            <td class="message">{e.message.clone()}</td>
                                        </tr>
                                    }
                                })
                            }
                        />
                    </tbody>
                </table>
                {move || {
                    let (total, list) = rows.get();
                    (total > list.len()).then(|| {
                        let more = MORE_SHOWN.min(total - list.len());
                        view! {
                            <p class="more">
                                {format!("showing the newest {} of {total}; filter to find older ones, or ", list.len())}
                                <button class="link" data-testid="events-more" on:click=move |_| {
                                    let now = (loads.loads.get_untracked(), filter.get_untracked());
                                    let shown = rows.with_untracked(|r| r.1.len());
                                    asked.set((now.0, now.1, shown + MORE_SHOWN));
                                }>
                                    {format!("show {more} more")}
                                </button>
                            </p>
                        }
                    })
                }}
                {move || (rows.with(|r| r.0 == 0)).then(|| view! { <p class="empty">"No events yet at this point of the run."</p> })}
            </div>
        </section>
    }
}
