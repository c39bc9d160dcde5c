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
//!
//! Similar retries are folded too, so that a long run keeps memory proportional to its
//! distinct work: a copy whose cycles differ from the kept block's only in what the seeded
//! tie-break decided (the node chosen among equally scored ones, and the per-node tables
//! that led there: `filter`, `scores`, `totals`, the tie set, the scan's start, the plugin
//! statuses) joins the repeat, which is then marked [`Repeat::similar`]. Everything else must
//! still be equal: the steps (a binding that completes names its node, so it never folds), the
//! pod, the outcome, the message, the preemption and the events. A similar fold is lossy by
//! design (the folded copies' nodes are not kept); to show where the retries ended, the newest
//! counted copy of a similar repeat is kept as it ran when the repeat ends (also at the end of
//! the run), after the `...` line. The reports count the folded cycles (`folded`).

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
    /// Whether some copies differ from the kept block in what the seeded tie-break decided
    /// (the node chosen among equal ones and its tables; see the module docs), rather than
    /// being identical to it but for the clock.
    pub similar: bool,
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
    /// Whether some of those were only similar (see the module docs).
    similar: bool,
}

/// The output of one step: the step, its cycle if it ran one, its events.
type Entry = (Step, Option<CycleTrace>, Vec<Event>);

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
    /// The steps of the open repeat's current (partial) copy, as they ran.
    copy: Vec<Entry>,
    /// The open repeat's newest complete copy, as it ran (kept when a similar repeat ends).
    last_copy: Vec<Entry>,
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
        log.finish();
        log
    }

    /// Ends the open repeat as a step that does not continue it would (see
    /// [`Log::close_open`]): for a log read at its end.
    pub(super) fn finish(&mut self) {
        self.close_open();
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
            match self.open_match(&step, cycle.as_ref(), &events) {
                Some(similar) => {
                    self.extend_open(similar, (step, cycle, events));
                    return;
                }
                None => self.close_open(),
            }
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

    /// Whether the new step is the open repeat's next one: `Some(similar)`, `similar` when it
    /// is only similar to the kept block's step (see the module docs).
    fn open_match(
        &self,
        step: &Step,
        cycle: Option<&CycleTrace>,
        events: &[Event],
    ) -> Option<bool> {
        let open = self.open?;
        let repeat = &self.repeats[open.repeat];
        let at = repeat.steps.start + open.offset;
        let shift = Shift::copies(repeat, repeat.times + 1);
        self.matches(&shift, at, step, cycle, events)
    }

    /// Counts the new step as the open repeat's next one (it is held until its copy is
    /// complete, then only the newest complete copy is held).
    fn extend_open(&mut self, similar: bool, entry: Entry) {
        let Some(open) = self.open else {
            return;
        };
        let repeat = &mut self.repeats[open.repeat];
        repeat.similar |= similar;
        let (block_steps, block_cycles, block_events) =
            (repeat.steps.len(), repeat.cycles.len(), repeat.events.len());
        self.copy.push(entry);
        let mut offset = open.offset + 1;
        if offset == block_steps {
            repeat.times += 1;
            self.skipped_steps += block_steps;
            self.skipped_cycles += block_cycles;
            self.skipped_events += block_events;
            self.last_copy = std::mem::take(&mut self.copy);
            offset = 0;
        }
        self.open = Some(Open { offset, ..open });
    }

    /// Ends the open repeat: the steps of a partial copy go into the log as they ran, after
    /// the newest complete copy when the repeat is similar (it is then no longer counted).
    fn close_open(&mut self) {
        let Some(open) = self.open.take() else {
            return;
        };
        let partial = std::mem::take(&mut self.copy);
        let last = std::mem::take(&mut self.last_copy);
        let mut kept = Vec::new();
        if let Some(r) = self.repeats.get_mut(open.repeat) {
            if r.similar && r.times > 0 && last.len() == r.steps.len() {
                r.times -= 1;
                self.skipped_steps -= r.steps.len();
                self.skipped_cycles -= r.cycles.len();
                self.skipped_events -= r.events.len();
                if r.times == 0 {
                    // The open repeat is always the newest.
                    self.repeats.truncate(open.repeat);
                }
                kept = last;
            }
        }
        self.tail = self.steps.len();
        self.last_cycle_of.clear();
        self.candidate = None;
        for (step, cycle, events) in kept.into_iter().chain(partial) {
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
            let same = (n >= self.tail + c.steps)
                .then(|| self.same_shifted(n - c.steps, n, c.every))
                .flatten();
            if let Some(similar) = same {
                c.matched += 1;
                c.similar |= similar;
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
        if every == Millis::ZERO {
            return;
        }
        if let Some(similar) = self.same_shifted(m, n, every) {
            self.candidate = Some(Candidate {
                steps: n - m,
                every,
                matched: 1,
                similar,
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
            similar: c.similar,
        };
        // The newest copy is counted, not kept (but held, as the newest complete copy).
        let steps = self.steps.split_off(block.end);
        let mut marks = self.marks.split_off(block.end);
        let mut cycles = self.cycles.split_off(end_cycle).into_iter();
        let events = self.events.split_off(end_event);
        marks.push((end_cycle + cycles.len(), end_event + events.len()));
        let mut events = events.into_iter();
        self.last_copy = steps
            .into_iter()
            .zip(marks.windows(2))
            .map(|(step, m)| {
                let cycle = if m[1].0 > m[0].0 { cycles.next() } else { None };
                let events = events.by_ref().take(m[1].1 - m[0].1).collect();
                (step, cycle, events)
            })
            .collect();
        self.copy.clear();
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
    /// `every` later: `Some(similar)`, `similar` when it is only similar (module docs).
    fn same_shifted(&self, a: usize, b: usize, every: Millis) -> Option<bool> {
        let shift = Shift {
            time: every,
            steps: b - a,
            cycles: self.marks[b].0 - self.marks[a].0,
        };
        self.matches(
            &shift,
            a,
            &self.steps[b],
            self.kept_cycle(b),
            self.kept_events(b),
        )
    }

    /// Whether a step (with its cycle and events) is kept step `at` shifted: `Some(false)`
    /// when identical, `Some(true)` when only similar, `None` when neither.
    fn matches(
        &self,
        shift: &Shift,
        at: usize,
        step: &Step,
        cycle: Option<&CycleTrace>,
        events: &[Event],
    ) -> Option<bool> {
        if !shift.same_step(&self.steps[at], step)
            || !shift.same_events(self.kept_events(at), events)
        {
            return None;
        }
        match (self.kept_cycle(at), cycle) {
            (None, None) => Some(false),
            (Some(a), Some(b)) => shift.cycle_match(a, b),
            _ => None,
        }
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

    /// `b` is `a` shifted: `Some(false)` identical, `Some(true)` similar (equal but for what
    /// the seeded tie-break decided, module docs), `None` neither.
    fn cycle_match(&self, a: &CycleTrace, b: &CycleTrace) -> Option<bool> {
        if self.same_cycle(a, b) {
            return Some(false);
        }
        let similar = self.cycle_time(a.time) == b.time
            && a.pod == b.pod
            && a.outcome == b.outcome
            && a.node.is_some() == b.node.is_some()
            && a.message == b.message
            && a.num_all_nodes == b.num_all_nodes
            && a.num_to_find == b.num_to_find
            && a.volume_bindings == b.volume_bindings
            && a.preemption == b.preemption
            && a.extenders == b.extenders;
        similar.then_some(true)
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
