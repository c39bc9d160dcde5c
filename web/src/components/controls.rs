//! The controls: rewind, step back, step a cycle, step a phase, run/pause with a speed, go to
//! the end; and the scrubber over every step of the run, with the timeline's changes marked.

use crate::analysis::Phase;
use crate::session::{Frame, SessionInfo};
use crate::state::{HelpOpen, InspectTarget, Loads, RunPosition, SPEEDS};
use leptos::prelude::*;
use schedlab_core::simulation::{Limits, StopReason};

/// The control bar under the header.
#[component]
pub fn Controls() -> impl IntoView {
    let loads = expect_context::<Loads>();
    view! {
        <nav class="controls" aria-label="Simulation controls" data-testid="controls" data-loads=move || loads.loads.get().to_string()>
            <Buttons/>
            <Scrubber/>
            <Status/>
        </nav>
    }
}

/// The buttons and the speed.
#[component]
fn Buttons() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let HelpOpen(help) = expect_context::<HelpOpen>();
    let frame = position.frame;
    let at = move || frame.with(|f| f.as_ref().map_or(0, |f| f.position));
    let end = move || frame.with(|f| f.as_ref().map_or(0, |f| f.end));
    let at_start = move || at() == 0;
    let at_end = move || at() >= end();
    view! {
        <div class="buttons">
            <button
                class="ctl"
                data-testid="control-rewind"
                title="Back to the start: t = 0, nothing scheduled yet (Home)"
                disabled=at_start
                on:click=move |_| position.rewind()
            >
                "⇤ Start"
            </button>
            <button
                class="ctl"
                data-testid="control-back"
                title="Step back one cycle (←)"
                disabled=at_start
                on:click=move |_| position.step_back()
            >
                "◀ Back"
            </button>
            <button
                class="ctl primary"
                data-testid="control-step"
                title="Run the next scheduling cycle (→)"
                disabled=at_end
                on:click=move |_| position.step_cycle()
            >
                "Step ▶"
            </button>
            <button
                class="ctl"
                data-testid="control-phase"
                title="Step inside the cycle: scheduleOne → findNodesThatFit → prioritizeNodes → selectHost → assume → bind, or → preempt (.)"
                disabled=move || at_end() && position.phase.get().is_none()
                on:click=move |_| position.step_phase()
            >
                "Phase ▸"
            </button>
            <button
                class="ctl run"
                class:running=move || position.running.get()
                data-testid="control-run"
                title="Run and pause (Space)"
                on:click=move |_| position.toggle_run()
            >
                {move || if position.running.get() { "❚❚ Pause" } else { "▶▶ Run" }}
            </button>
            <label class="speed" title="Scheduling cycles per second while running">
                <select
                    data-testid="control-speed"
                    prop:value=move || position.speed.get().to_string()
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            position.set_speed(i);
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
                on:click=move |_| position.to_end()
            >
                "End ⇥"
            </button>
            <button
                class="ctl help-button"
                data-testid="help-open"
                title="Keyboard shortcuts (?)"
                on:click=move |_| help.set(true)
            >
                "?"
            </button>
        </div>
    }
}

/// The scrubber over every step of the run, with the timeline's changes marked.
#[component]
fn Scrubber() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let frame = position.frame;
    let at = move || frame.with(|f| f.as_ref().map_or(0, |f| f.position));
    let end = move || frame.with(|f| f.as_ref().map_or(0, |f| f.end));
    let marks = move || {
        let end = end().max(1) as f64;
        position
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
                                on:click=move |_| position.scrub(step + 1)
                            ></button>
                        }
                    })
                    .collect_view()
            })
            .unwrap_or_default()
    };
    view! {
        <div class="scrubber">
            <input
                type="range"
                min="0"
                max=move || end().to_string()
                prop:value=move || at().to_string()
                data-testid="scrubber"
                aria-label="Position in the run (steps)"
                on:input=move |ev| {
                    if let Ok(p) = event_target_value(&ev).parse::<usize>() {
                        position.scrub(p);
                    }
                }
            />
            <div class="marks" aria-label="Timeline changes">{marks}</div>
        </div>
    }
}

/// Where the run stands, what the next step does, and a load's progress.
#[component]
fn Status() -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let loads = expect_context::<Loads>();
    let status = move || {
        let walked = match (position.phase.get(), position.target.get()) {
            (Some(p), InspectTarget::Cycle(c)) => Some((p, c)),
            _ => None,
        };
        let cycles = position
            .info
            .with(|i| i.as_ref().map_or(0, |i| i.cycle_steps.len()));
        position
            .frame
            .with(|f| f.as_ref().map(|f| where_it_stands(f, cycles, walked)))
            .unwrap_or_default()
    };
    let next = move || {
        let walking = position.phase.get().is_some();
        position.frame.with(|f| {
            f.as_ref().map(|f| {
                position
                    .info
                    .with(|i| what_comes_next(f, i.as_deref(), walking))
            })
        })
    };
    let loading = move || {
        if let Some((file, read, of)) = loads.reading.get() {
            return Some(format!("reading {file}… {read} of {of} items"));
        }
        loads.loading.get().map(|n| {
            if n == 0 {
                "reading the inputs and simulating…".to_string()
            } else {
                format!("simulating… {n} cycles so far")
            }
        })
    };
    view! {
        <div class="position">
            <span data-testid="position">{status}</span>
            <span class="next" data-testid="next-step">{move || next().unwrap_or_default()}</span>
            <span class="loading" aria-live="polite">{loading}</span>
        </div>
    }
}

/// The status line: the virtual time, the cycle, the step. `walked`: the phase and cycle
/// walked, which is the cycle named (not the cycles done before it, which would say "cycle 0"
/// while walking cycle 1).
fn where_it_stands(f: &Frame, cycles: usize, walked: Option<(Phase, usize)>) -> String {
    match walked {
        Some((p, c)) => format!(
            "t = {} · walking cycle {}: {} (of {cycles}) · step {} of {}",
            f.now,
            c + 1,
            p.function(),
            f.position,
            f.end
        ),
        None => format!(
            "t = {} · cycle {} of {} · step {} of {}",
            f.now, f.cycles_done, cycles, f.position, f.end
        ),
    }
}

/// The hint beside the status: what the next step does, or, at the end, why the run ended.
/// While a cycle is walked, the hint is the walk's: the inspector names the next phase; Step
/// finishes the cycle.
fn what_comes_next(f: &Frame, info: Option<&SessionInfo>, walking: bool) -> String {
    if walking {
        return "Phase ▸ (.) walks on through this cycle · Step ▶ (→) runs it at once".to_string();
    }
    if f.position < f.end {
        return format!("next: {}", f.next.clone().unwrap_or_default());
    }
    match info.map(|i| i.stop) {
        Some(StopReason::Quiescent) => {
            "end of the run: nothing more can happen · press ⇤ Start (Home) to replay it from t = 0"
                .to_string()
        }
        Some(StopReason::Until) => format!(
            "the run stopped at the default bound of {}h of virtual time with more still to happen (schedlab run --until goes further)",
            Limits::DEFAULT_UNTIL.0 / 3_600_000
        ),
        _ => format!(
            "the run stopped at the default bound of {} cycles with more still to happen (schedlab run --max-cycles goes further)",
            Limits::DEFAULT_MAX_CYCLES
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::QueueView;
    use schedlab_core::model::Millis;

    fn frame(position: usize, end: usize, next: Option<&str>) -> Frame {
        Frame {
            position,
            end,
            now: Millis(1500),
            cycles_done: 1,
            last_cycle: Some(0),
            next: next.map(str::to_string),
            nodes: Vec::new(),
            pods: Vec::new(),
            queue: QueueView::default(),
            events_done: 0,
            pdbs: Vec::new(),
        }
    }

    #[test]
    fn the_status_names_the_cycle_walked_rather_than_the_cycles_done() {
        let f = frame(3, 7, None);
        assert_eq!(
            where_it_stands(&f, 3, None),
            "t = 1.5s · cycle 1 of 3 · step 3 of 7"
        );
        assert_eq!(
            where_it_stands(&f, 3, Some((Phase::Filter, 1))),
            "t = 1.5s · walking cycle 2: findNodesThatFit (of 3) · step 3 of 7"
        );
    }

    #[test]
    fn the_hint_says_what_comes_next_or_why_the_run_ended() {
        let next = frame(3, 7, Some("scheduleOne default/web-1"));
        assert_eq!(
            what_comes_next(&next, None, false),
            "next: scheduleOne default/web-1"
        );
        assert!(what_comes_next(&next, None, true).starts_with("Phase ▸ (.) walks on"));
        let end = frame(7, 7, None);
        assert!(what_comes_next(&end, None, false).contains("default bound of 200000 cycles"));
    }
}
