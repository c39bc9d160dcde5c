//! `assume` and `bind`: the pod counts on its node in the cache at once; the binding completes
//! as a later step (after `bindLatency`), when the `Scheduled` event is emitted.

use super::plugin_statuses::{ExtPoints, PluginStatuses};
use super::term::Term;
use crate::analysis::CycleView;
use leptos::prelude::*;

/// The end of a successful cycle.
#[component]
pub fn AssumeBind(
    cycle: CycleView,
    pod: String,
    /// Whether `bind` has happened on screen yet (phase stepping shows `assume` first).
    bound: bool,
) -> impl IntoView {
    let node = cycle.chosen.clone().unwrap_or_default();
    let is_modern = cycle.modern.is_some();
    let volumes = (!cycle.volume_bindings.is_empty()).then(|| {
        let list = cycle
            .volume_bindings
            .iter()
            .map(|(claim, volume)| match volume {
                Some(v) => format!("{claim} → {v}"),
                None => format!("{claim} (provisioned on the node)"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        view! { <p class="note">"Volumes bound at assume: "{list}</p> }
    });
    let devices = (!cycle.claims.is_empty()).then(|| {
        let rows = cycle
            .claims
            .iter()
            .map(|c| {
                let devices = if c.devices.is_empty() {
                    "no devices".to_string()
                } else {
                    c.devices.join("; ")
                };
                view! {
                    <li data-testid="claim-devices" data-claim=c.claim.clone()>
                        <span class="mono">{c.entry.clone()}</span>" (claim "<span class="mono">{c.claim.clone()}</span>"): "
                        <span class="mono">{devices}</span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="note" data-testid="allocated-devices">
                <Term name="DynamicResources">"Devices"</Term>" allocated at assume (Reserve), in flight until the binding ends:"
                <ul class="claim-devices">{rows}</ul>
            </div>
        }
    });
    let reserved = (!cycle.claims.is_empty()).then(|| {
        let names: Vec<String> = cycle.claims.iter().map(|c| c.claim.clone()).collect();
        view! {
            <p class="note" data-testid="reserved-for">
                "PreBind writes the allocation to the claim ("<span class="mono">{names.join(", ")}</span>") and adds "<span class="mono">{pod.clone()}</span>" to its reservedFor."
            </p>
        }
    });
    let modern = cycle.modern.clone();
    let at_assume = modern.clone().map(|m| {
        view! {
            <PluginStatuses point="Reserve" sub="reserve the node's resources for the pod" rows=m.reserve test_id="reserve"/>
            <PluginStatuses point="Permit" sub="approve, deny or hold the binding" rows=m.permit test_id="permit"/>
        }
    });
    let at_bind = modern.map(|m| {
        view! {
            <PluginStatuses point="PreBind" sub="prepare the binding (volumes, claims)" rows=m.pre_bind test_id="pre-bind"/>
            <PluginStatuses point="Bind" sub="the first plugin that does not Skip binds the pod" rows=m.bind test_id="bind-plugins"/>
        }
    });
    view! {
        <section class="step" data-testid="assume">
            <h3>
                <Term name="assume" code=true/>
                {is_modern.then(|| view! { <ExtPoints points=&["Reserve", "Permit"]/> })}
                <span class="step-sub">"count the pod on its node in the cache before the binding completes"</span>
            </h3>
            <p>
                <span class="mono">{pod.clone()}</span>" is assumed on "<b class="mono">{node.clone()}</b>
                ": the next cycles already see its requests there."
            </p>
            {volumes}
            {devices}
            {at_assume}
        </section>
        {bound.then(|| view! {
        <section class="step" data-testid="bind">
            <h3>
                <Term name="bind" code=true/>
                {is_modern.then(|| view! { <ExtPoints points=&["PreBind", "Bind"]/> })}
                <span class="step-sub">"write the binding to the API server (asynchronously)"</span>
            </h3>
            <p>
                "Normal · Scheduled · "
                <span class="mono">{format!("Successfully assigned {pod} to {node}")}</span>
            </p>
            {reserved}
            {at_bind}
        </section>
        })}
    }
}
