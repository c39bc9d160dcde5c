//! `preempt`: after a FitError, the candidate nodes with their minimal victim sets, the
//! criterion of `pickOneNodeForPreemption` that decided, and the nominations it changed. The
//! PodDisruptionBudgets that victims would violate are named in the candidate's row and, with
//! the victims they cover, under the table.

//!
//! A v1.35 cycle runs its PostFilter plugins here (DynamicResources, then DefaultPreemption,
//! whose evaluator is the preemption below), each with its status.

use super::plugin_statuses::{ExtPoints, PluginStatuses};
use super::term::Term;
use super::with_code;
use crate::analysis::{ModernView, PreemptionView};
use leptos::prelude::*;

/// Candidates shown at once.
const SHOWN: usize = 50;

/// The preemption panel.
#[component]
pub fn Preempt(
    preemption: Option<PreemptionView>,
    /// v1.35: the cycle's extension points (`None` for v1.17).
    #[prop(default = None)]
    modern: Option<ModernView>,
) -> impl IntoView {
    let is_modern = modern.is_some();
    let post_filter = modern.map(|m| {
        view! {
            <PluginStatuses
                point="PostFilter"
                sub="after a FitError, in order; a Success or an unresolvable status stops the list"
                rows=m.post_filter
                test_id="post-filter"
            />
        }
    });
    let content = match preemption {
        None if is_modern => view! {
            <p class="note">"DefaultPreemption did not run: PostFilter stopped before it, the profile has no DefaultPreemption, or the cycle did not end in a FitError."</p>
        }
        .into_any(),
        None => view! {
            <p class="note">"Preemption did not run (it is disabled, or the cycle did not fail on fit)."</p>
        }
        .into_any(),
        Some(p) => {
            if let Some(why) = p.not_eligible.clone() {
                view! { <p class="note" data-testid="not-eligible">"Not eligible to preempt: "{why}</p> }.into_any()
            } else {
                let total = p.candidates.len();
                let rows = p
                    .candidates
                    .iter()
                    .enumerate()
                    .filter(|(i, c)| *i < SHOWN || c.chosen || c.runner_up)
                    .map(|(_, c)| {
                        let victims = c
                            .victims
                            .iter()
                            .map(|(name, prio)| format!("{name} ({prio})"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        let violated: Vec<String> = c
                            .pdbs
                            .iter()
                            .filter(|h| h.violated)
                            .map(|h| h.name.clone())
                            .collect();
                        view! {
                            <tr class:winner=c.chosen class:runner-up=c.runner_up data-node=c.node.clone()>
                                <th scope="row" class="mono">
                                    {c.node.clone()}
                                    {c.chosen.then(|| view! { <span class="tag tag-winner">"chosen"</span> })}
                                    {c.runner_up.then(|| view! { <span class="tag">"runner-up"</span> })}
                                </th>
                                <td class="num">{c.victims.len()}</td>
                                <td class="num">{c.victims.iter().map(|v| v.1).max().map(|m| m.to_string()).unwrap_or_else(|| "—".into())}</td>
                                <td class="num pdb-cell" data-testid="pdb-violations">
                                    {c.pdb_violations}
                                    {(!violated.is_empty()).then(|| view! { <span class="pdb-names mono" data-testid="pdb-violated">{violated.join(", ")}</span> })}
                                </td>
                                <td class="mono victims">{if victims.is_empty() { "none".to_string() } else { victims }}</td>
                            </tr>
                        }
                    })
                    .collect_view();
                // Each candidate's budgets in words: which victims they cover, and whether
                // evicting them violates the budget.
                let budgets: Vec<_> = p
                    .candidates
                    .iter()
                    .filter(|c| !c.pdbs.is_empty())
                    .take(SHOWN)
                    .flat_map(|c| {
                        c.pdbs.iter().map(move |h| {
                            let allowed = match h.disruptions_allowed {
                                1 => "1 disruption".to_string(),
                                n => format!("{n} disruptions"),
                            };
                            let verdict = if h.violated { "violates" } else { "stays within" };
                            view! {
                                <li data-node=c.node.clone() data-pdb=h.name.clone() class:violated=h.violated>
                                    <span class="mono">{c.node.clone()}</span>
                                    {format!(": evicting {} {verdict} ", h.victims.join(", "))}
                                    <Term name="PodDisruptionBudget"/>
                                    " "<b class="mono">{h.name.clone()}</b>
                                    {format!(" ({allowed} allowed)")}
                                </li>
                            }
                        })
                    })
                    .collect();
                let budgets = (!budgets.is_empty()).then(|| {
                    view! { <ul class="note pdb-hits" data-testid="pdb-hits">{budgets}</ul> }
                });
                let cleared = (!p.cleared.is_empty()).then(|| {
                    view! { <p class="note"><Term name="nomination">"Nominations"</Term>" cleared: "{p.cleared.join(", ")}</p> }
                });
                view! {
                    <p class="meta">
                        <span>"nodes where preemption might help "<b>{p.potential}</b></span>
                        <span>"skipped (unresolvable) "<b>{p.skipped_unresolvable}</b></span>
                        <span>"candidates "<b>{total}</b></span>
                        {p.decided_by.map(|d| view! { <span>"decided by "<Term name=d><b class="mono" data-testid="decided-by">{d}</b></Term></span> })}
                    </p>
                    {(total > 0).then(|| view! {
                        <div class="table-scroll">
                            <table class="matrix preempt-table" data-testid="preempt-table">
                                <thead>
                                    <tr>
                                        <th scope="col" class="corner">"candidate"</th>
                                        <th scope="col"><Term name="victims"/></th>
                                        <th scope="col"><Term name="priority">"highest priority"</Term></th>
                                        <th scope="col"><Term name="PDB violations"/></th>
                                        <th scope="col">"victims (priority), most important first"</th>
                                    </tr>
                                </thead>
                                <tbody>{rows}</tbody>
                            </table>
                        </div>
                    })}
                    {budgets}
                    {p.explanation.clone().map(|e| view! { <p class="summary" data-testid="preempt-explanation">{with_code(&e)}</p> })}
                    {cleared}
                }
                .into_any()
            }
        }
    };
    view! {
        <section class="step" data-testid="preempt">
            <h3>
                <Term name="preempt" code=true/>
                {is_modern.then(|| view! { <ExtPoints points=&["PostFilter"]/> })}
                <span class="step-sub">"find the node where evicting the least important pods makes room"</span>
            </h3>
            {post_filter}
            {is_modern.then(|| view! { <h4 class="ext-title"><Term name="DefaultPreemption" code=true/><span class="step-sub">"the preemption evaluator"</span></h4> })}
            {content}
        </section>
    }
}
