//! The controls: rewind, step back, step a cycle, step a phase, run/pause with a speed, go to
//! the end; and the scrubber over every step of the run, with the timeline's changes marked.

use crate::state::{Playground, SPEEDS};
use leptos::prelude::*;

/// The control bar under the header.
#[component]
pub fn Controls() -> impl IntoView {
    let state = expect_context::<Playground>();
    let frame = state.frame;
    let position = move || frame.with(|f| f.as_ref().map_or(0, |f| f.position));
    let end = move || frame.with(|f| f.as_ref().map_or(0, |f| f.end));
    let at_start = move || position() == 0;
    let at_end = move || position() >= end();
    let status = move || {
        frame.with(|f| {
            let Some(f) = f else {
                return String::new();
            };
            let cycles = state
                .info
                .with(|i| i.as_ref().map_or(0, |i| i.cycle_steps.len()));
            match (state.phase.get(), state.target.get()) {
                // Walking a cycle: that cycle is the one named (not the cycles done before it,
                // which would say "cycle 0" while walking cycle 1).
                (Some(p), crate::state::InspectTarget::Cycle(c)) => format!(
                    "t = {} · walking cycle {}: {} (of {cycles}) · step {} of {}",
                    f.now,
                    c + 1,
                    p.function(),
                    f.position,
                    f.end
                ),
                _ => format!(
                    "t = {} · cycle {} of {} · step {} of {}",
                    f.now, f.cycles_done, cycles, f.position, f.end
                ),
            }
        })
    };
    let next = move || {
        frame.with(|f| match f {
            // While a cycle is walked, the hint is the walk's: the inspector names the next
            // phase; Step finishes the cycle.
            Some(_) if state.phase.get().is_some() => {
                "Phase ▸ (.) walks on through this cycle · Step ▶ (→) runs it at once".to_string()
            }
            Some(f) if f.position < f.end => {
                format!("next: {}", f.next.clone().unwrap_or_default())
            }
            Some(_) => state.info.with(|i| {
                let stop = i.as_ref().map_or("", |i| i.stop.as_str());
                match stop {
                    "Quiescent" => {
                        "end of the run: nothing more can happen · press ⇤ Start (Home) to replay it from t = 0"
                            .to_string()
                    }
                    "Until" => format!(
                        "the run stopped at the default bound of {}h of virtual time with more still to happen (schedlab run --until goes further)",
                        schedlab_core::simulation::Limits::DEFAULT_UNTIL.0 / 3_600_000
                    ),
                    _ => format!(
                        "the run stopped at the default bound of {} cycles with more still to happen (schedlab run --max-cycles goes further)",
                        schedlab_core::simulation::Limits::DEFAULT_MAX_CYCLES
                    ),
                }
            }),
            None => String::new(),
        })
    };
    let marks = move || {
        let end = end().max(1) as f64;
        state
            .info
            .get()
            .map(|i| {
                i.marks
                    .iter()
                    .map(|m| {
                        let left = format!("left: {:.3}%", m.step as f64 / end * 100.0);
                        let title = format!("{} at {}", m.label, m.time);
                        let step = m.step;
                        view! {
                            <button
                                class="mark"
                                style=left
                                title=title.clone()
                                aria-label=title
                                data-testid="scrubber-mark"
                                on:click=move |_| state.scrub(step + 1)
                            ></button>
                        }
                    })
                    .collect_view()
            })
            .unwrap_or_default()
    };
    let loading = move || {
        if let Some((file, read, of)) = state.reading.get() {
            return Some(format!("reading {file}… {read} of {of} items"));
        }
        state.loading.get().map(|n| {
            if n == 0 {
                "reading the inputs and simulating…".to_string()
            } else {
                format!("simulating… {n} cycles so far")
            }
        })
    };
    view! {
        <nav class="controls" aria-label="Simulation controls" data-testid="controls" data-loads=move || state.loads.get().to_string()>
            <div class="buttons">
                <button
                    class="ctl"
                    data-testid="control-rewind"
                    title="Back to the start: t = 0, nothing scheduled yet (Home)"
                    disabled=at_start
                    on:click=move |_| state.rewind()
                >
                    "⇤ Start"
                </button>
                <button
                    class="ctl"
                    data-testid="control-back"
                    title="Step back one cycle (←)"
                    disabled=at_start
                    on:click=move |_| state.step_back()
                >
                    "◀ Back"
                </button>
                <button
                    class="ctl primary"
                    data-testid="control-step"
                    title="Run the next scheduling cycle (→)"
                    disabled=at_end
                    on:click=move |_| state.step_cycle()
                >
                    "Step ▶"
                </button>
                <button
                    class="ctl"
                    data-testid="control-phase"
                    title="Step inside the cycle: scheduleOne → findNodesThatFit → prioritizeNodes → selectHost → assume → bind, or → preempt (.)"
                    disabled=move || at_end() && state.phase.get().is_none()
                    on:click=move |_| state.step_phase()
                >
                    "Phase ▸"
                </button>
                <button
                    class="ctl run"
                    class:running=move || state.running.get()
                    data-testid="control-run"
                    title="Run and pause (Space)"
                    on:click=move |_| state.toggle_run()
                >
                    {move || if state.running.get() { "❚❚ Pause" } else { "▶▶ Run" }}
                </button>
                <label class="speed" title="Scheduling cycles per second while running">
                    <select
                        data-testid="control-speed"
                        prop:value=move || state.speed.get().to_string()
                        on:change=move |ev| {
                            if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                                state.set_speed(i);
                            }
                        }
                    >
                        {SPEEDS
                            .iter()
                            .enumerate()
                            .map(|(i, s)| view! { <option value=i.to_string()>{format!("{s} cycle{}/s", if *s == 1 { "" } else { "s" })}</option> })
                            .collect_view()}
                    </select>
                </label>
                <button
                    class="ctl"
                    data-testid="control-end"
                    title="Go to the end of the run (End)"
                    disabled=at_end
                    on:click=move |_| state.to_end()
                >
                    "End ⇥"
                </button>
                <button
                    class="ctl help-button"
                    data-testid="help-open"
                    title="Keyboard shortcuts (?)"
                    on:click=move |_| state.help.set(true)
                >
                    "?"
                </button>
            </div>
            <div class="scrubber">
                <input
                    type="range"
                    min="0"
                    max=move || end().to_string()
                    prop:value=move || position().to_string()
                    data-testid="scrubber"
                    aria-label="Position in the run (steps)"
                    on:input=move |ev| {
                        if let Ok(p) = event_target_value(&ev).parse::<usize>() {
                            state.scrub(p);
                        }
                    }
                />
                <div class="marks" aria-label="Timeline changes">{marks}</div>
            </div>
            <div class="position">
                <span data-testid="position">{status}</span>
                <span class="next" data-testid="next-step">{next}</span>
                <span class="loading" aria-live="polite">{loading}</span>
            </div>
        </nav>
    }
}
