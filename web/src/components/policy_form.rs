//! The form view of `policy.json`: predicates to run, priority weights, the entries with
//! arguments and the two flags of the legacy `Policy`.

use super::form_doc::FormDoc;
use super::form_field::FormField;
use super::form_notice::FormNotice;
use super::policy_argument::PolicyArgument;
use crate::forms::parse_int;
use crate::forms::policy::{self, PolicyEdit, ARGUMENTS};
use leptos::prelude::*;
use schedlab_core::scheduler::v1_17::mandatory;
use serde_json::Value;

/// The policy editor.
#[component]
pub fn PolicyForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    let doc = FormDoc::new(text, on_edit);
    let policy = Memo::new(move |_| {
        doc.with(|d| policy::find(d).and_then(|r| d.get(r).cloned()))
            .flatten()
            .unwrap_or_else(policy::empty)
    });
    let error = RwSignal::new(None::<String>);
    let apply = move |e: PolicyEdit| error.set(doc.edit(|d| policy::apply(d, e)).err());

    let edit = Callback::new(apply);
    let predicates = move || {
        policy.with(|v| {
            let on = policy::enabled_predicates(v);
            policy::predicate_choices(v)
                .into_iter()
                .map(|name| {
                    let checked = on.contains(&name);
                    view! { <PredicateToggle name=name checked=checked apply=edit/> }
                })
                .collect_view()
        })
    };
    let priorities = move || {
        policy.with(|v| {
            let weights = policy::priority_weights(v);
            policy::priority_choices(v)
                .into_iter()
                .map(|(name, default)| {
                    let weight = weights.iter().find(|(n, _)| *n == name).map(|(_, w)| *w);
                    view! { <PriorityWeight name=name default=default weight=weight apply=edit error=error/> }
                })
                .collect_view()
        })
    };
    let arguments = move || {
        policy.with(|v: &Value| {
            policy::argument_entries(v)
                .into_iter()
                .map(|entry| view! { <PolicyArgument entry=entry on_edit=Callback::new(apply)/> })
                .collect_view()
        })
    };
    let defaults_note = move |is_default: bool,
                              what: &'static str,
                              test_id: &'static str,
                              edit: PolicyEdit| {
        if is_default {
            view! {
                <p class="form-note">
                    {format!("No {what} list: the DefaultProvider set runs (ticked). A change writes the list out.")}
                </p>
            }
            .into_any()
        } else {
            view! {
                <button class="form-link" data-testid=test_id on:click=move |_| apply(edit.clone())>
                    "Use the DefaultProvider set"
                </button>
            }
            .into_any()
        }
    };
    view! {
        <div class="form" data-testid="policy-form">
            <FormNotice text=text stem="policy" error=Signal::derive(move || doc.error())/>
            <Show when=move || doc.error().is_none()>
                {move || error.get().map(|e| view! { <p class="form-error" role="alert">{e}</p> })}
                <section class="form-section">
                    <header class="form-section-head">
                        <h3>"Predicates"</h3>
                        {move || defaults_note(policy.with(policy::default_predicates), "predicates", "policy-predicates-default", PolicyEdit::DefaultPredicates)}
                    </header>
                    <div class="form-toggles">{predicates}</div>
                </section>
                <section class="form-section">
                    <header class="form-section-head">
                        <h3>"Priorities and weights"</h3>
                        {move || defaults_note(policy.with(policy::default_priorities), "priorities", "policy-priorities-default", PolicyEdit::DefaultPriorities)}
                    </header>
                    <div class="form-priorities">{priorities}</div>
                </section>
                <section class="form-section">
                    <header class="form-section-head">
                        <h3>"Entries with arguments"</h3>
                    </header>
                    <div class="form-arguments">{arguments}</div>
                    <div class="form-add-row">
                        {ARGUMENTS
                            .into_iter()
                            .map(|(_, kind)| {
                                view! {
                                    <button
                                        class="form-button"
                                        data-testid="policy-add-argument"
                                        data-kind=kind
                                        on:click=move |_| apply(PolicyEdit::AddArgument(kind))
                                    >
                                        {format!("+ {kind}")}
                                    </button>
                                }
                            })
                            .collect_view()}
                    </div>
                </section>
                <section class="form-section form-fields">
                    <FormField
                        label="hardPodAffinitySymmetricWeight"
                        test_id="policy-hard-weight"
                        placeholder="from the configuration"
                        value=Signal::derive(move || policy.with(policy::hard_weight))
                        on_commit=Callback::new(move |t: String| {
                            let w = parse_int(&t, "the weight")?;
                            doc.edit(|d| policy::apply(d, PolicyEdit::HardWeight(w)))
                        })
                    />
                    <label class="form-check">
                        <input
                            type="checkbox"
                            data-testid="policy-always-check-all"
                            prop:checked=move || policy.with(policy::always_check_all)
                            on:change=move |ev| apply(PolicyEdit::AlwaysCheckAll(event_target_checked(&ev)))
                        />
                        "alwaysCheckAllPredicates"
                    </label>
                </section>
            </Show>
        </div>
    }
}

/// A predicate, on or off. Mandatory predicates run whether listed or not: shown on, fixed.
#[component]
fn PredicateToggle(name: String, checked: bool, apply: Callback<PolicyEdit>) -> impl IntoView {
    let mandatory = mandatory().contains(&name.as_str());
    let n = name.clone();
    view! {
        <label class="form-toggle" class:on=checked || mandatory>
            <input
                type="checkbox"
                data-testid="predicate-toggle"
                data-name=name.clone()
                prop:checked=checked || mandatory
                disabled=mandatory
                on:change=move |ev| apply.run(PolicyEdit::Predicate(n.clone(), event_target_checked(&ev)))
            />
            <span class="mono">{name}</span>
            {mandatory.then(|| view! { <span class="form-tag" title="Mandatory in v1.17: the scheduler adds it even when the Policy does not list it">"always runs"</span> })}
        </label>
    }
}

/// A priority: on (at its default weight) or off, and its weight.
#[component]
fn PriorityWeight(
    name: String,
    default: i64,
    weight: Option<i64>,
    apply: Callback<PolicyEdit>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let (n1, n2) = (name.clone(), name.clone());
    view! {
        <div class="form-priority" class:on=weight.is_some()>
            <label class="form-toggle">
                <input
                    type="checkbox"
                    data-testid="priority-toggle"
                    data-name=name.clone()
                    prop:checked=weight.is_some()
                    on:change=move |ev| {
                        let w = event_target_checked(&ev).then_some(default);
                        apply.run(PolicyEdit::PriorityWeight(n1.clone(), w))
                    }
                />
                <span class="mono">{name.clone()}</span>
            </label>
            <input
                type="number"
                min="1"
                class="form-weight"
                data-testid="priority-weight"
                data-name=name
                aria-label="weight"
                placeholder="off"
                prop:value=weight.map(|w| w.to_string()).unwrap_or_default()
                on:change=move |ev| match parse_int(&event_target_value(&ev), "a weight") {
                    Ok(w) => apply.run(PolicyEdit::PriorityWeight(n2.clone(), w.filter(|w| *w != 0))),
                    Err(e) => error.set(Some(e)),
                }
            />
        </div>
    }
}
