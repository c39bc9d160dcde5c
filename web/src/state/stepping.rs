//! Where the controls move the run, as pure functions of the run's facts ([`SessionInfo`]):
//! the phase walk (Phase ▸), the place a link's [`View`] opens, the view a link to the page
//! says, and what the inspector shows. No signals: [`super::position`] reads its signals,
//! calls these and moves the run. Step and Back are [`SessionInfo::next_cycle_end`] and
//! [`SessionInfo::previous_cycle_end`].

use crate::analysis::Phase;
use crate::link::View;
use crate::session::{Frame, SessionInfo};

/// Which cycle the inspector shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InspectTarget {
    /// The last cycle run at the current position (follows the controls).
    #[default]
    Latest,
    /// A given cycle (from the event log or phase stepping).
    Cycle(usize),
    /// A pod's last cycle at the current position.
    Pod(usize),
}

/// What the inspector resolves its target to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inspected {
    /// A cycle.
    Cycle(usize),
    /// A pod that has no cycle yet at this position, and its node.
    PodOnly(usize, Option<String>),
}

/// What the inspector shows of `frame` for `target`.
pub fn inspected(frame: &Frame, target: InspectTarget) -> Option<Inspected> {
    match target {
        InspectTarget::Latest => frame.last_cycle.map(Inspected::Cycle),
        InspectTarget::Cycle(c) => Some(Inspected::Cycle(c)),
        InspectTarget::Pod(p) => {
            let status = frame.pods.get(p)?;
            Some(match status.last_cycle {
                Some(c) => Inspected::Cycle(c),
                None => Inspected::PodOnly(p, status.node.clone()),
            })
        }
    }
}

/// Whether cycle `cycle` of the run placed its pod.
pub fn placed(info: &SessionInfo, cycle: usize) -> bool {
    info.cycles.get(cycle).is_some_and(|f| f.placed)
}

/// The position at which the walk shows `phase` of `cycle`: before the cycle's step until
/// `selectHost`, after it for `assume` and `preempt`, one step later for `bind`.
pub fn phase_position(info: &SessionInfo, cycle: usize, phase: Phase) -> Option<usize> {
    let at = *info.cycle_steps.get(cycle)?;
    Some(match phase {
        Phase::QueuePop | Phase::Filter | Phase::Score | Phase::SelectHost => at,
        Phase::Assume | Phase::Preempt => at + 1,
        Phase::Bind => (at + 2).min(info.end),
    })
}

/// The pod of the cycle being walked while it is popped but not yet placed (its queue row is
/// marked): from the pop to `selectHost`.
pub fn pod_in_cycle(
    info: &SessionInfo,
    phase: Option<Phase>,
    target: InspectTarget,
) -> Option<usize> {
    let walking = phase.is_some_and(|p| p < Phase::Assume && p != Phase::Preempt);
    match (walking, target) {
        (true, InspectTarget::Cycle(c)) => info.cycles.get(c).map(|f| f.pod),
        _ => None,
    }
}

/// What Phase ▸ does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseStep {
    /// Show `phase` of `cycle`, with the run moved to `to` when given. `first`: the walk of
    /// this cycle starts (the engine records the cycle in detail before it runs).
    Show {
        /// The cycle walked.
        cycle: usize,
        /// Its phase now on screen.
        phase: Phase,
        /// Where the run moves.
        to: Option<usize>,
        /// The cycle's walk starts here.
        first: bool,
    },
    /// The walked cycle is done and no cycle is left: the walk ends where it is.
    End,
}

/// Phase ▸ from `position`: queue pop → filter → score → select host → assume → bind, or
/// queue pop → filter → preempt, then the next cycle's pop. `walking`: the phase on screen
/// and its cycle (`None`: no walk yet, so it starts on the next cycle). `None` when there is
/// nothing to walk.
pub fn phase_step(
    info: &SessionInfo,
    position: usize,
    walking: Option<(Phase, usize)>,
) -> Option<PhaseStep> {
    let Some((phase, cycle)) = walking else {
        // Start on the next cycle: apply what comes before it, then show its pop.
        let (at, cycle) = info.next_cycle_from(position)?;
        return Some(PhaseStep::Show {
            cycle,
            phase: Phase::QueuePop,
            to: Some(at),
            first: true,
        });
    };
    let phases = Phase::of(placed(info, cycle));
    let next = phases
        .iter()
        .position(|&p| p == phase)
        .and_then(|i| phases.get(i + 1))
        .copied();
    let to = match next {
        // The cluster changes: the cycle's step is applied.
        Some(Phase::Assume | Phase::Preempt) => {
            Some(info.position_after_cycle(cycle).unwrap_or(position))
        }
        // The binding is the next step for this pod (at once, or after bindLatency).
        Some(Phase::Bind) => Some((position + 1).min(info.end)),
        Some(_) => None,
        // The cycle is done: start the next one.
        None => return Some(phase_step(info, position, None).unwrap_or(PhaseStep::End)),
    };
    next.map(|phase| PhaseStep::Show {
        cycle,
        phase,
        to,
        first: false,
    })
}

/// Where a link's view puts the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewPlace {
    /// The position to move to (`None`: stay).
    pub to: Option<usize>,
    /// The cycle the inspector shows.
    pub target: InspectTarget,
    /// The phase walked.
    pub phase: Option<Phase>,
    /// What in the view does not fit this run, and what opens instead.
    pub problems: Vec<String>,
}

/// Where `view` opens this run. What does not fit (a step past the end, a cycle the run does
/// not have, a phase its cycle does not go through) opens as near as it can, and says so.
pub fn place_view(info: &SessionInfo, view: View) -> ViewPlace {
    let (cycles, end) = (info.cycle_steps.len(), info.end);
    let mut problems = Vec::new();
    let mut step = view.step;
    if let Some(p) = step.filter(|&p| p > end) {
        problems.push(format!(
            "\"step={p}\" is past the end of this run (step {end}), so it opens at its end"
        ));
        step = Some(end);
    }
    match view.cycle {
        Some(c) if c >= cycles => {
            let s = if cycles == 1 { "" } else { "s" };
            problems.push(format!(
                "this run has {cycles} cycle{s}, not {}, so it opens at its end",
                c + 1
            ));
            ViewPlace {
                to: Some(end),
                target: InspectTarget::Latest,
                phase: None,
                problems,
            }
        }
        Some(c) => {
            let mut phase = view.phase;
            if let Some(p) = phase {
                let scheduled = placed(info, c);
                if !Phase::of(scheduled).contains(&p) {
                    let why = if scheduled {
                        "its pod was placed"
                    } else {
                        "no node fit its pod"
                    };
                    problems.push(format!(
                        "cycle {} has no {} phase ({why}), so the whole cycle is shown",
                        c + 1,
                        p.function()
                    ));
                    phase = None;
                }
            }
            let implied = match phase {
                Some(p) => phase_position(info, c, p),
                None => info.position_after_cycle(c),
            };
            ViewPlace {
                to: Some(step.or(implied).unwrap_or(end)),
                target: InspectTarget::Cycle(c),
                phase,
                problems,
            }
        }
        None => ViewPlace {
            to: step,
            target: InspectTarget::Latest,
            phase: None,
            problems,
        },
    }
}

/// Where the page stands, as a link says it: the inspected cycle, the phase being walked, and
/// the position when it is not the one those imply. Nothing at the end of the run.
/// `position` and `end`: the frame on screen's.
pub fn current_view(
    info: Option<&SessionInfo>,
    (position, end): (usize, usize),
    phase: Option<Phase>,
    target: InspectTarget,
    inspected: Option<Inspected>,
) -> View {
    let unless_implied = |implied: Option<usize>| (implied != Some(position)).then_some(position);
    match (phase, target) {
        (Some(phase), InspectTarget::Cycle(c)) => View {
            cycle: Some(c),
            phase: Some(phase),
            step: unless_implied(info.and_then(|i| phase_position(i, c, phase))),
        },
        (_, target) => {
            if target == InspectTarget::Latest && position >= end {
                return View::default();
            }
            match inspected {
                Some(Inspected::Cycle(c)) => View {
                    cycle: Some(c),
                    phase: None,
                    step: unless_implied(info.and_then(|i| i.position_after_cycle(c))),
                },
                _ => View {
                    cycle: None,
                    phase: None,
                    step: Some(position),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{CycleFact, PodStatus, QueueView};
    use schedlab_core::model::Millis;
    use schedlab_core::scenario::SchedulerVersion;
    use schedlab_core::simulation::StopReason;
    use Phase::*;

    /// A run of seven steps (positions 0 to 7): step 0 creates a pod; cycle 0 (step 1) places
    /// pod 10, bound at step 2; cycle 1 (step 3) finds no node for pod 11; cycle 2 (step 4)
    /// places pod 12, bound at step 5; step 6 deletes a pod.
    fn run() -> SessionInfo {
        facts(&[1, 3, 4], &[true, false, true], 7)
    }

    fn facts(cycle_steps: &[usize], placed: &[bool], end: usize) -> SessionInfo {
        SessionInfo {
            pods: Vec::new(),
            input_order: Vec::new(),
            events: Vec::new(),
            cycle_steps: cycle_steps.to_vec(),
            cycles: placed
                .iter()
                .enumerate()
                .map(|(i, &placed)| CycleFact {
                    pod: 10 + i,
                    placed,
                })
                .collect(),
            pod_cycles: Vec::new(),
            marks: Vec::new(),
            filter_names: Vec::new(),
            score_names: Vec::new(),
            warnings: Vec::new(),
            end,
            stop: StopReason::Quiescent,
            node_count: 0,
            scheduler: SchedulerVersion::V1_17,
            seed: 0,
            evaluated_nodes: 0,
            extenders: Default::default(),
            custom_plugins: Vec::new(),
        }
    }

    fn show(cycle: usize, phase: Phase, to: Option<usize>, first: bool) -> Option<PhaseStep> {
        Some(PhaseStep::Show {
            cycle,
            phase,
            to,
            first,
        })
    }

    #[test]
    fn step_runs_the_next_cycle_and_back_undoes_it() {
        let info = run();
        // Step from the start applies step 0 and cycle 0 (step 1): position 2.
        assert_eq!(info.next_cycle_end(0), 2);
        assert_eq!(info.next_cycle_end(2), 4);
        assert_eq!(info.next_cycle_end(4), 5);
        // No cycle after step 4: Step goes to the end.
        assert_eq!(info.next_cycle_end(5), 7);
        // Back goes to where Step stood before the last cycle ran.
        assert_eq!(info.previous_cycle_end(5), 4);
        assert_eq!(info.previous_cycle_end(4), 2);
        assert_eq!(info.previous_cycle_end(2), 0);
        assert_eq!(info.previous_cycle_end(0), 0);
    }

    #[test]
    fn the_walk_goes_through_every_phase_of_every_cycle_then_ends() {
        let info = run();
        // Not walking yet: the next cycle's pop, before its step (position 1).
        assert_eq!(phase_step(&info, 0, None), show(0, QueuePop, Some(1), true));
        // A placed pod: filter, score and select host stand before the step ...
        assert_eq!(
            phase_step(&info, 1, Some((QueuePop, 0))),
            show(0, Filter, None, false)
        );
        assert_eq!(
            phase_step(&info, 1, Some((Filter, 0))),
            show(0, Score, None, false)
        );
        assert_eq!(
            phase_step(&info, 1, Some((Score, 0))),
            show(0, SelectHost, None, false)
        );
        // ... assume applies it, bind applies the binding one step later.
        assert_eq!(
            phase_step(&info, 1, Some((SelectHost, 0))),
            show(0, Assume, Some(2), false)
        );
        assert_eq!(
            phase_step(&info, 2, Some((Assume, 0))),
            show(0, Bind, Some(3), false)
        );
        // After bind, the next cycle's pop (its step is the next one).
        assert_eq!(
            phase_step(&info, 3, Some((Bind, 0))),
            show(1, QueuePop, Some(3), true)
        );
        // A pod no node fits: filter, then preempt, which applies the step.
        assert_eq!(
            phase_step(&info, 3, Some((QueuePop, 1))),
            show(1, Filter, None, false)
        );
        assert_eq!(
            phase_step(&info, 3, Some((Filter, 1))),
            show(1, Preempt, Some(4), false)
        );
        assert_eq!(
            phase_step(&info, 4, Some((Preempt, 1))),
            show(2, QueuePop, Some(4), true)
        );
        assert_eq!(
            phase_step(&info, 4, Some((SelectHost, 2))),
            show(2, Assume, Some(5), false)
        );
        assert_eq!(
            phase_step(&info, 5, Some((Assume, 2))),
            show(2, Bind, Some(6), false)
        );
        // No cycle after the last: the walk ends.
        assert_eq!(phase_step(&info, 6, Some((Bind, 2))), Some(PhaseStep::End));
        // Not walking at the end: nothing to walk.
        assert_eq!(phase_step(&info, 7, None), None);
    }

    #[test]
    fn bind_never_moves_past_the_end() {
        // One cycle, at the last step: its binding would be a step the run does not have.
        let info = facts(&[1], &[true], 2);
        assert_eq!(
            phase_step(&info, 2, Some((Assume, 0))),
            show(0, Bind, Some(2), false)
        );
        assert_eq!(phase_position(&info, 0, Bind), Some(2));
    }

    #[test]
    fn the_queue_marks_the_walked_pod_until_it_is_placed() {
        let info = run();
        let at = |phase| pod_in_cycle(&info, phase, InspectTarget::Cycle(2));
        assert_eq!(at(Some(QueuePop)), Some(12));
        assert_eq!(at(Some(SelectHost)), Some(12));
        assert_eq!(at(Some(Assume)), None);
        assert_eq!(at(Some(Preempt)), None);
        assert_eq!(at(None), None);
        assert_eq!(
            pod_in_cycle(&info, Some(Filter), InspectTarget::Latest),
            None
        );
    }

    #[test]
    fn a_view_opens_at_its_cycle_and_phase() {
        let info = run();
        let view = |cycle, phase, step| View { cycle, phase, step };
        // Cycle 2's filter: before its step.
        let place = place_view(&info, view(Some(1), Some(Filter), None));
        assert_eq!(
            (place.to, place.target, place.phase),
            (Some(3), InspectTarget::Cycle(1), Some(Filter))
        );
        assert!(place.problems.is_empty());
        // Cycle 1's bind: two steps after its step.
        assert_eq!(
            place_view(&info, view(Some(0), Some(Bind), None)).to,
            Some(3)
        );
        // A cycle without a phase: just after it ran.
        assert_eq!(place_view(&info, view(Some(2), None, None)).to, Some(5));
        // A step given goes before what the cycle implies.
        assert_eq!(place_view(&info, view(Some(2), None, Some(6))).to, Some(6));
        // Only a step: the inspector follows the controls.
        let place = place_view(&info, view(None, None, Some(3)));
        assert_eq!(
            (place.to, place.target, place.phase),
            (Some(3), InspectTarget::Latest, None)
        );
        assert_eq!(place_view(&info, View::default()).to, None);
    }

    #[test]
    fn what_does_not_fit_the_run_opens_near_it_and_says_so() {
        let info = run();
        let place = place_view(
            &info,
            View {
                cycle: Some(5),
                phase: Some(Filter),
                step: None,
            },
        );
        assert_eq!(
            (place.to, place.target, place.phase),
            (Some(7), InspectTarget::Latest, None)
        );
        assert_eq!(
            place.problems,
            ["this run has 3 cycles, not 6, so it opens at its end"]
        );
        // Cycle 2 found no node: it has no score phase, and shows whole.
        let place = place_view(
            &info,
            View {
                cycle: Some(1),
                phase: Some(Score),
                step: None,
            },
        );
        assert_eq!((place.to, place.phase), (Some(4), None));
        assert_eq!(
            place.problems,
            ["cycle 2 has no prioritizeNodes phase (no node fit its pod), so the whole cycle is shown"]
        );
        let place = place_view(
            &info,
            View {
                cycle: Some(0),
                phase: Some(Preempt),
                step: None,
            },
        );
        assert_eq!(
            place.problems,
            ["cycle 1 has no preempt phase (its pod was placed), so the whole cycle is shown"]
        );
        let place = place_view(
            &info,
            View {
                cycle: None,
                phase: None,
                step: Some(9),
            },
        );
        assert_eq!(place.to, Some(7));
        assert_eq!(
            place.problems,
            ["\"step=9\" is past the end of this run (step 7), so it opens at its end"]
        );
        let one = facts(&[0], &[true], 2);
        let place = place_view(
            &one,
            View {
                cycle: Some(1),
                phase: None,
                step: None,
            },
        );
        assert_eq!(
            place.problems,
            ["this run has 1 cycle, not 2, so it opens at its end"]
        );
    }

    #[test]
    fn a_link_names_the_place_only_when_its_view_does_not_imply_it() {
        let info = Some(run());
        let info = info.as_ref();
        let view = |cycle, phase, step| View { cycle, phase, step };
        // At the end, following the controls: nothing to say.
        assert_eq!(
            current_view(
                info,
                (7, 7),
                None,
                InspectTarget::Latest,
                Some(Inspected::Cycle(2))
            ),
            View::default()
        );
        // Walking cycle 2's filter where it is walked.
        assert_eq!(
            current_view(
                info,
                (3, 7),
                Some(Filter),
                InspectTarget::Cycle(1),
                Some(Inspected::Cycle(1))
            ),
            view(Some(1), Some(Filter), None)
        );
        // The same phase, with the run moved on: the step is said.
        assert_eq!(
            current_view(
                info,
                (5, 7),
                Some(Filter),
                InspectTarget::Cycle(1),
                Some(Inspected::Cycle(1))
            ),
            view(Some(1), Some(Filter), Some(5))
        );
        // After Step: the last cycle, just after it ran.
        assert_eq!(
            current_view(
                info,
                (4, 7),
                None,
                InspectTarget::Latest,
                Some(Inspected::Cycle(1))
            ),
            view(Some(1), None, None)
        );
        // At the start: no cycle yet, only the position.
        assert_eq!(
            current_view(info, (0, 7), None, InspectTarget::Latest, None),
            view(None, None, Some(0))
        );
    }

    #[test]
    fn a_view_opened_is_the_view_a_link_then_says() {
        let info = run();
        for cycle in 0..3 {
            for &phase in Phase::of(placed(&info, cycle)) {
                let view = View {
                    cycle: Some(cycle),
                    phase: Some(phase),
                    step: None,
                };
                let place = place_view(&info, view);
                let to = place.to.expect("a cycle's view moves the run");
                let again = current_view(
                    Some(&info),
                    (to, info.end),
                    place.phase,
                    place.target,
                    Some(Inspected::Cycle(cycle)),
                );
                assert_eq!(again, view, "{view:?}");
            }
        }
    }

    /// A frame at `position` whose last cycle is `last_cycle`, with pod 0 pending (no cycle
    /// yet) and pod 1 bound to node-a by cycle 0.
    fn frame(position: usize, last_cycle: Option<usize>) -> Frame {
        let pod = |node: Option<&str>, last_cycle| PodStatus {
            phase: if node.is_some() { "Bound" } else { "Pending" },
            node: node.map(str::to_string),
            nominated: None,
            last_cycle,
        };
        Frame {
            position,
            end: 7,
            now: Millis(0),
            cycles_done: usize::from(last_cycle.is_some()),
            last_cycle,
            next: None,
            nodes: Vec::new(),
            pods: vec![pod(None, None), pod(Some("node-a"), Some(0))],
            queue: QueueView::default(),
            events_done: 0,
            pdbs: Vec::new(),
        }
    }

    #[test]
    fn the_inspector_shows_the_cycle_its_target_resolves_to() {
        let at = frame(2, Some(0));
        // Following the controls: the last cycle run.
        assert_eq!(
            inspected(&at, InspectTarget::Latest),
            Some(Inspected::Cycle(0))
        );
        assert_eq!(inspected(&frame(0, None), InspectTarget::Latest), None);
        // A cycle chosen in the event log, whatever the position.
        assert_eq!(
            inspected(&at, InspectTarget::Cycle(2)),
            Some(Inspected::Cycle(2))
        );
        // A pod: its last cycle, or the pod alone (with its node) before it has one.
        assert_eq!(
            inspected(&at, InspectTarget::Pod(1)),
            Some(Inspected::Cycle(0))
        );
        assert_eq!(
            inspected(&at, InspectTarget::Pod(0)),
            Some(Inspected::PodOnly(0, None))
        );
        assert_eq!(inspected(&at, InspectTarget::Pod(5)), None);
    }
}
