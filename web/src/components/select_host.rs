//! `selectHost`: the nodes that share the best total, and the one the seeded tie-break picked.

use super::term::Term;
use crate::analysis::{CycleView, Scoring};
use crate::base::SEED;
use leptos::prelude::*;

/// The final pick.
#[component]
pub fn SelectHost(cycle: CycleView) -> impl IntoView {
    let chosen = cycle.chosen.clone().unwrap_or_default();
    let content = match cycle.scores.scoring {
        Scoring::NoFeasibleNodes => view! {
            <p class="note">"No host to select: the pod stays Pending until the cluster changes."</p>
        }
        .into_any(),
        Scoring::OneFeasibleNode => view! {
            <p>"The only feasible node is taken: " <b class="chosen mono" data-testid="chosen-node">{chosen}</b></p>
        }
        .into_any(),
        Scoring::Scored => {
            let ties = cycle.tie_set.len();
            let chips = cycle
                .tie_set
                .iter()
                .map(|n| {
                    let class = if *n == chosen { "chip chip-chosen" } else { "chip" };
                    view! { <span class=class>{n.clone()}</span> }
                })
                .collect_view();
            let how = if ties > 1 {
                format!("{ties} nodes share the best total; the seeded tie-break (seed {SEED}) picks")
            } else {
                "One node has the best total, so there is no tie to break:".to_string()
            };
            view! {
                <p class="tie-set" data-testid="tie-set">
                    "Best total "
                    <b>{cycle.best_total.unwrap_or_default()}</b>
                    " · "
                    <Term name="tie set"/>
                    " "
                    {chips}
                </p>
                <p>{how}" "<b class="chosen mono" data-testid="chosen-node">{chosen}</b></p>
            }
            .into_any()
        }
    };
    view! {
        <section class="step" data-testid="select-host">
            <h3>
                <Term name="selectHost" code=true/>
                <span class="step-sub">"take the highest total; break ties at random (seeded)"</span>
            </h3>
            {content}
        </section>
    }
}
