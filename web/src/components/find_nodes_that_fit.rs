//! `findNodesThatFit`: nodes × predicates. Predicates run in v1.17's fixed order and a node
//! stops at its first failure, so a failing cell spans the predicates that never ran.

use super::camel_breaks;
use crate::analysis::{FilterCell, FilterTable};
use leptos::prelude::*;

/// The filter table.
#[component]
pub fn FindNodesThatFit(table: FilterTable) -> impl IntoView {
    let FilterTable {
        columns,
        rows,
        num_all_nodes,
        num_to_find,
        evaluated,
        feasible,
        start_index,
    } = table;
    let header = columns
        .iter()
        .map(|c| view! { <th scope="col" class="pred" title=c.clone()>{camel_breaks(c)}</th> })
        .collect_view();
    let total_rows = rows.len();
    let show_all = RwSignal::new(false);
    let rows = StoredValue::new(rows);
    let body = move || {
        let limit = if show_all.get() {
            usize::MAX
        } else {
            super::ROW_LIMIT
        };
        rows.get_value()
        .into_iter()
        .take(limit)
        .map(|row| {
            let last = row.cells.len().saturating_sub(1);
            let ends_with_failure = matches!(row.cells.last(), Some(FilterCell::Fail { .. }));
            let cells = row
                .cells
                .into_iter()
                .enumerate()
                .map(|(i, cell)| match cell {
                    FilterCell::Pass => view! { <td class="pass" title="passed">"✓"</td> }.into_any(),
                    // The usual case: the node's first failure, which ends the row. Its text
                    // runs on over the predicates that never ran and the free last column.
                    FilterCell::Fail { reason, detail, span } if i == last => view! {
                        <td class="fail" colspan=span + 1 title=detail>{reason}</td>
                    }
                    .into_any(),
                    // With alwaysCheckAllPredicates a failure can sit mid-row: a mark, with the
                    // reason on hover.
                    FilterCell::Fail { reason, detail, span } => view! {
                        <td class="fail fail-mark" colspan=span title=format!("{reason}: {detail}")>"✗"</td>
                    }
                    .into_any(),
                    FilterCell::NotRun => view! { <td class="notrun" title="did not run">"·"</td> }.into_any(),
                })
                .collect_view();
            let node_attr = row.node.clone();
            view! {
                <tr class:fits=row.fits class:rejected=!row.fits data-node=node_attr>
                    <th scope="row" class="mono">{row.node}</th>
                    {cells}
                    {(!ends_with_failure).then(|| view! { <td class="rest"></td> })}
                </tr>
            }
        })
        .collect_view()
    };
    let not_evaluated = num_all_nodes.saturating_sub(evaluated);
    view! {
        <section class="step" data-testid="find-nodes-that-fit">
            <h3>
                <code>"findNodesThatFit"</code>
                <span class="step-sub">"run the predicates on each node; stop a node at its first failure"</span>
            </h3>
            <p class="meta">
                <span><code>"numFeasibleNodesToFind"</code>" = "<b data-testid="num-to-find">{num_to_find}</b></span>
                <span>"evaluated "<b>{evaluated}</b>" of "{num_all_nodes}</span>
                <span>"feasible "<b>{feasible}</b></span>
                <span>"start index "<b>{start_index}</b></span>
            </p>
            <div class="table-scroll">
                <table class="matrix filter-table" data-testid="filter-table">
                    <thead>
                        <tr>
                            <th scope="col" class="corner">"node"</th>
                            {header}
                            <th class="rest"></th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            {(total_rows > super::ROW_LIMIT).then(|| view! {
                <button class="link" data-testid="filter-show-all" on:click=move |_| show_all.update(|s| *s = !*s)>
                    {move || if show_all.get() { "show the first rows only".to_string() } else { format!("show all {total_rows} evaluated nodes") }}
                </button>
            })}
            {(not_evaluated > 0).then(|| view! {
                <p class="note" data-testid="not-evaluated">
                    {format!(
                        "{not_evaluated} of {num_all_nodes} nodes were not evaluated: the search stopped once {num_to_find} feasible nodes were found (numFeasibleNodesToFind, from percentageOfNodesToScore). The next cycle starts where this one stopped."
                    )}
                </p>
            })}
        </section>
    }
}
