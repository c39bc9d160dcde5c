//! Which kube-scheduler runs: the switch at the top of the Config tab, and the note the Policy
//! tab shows while v1.35 runs (v1.35 reads no Policy).

use crate::gallery::scheduler_label;
use crate::state::Editors;
use leptos::prelude::*;
use schedlab_core::scenario::SchedulerVersion;

/// The two schedulers, as buttons. Switching replaces the Config editor's text with that
/// scheduler's default configuration; the notice's Undo puts the old text back.
#[component]
pub fn SchedulerSwitch() -> impl IntoView {
    let editors = expect_context::<Editors>();
    let button = move |v: SchedulerVersion| {
        let active = move || editors.scheduler.get() == v;
        view! {
            <button
                class:active=active
                aria-pressed=move || active().to_string()
                data-testid=format!("scheduler-{}", v.as_str())
                title=format!("Put {}'s default configuration in this editor", v.as_str())
                on:click=move |_| editors.switch_scheduler(v)
            >
                {scheduler_label(v)}
            </button>
        }
    };
    view! {
        <div class="scheduler-switch" data-testid="scheduler-switch">
            <span class="scheduler-switch-label" id="scheduler-switch-label">"Scheduler"</span>
            <span class="view-toggle" role="group" aria-labelledby="scheduler-switch-label">
                {button(SchedulerVersion::V1_17)}
                {button(SchedulerVersion::V1_35)}
            </span>
            <span class="scheduler-switch-hint">
                {move || match editors.scheduler.get() {
                    SchedulerVersion::V1_17 => "A v1alpha1 configuration and the Policy tab.",
                    SchedulerVersion::V1_35 => "A kubescheduler.config.k8s.io/v1 configuration; no Policy.",
                }}
            </span>
        </div>
    }
}

/// The Policy tab's note while the Config tab holds a v1 configuration.
#[component]
pub fn PolicyIgnored() -> impl IntoView {
    let editors = expect_context::<Editors>();
    view! {
        <Show when=move || editors.scheduler.get() == SchedulerVersion::V1_35>
            <p class="policy-ignored" data-testid="policy-ignored" role="note">
                <strong>"kube-scheduler v1.35 does not read a Policy."</strong>
                " The Config tab holds a v1 configuration, so this editor is left out of the run: its plugins and weights are the profile's. "
                <code>"schedlab translate policy.json"</code>
                " prints the v1 configuration this Policy becomes."
            </p>
        </Show>
    }
}
