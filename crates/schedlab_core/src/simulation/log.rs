//! The history of a run (steps, cycles, events) and, for runs read only at their end, its
//! compaction: a block of steps that runs again and again identically but for the clock (a
//! pod retried every minute on a cluster that does not change) is kept once, with a
//! [`Repeat`] that counts the copies, so a year of retries costs kilobytes.
//!
//! Compaction is lossless by construction: a step joins a repeat only after it was computed
//! and found equal, field for field, to the block's step one period earlier (its cycle and
//! events too, indices shifted by one block). Nothing is predicted; the simulation still runs
//! every step, it only stops storing copies. The first [`Log::KEPT_COPIES`] copies of a block
//! stay in the log as they are, so short runs and their reports never change.

use super::{Step, StepKind};
use crate::cluster::PodId;
use crate::model::Millis;
use crate::simulation::Event;
use crate::trace::CycleTrace;
use std::collections::HashMap;
use std::ops::Range;

/// A block of the kept log that ran `times` more times right after its kept copy, each copy
/// `every` later than the one before and identical to it but for the clock (and the indices
/// of its steps, cycles and events, which go on counting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// The block's steps, as indices into the kept steps.
    pub steps: Range<usize>,
    /// Its cycles, as indices into the kept cycles.
    pub cycles: Range<usize>,
    /// Its events, as indices into the kept events.
    pub events: Range<usize>,
    /// Copies after the kept one.
    pub times: usize,
    /// The time from one copy to the next.
    pub every: Millis,
}

impl Repeat {
    /// The cycles the copies ran (the block's cycles times `times`).
    pub fn cycles_run(&self) -> usize {
        self.cycles.len() * self.times
    }

    /// The events the copies emitted.
    pub fn events_emitted(&self) -> usize {
        self.events.len() * self.times
    }

    /// The steps the copies took.
    pub fn steps_taken(&self) -> usize {
        self.steps.len() * self.times
    }
}

/// A block being repeated at the tail of the log.
#[derive(Clone, Copy, Debug)]
struct Open {
    /// Index into [`Log::repeats`].
    repeat: usize,
    /// Steps of the current (partial) copy that matched so far.
    offset: usize,
}

/// A block length that the newest steps may be repeating with.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// Block length in steps.
    steps: usize,
    /// The block's period.
    every: Millis,
    /// How many of the newest steps equal the step `steps` earlier, shifted by `every`.
    matched: usize,
}

/// Every step, cycle and event computed so far; with compaction on, repeated blocks are
/// kept once (see the module docs).
#[derive(Clone, Default)]
pub(super) struct Log {
    /// The kept steps.
    pub steps: Vec<Step>,
    /// The kept cycles.
    pub cycles: Vec<CycleTrace>,
    /// The kept events.
    pub events: Vec<Event>,
    /// Repeated blocks, in log order.
    pub repeats: Vec<Repeat>,
    compact: bool,
    /// Per kept step (compaction only): the kept cycles and events before it.
    marks: Vec<(usize, usize)>,
    skipped_steps: usize,
    skipped_cycles: usize,
    skipped_events: usize,
    /// Kept steps before this index are settled: no block is looked for there.
    tail: usize,
    open: Option<Open>,
    candidate: Option<Candidate>,
    /// The kept step of each pod's latest cycle in the tail.
    last_cycle_of: HashMap<PodId, usize>,
}

impl Log {
    /// Copies of a block kept whole; the copies after them are counted.
    pub(super) const KEPT_COPIES: usize = 4;

    /// An empty log; `compact` folds repeated blocks (only for runs that never go back).
    pub(super) fn new(compact: bool, expected_cycles: usize) -> Log {
        Log {
            steps: Vec::with_capacity(2 * expected_cycles),
            cycles: Vec::with_capacity(expected_cycles),
            events: Vec::with_capacity(expected_cycles),
            compact,
            ..Log::default()
        }
    }

    /// The compacted log of a history recorded whole: the same as a compacting log would
    /// have kept while the run went on (the steps go through the same folding, in order).
    pub(super) fn compacted(steps: &[Step], cycles: &[CycleTrace], events: &[Event]) -> Log {
        let mut log = Log::new(true, 0);
        let (mut c, mut e) = (0, 0);
        for (i, step) in steps.iter().enumerate() {
            let cycle = match step.kind {
                StepKind::Cycle { .. } => {
                    c += 1;
                    cycles.get(c - 1).cloned()
                }
                _ => None,
            };
            let from = e;
            while events.get(e).is_some_and(|ev| ev.step == i) {
                e += 1;
            }
            log.record(step.clone(), cycle, events[from..e].to_vec());
        }
        log
    }

    /// Whether repeated blocks are folded as they come.
    pub(super) fn is_compact(&self) -> bool {
        self.compact
    }

    /// Steps taken in all, folded copies included.
    pub(super) fn total_steps(&self) -> usize {
        self.steps.len() + self.skipped_steps + self.open.map_or(0, |o| o.offset)
    }

    /// Appends the output of one step.
    pub(super) fn record(&mut self, step: Step, cycle: Option<CycleTrace>, events: Vec<Event>) {
        if !self.compact {
            self.steps.push(step);
            self.cycles.extend(cycle);
            self.events.extend(events);
            return;
        }
        if self.open.is_some() {
            if self.extends_open(&step, cycle.as_ref(), &events) {
                return;
            }
            self.close_open();
        }
        let previous = cycle
            .as_ref()
            .and_then(|c| self.last_cycle_of.get(&c.pod).copied());
        self.push_kept(step, cycle, events);
        self.look_for_block(previous);
    }

    fn push_kept(&mut self, step: Step, cycle: Option<CycleTrace>, events: Vec<Event>) {
        if let Some(c) = &cycle {
            self.last_cycle_of.insert(c.pod, self.steps.len());
        }
        self.marks.push((self.cycles.len(), self.events.len()));
        self.steps.push(step);
        self.cycles.extend(cycle);
        self.events.extend(events);
    }

    // ---- an open repeat -----------------------------------------------------------------

    /// Whether the new step is the open repeat's next one; if so it is counted, not kept.
    fn extends_open(&mut self, step: &Step, cycle: Option<&CycleTrace>, events: &[Event]) -> bool {
        let Some(open) = self.open else {
            return false;
        };
        let repeat = &self.repeats[open.repeat];
        let at = repeat.steps.start + open.offset;
        let shift = Shift::copies(repeat, repeat.times + 1);
        let same = shift.same_step(&self.steps[at], step)
            && match (self.kept_cycle(at), cycle) {
                (None, None) => true,
                (Some(a), Some(b)) => shift.same_cycle(a, b),
                _ => false,
            }
            && shift.same_events(self.kept_events(at), events);
        if !same {
            return false;
        }
        let (block_steps, block_cycles, block_events) =
            (repeat.steps.len(), repeat.cycles.len(), repeat.events.len());
        let mut offset = open.offset + 1;
        if offset == block_steps {
            self.repeats[open.repeat].times += 1;
            self.skipped_steps += block_steps;
            self.skipped_cycles += block_cycles;
            self.skipped_events += block_events;
            offset = 0;
        }
        self.open = Some(Open { offset, ..open });
        true
    }

    /// Ends the open repeat: the steps of a partial copy go into the log as they ran.
    fn close_open(&mut self) {
        let Some(open) = self.open.take() else {
            return;
        };
        let repeat = self.repeats[open.repeat].clone();
        let shift = Shift::copies(&repeat, repeat.times + 1);
        let partial: Vec<_> = (repeat.steps.start..repeat.steps.start + open.offset)
            .map(|at| {
                (
                    shift.step(&self.steps[at]),
                    self.kept_cycle(at).map(|c| shift.cycle(c)),
                    self.kept_events(at)
                        .iter()
                        .map(|e| shift.event(e))
                        .collect(),
                )
            })
            .collect();
        self.tail = self.steps.len();
        self.last_cycle_of.clear();
        self.candidate = None;
        for (step, cycle, events) in partial {
            self.push_kept(step, cycle, events);
        }
    }

    // ---- finding a block ----------------------------------------------------------------

    /// After a kept step: follows the candidate block length, or takes a new one from the
    /// distance back to the pod's `previous` cycle, and folds the newest copy once
    /// [`Log::KEPT_COPIES`] copies are kept.
    fn look_for_block(&mut self, previous: Option<usize>) {
        let n = self.steps.len() - 1;
        if let Some(mut c) = self.candidate {
            if n >= self.tail + c.steps && self.same_shifted(n - c.steps, n, c.every) {
                c.matched += 1;
                self.candidate = Some(c);
                if c.matched >= Self::KEPT_COPIES * c.steps {
                    self.fold(c);
                }
                return;
            }
            self.candidate = None;
        }
        let Some(m) = previous.filter(|&m| m >= self.tail) else {
            return;
        };
        let every = Millis(self.steps[n].time.0.saturating_sub(self.steps[m].time.0));
        if every > Millis::ZERO && self.same_shifted(m, n, every) {
            self.candidate = Some(Candidate {
                steps: n - m,
                every,
                matched: 1,
            });
        }
    }

    /// Turns the newest copy of the candidate block into a [`Repeat`] of the copy before it.
    fn fold(&mut self, c: Candidate) {
        let n = self.steps.len();
        let block = n - 2 * c.steps..n - c.steps;
        let (first_cycle, first_event) = self.marks[block.start];
        let (end_cycle, end_event) = self.marks[block.end];
        let repeat = Repeat {
            steps: block.clone(),
            cycles: first_cycle..end_cycle,
            events: first_event..end_event,
            times: 1,
            every: c.every,
        };
        // The newest copy is counted, not kept.
        self.steps.truncate(block.end);
        self.marks.truncate(block.end);
        self.cycles.truncate(end_cycle);
        self.events.truncate(end_event);
        self.skipped_steps += repeat.steps.len();
        self.skipped_cycles += repeat.cycles.len();
        self.skipped_events += repeat.events.len();
        self.repeats.push(repeat);
        self.open = Some(Open {
            repeat: self.repeats.len() - 1,
            offset: 0,
        });
        self.candidate = None;
        self.last_cycle_of.clear();
        self.tail = self.steps.len();
    }

    /// Whether kept step `b` (with its cycle and events) is kept step `a` of the tail
    /// `every` later.
    fn same_shifted(&self, a: usize, b: usize, every: Millis) -> bool {
        let shift = Shift {
            time: every,
            steps: b - a,
            cycles: self.marks[b].0 - self.marks[a].0,
        };
        shift.same_step(&self.steps[a], &self.steps[b])
            && match (self.kept_cycle(a), self.kept_cycle(b)) {
                (None, None) => true,
                (Some(x), Some(y)) => shift.same_cycle(x, y),
                _ => false,
            }
            && shift.same_events(self.kept_events(a), self.kept_events(b))
    }

    /// The kept cycle that kept step `at` ran, if it ran one.
    fn kept_cycle(&self, at: usize) -> Option<&CycleTrace> {
        match self.steps[at].kind {
            StepKind::Cycle { .. } => self.cycles.get(self.marks[at].0),
            _ => None,
        }
    }

    /// The kept events that kept step `at` emitted.
    fn kept_events(&self, at: usize) -> &[Event] {
        let from = self.marks[at].1;
        let to = self.marks.get(at + 1).map_or(self.events.len(), |m| m.1);
        &self.events[from..to]
    }
}

/// How far one copy of a block lies from another: in time, and in the real indices of steps
/// and cycles (events carry both).
#[derive(Clone, Copy)]
struct Shift {
    time: Millis,
    steps: usize,
    cycles: usize,
}

impl Shift {
    /// From a repeat's kept block to its copy number `copy` (1 = the first after it).
    fn copies(r: &Repeat, copy: usize) -> Shift {
        Shift {
            time: Millis(r.every.0 * copy as u64),
            steps: r.steps.len() * copy,
            cycles: r.cycles.len() * copy,
        }
    }

    fn step(&self, s: &Step) -> Step {
        let mut s = s.clone();
        s.time = Millis(s.time.0 + self.time.0);
        if let StepKind::Cycle { cycle } = &mut s.kind {
            *cycle += self.cycles;
        }
        s
    }

    fn cycle(&self, t: &CycleTrace) -> CycleTrace {
        let mut t = t.clone();
        t.time = self.cycle_time(t.time);
        t
    }

    fn event(&self, e: &Event) -> Event {
        let mut e = e.clone();
        e.time = Millis(e.time.0 + self.time.0);
        e.cycle += self.cycles;
        e.step += self.steps;
        e
    }

    fn cycle_time(&self, seconds: f64) -> f64 {
        Millis((seconds * 1000.0).round() as u64 + self.time.0).as_secs_f64()
    }

    /// `b` is `a` shifted (without copying `a`).
    fn same_step(&self, a: &Step, b: &Step) -> bool {
        let Step {
            time,
            kind,
            move_event,
            moved,
            extender,
        } = a;
        time.0 + self.time.0 == b.time.0
            && match (kind, &b.kind) {
                (StepKind::Cycle { cycle: x }, StepKind::Cycle { cycle: y }) => {
                    x + self.cycles == *y
                }
                (x, y) => x == y,
            }
            && *move_event == b.move_event
            && *moved == b.moved
            && *extender == b.extender
    }

    fn same_cycle(&self, a: &CycleTrace, b: &CycleTrace) -> bool {
        let CycleTrace {
            time,
            pod,
            outcome,
            node,
            message,
            num_all_nodes,
            num_to_find,
            start_index,
            evaluated,
            feasible,
            filter,
            scores,
            totals,
            tie_set,
            volume_bindings,
            preemption,
            node_names,
            modern,
            extenders,
        } = a;
        self.cycle_time(*time) == b.time
            && *pod == b.pod
            && *outcome == b.outcome
            && *node == b.node
            && *message == b.message
            && *num_all_nodes == b.num_all_nodes
            && *num_to_find == b.num_to_find
            && *start_index == b.start_index
            && *evaluated == b.evaluated
            && *feasible == b.feasible
            && *filter == b.filter
            && *scores == b.scores
            && *totals == b.totals
            && *tie_set == b.tie_set
            && *volume_bindings == b.volume_bindings
            && *preemption == b.preemption
            && *node_names == b.node_names
            && *modern == b.modern
            && *extenders == b.extenders
    }

    fn same_events(&self, a: &[Event], b: &[Event]) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                let Event {
                    kind,
                    reason,
                    object,
                    message,
                    cycle,
                    time,
                    step,
                } = x;
                *kind == y.kind
                    && *reason == y.reason
                    && *object == y.object
                    && *message == y.message
                    && cycle + self.cycles == y.cycle
                    && time.0 + self.time.0 == y.time.0
                    && step + self.steps == y.step
            })
    }
}
