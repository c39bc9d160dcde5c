//! `scheduleOne`: the pod, the outcome and, for a pod that did not fit, the exact
//! `FailedScheduling` message with the explanation of each node's refusal.

use super::term::Term;
use super::with_code;
use crate::analysis::{Inspection, Phase};
use leptos::prelude::*;

/// Rejected nodes explained one by one (the rest are counted).
const WHY_SHOWN: usize = 12;

/// The head of the inspector.
#[component]
pub fn ScheduleOne(
    inspection: Inspection,
    /// While stepping phase by phase: the outcome stays hidden until `selectHost` or `preempt`.
    #[prop(default = None)]
    phase: Option<Phase>,
) -> impl IntoView {
    let revealed = phase.is_none_or(|p| p >= Phase::SelectHost);
    let Inspection {
        pod,
        priority,
        requests,
        node,
        cycle,
    } = inspection;
    // v1.35: the profile that ran the cycle.
    let profile = cycle
        .as_ref()
        .and_then(|c| c.modern.as_ref())
        .map(|m| format!("{} (kube-scheduler v1.35)", m.profile));
    let cycle_text = cycle
        .as_ref()
        .map(|c| format!("{} of {} · t = {}", c.number, c.of, c.time))
        .unwrap_or_else(|| "—".into());
    let outcome = match &cycle {
        Some(_) if !revealed => "…",
        Some(c) => c.outcome,
        None => "no cycle",
    };
    let node = if revealed { node } else { None };
    let cycle = cycle.filter(|_| revealed);
    let outcome_class = format!(
        "outcome outcome-{}",
        outcome.to_lowercase().replace(' ', "-")
    );
    let failed = cycle.as_ref().filter(|c| c.outcome != "Scheduled").cloned();
    let summary = cycle
        .as_ref()
        .filter(|c| c.outcome == "Scheduled")
        .map(|c| c.explanation.summary.clone());
    view! {
        <section class="step" data-testid="schedule-one">
            <h3>
                <Term name="scheduleOne" code=true/>
                <span class="step-sub">"take the next pod from the queue and find it a node"</span>
            </h3>
            <dl class="facts">
                <div><dt>"Pod"</dt><dd class="mono">{pod}</dd></div>
                <div><dt><Term name="priority">"Priority"</Term></dt><dd class="mono">{priority}</dd></div>
                <div><dt>"Requests"</dt><dd class="mono">{requests}</dd></div>
                <div><dt>"Cycle"</dt><dd class="mono">{cycle_text}</dd></div>
                {profile.map(|p| view! { <div><dt><Term name="profile">"Profile"</Term></dt><dd class="mono" data-testid="profile">{p}</dd></div> })}
                <div><dt>"Outcome"</dt><dd><span class=outcome_class data-testid="outcome">{outcome}</span></dd></div>
                <div><dt>"Node"</dt><dd class="mono" data-testid="inspected-node">{node.unwrap_or_else(|| "—".into())}</dd></div>
            </dl>
            {summary.map(|s| view! { <p class="summary">{with_code(&s)}</p> })}
            {failed.map(|c| {
                let total = c.explanation.nodes.len();
                let nodes: Vec<_> = c.explanation.nodes.iter().take(WHY_SHOWN).cloned().collect();
                let more = (total > WHY_SHOWN).then(|| {
                    format!(
                        "… and {} more nodes. The message above counts every node by reason; the filter table below has them all.",
                        total - WHY_SHOWN
                    )
                });
                view! {
                    <div class="fit-error" data-testid="fit-error">
                        <span class="event">"Warning · "<Term name="FitError">"FailedScheduling"</Term></span>
                        <p class="mono">{c.message.clone().unwrap_or_default()}</p>
                    </div>
                    <div class="why" data-testid="explanation">
                        <h4>"Why each node said no"</h4>
                        <ul>
                            {nodes
                                .into_iter()
                                .map(|n| {
                                    view! {
                                        <li>
                                            <span class="why-node mono">{n.node}</span>
                                            <span class="why-reasons">{with_code(&n.reasons.join("; "))}</span>
                                            <ul class="hints">
                                                {n.hints.iter().map(|h| view! { <li>{with_code(h)}</li> }).collect_view()}
                                            </ul>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                        {more.map(|m| view! { <p class="note">{m}</p> })}
                    </div>
                }
            })}
        </section>
    }
}
