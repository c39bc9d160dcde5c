//! The v1.35 pieces the inspector's phases share: the extension points a phase runs, and one
//! extension point's plugins with their statuses.

use super::term::Term;
use crate::analysis::StatusRow;
use leptos::prelude::*;

/// The v1.35 extension points inside a phase (`PreFilter · Filter` under `findNodesThatFit`).
#[component]
pub fn ExtPoints(points: &'static [&'static str]) -> impl IntoView {
    view! {
        <span class="ext-points" data-testid="ext-points" aria-label="v1.35 extension points run in this phase">
            {points
                .iter()
                .map(|p| view! { <Term name=*p><code class="ext-point">{*p}</code></Term> })
                .collect_view()}
        </span>
    }
}

/// The CSS class of a status code.
pub fn code_class(code: &str) -> &'static str {
    match code {
        "Success" => "status-code success",
        "Skip" => "status-code skip",
        "Unschedulable" | "Pending" | "Wait" => "status-code unschedulable",
        _ => "status-code unresolvable",
    }
}

/// One extension point: each plugin in the order it ran, its code and its message.
#[component]
pub fn PluginStatuses(
    /// The extension point (`PreFilter`).
    point: &'static str,
    /// What it does, in a few words.
    sub: &'static str,
    /// The plugins that ran there.
    rows: Vec<StatusRow>,
    /// `data-testid` of the block.
    test_id: &'static str,
) -> impl IntoView {
    let empty = rows.is_empty();
    // A compact grid: plain successes and skips side by side, a status with a message on a
    // line of its own.
    let items = rows
        .into_iter()
        .map(|r| {
            let plugin = r.plugin.clone();
            let has_message = !r.message.is_empty();
            view! {
                <li class:has-message=has_message data-plugin=plugin data-code=r.code>
                    <span class="mono status-plugin"><Term name=r.plugin.clone()>{r.plugin}</Term></span>
                    <Term name=r.code><span class=code_class(r.code)>{r.code}</span></Term>
                    {has_message.then(|| view! { <span class="mono status-message">{r.message}</span> })}
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="ext-block" data-testid=test_id>
            <h4><Term name=point code=true/><span class="step-sub">{sub}</span></h4>
            {if empty {
                view! { <p class="note">"No plugin ran here."</p> }.into_any()
            } else {
                view! { <ul class="status-list">{items}</ul> }.into_any()
            }}
        </div>
    }
}
