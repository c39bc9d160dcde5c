//! The extenders' part of "why": per extender and phase, what it was sent, which nodes it kept
//! or failed and why, its scores as raw × weight × 10, its errors and whether `ignorable`
//! (or prioritize's rule that errors never count) saved the cycle.

use super::CycleTrace;
use crate::cluster::Cluster;
use crate::model::{FrontEnd, OptionName};
use crate::sched::extender::calls::{ExtenderCall, NamedNode, EXTENDER_SCALE};
use crate::sched::extender::Verb;

/// The longest request or reply quoted (the rest is counted, not shown).
const QUOTE_CHARS: usize = 160;

/// One line per extender call of the cycle, in call order.
/// `front` names the option that a line may mention as that front end spells it.
pub(super) fn lines(cluster: &Cluster, trace: &CycleTrace, front: FrontEnd) -> Vec<String> {
    trace
        .extenders
        .iter()
        .map(|call| line(cluster, trace, call, front))
        .collect()
}

/// A node failed by an extender's filter, with the message and the extender.
pub(super) fn failed_nodes(cluster: &Cluster, trace: &CycleTrace) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for call in trace.extenders.iter().filter(|c| c.verb == Verb::Filter) {
        for f in &call.failed {
            let kind = if f.unresolvable {
                "unresolvable"
            } else {
                "failed"
            };
            out.push((
                named(cluster, trace, &f.node),
                format!("extender {} {kind} it: {}", call.extender, f.message),
            ));
        }
    }
    out
}

fn named(cluster: &Cluster, trace: &CycleTrace, node: &NamedNode) -> String {
    match node {
        NamedNode::Known(id) => trace.node_name(cluster, *id).to_string(),
        NamedNode::Unknown(name) => format!("{name} (no such node)"),
    }
}

fn line(cluster: &Cluster, trace: &CycleTrace, call: &ExtenderCall, front: FrontEnd) -> String {
    let name = |id: usize| trace.node_name(cluster, id).to_string();
    let mut out = format!(
        "extender {} ({}, answered by {}): ",
        call.extender,
        call.verb.as_str(),
        match call.source {
            crate::sched::extender::answers::Source::Mock => "its ExtenderMock",
            crate::sched::extender::answers::Source::Recording => "the recording",
            crate::sched::extender::answers::Source::Live => "the server",
        }
    );
    if let Some(error) = &call.error {
        let fate = match (call.verb, call.ignored) {
            (Verb::Prioritize, _) => "ignored: prioritize errors never fail a cycle",
            (_, true) => "skipped: the extender is ignorable",
            (_, false) => "not ignorable: the cycle failed with this error",
        };
        out.push_str(&format!("error: {error} ({fate})"));
    } else {
        match call.verb {
            Verb::Filter => {
                let kept: Vec<String> = call.kept.iter().map(|&n| name(n)).collect();
                out.push_str(&format!(
                    "sent {} node(s), kept {}",
                    call.sent.len(),
                    list(&kept)
                ));
                let silent: Vec<String> = call
                    .sent
                    .iter()
                    .filter(|n| {
                        !call.kept.contains(n)
                            && !call.failed.iter().any(|f| f.node == NamedNode::Known(**n))
                    })
                    .map(|&n| name(n))
                    .collect();
                if !call.failed.is_empty() {
                    out.push_str(&format!("; failed {}", call.failed.len()));
                }
                if !silent.is_empty() {
                    out.push_str(&format!("; left out without a message: {}", list(&silent)));
                }
                if call.fresh_nodes {
                    out.push_str(&format!(
                        "; the Score plugins then saw the returned nodes without their pods \
                         (kubernetes#141781; {} switches this off)",
                        front.option(OptionName::ExtenderNodeinfoFix)
                    ));
                }
            }
            Verb::Prioritize => {
                let scores: Vec<String> = call
                    .scores
                    .iter()
                    .map(|&(n, raw)| {
                        let total = raw.wrapping_mul(call.weight).wrapping_mul(EXTENDER_SCALE);
                        format!(
                            "{} {raw} × weight {} × {EXTENDER_SCALE} = {total}",
                            name(n),
                            call.weight
                        )
                    })
                    .collect();
                out.push_str(&format!("scores {}", list(&scores)));
            }
            Verb::Preempt => {
                let kept: Vec<String> = call
                    .victims
                    .iter()
                    .map(|&(n, v)| format!("{} ({v} victim(s))", name(n)))
                    .collect();
                out.push_str(&format!("kept candidates {}", list(&kept)));
            }
            Verb::Bind => out.push_str(&format!(
                "bound the pod to {}",
                call.node.as_deref().unwrap_or("?")
            )),
        }
    }
    for (label, text) in [
        ("request", &call.texts.request),
        ("reply", &call.texts.reply),
    ] {
        if let Some(text) = text {
            out.push_str(&format!("\n      {label}: {}", quote(text)));
        }
    }
    out
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items.join(", ")
    }
}

/// `text`, cut to [`QUOTE_CHARS`] characters with the rest counted.
fn quote(text: &str) -> String {
    let total = text.chars().count();
    if total <= QUOTE_CHARS {
        text.to_string()
    } else {
        let head: String = text.chars().take(QUOTE_CHARS).collect();
        format!("{head}… ({} more characters)", total - QUOTE_CHARS)
    }
}
