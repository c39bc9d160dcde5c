//! The four editors behind tabs: nodes, pods, policy and scheduler configuration. Every editor
//! stays mounted (its scroll and cursor survive a tab switch); a tab shows its error count.

use super::editor::Editor;
use crate::state::{EditorFile, Playground};
use leptos::prelude::*;
use schedlab_core::scenario::SchedulerVersion;

/// The tabbed editors.
#[component]
pub fn Editors() -> impl IntoView {
    let state = expect_context::<Playground>();
    let tabs = EditorFile::ALL
        .iter()
        .map(|&f| {
            let errors = Memo::new(move |_| {
                state
                    .errors
                    .with(|e| e.iter().filter(|d| EditorFile::of_diagnostic(d) == f).count())
            });
            view! {
                <button
                    role="tab"
                    class=move || {
                        let mut c = String::from("tab");
                        if state.tab.get() == f {
                            c.push_str(" active");
                        }
                        if errors.get() > 0 {
                            c.push_str(" has-errors");
                        }
                        // v1.35 reads no Policy: its tab is dimmed.
                        if f == EditorFile::Policy && state.scheduler.get() == SchedulerVersion::V1_35 {
                            c.push_str(" not-read");
                        }
                        c
                    }
                    title=move || (f == EditorFile::Policy && state.scheduler.get() == SchedulerVersion::V1_35)
                        .then_some("kube-scheduler v1.35 does not read a Policy")
                    aria-selected=move || (state.tab.get() == f).to_string()
                    data-testid=format!("tab-{}", f.stem())
                    on:click=move |_| state.tab.set(f)
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
                <div class="editor-slot" class:active=move || state.tab.get() == f role="tabpanel">
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
