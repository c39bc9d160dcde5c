//! One node's card: name, cordon mark, CPU / memory / pod bars, labels, taints and its pods as
//! chips coloured by priority; a pod covered by a PodDisruptionBudget carries a small mark, and
//! the pods of the budget hovered in the budget list are outlined.

use super::pdb_view::PdbHover;
use super::priority_class;
use super::term::Term;
use crate::devices::DeviceChip;
use crate::session::{ChipKind, Usage};
use crate::state::{RunPosition, Selected, Selection};
use leptos::prelude::*;
use schedlab_core::model::resources::format_usage;

/// The card of node `index` in the current frame.
#[component]
pub fn NodeCard(index: usize) -> impl IntoView {
    let position = expect_context::<RunPosition>();
    let selection = expect_context::<Selected>();
    let card = Memo::new(move |_| {
        position
            .frame
            .with(|f| f.as_ref()?.nodes.get(index).cloned())
    });
    let hover = use_context::<PdbHover>();
    move || {
        let n = card.get()?;
        let info = position.info.get()?;
        let name = n.name.clone();
        let selected = {
            let name = name.clone();
            move || {
                selection
                    .selection
                    .with(|s| matches!(s, Selection::Node(x) if *x == name))
            }
        };
        let select = {
            let name = name.clone();
            move |_| selection.select_node(&name)
        };
        let chips = n
            .chips
            .iter()
            .map(|c| {
                let pod = c.pod;
                let p = info.pods.get(pod).cloned();
                let (short, priority, requests) = p
                    .map(|p| (p.short, p.priority, p.requests))
                    .unwrap_or_default();
                let class = format!("chip {} {}", c.kind.as_str(), priority_class(priority));
                let title = format!(
                    "{short} · priority {priority} · {requests}{}{}",
                    match c.kind {
                        ChipKind::Bound => "",
                        ChipKind::Assumed => " · assumed: binding in flight",
                        ChipKind::Nominated => " · nominated here by preemption",
                        ChipKind::Terminating => " · preempted: terminating",
                    },
                    if c.budgeted {
                        " · covered by a PodDisruptionBudget"
                    } else {
                        ""
                    }
                );
                let highlighted = move || hover.is_some_and(|h| h.pods.with(|p| p.contains(&pod)));
                view! {
                    <button
                        class=class
                        class:selected=move || selection.pod.get() == Some(pod)
                        class:budgeted=c.budgeted
                        class:pdb-hover=highlighted
                        title=title
                        data-testid="pod-chip"
                        data-pod=short.clone()
                        data-kind=c.kind.as_str()
                        data-budgeted=c.budgeted.then_some("true")
                        on:click=move |ev| {
                            ev.stop_propagation();
                            selection.select_pod(pod);
                        }
                    >
                        {short.clone()}
                    </button>
                }
            })
            .collect_view();
        Some(view! {
            <article
                class="node-card"
                class:cordoned=n.cordoned
                class:selected=selected
                data-testid="node-card"
                data-node=name.clone()
                on:click=select
            >
                <header>
                    <span class="node-name">{name.clone()}</span>
                    {n.cordoned.then(|| view! { <Term name="cordoned"><span class="badge cordon">"cordoned"</span></Term> })}
                </header>
                <Bar label="cpu" usage=n.cpu resource="cpu"/>
                <Bar label="mem" usage=n.memory resource="memory"/>
                <Bar label="pods" usage=n.pods resource="pods"/>
                {(!n.labels.is_empty()).then(|| view! {
                    <ul class="labels">
                        {shown_labels(&n.labels).into_iter().map(|(text, title)| {
                            view! { <li title=title>{text}</li> }
                        }).collect_view()}
                    </ul>
                })}
                {(!n.taints.is_empty()).then(|| view! {
                    <ul class="taints">
                        {n.taints.iter().map(|t| {
                            let t = t.clone();
                            view! { <li><Term name="taint">{t}</Term></li> }
                        }).collect_view()}
                    </ul>
                })}
                <div class="chips">{chips}</div>
                {(!n.devices.is_empty()).then(|| view! { <Devices devices=n.devices.clone()/> })}
            </article>
        })
    }
}

/// A node's devices, a line per driver and pool: each device free or held (by which claim, for
/// which pods).
#[component]
fn Devices(devices: Vec<DeviceChip>) -> impl IntoView {
    let mut pools: Vec<(String, String, Vec<DeviceChip>)> = Vec::new();
    for d in devices {
        match pools
            .iter_mut()
            .find(|(driver, pool, _)| *driver == d.driver && *pool == d.pool)
        {
            Some((_, _, list)) => list.push(d),
            None => pools.push((d.driver.clone(), d.pool.clone(), vec![d])),
        }
    }
    let free = pools
        .iter()
        .flat_map(|(_, _, l)| l)
        .filter(|d| d.claim.is_none())
        .count();
    let total: usize = pools.iter().map(|(_, _, l)| l.len()).sum();
    let pools = pools
        .into_iter()
        .map(|(driver, pool, list)| {
            let shared = list.iter().any(|d| d.shared);
            let chips = list
                .into_iter()
                .map(|d| {
                    let text = match (&d.label, d.pods.first()) {
                        (Some(l), Some(p)) => format!("{} {l} → {p}", d.name),
                        (None, Some(p)) => format!("{} → {p}", d.name),
                        (Some(l), None) => format!("{} {l}", d.name),
                        (None, None) => d.name.clone(),
                    };
                    view! {
                        <li
                            class=format!("device {}", d.state())
                            title=d.title()
                            data-testid="device"
                            data-device=d.name.clone()
                            data-state=d.state()
                            data-claim=d.claim.clone()
                        >
                            {text}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="device-pool" data-driver=driver.clone() data-pool=pool.clone() data-shared=shared.then_some("true")>
                    <span class="device-pool-name" title=format!("driver {driver}, pool {pool}")>{format!("{driver} · {pool}")}</span>
                    {shared.then(|| view! { <span class="device-pool-shared" title="published by a ResourceSlice shared by several nodes (nodeSelector or allNodes): the same devices show on each node it reaches">"shared"</span> })}
                    <ul class="device-list">{chips}</ul>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="devices" data-testid="node-devices">
            <div class="devices-head">
                <Term name="ResourceSlice">"devices"</Term>
                <span class="devices-free">{format!("{free}/{total} free")}</span>
            </div>
            {pools}
        </div>
    }
}

/// One requested / allocatable bar.
#[component]
fn Bar(label: &'static str, usage: Usage, resource: &'static str) -> impl IntoView {
    let ratio = usage.ratio();
    let width = format!("width: {:.1}%", (ratio * 100.0).min(100.0));
    let text = format_usage(resource, usage.used, usage.total);
    let level = if ratio > 0.9 {
        "full"
    } else if ratio > 0.6 {
        "busy"
    } else {
        "ok"
    };
    view! {
        <div class="bar-row" data-testid=format!("bar-{label}")>
            <span class="bar-label">{label}</span>
            <span class="bar"><span class=format!("fill {level}") style=width></span></span>
            <span class="bar-text">{text}</span>
        </div>
    }
}

/// The node's labels as the card shows them: (text, tooltip). A key is cut to its last
/// segment (`zone=eu-1a`) when that is unambiguous. Labels that say the same thing under two
/// prefixes (`failure-domain.beta.kubernetes.io/zone` and `topology.kubernetes.io/zone`, both
/// `0` on AKS nodes) are shown once, with both keys in the tooltip; when the same short key
/// has different values, the full keys are shown.
pub fn shown_labels(labels: &[(String, String)]) -> Vec<(String, String)> {
    let short = |k: &str| k.rsplit('/').next().unwrap_or(k).to_string();
    let mut out: Vec<(String, String)> = Vec::new();
    // Short key → (value, index in `out`) of the first label shown under it.
    let mut seen: std::collections::HashMap<String, Vec<(String, usize)>> = Default::default();
    for (k, v) in labels {
        let s = short(k);
        let same_short: Vec<(String, usize)> = seen.get(&s).cloned().unwrap_or_default();
        if let Some(&(_, i)) = same_short.iter().find(|(value, _)| value == v) {
            // The same fact under another prefix: one chip, both keys in the tooltip.
            out[i].1.push_str(&format!("\n{k}={v}"));
            continue;
        }
        let text = if same_short.is_empty() {
            format!("{s}={v}")
        } else {
            format!("{k}={v}")
        };
        seen.entry(s).or_default().push((v.clone(), out.len()));
        out.push((text, format!("{k}={v}")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shown_labels;

    fn labels(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_beta_label_and_its_ga_twin_show_once() {
        let aks = labels(&[
            ("failure-domain.beta.kubernetes.io/zone", "0"),
            ("topology.kubernetes.io/zone", "0"),
            ("agentpool", "nodepool1"),
        ]);
        assert_eq!(
            shown_labels(&aks),
            [
                (
                    "zone=0".to_string(),
                    "failure-domain.beta.kubernetes.io/zone=0\ntopology.kubernetes.io/zone=0"
                        .to_string()
                ),
                (
                    "agentpool=nodepool1".to_string(),
                    "agentpool=nodepool1".to_string()
                ),
            ]
        );
    }

    #[test]
    fn the_same_short_key_with_another_value_shows_its_full_key() {
        let l = labels(&[("example.com/zone", "a"), ("other.io/zone", "b")]);
        let texts: Vec<String> = shown_labels(&l).into_iter().map(|(t, _)| t).collect();
        assert_eq!(texts, ["zone=a", "other.io/zone=b"]);
    }
}
