//! The scheduler extenders' calls of one phase of a cycle (`findNodesThatFit`'s filter,
//! `prioritizeNodes`' prioritize, `preempt`, `bind`): per extender, who answered (a mock, a
//! recording, the live server), the nodes it kept or failed with their messages, the scores it
//! gave (raw × weight × 10, never clamped), its error and whether `ignorable` saved the cycle,
//! and the request and reply, collapsed. Also the extenders' column headers in the filter and
//! score tables.

use super::term::Term;
use crate::analysis::Phase;
use crate::extender_view::{is_extender_column, CallView};
use leptos::prelude::*;

/// A filter or score table's header cell for an extender's column (`Extender(<urlPrefix>)`),
/// or `None` for a plugin's.
pub fn extender_header(column: &str, class: &'static str, weight: Option<i64>) -> Option<AnyView> {
    if !is_extender_column(column) {
        return None;
    }
    let url = column["Extender(".len()..column.len() - 1].to_string();
    Some(
        view! {
            <th scope="col" class=format!("{class} ext-col") data-name=column.to_string() data-testid="extender-column">
                <Term name="extender">"extender"</Term>
                <span class="ext-url mono">{url}</span>
                {weight.map(|w| view! { <span class="weight">{format!("weight {w} ×10")}</span> })}
            </th>
        }
        .into_any(),
    )
}

/// The calls of `phase` (nothing when there is none).
#[component]
pub fn ExtenderCalls(
    /// Every extender call of the cycle.
    calls: Vec<CallView>,
    /// The phase whose calls to show.
    phase: Phase,
    /// v1.35's kubernetes#141781 hit this cycle's scoring (shown with `prioritizeNodes`).
    #[prop(default = false)]
    fresh_nodes: bool,
) -> impl IntoView {
    let function = phase.function();
    let mine: Vec<CallView> = calls.into_iter().filter(|c| c.phase == function).collect();
    let fresh = (fresh_nodes && phase == Phase::Score).then(|| {
        view! {
            <p class="note ext-fresh" data-testid="fresh-nodes">
                <b>"kubernetes#141781"</b>
                " (v1.33–v1.35, reproduced): an extender answered its filter with "<code>"Nodes"</code>
                " (it is not nodeCacheCapable), so the Score plugins scored fresh NodeInfos without their pods: NodeResourcesFit and NodeResourcesBalancedAllocation see every such node as empty. The fix (PR #141919) is the switch in the Extenders editor, or "
                <code>"--fidelity extender-nodeinfo-fix"</code>"."
            </p>
        }
    });
    if mine.is_empty() {
        return fresh.into_any();
    }
    let list = mine
        .into_iter()
        .map(|c| view! { <Call call=c/> })
        .collect_view();
    view! {
        {fresh}
        <div class="ext-calls" data-testid="extender-calls" data-phase=function>
            <h4 class="ext-title">
                <Term name="extender">"Extenders"</Term>
                <span class="step-sub">{match phase {
                    Phase::Filter => "after the filters, each extender gets the nodes the previous one kept",
                    Phase::Score => "each extender's 0-10 score × its weight × 10, added to the totals",
                    Phase::Preempt => "each extender may drop candidate nodes or change their victims",
                    _ => "a binder extender binds the pod instead of the Bind plugins",
                }}</span>
            </h4>
            {list}
        </div>
    }
    .into_any()
}

/// One call.
#[component]
fn Call(call: CallView) -> impl IntoView {
    let CallView {
        extender,
        verb,
        source,
        error,
        ignored,
        sent,
        kept,
        failed,
        dropped,
        fresh_nodes,
        scores,
        weight,
        victims,
        node,
        request,
        reply,
        ..
    } = call;
    let summary = match verb.as_str() {
        "filter" if error.is_none() => format!(
            "sent {} node(s) · kept {} · failed {}",
            sent.len(),
            kept.len(),
            failed.len() + dropped.len()
        ),
        "filter" => format!("sent {} node(s)", sent.len()),
        "prioritize" => format!("{} node(s) scored · weight {weight}", scores.len()),
        "preempt" => format!("{} candidate node(s) left", victims.len()),
        _ if error.is_some() => node
            .map(|n| format!("asked to bind the pod to {n}"))
            .unwrap_or_default(),
        _ => node
            .map(|n| format!("binds the pod to {n}"))
            .unwrap_or_default(),
    };
    let verdict = error.as_ref().map(|_| verdict(&verb, ignored));
    let source_title = match source.as_str() {
        "mock" => "answered by the scenario's ExtenderMock",
        "recording" => "answered by the scenario's ExtenderRecording",
        _ => "answered by the extender's server (a live call)",
    };
    let kept_line = (verb == "filter" && error.is_none() && !kept.is_empty()).then(|| {
        view! { <p class="ext-kept">"kept: "<span class="mono">{kept.join(", ")}</span></p> }
    });
    let failures = (!failed.is_empty() || !dropped.is_empty()).then(|| {
        let rows = failed
            .into_iter()
            .map(|f| {
                let node_attr = f.node.clone();
                let tag = if f.unresolvable {
                    Some(view! { <span class="tag" title="FailedAndUnresolvableNodes: preemption will not try this node">"unresolvable"</span> })
                } else {
                    None
                };
                let unknown = f.unknown.then(|| view! { <span class="tag" title="the extender named a node the cluster does not have">"unknown node"</span> });
                view! {
                    <li data-node=node_attr>
                        <span class="mono">{f.node}</span>": "{f.message}" "{tag}{unknown}
                    </li>
                }
            })
            .collect_view();
        let dropped = dropped
            .into_iter()
            .map(|n| {
                let node_attr = n.clone();
                view! { <li data-node=node_attr><span class="mono">{n}</span>": left out, with no message"</li> }
            })
            .collect_view();
        view! { <ul class="ext-failed" data-testid="extender-failed">{rows}{dropped}</ul> }
    });
    let score_table = (!scores.is_empty()).then(|| {
        let rows = scores
            .into_iter()
            .map(|(n, raw, weighted)| {
                let node_attr = n.clone();
                view! {
                    <tr data-node=node_attr>
                        <th scope="row" class="mono">{n}</th>
                        <td class="num">{raw}</td>
                        <td class="num">{format!("× {weight} × 10")}</td>
                        <td class="num total">{weighted}</td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="matrix ext-scores" data-testid="extender-scores">
                <thead><tr><th scope="col" class="corner">"node"</th><th scope="col">"score (0-10)"</th><th scope="col">"× weight × 10"</th><th scope="col">"added"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
    });
    let victims = (!victims.is_empty()).then(|| {
        let text = victims
            .iter()
            .map(|(n, k)| format!("{n} ({k} victim{})", if *k == 1 { "" } else { "s" }))
            .collect::<Vec<_>>()
            .join(", ");
        view! { <p class="ext-kept">"candidates left: "<span class="mono">{text}</span></p> }
    });
    let fresh = fresh_nodes.then(|| view! {
        <p class="note" data-testid="extender-fresh">"It answered with " <code>"Nodes"</code> ": the nodes it kept come back without their pods (kubernetes#141781)."</p>
    });
    let failed_call = error.is_some();
    let (verb_attr, extender_attr, source_attr) = (verb.clone(), extender.clone(), source.clone());
    view! {
        <div class="ext-call" class:ext-call-failed=failed_call data-testid="extender-call" data-verb=verb_attr data-extender=extender_attr data-source=source_attr>
            <p class="ext-call-head">
                <span class="mono ext-url">{extender}</span>
                " · "<code>{verb}</code>
                <span class=format!("tag ext-source ext-source-{source}") title=source_title>{source.clone()}</span>
                <span class="ext-summary">{summary}</span>
            </p>
            {error.map(|e| view! { <p class="ext-error mono" data-testid="extender-error" role="alert">{e}</p> })}
            {verdict.map(|(saved, text)| view! { <p class="ext-verdict" class:saved=saved data-testid="extender-verdict">{text}</p> })}
            {kept_line}
            {failures}
            {score_table}
            {victims}
            {fresh}
            <Exchange label="request" text=request/>
            <Exchange label="reply" text=reply/>
        </div>
    }
}

/// What a failed call did to the cycle: whether the error was skipped (and by which rule).
fn verdict(verb: &str, ignored: bool) -> (bool, &'static str) {
    match (verb, ignored) {
        ("prioritize", _) => (
            true,
            "Ignored: a prioritize error never fails the cycle; this extender adds nothing to the totals.",
        ),
        ("filter", true) => (
            true,
            "ignorable saved the cycle: the error is skipped and the nodes go on as they were.",
        ),
        ("filter", false) => (
            false,
            "Not ignorable: the cycle ends in an Error (not a FitError: no preemption; the pod is retried after a backoff).",
        ),
        ("preempt", true) => (
            true,
            "ignorable saved the cycle: the error is skipped and the candidates stay as they were.",
        ),
        ("preempt", false) => (false, "Not ignorable: preemption fails with this error."),
        (_, true) => (
            true,
            "ignorable saved the binding: the error is skipped and the next binder binds the pod.",
        ),
        (_, false) => (false, "The binding fails: the pod is forgotten and retried."),
    }
}

/// A request or reply, collapsed; JSON shown indented.
#[component]
fn Exchange(label: &'static str, text: Option<String>) -> impl IntoView {
    let Some(text) = text else {
        return view! { <p class="ext-exchange-none">{format!("({label} not kept)")}</p> }
            .into_any();
    };
    let size = text.len();
    let shown = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or(text);
    view! {
        <details class="ext-exchange" data-testid=format!("extender-{label}")>
            <summary>{format!("{label} ({size} bytes)")}</summary>
            <pre class="mono">{shown}</pre>
        </details>
    }
    .into_any()
}
