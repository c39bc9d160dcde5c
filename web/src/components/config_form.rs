//! The form view of `config.yaml`: the `KubeSchedulerConfiguration` fields the playground
//! reads. A v1 configuration (kube-scheduler v1.35) gets its own form, [`ConfigFormV1`].

use super::config_form_v1::ConfigFormV1;
use super::form_doc::FormDoc;
use super::form_field::FormField;
use super::form_notice::FormNotice;
use crate::forms::config::{self, FieldType, FIELDS};
use crate::forms::config_v1;
use leptos::prelude::*;

/// The configuration editor.
#[component]
pub fn ConfigForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    let doc = FormDoc::new(text, on_edit);
    let object = Memo::new(move |_| {
        doc.with(|d| config::find(d).and_then(|r| d.get(r).cloned()))
            .flatten()
    });
    let is_v1 = Memo::new(move |_| object.with(|o| o.as_ref().is_some_and(config_v1::is_v1)));
    let fields = move || {
        FIELDS
        .iter()
        .map(|f| {
            let key = f.key;
            let value = Signal::derive(move || {
                object.with(|o| o.as_ref().map(|v| config::value(v, key)).unwrap_or_default())
            });
            let on_commit = Callback::new(move |t: String| doc.edit(|d| config::apply(d, key, &t)));
            match f.ty {
                FieldType::Bool => view! {
                    <label class="form-check wide">
                        <input
                            type="checkbox"
                            data-testid=f.test_id
                            prop:checked=move || value.get() == "true"
                            on:change=move |ev| {
                                let _ = on_commit.run(event_target_checked(&ev).to_string());
                            }
                        />
                        {f.label}
                    </label>
                }
                .into_any(),
                _ => view! {
                    <FormField label=f.label test_id=f.test_id value=value on_commit=on_commit placeholder=f.default/>
                }
                .into_any(),
            }
        })
        .collect_view()
    };
    view! {
        <div class="form" data-testid="config-form">
            <FormNotice text=text stem="config" error=Signal::derive(move || doc.error())/>
            <Show when=move || doc.error().is_none()>
                <Show
                    when=move || !is_v1.get()
                    fallback=move || view! { <ConfigFormV1 doc=doc/> }
                >
                    <Show when=move || object.with(Option::is_none)>
                        <p class="form-note">
                            "No KubeSchedulerConfiguration here: v1.17's defaults apply. A change adds one."
                        </p>
                    </Show>
                    <div class="form-fields">{fields}</div>
                    <p class="form-hint">"An empty field takes v1.17's default (shown in grey). A field applies on Enter or when you leave it."</p>
                </Show>
            </Show>
        </div>
    }
}
