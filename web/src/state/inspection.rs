//! What the cycle inspector shows: the cycle its target resolves to at the current position,
//! and that cycle's tables, asked of the engine (only the newest question's answer is shown).

use super::position::RunPosition;
use super::stepping::Inspected;
use crate::analysis::{self, Inspection};
use crate::engine;
use leptos::prelude::*;

/// The inspector's cycle, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct CycleInspector {
    /// What the inspector shows.
    pub inspected: Memo<Option<Inspected>>,
    /// The inspection of [`CycleInspector::inspected`] (the engine's answer).
    pub inspection: RwSignal<Option<Inspection>>,
}

impl CycleInspector {
    /// Follows `position`: each time what it inspects changes, asks the engine again.
    pub fn new(position: RunPosition) -> CycleInspector {
        let inspected = Memo::new(move |_| position.inspected());
        let inspection: RwSignal<Option<Inspection>> = RwSignal::new(None);
        // Counts the inspections asked: only the newest one's answer is shown.
        let asked = StoredValue::new(0u64);
        let info = position.info;
        Effect::new(move |_| {
            let what = inspected.get();
            let info = info.get();
            asked.update_value(|n| *n += 1);
            let (Some(what), Some(info)) = (what, info) else {
                inspection.set(None);
                return;
            };
            match what {
                Inspected::Cycle(c) => {
                    let question = asked.get_value();
                    engine::inspect(c, move |answer| {
                        if asked.get_value() == question {
                            inspection.set(answer)
                        }
                    })
                }
                Inspected::PodOnly(p, node) => {
                    inspection.set(analysis::inspect_pod_without_cycle(&info, p, node))
                }
            }
        });
        CycleInspector {
            inspected,
            inspection,
        }
    }
}
