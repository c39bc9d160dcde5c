//! The five editors behind tabs: nodes, pods, devices, policy and scheduler configuration. Every editor
//! stays mounted (its scroll and cursor survive a tab switch); a tab shows its error count.

use super::editor::Editor;
use crate::base::EditorFile;
use crate::state::{Editors, Loads};
use leptos::prelude::*;
use schedlab_core::scenario::SchedulerVersion;

/// The tabbed editors.
#[component]
pub fn Editors() -> impl IntoView {
    let editors = expect_context::<Editors>();
    let loads = expect_context::<Loads>();
    let tabs = EditorFile::ALL
        .iter()
        .map(|&f| {
            let errors = Memo::new(move |_| {
                loads.errors
                    .with(|e| e.iter().filter(|d| EditorFile::of_diagnostic(d) == f).count())
            });
            view! {
                <button
                    role="tab"
                    class=move || {
                        let mut c = String::from("tab");
                        if editors.tab.get() == f {
                            c.push_str(" active");
                        }
                        if errors.get() > 0 {
                            c.push_str(" has-errors");
                        }
                        // v1.35 reads no Policy, v1.17 no devices: their tabs are dimmed.
                        if not_read(f, editors.scheduler.get()).is_some() {
                            c.push_str(" not-read");
                        }
                        c
                    }
                    title=move || not_read(f, editors.scheduler.get())
                    aria-selected=move || (editors.tab.get() == f).to_string()
                    data-testid=format!("tab-{}", f.stem())
                    on:click=move |_| editors.tab.set(f)
                >
                    {f.tab_title()}
                    {move || (errors.get() > 0).then(|| view! { <span class="tab-errors">{move || errors.get()}</span> })}
                </button>
            }
        })
        .collect_view();
    let panels = EditorFile::ALL
        .iter()
        .map(|&f| {
            view! {
                <div class="editor-slot" class:active=move || editors.tab.get() == f role="tabpanel">
                    <Editor file=f/>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="tabs" role="tablist" aria-label="Input files">{tabs}</div>
        {panels}
    }
}

/// Why the scheduler does not read an editor, when it does not.
fn not_read(file: EditorFile, scheduler: SchedulerVersion) -> Option<&'static str> {
    match (file, scheduler) {
        (EditorFile::Policy, SchedulerVersion::V1_35) => {
            Some("kube-scheduler v1.35 does not read a Policy")
        }
        (EditorFile::Devices, SchedulerVersion::V1_17) => {
            Some("kube-scheduler v1.17 has no Dynamic Resource Allocation: it reads no devices")
        }
        _ => None,
    }
}
