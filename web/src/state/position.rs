//! The run position: the loaded run's facts, the frame on screen, the inspected cycle and the
//! phase being walked, and running at a speed (a ticker of [`SPEEDS`]); the controls' actions
//! (Step, Back, Phase ▸, Start, End, the scrubber, an event clicked, Run and Pause). Where each
//! one moves is worked out by [`super::stepping`]; this context asks the engine for the frame
//! there and shows it.

use super::stepping::{self, InspectTarget, Inspected, PhaseStep};
use crate::analysis::Phase;
use crate::engine;
use crate::link::View;
use crate::session::{Frame, SessionInfo};
use gloo_timers::callback::Interval;
use leptos::prelude::*;
use std::sync::Arc;

/// Run speeds, in scheduling cycles per second.
pub const SPEEDS: [u32; 6] = [1, 2, 5, 10, 30, 100];

/// Where the run stands, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct RunPosition {
    /// The loaded run's fixed facts.
    pub info: RwSignal<Option<Arc<SessionInfo>>>,
    /// The world at the current position.
    pub frame: RwSignal<Option<Arc<Frame>>>,
    /// The cycle the inspector shows.
    pub target: RwSignal<InspectTarget>,
    /// Phase-by-phase stepping: the phase of the inspected cycle on screen (`None`: all).
    pub phase: RwSignal<Option<Phase>>,
    /// While walking a cycle phase by phase: its pod (popped from the queue, not yet placed).
    pub pod_in_cycle: Memo<Option<usize>>,
    /// Running.
    pub running: RwSignal<bool>,
    /// Index into [`SPEEDS`].
    pub speed: RwSignal<usize>,
    /// A run is loaded in the engine (and not forgotten for a new example or link).
    has_run: StoredValue<bool>,
    /// The position the run stands at, as last asked of the engine.
    position: StoredValue<usize>,
    ticker: StoredValue<Option<Interval>, LocalStorage>,
}

impl Default for RunPosition {
    /// No run yet.
    fn default() -> RunPosition {
        let info: RwSignal<Option<Arc<SessionInfo>>> = RwSignal::new(None);
        let target = RwSignal::new(InspectTarget::Latest);
        let phase = RwSignal::new(None);
        let pod_in_cycle = Memo::new(move |_| {
            let (phase, target) = (phase.get(), target.get());
            info.with(|i| stepping::pod_in_cycle(i.as_ref()?, phase, target))
        });
        RunPosition {
            info,
            frame: RwSignal::new(None),
            target,
            phase,
            pod_in_cycle,
            running: RwSignal::new(false),
            speed: RwSignal::new(2),
            has_run: StoredValue::new(false),
            position: StoredValue::new(0),
            ticker: StoredValue::new_local(None),
        }
    }
}

impl RunPosition {
    /// Whether a run is loaded (the last run that loaded: while the inputs have errors, or a
    /// newer run is still loading, not the editors' texts).
    pub fn has_run(&self) -> bool {
        self.has_run.get_value() && self.info.with_untracked(Option::is_some)
    }

    /// Where a new load of the same work opens: where the run stands, unless that is its end
    /// (or no run is loaded): then the new run's end (`usize::MAX`).
    pub fn reload_position(&self) -> usize {
        match (self.has_run.get_value(), self.info.get_untracked()) {
            (true, Some(info)) if self.position.get_value() < info.end => self.position.get_value(),
            _ => usize::MAX,
        }
    }

    /// A loaded run on screen, at `frame` (the whole cycle: no phase walked).
    pub fn show_run(&self, info: Arc<SessionInfo>, frame: Arc<Frame>) {
        self.has_run.set_value(true);
        self.position.set_value(frame.position);
        self.phase.set(None);
        self.info.set(Some(info));
        self.frame.set(Some(frame));
    }

    /// The loaded run is forgotten: nothing moves until the next one is shown. (Its frame
    /// stays on screen until then.)
    pub fn forget_run(&self) {
        self.has_run.set_value(false);
    }

    /// Back to following the controls: no phase walked, the latest cycle inspected.
    pub fn follow_controls(&self) {
        self.phase.set(None);
        self.target.set(InspectTarget::Latest);
    }

    /// What the inspector shows (tracked: for a memo).
    pub fn inspected(&self) -> Option<Inspected> {
        let target = self.target.get();
        self.frame
            .with(|f| stepping::inspected(f.as_ref()?, target))
    }

    /// Where the page stands, as a link says it ([`stepping::current_view`]).
    pub fn current_view(&self) -> View {
        let Some(at) = self
            .frame
            .with_untracked(|f| f.as_ref().map(|f| (f.position, f.end)))
        else {
            return View::default();
        };
        let (phase, target) = (self.phase.get_untracked(), self.target.get_untracked());
        let inspected = self
            .frame
            .with_untracked(|f| stepping::inspected(f.as_ref()?, target));
        self.info.with_untracked(|info| {
            stepping::current_view(info.as_deref(), at, phase, target, inspected)
        })
    }

    /// Opens the loaded run where `view` says ([`stepping::place_view`]); what does not fit
    /// this run, in words. `None` when no run is loaded.
    pub fn open_view(&self, view: View) -> Option<Vec<String>> {
        let place = self
            .info
            .with_untracked(|i| i.as_ref().map(|i| stepping::place_view(i, view)))?;
        self.pause();
        if let Some(to) = place.to {
            self.move_to(|_, _| to);
        }
        self.target.set(place.target);
        self.phase.set(place.phase);
        Some(place.problems)
    }

    /// Moves the run to the position `position` picks (from the run's facts and the current
    /// position), and shows its frame when the engine sends it.
    fn move_to(&self, position: impl FnOnce(&SessionInfo, usize) -> usize) {
        self.move_prefetching(position, false);
    }

    /// [`RunPosition::move_to`]; `prefetch`: the engine records the cycle about to run in
    /// detail (phase stepping shows it before it runs).
    fn move_prefetching(
        &self,
        position: impl FnOnce(&SessionInfo, usize) -> usize,
        prefetch: bool,
    ) {
        let Some(info) = self
            .info
            .get_untracked()
            .filter(|_| self.has_run.get_value())
        else {
            return;
        };
        let to = position(&info, self.position.get_value()).min(info.end);
        self.position.set_value(to);
        let frame = self.frame;
        engine::go_to(to, prefetch, move |f| frame.set(Some(f)));
    }

    /// Steps one scheduling cycle (and the steps due before it).
    pub fn step_cycle(&self) {
        self.follow_controls();
        self.move_to(SessionInfo::next_cycle_end);
    }

    /// Steps back one cycle: to where Step stood before it ran.
    pub fn step_back(&self) {
        self.pause();
        self.follow_controls();
        self.move_to(SessionInfo::previous_cycle_end);
    }

    /// Goes to the start (t = 0, nothing scheduled).
    pub fn rewind(&self) {
        self.pause();
        self.follow_controls();
        self.move_to(|_, _| 0);
    }

    /// Goes to the end of the run.
    pub fn to_end(&self) {
        self.pause();
        self.follow_controls();
        self.move_to(|info, _| info.end);
    }

    /// The scrubber moved.
    pub fn scrub(&self, position: usize) {
        self.pause();
        self.follow_controls();
        self.move_to(|_, _| position);
    }

    /// An event was clicked: goes to just after the step that emitted it (so it is the newest
    /// event on screen) and inspects the cycle that produced it.
    pub fn jump_to_event(&self, cycle: usize, step: usize) {
        self.pause();
        self.phase.set(None);
        self.move_to(|info, _| info.position_after_cycle(cycle).unwrap_or(0).max(step + 1));
        self.target.set(InspectTarget::Cycle(cycle));
    }

    /// Steps inside a cycle ([`stepping::phase_step`]). The walk moves on at once, so that a
    /// press made before the frame arrives takes the next phase; the frame follows.
    pub fn step_phase(&self) {
        self.pause();
        let walking = match (self.phase.get_untracked(), self.target.get_untracked()) {
            (Some(p), InspectTarget::Cycle(c)) => Some((p, c)),
            _ => None,
        };
        let position = self.position.get_value();
        let step = self
            .info
            .with_untracked(|i| stepping::phase_step(i.as_ref()?, position, walking));
        match step {
            Some(PhaseStep::Show {
                cycle,
                phase,
                to,
                first,
            }) => {
                if first {
                    self.target.set(InspectTarget::Cycle(cycle));
                }
                self.phase.set(Some(phase));
                if let Some(to) = to {
                    self.move_prefetching(|_, _| to, first);
                }
            }
            Some(PhaseStep::End) => self.phase.set(None),
            None => {}
        }
    }

    /// Starts or stops running at the chosen speed.
    pub fn toggle_run(&self) {
        if self.running.get_untracked() {
            self.pause();
        } else {
            self.play();
        }
    }

    /// Starts running.
    pub fn play(&self) {
        if self.at_end() {
            self.move_to(|_, _| 0);
        }
        self.running.set(true);
        self.restart_ticker();
    }

    /// Whether the run stands (or was last sent) at its end.
    fn at_end(&self) -> bool {
        self.info.with_untracked(|i| {
            i.as_ref()
                .is_some_and(|i| self.position.get_value() >= i.end)
        })
    }

    /// Stops running.
    pub fn pause(&self) {
        // Dropping the ticker stops it (also from inside its own tick).
        if let Some(ticker) = self.ticker.try_update_value(Option::take).flatten() {
            drop(ticker);
        }
        if self.running.get_untracked() {
            self.running.set(false);
        }
    }

    /// Sets the speed (restarts the ticker when running).
    pub fn set_speed(&self, index: usize) {
        self.speed.set(index.min(SPEEDS.len() - 1));
        if self.running.get_untracked() {
            self.restart_ticker();
        }
    }

    fn restart_ticker(&self) {
        let per_second = SPEEDS[self.speed.get_untracked()];
        let this = *self;
        let ticker = Interval::new(1000 / per_second, move || {
            // A tick while the last step's frame is still on its way is skipped: the run goes
            // at the pace the engine and the page can show.
            if engine::waiting() {
                return;
            }
            this.step_cycle();
            if !this.has_run() || this.at_end() {
                this.pause();
            }
        });
        self.ticker.set_value(Some(ticker));
    }
}
