//! `prioritizeNodes`: nodes × priorities. Each cell reads `raw → score ×weight`: the priority's
//! map result, its value after the reduce (normalising) step, and its weight. The row with the
//! highest total wins.

//!
//! A v1.35 cycle adds PreScore (each plugin's status; a Skip drops the plugin's Score for this
//! cycle) and shows only the Score plugins that ran, each cell read as `Score → NormalizeScore
//! ×weight`.

use super::camel_breaks;
use super::plugin_statuses::{ExtPoints, PluginStatuses};
use super::term::Term;
use crate::analysis::{ModernView, ScoreTable, Scoring};
use leptos::prelude::*;

/// The score table.
#[component]
pub fn PrioritizeNodes(
    table: ScoreTable,
    /// v1.35: the cycle's extension points (`None` for v1.17).
    #[prop(default = None)]
    modern: Option<ModernView>,
) -> impl IntoView {
    let ScoreTable {
        columns,
        weights,
        rows,
        scoring,
    } = table;
    let is_modern = modern.is_some();
    let passed = if is_modern {
        "the filters"
    } else {
        "the predicates"
    };
    let pre_score = modern.filter(|_| scoring == Scoring::Scored).map(|m| {
        let skipped = (!m.skipped_scores.is_empty()).then(|| {
            view! {
                <p class="note" data-testid="skipped-scores">
                    "PreScore returned Skip, so these Score plugins do not score this cycle: "
                    <span class="mono">{m.skipped_scores.join(", ")}</span>
                </p>
            }
        });
        view! {
            <PluginStatuses
                point="PreScore"
                sub="each Score plugin prepares its state over the feasible nodes; Skip drops its Score"
                rows=m.pre_score.clone()
                test_id="pre-score"
            />
            {skipped}
            <h4 class="ext-title"><Term name="Score" code=true/><span class="step-sub">"then NormalizeScore, times the plugin's weight"</span></h4>
        }
    });
    let content = match scoring {
        Scoring::NoFeasibleNodes => view! {
            <p class="note">{format!("Not reached: no node passed {passed}.")}</p>
        }
        .into_any(),
        Scoring::OneFeasibleNode => view! {
            <p class="note">{format!("Skipped: only one node passed {passed}, so it is chosen without scoring.")}</p>
        }
        .into_any(),
        Scoring::Scored => {
            let header = columns
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let w = weights.get(i).copied().unwrap_or(1);
                    if let Some(th) = super::extender_calls::extender_header(c, "prio", Some(w)) {
                        return th;
                    }
                    let label = camel_breaks(c);
                    let custom = super::plugins_panel::custom_mark(c);
                    view! {
                        <th scope="col" class="prio" data-name=c.clone()>
                            <Term name=c.clone()>{label}</Term>
                            {custom}
                            <span class="weight">{format!("weight {w}")}</span>
                        </th>
                    }
                    .into_any()
                })
                .collect_view();
            let total_rows = rows.len();
            let body = rows
                .into_iter()
                .enumerate()
                // Past the limit, only the winner and its ties.
                .filter(|(i, r)| *i < super::ROW_LIMIT || r.winner || r.tied)
                .map(|(_, row)| {
                    let cells = row
                        .cells
                        .iter()
                        .map(|s| {
                            view! {
                                <td class="score">
                                    <span class="raw">{s.raw}</span>
                                    <span class="arrow">" → "</span>
                                    <span class="normalized">{s.score}</span>
                                    <span class="times">{format!(" ×{}", s.weight)}</span>
                                </td>
                            }
                        })
                        .collect_view();
                    let node_attr = row.node.clone();
                    view! {
                        <tr class:winner=row.winner class:tied=row.tied data-node=node_attr>
                            <th scope="row" class="mono">
                                {row.node}
                                {row.winner.then(|| view! { <span class="tag tag-winner">"chosen"</span> })}
                                {(row.tied && !row.winner).then(|| view! { <span class="tag">"tie"</span> })}
                            </th>
                            {cells}
                            <td class="total">{row.total}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="table-scroll">
                    <table class="matrix score-table" data-testid="score-table">
                        <thead>
                            <tr>
                                <th scope="col" class="corner">"node"</th>
                                {header}
                                <th scope="col" class="total">"total"</th>
                            </tr>
                        </thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                {(total_rows > super::ROW_LIMIT).then(|| view! {
                    <p class="note">{format!("The first {} of {total_rows} scored nodes, in evaluation order, and the best ones.", super::ROW_LIMIT)}</p>
                })}
                <p class="legend">{if is_modern {
                    "Cells read Score → NormalizeScore ×weight; the total is the sum of score × weight."
                } else {
                    "Cells read raw → score ×weight; the total is the sum of score × weight."
                }}</p>
            }
            .into_any()
        }
    };
    view! {
        <section class="step" data-testid="prioritize-nodes">
            <h3>
                <Term name="prioritizeNodes" code=true/>
                {is_modern.then(|| view! { <ExtPoints points=&["PreScore", "Score", "NormalizeScore"]/> })}
                <span class="step-sub">{if is_modern {
                    "score every feasible node with each Score plugin, times its weight"
                } else {
                    "score every feasible node with each priority, times its weight"
                }}</span>
            </h3>
            {pre_score}
            {content}
        </section>
    }
}
