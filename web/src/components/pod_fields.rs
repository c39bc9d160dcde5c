//! The fields of an expanded pod row, each committed on `change`, and its actions.

use super::form_doc::FormDoc;
use super::form_field::FormField;
use super::object_list::Listed;
use super::row_actions::RowActions;
use crate::forms::pod::{self, PodField};
use leptos::prelude::*;

/// Every field of the form: field, label, test id, placeholder, multiline.
const FIELDS: [(PodField, &str, &str, &str, bool); 15] = [
    (PodField::Name, "Name", "pod-name", "", false),
    (PodField::Cpu, "CPU request", "pod-cpu", "100m", false),
    (
        PodField::Memory,
        "Memory request",
        "pod-memory",
        "128Mi",
        false,
    ),
    (PodField::Priority, "Priority", "pod-priority", "0", false),
    (
        PodField::PriorityClass,
        "Priority class",
        "pod-priority-class",
        "none",
        false,
    ),
    (
        PodField::NodeName,
        "Bound to node",
        "pod-node-name",
        "pending",
        false,
    ),
    (
        PodField::HostPorts,
        "Host ports",
        "pod-host-ports",
        "80, 53/UDP",
        false,
    ),
    (
        PodField::Labels,
        "Labels",
        "pod-labels",
        "app=web, one per line",
        true,
    ),
    (
        PodField::NodeSelector,
        "Node selector",
        "pod-node-selector",
        "disktype=ssd, one per line",
        true,
    ),
    (
        PodField::Tolerations,
        "Tolerations",
        "pod-tolerations",
        "key=value:NoSchedule, key:NoExecute, key or *",
        true,
    ),
    (
        PodField::NodeAffinity,
        "Required node affinity (a line per term)",
        "pod-node-affinity",
        "zone in (a,b), gpu, !spot",
        true,
    ),
    (
        PodField::PodAffinity,
        "Required pod affinity",
        "pod-affinity",
        "topologyKey: app=cache",
        true,
    ),
    (
        PodField::PodAntiAffinity,
        "Required pod anti-affinity",
        "pod-anti-affinity",
        "kubernetes.io/hostname: app=web",
        true,
    ),
    (
        PodField::Spread,
        "Topology spread constraints",
        "pod-spread",
        "topologyKey maxSkew DoNotSchedule|ScheduleAnyway app=web",
        true,
    ),
    (
        PodField::Claims,
        "Resource claims (NAME: claim CLAIM, or NAME: template TEMPLATE)",
        "pod-claims",
        "gpus: template two-gpus",
        true,
    ),
];

/// The fields of an expanded pod.
#[component]
pub fn PodFields(
    doc: FormDoc,
    row: Memo<Option<Listed<pod::PodSummary>>>,
    expanded: RwSignal<Option<String>>,
    filter: RwSignal<String>,
) -> impl IntoView {
    let at = move || row.with_untracked(|r| r.as_ref().map(|r| r.at));
    let fields = FIELDS
        .into_iter()
        .map(|(field, label, test_id, placeholder, multiline)| {
            let value = Signal::derive(move || {
                let at = row.with(|r| r.as_ref().map(|r| r.at));
                at.and_then(|at| {
                    doc.with(|d| d.get(at).map(|v| pod::field_text(v, field)))
                        .flatten()
                })
                .unwrap_or_default()
            });
            let on_commit = Callback::new(move |t: String| {
                let at = at().ok_or("the pod is gone")?;
                doc.edit(|d| pod::apply(d, at, field, &t))?;
                if field == PodField::Name {
                    expanded.set(Some(t.trim().to_string()));
                }
                Ok(())
            });
            view! {
                <FormField
                    label=label
                    test_id=test_id
                    value=value
                    on_commit=on_commit
                    placeholder=placeholder
                    multiline=multiline
                    wide=multiline
                />
            }
        })
        .collect_view();
    view! {
        <div class="form-fields">
            {fields}
            <div class="form-actions wide">
                <RowActions doc=doc at=Signal::derive(at) filter=filter expanded=expanded kind="pod"/>
            </div>
        </div>
    }
}
