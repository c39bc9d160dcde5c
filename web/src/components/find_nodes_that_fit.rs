//! `findNodesThatFit`: nodes × predicates. Predicates run in v1.17's fixed order and a node
//! stops at its first failure, so a failing cell spans the predicates that never ran.
//!
//! A v1.35 cycle adds its extension points: the PreFilter plugins with their statuses (and
//! the node set a PreFilter result narrowed the search to), the nominated node tried first,
//! and the profile's Filter plugins as the columns, those PreFilter skipped shown as skipped
//! and each rejected node's status code next to its reason.

use super::camel_breaks;
use super::plugin_statuses::{code_class, ExtPoints, PluginStatuses};
use super::term::Term;
use crate::analysis::{FilterCell, FilterRow, FilterTable, ModernView, NodeClaimsRow};
use crate::devices::ClaimDevices;
use leptos::prelude::*;

/// The filter table.
#[component]
pub fn FindNodesThatFit(
    table: FilterTable,
    /// v1.35: the cycle's extension points (`None` for v1.17).
    #[prop(default = None)]
    modern: Option<ModernView>,
    /// The pod's ResourceClaims (what DynamicResources' Filter allocates on each node).
    #[prop(default = Vec::new())]
    claims: Vec<ClaimDevices>,
) -> impl IntoView {
    let is_modern = modern.is_some();
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
        .map(|c| {
            if let Some(th) = super::extender_calls::extender_header(c, "pred", None) {
                return th;
            }
            let label = camel_breaks(c);
            let custom = super::plugins_panel::custom_mark(c);
            view! { <th scope="col" class="pred" data-name=c.clone()><Term name=c.clone()>{label}</Term>{custom}</th> }.into_any()
        })
        .collect_view();
    let total_rows = rows.len();
    let show_all = RwSignal::new(false);
    let rows = StoredValue::new(rows);
    let body = move || {
        rows.get_value()
            .into_iter()
            .take(super::rows_shown(show_all))
            .map(|row| view! { <NodeRow row=row/> })
            .collect_view()
    };
    // v1.35: nodes a PreFilter rejection or narrowing, or a nominated node that passed, kept
    // out of the scan are not "not evaluated because enough were found".
    let scan_stopped_early = modern.as_ref().is_none_or(|m| {
        !m.pre_filter_rejected
            && m.pre_filter_nodes.is_none()
            && !m.nominated.as_ref().is_some_and(|(_, passed)| *passed)
    });
    // v1.35: no scan at all after a PreFilter rejection or when the nominated node passed.
    let scanned = modern.as_ref().is_none_or(|m| {
        !m.pre_filter_rejected && !m.nominated.as_ref().is_some_and(|(_, passed)| *passed)
    });
    let not_evaluated = if scan_stopped_early {
        num_all_nodes.saturating_sub(evaluated)
    } else {
        0
    };
    let sub = if is_modern {
        "run the Filter plugins on each node; stop a node at its first rejection"
    } else {
        "run the predicates on each node; stop a node at its first failure"
    };
    // The nodes a PreFilter result left (all of them evaluated when the table has as many rows).
    let row_nodes: Vec<String> = rows.with_value(|r| r.iter().map(|r| r.node.clone()).collect());
    let pre = modern
        .clone()
        .map(|m| view! { <PreFilter modern=m row_nodes=row_nodes num_all_nodes=num_all_nodes/> });
    let per_node = modern
        .as_ref()
        .map(|m| m.claims_per_node.clone())
        .unwrap_or_default();
    let nominated = modern
        .and_then(|m| m.nominated)
        .map(|(node, passed)| view! { <NominatedFirst node=node passed=passed/> });
    view! {
        <section class="step" data-testid="find-nodes-that-fit">
            <h3>
                <Term name="findNodesThatFit" code=true/>
                {is_modern.then(|| view! { <ExtPoints points=&["PreFilter", "Filter"]/> })}
                <span class="step-sub">{sub}</span>
            </h3>
            {pre}
            {(!claims.is_empty()).then(|| view! { <PodClaims claims=claims/> })}
            {nominated}
            {is_modern.then(|| view! { <h4 class="ext-title"><Term name="Filter" code=true/><span class="step-sub">"the profile's Filter plugins, in order"</span></h4> })}
            <p class="meta">
                {scanned.then(|| view! { <span><Term name="numFeasibleNodesToFind" code=true/>" = "<b data-testid="num-to-find">{num_to_find}</b></span> })}
                <span>"evaluated "<b>{evaluated}</b>" of "{num_all_nodes}</span>
                <span>"feasible "<b>{feasible}</b></span>
                {scanned.then(|| view! { <span><Term name="start index"/>" "<b>{start_index}</b></span> })}
            </p>
            <div class="table-scroll" class:hidden=total_rows == 0 && !scanned>
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
            <super::ShowAllRows show_all=show_all total=total_rows testid="filter-show-all" noun="evaluated nodes"/>
            {(!per_node.is_empty()).then(|| view! { <ClaimsPerNode rows=per_node/> })}
            {(not_evaluated > 0).then(|| view! {
                <p class="note" data-testid="not-evaluated">
                    {format!(
                        "{not_evaluated} of {num_all_nodes} nodes were not evaluated: the search stopped once {num_to_find} feasible nodes were found ("
                    )}
                    <Term name="numFeasibleNodesToFind"/>
                    ", from "
                    <Term name="percentageOfNodesToScore"/>
                    "). The next cycle starts where this one stopped."
                </p>
            })}
        </section>
    }
}

/// The pod's claims, each with what it asks for: what DynamicResources' Filter runs the
/// allocator for on each node.
#[component]
fn PodClaims(claims: Vec<ClaimDevices>) -> impl IntoView {
    let rows = claims
        .into_iter()
        .map(|c| {
            let asks = if c.asks.is_empty() {
                "not created yet".to_string()
            } else {
                c.asks
            };
            let claim = c.claim.clone();
            view! {
                <li data-testid="pod-claim" data-claim=claim>
                    <span class="mono">{c.entry}</span>" (claim "<span class="mono">{c.claim}</span>"): "
                    <span class="mono">{asks}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="note" data-testid="pod-claims">
            <Term name="DynamicResources">"DynamicResources"</Term>
            " runs the allocator on each node for the pod's "<Term name="ResourceClaim">"claims"</Term>":"
            <ul class="claim-devices">{rows}</ul>
        </div>
    }
}

/// DynamicResources' Filter on each node, claim by claim: the devices the allocator chose, or
/// why it found none (the first rows; all of them on request).
#[component]
fn ClaimsPerNode(rows: Vec<NodeClaimsRow>) -> impl IntoView {
    let claims: Vec<String> = rows
        .first()
        .map(|r| r.answers.iter().map(|a| a.claim.clone()).collect())
        .unwrap_or_default();
    let total = rows.len();
    let show_all = RwSignal::new(false);
    let rows = StoredValue::new(rows);
    let header = claims
        .into_iter()
        .map(|c| view! { <th scope="col" class="mono">{c}</th> })
        .collect_view();
    let body = move || {
        rows.get_value()
            .into_iter()
            .take(super::rows_shown(show_all))
            .map(|r| {
                let node = r.node.clone();
                let cells = r
                    .answers
                    .into_iter()
                    .map(|a| {
                        view! { <td class=format!("claim-answer claim-{}", a.kind) data-kind=a.kind.clone()>{a.text}</td> }
                    })
                    .collect_view();
                view! { <tr data-testid="claims-on-node" data-node=node><th scope="row" class="mono">{r.node}</th>{cells}</tr> }
            })
            .collect_view()
    };
    view! {
        <div class="claims-per-node" data-testid="claims-per-node">
            <h4 class="ext-title">
                <Term name="DynamicResources" code=true/>
                <span class="step-sub">"the allocator's answer for each claim on each node"</span>
            </h4>
            <div class="table-scroll">
                <table class="matrix claims-table">
                    <thead><tr><th scope="col" class="corner">"node"</th>{header}</tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            <super::ShowAllRows show_all=show_all total=total testid="claims-show-all" noun="nodes"/>
        </div>
    }
}

/// One node's row: a cell per predicate or Filter plugin, up to its first failure.
#[component]
fn NodeRow(row: FilterRow) -> impl IntoView {
    let last = row.cells.len().saturating_sub(1);
    let ends_with_failure = matches!(row.cells.last(), Some(FilterCell::Fail { .. }));
    let code = row.code;
    let code_tag = move || {
        code.map(|c| view! { <Term name=c><span class=format!("{} cell-code", code_class(c)) data-testid="node-code">{c}</span></Term> })
    };
    let cells = row
        .cells
        .into_iter()
        .enumerate()
        .map(|(i, cell)| match cell {
            FilterCell::Pass => view! { <td class="pass" title="passed">"✓"</td> }.into_any(),
            // The usual case: the node's first failure, which ends the row. Its text runs on
            // over the predicates that never ran and the free last column.
            FilterCell::Fail { reason, detail, span } if i == last => view! {
                <td class="fail" colspan=span + 1 title=detail>{reason}{code_tag()}</td>
            }
            .into_any(),
            // With alwaysCheckAllPredicates a failure can sit mid-row: a mark, with the
            // reason on hover.
            FilterCell::Fail { reason, detail, span } => view! {
                <td class="fail fail-mark" colspan=span title=format!("{reason}: {detail}")>"✗"</td>
            }
            .into_any(),
            FilterCell::NotRun => view! { <td class="notrun" title="did not run">"·"</td> }.into_any(),
            FilterCell::Skipped => view! { <td class="skipped" title="skipped: its PreFilter returned Skip, so its Filter did not run this cycle">"skip"</td> }.into_any(),
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
}

/// v1.35's PreFilter: each plugin's status, and what its results did to the search (the nodes
/// it narrowed it to, a rejection that ends the cycle, the Filter plugins it skipped).
#[component]
fn PreFilter(modern: ModernView, row_nodes: Vec<String>, num_all_nodes: usize) -> impl IntoView {
    let narrowed = modern.pre_filter_nodes.map(|n| {
        let which = if row_nodes.len() == n && n > 0 {
            format!(" ({})", row_nodes.join(", "))
        } else {
            String::new()
        };
        view! {
            <p class="note" data-testid="pre-filter-nodes">
                {format!("A PreFilter result narrowed the search to {n} of {num_all_nodes} nodes{which}; the others get \"node(s) didn't satisfy plugin(s)\" and are not filtered.")}
            </p>
        }
    });
    let rejected = modern.pre_filter_rejected.then(|| {
        view! {
            <p class="note" data-testid="pre-filter-rejected">
                "A PreFilter plugin rejected the pod: the cycle ends here with that status for every node, and no Filter runs."
            </p>
        }
    });
    let skipped = (!modern.skipped_filters.is_empty()).then(|| {
        view! {
            <p class="note" data-testid="skipped-filters">
                "PreFilter returned Skip, so these Filter plugins do not run this cycle: "
                <span class="mono">{modern.skipped_filters.join(", ")}</span>
            </p>
        }
    });
    view! {
        <PluginStatuses
            point="PreFilter"
            sub="each plugin prepares its state once; Skip drops its Filter, a rejection ends the cycle"
            rows=modern.pre_filter.clone()
            test_id="pre-filter"
        />
        {narrowed}
        {rejected}
        {skipped}
    }
}

/// v1.35: the pod's nominated node, tried before the scan.
#[component]
fn NominatedFirst(node: String, passed: bool) -> impl IntoView {
    let rest = if passed {
        " is tried first and passes: it is the result, with no scan of the other nodes and no scoring."
    } else {
        " is tried first and is rejected: every node is scanned as usual."
    };
    view! {
        <p class="note nominated-first" data-testid="nominated-first">
            "The pod's "<Term name="nominatedNodeName">"nominated node"</Term>" "{node}{rest}
        </p>
    }
}
