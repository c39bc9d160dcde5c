//! The compact view of embed mode ([`crate::embed`]): a one-line bar (the scenario, the
//! scheduler, a link out to the full playground), the link banners, the step controls, then
//! the cluster beside the inspector, each scrolling on its own so the view fits its frame
//! (800×500 and up; narrower frames stack them). With `&edit`, the left pane switches between
//! the cluster and the editors.

use super::cluster_view::ClusterView;
use super::controls::Controls;
use super::editors::Editors;
use super::inspector::Inspector;
use super::link_banner::LinkBanner;
use crate::embed::PageMode;
use crate::state::{AddressBar, Editors, Loads, RunPosition};
use leptos::prelude::*;

/// The whole page in embed mode.
#[component]
pub fn EmbedView() -> impl IntoView {
    let editors = expect_context::<Editors>();
    let loads = expect_context::<Loads>();
    let position = expect_context::<RunPosition>();
    let address = expect_context::<AddressBar>();
    let mode = expect_context::<PageMode>();
    let editing = RwSignal::new(false);
    let title = move || {
        let name = editors.work.example().name;
        if editors.work.is_edited() {
            format!("{name} (edited)")
        } else {
            name.to_string()
        }
    };
    let scheduler = move || {
        position.info.with(|i| {
            i.as_ref()
                .map(|i| format!("kube-scheduler {}", i.scheduler.as_str()))
        })
    };
    let errors = move || {
        let n = loads.errors.with(Vec::len);
        (n > 0).then(|| {
            let s = if n == 1 { "" } else { "s" };
            let text = format!("{n} error{s} · showing the last valid result");
            if mode.edit {
                view! {
                    <button class="link embed-errors" data-testid="embed-errors" on:click=move |_| editing.set(true)>{text}</button>
                }
                .into_any()
            } else {
                view! { <span class="embed-errors" data-testid="embed-errors">{text}</span> }.into_any()
            }
        })
    };
    // The link out follows what is on screen, so the full page opens at the same cycle.
    let full_page = move || {
        address.track_link();
        address.full_page_link()
    };
    let left = move || {
        if editing.get() {
            view! { <div class="embed-editors inputs-editors"><Editors/></div> }.into_any()
        } else {
            view! { <ClusterView/> }.into_any()
        }
    };
    view! {
        <div class="embed" data-testid="embed" class:editing=move || editing.get()>
            <header class="embed-bar">
                <span class="logo">"schedlab"</span>
                <span class="embed-title" data-testid="scenario-name" title=title>{title}</span>
                <span class="embed-scheduler" data-testid="status">{scheduler}</span>
                {errors}
                {mode.edit.then(|| view! {
                    <span class="segmented embed-switch" role="tablist">
                        <button role="tab" class:active=move || !editing.get() data-testid="embed-show-cluster" on:click=move |_| editing.set(false)>"Cluster"</button>
                        <button role="tab" class:active=move || editing.get() data-testid="embed-show-inputs" on:click=move |_| editing.set(true)>"Inputs"</button>
                    </span>
                })}
                <a
                    class="embed-out"
                    data-testid="embed-open"
                    href=full_page
                    target="_blank"
                    rel="noopener"
                    title="Open this scenario, at this cycle, in the full playground (a new tab)"
                >
                    "Open in playground ↗"
                </a>
            </header>
            <LinkBanner/>
            <Controls/>
            <div class="embed-body">
                <div class="embed-pane embed-left">{left}</div>
                <div class="embed-pane embed-right"><Inspector/></div>
            </div>
        </div>
    }
}
