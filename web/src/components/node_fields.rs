//! The fields of an expanded node row, each committed on `change`, and its actions.

use super::form_doc::FormDoc;
use super::form_field::FormField;
use super::object_list::Listed;
use super::row_actions::RowActions;
use crate::forms::name_of;
use crate::forms::node::{self, NodeEdit};
use leptos::prelude::*;
use serde_json::Value;

/// The fields of an expanded node.
#[component]
pub fn NodeFields(
    doc: FormDoc,
    row: Memo<Option<Listed<node::NodeSummary>>>,
    expanded: RwSignal<Option<String>>,
    filter: RwSignal<String>,
) -> impl IntoView {
    let at = move || row.with_untracked(|r| r.as_ref().map(|r| r.at));
    let read = move |f: fn(&Value) -> String| {
        Signal::derive(move || {
            let at = row.with(|r| r.as_ref().map(|r| r.at));
            at.and_then(|at| doc.with(|d| d.get(at).map(f)).flatten())
                .unwrap_or_default()
        })
    };
    let edit = move |e: NodeEdit| -> Result<(), String> {
        let at = at().ok_or("the node is gone")?;
        doc.edit(|d| node::apply(d, at, e))
    };
    let field =
        move |res: &'static str| Callback::new(move |t: String| edit(NodeEdit::Resource(res, t)));
    let rename = Callback::new(move |t: String| {
        edit(NodeEdit::Name(t.clone()))?;
        expanded.set(Some(t.trim().to_string()));
        Ok(())
    });
    let unschedulable = read(|v| node::summary(v).unschedulable.to_string());
    view! {
        <div class="form-fields">
            <FormField label="Name" test_id="node-name" value=read(|v| name_of(v).to_string()) on_commit=rename/>
            <FormField label="CPU" test_id="node-cpu" value=read(|v| node::resource(v, "cpu")) on_commit=field("cpu") placeholder="4"/>
            <FormField label="Memory" test_id="node-memory" value=read(|v| node::resource(v, "memory")) on_commit=field("memory") placeholder="8Gi"/>
            <FormField label="Pods" test_id="node-pods" value=read(|v| node::resource(v, "pods")) on_commit=field("pods") placeholder="110"/>
            <FormField
                label="Labels"
                test_id="node-labels"
                multiline=true
                wide=true
                placeholder="key=value, one per line"
                value=read(node::labels_text)
                on_commit=Callback::new(move |t| edit(NodeEdit::Labels(t)))
            />
            <FormField
                label="Taints"
                test_id="node-taints"
                multiline=true
                wide=true
                placeholder="key=value:NoSchedule, one per line"
                value=read(node::taints_text)
                on_commit=Callback::new(move |t| edit(NodeEdit::Taints(t)))
            />
            <div class="form-actions wide">
                <label class="form-check">
                    <input
                        type="checkbox"
                        data-testid="node-unschedulable"
                        prop:checked=move || unschedulable.get() == "true"
                        on:change=move |ev| {
                            let _ = edit(NodeEdit::Unschedulable(event_target_checked(&ev)));
                        }
                    />
                    "Unschedulable (cordoned)"
                </label>
                <RowActions doc=doc at=Signal::derive(at) filter=filter expanded=expanded kind="node"/>
            </div>
        </div>
    }
}
