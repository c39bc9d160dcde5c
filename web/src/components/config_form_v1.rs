//! The form view of a v1 `KubeSchedulerConfiguration` (kube-scheduler v1.35): the global
//! fields, the profiles, and one profile's plugins at `multiPoint` (on/off and Score weights).

use super::form_doc::FormDoc;
use super::form_field::FormField;
use crate::forms::config;
use crate::forms::config_v1::{self, PluginRow, ProfileRow, V1Edit, GLOBAL_FIELDS};
use crate::forms::parse_int;
use leptos::prelude::*;
use serde_json::Value;

/// The v1 configuration's form.
#[component]
pub fn ConfigFormV1(doc: FormDoc) -> impl IntoView {
    let object = Memo::new(move |_| {
        doc.with(|d| config::find(d).and_then(|r| d.get(r).cloned()))
            .flatten()
            .unwrap_or(Value::Null)
    });
    let error = RwSignal::new(None::<String>);
    let apply = move |e: V1Edit| -> Result<(), String> {
        doc.edit(|d| {
            let r = config::find(d).ok_or("the configuration is gone")?;
            config_v1::apply(d, r, e)
        })
    };
    let apply_shown = move |e: V1Edit| error.set(apply(e).err());
    // The profile whose plugins are shown.
    let chosen = RwSignal::new(0usize);
    let profiles = Memo::new(move |_| object.with(config_v1::profiles));
    Effect::new(move |_| {
        let n = profiles.with(Vec::len);
        if chosen.get_untracked() >= n {
            chosen.set(0);
        }
    });

    let globals = GLOBAL_FIELDS
        .iter()
        .map(|f| {
            let key = f.key;
            view! {
                <FormField
                    label=f.label
                    test_id=f.test_id
                    placeholder=f.default
                    value=Signal::derive(move || object.with(|o| config_v1::global(o, key)))
                    on_commit=Callback::new(move |t: String| apply(V1Edit::Global(key, t)))
                />
            }
        })
        .collect_view();

    let edit = Callback::new(apply);
    let profile_fields = move || {
        let list = profiles.get();
        let count = list.len();
        list.into_iter()
            .map(|p| view! { <V1Profile profile=p count=count chosen=chosen apply=edit/> })
            .collect_view()
    };
    let edit_shown = Callback::new(apply_shown);
    let plugins = move || {
        let profile = chosen.get();
        object.with(|o| {
            config_v1::plugin_rows(o, profile)
                .into_iter()
                .map(|row| view! { <V1Plugin row=row profile=profile apply=edit_shown error=error/> })
                .collect_view()
        })
    };
    let point_lists = move || object.with(|o| config_v1::has_point_lists(o, chosen.get()));
    let plugins_of = move || {
        let count = profiles.with(Vec::len);
        profiles.with(|l| {
            l.get(chosen.get())
                .map(|p| p.shown_name(count))
                .unwrap_or_default()
        })
    };
    view! {
        <div class="v1-form" data-testid="config-form-v1">
            {move || error.get().map(|e| view! { <p class="form-error" role="alert">{e}</p> })}
            <section class="form-section">
                <header class="form-section-head">
                    <h3>"kube-scheduler v1.35"</h3>
                    <p class="form-note">"An empty field takes v1.35's default (in grey)."</p>
                </header>
                <div class="form-fields">{globals}</div>
            </section>
            <section class="form-section">
                <header class="form-section-head">
                    <h3>"Profiles"</h3>
                </header>
                {profile_fields}
            </section>
            <section class="form-section">
                <header class="form-section-head">
                    <h3>{move || format!("Plugins of {}", plugins_of())}</h3>
                    <p class="form-note">"multiPoint: each plugin runs at every extension point it implements"</p>
                </header>
                <p class="form-hint v1-plugins-hint">
                    "Unticking a plugin adds it to "<code>"plugins.multiPoint.disabled"</code>
                    "; a weight writes "<code>"plugins.multiPoint.enabled: [{name, weight}]"</code>
                    ", which keeps the plugin in its place. An empty weight is the default."
                </p>
                {move || point_lists().then(|| view! {
                    <p class="form-note" data-testid="v1-point-lists">
                        "This profile also has per-point plugin lists in the text; they apply on top (the ticks and weights shown are what runs)."
                    </p>
                })}
                <div class="form-priorities v1-plugins" data-testid="v1-plugins">{plugins}</div>
            </section>
        </div>
    }
}

/// One profile's fields, and (with several profiles) the button that shows its plugins.
#[component]
fn V1Profile(
    profile: ProfileRow,
    count: usize,
    chosen: RwSignal<usize>,
    apply: Callback<V1Edit, Result<(), String>>,
) -> impl IntoView {
    let i = profile.index;
    let name = profile.scheduler_name.clone();
    let pct = profile.percentage.clone();
    let shown = profile.shown_name(count);
    view! {
        <div class="form-fields v1-profile" data-testid="v1-profile" data-index=i.to_string()>
            <FormField
                label="schedulerName"
                test_id="v1-profile-name"
                placeholder="default-scheduler"
                value=Signal::derive(move || name.clone())
                on_commit=Callback::new(move |t: String| apply.run(V1Edit::ProfileName(i, t)))
            />
            <FormField
                label="percentageOfNodesToScore (this profile)"
                test_id="v1-profile-percentage"
                placeholder="the global one"
                value=Signal::derive(move || pct.clone())
                on_commit=Callback::new(move |t: String| apply.run(V1Edit::ProfilePercentage(i, t)))
            />
            {(count > 1).then(|| view! {
                <button
                    class="form-link"
                    class:active=move || chosen.get() == i
                    data-testid="v1-profile-plugins"
                    on:click=move |_| chosen.set(i)
                >
                    {format!("plugins of {shown}")}
                </button>
            })}
        </div>
    }
}

/// One plugin of the profile at `multiPoint`: on or off, its extension points, and its Score
/// weight.
#[component]
fn V1Plugin(
    row: PluginRow,
    profile: usize,
    apply: Callback<V1Edit>,
    error: RwSignal<Option<String>>,
) -> impl IntoView {
    let (n1, n2) = (row.name.clone(), row.name.clone());
    let default = row.default_weight;
    let points = row.points.join(" · ");
    let unknown = row.points.is_empty();
    let effective = row.effective_weight;
    let weight = row.scores.then(|| {
        let placeholder = effective.unwrap_or(default).to_string();
        view! {
            <input
                type="number"
                class="form-weight"
                data-testid="v1-plugin-weight"
                data-name=row.name.clone()
                aria-label=format!("{} weight", row.name)
                title=format!("Score weight (default {default}); empty keeps the default")
                placeholder=placeholder
                disabled=!row.enabled
                prop:value=row.weight.clone()
                on:change=move |ev| match parse_int(&event_target_value(&ev), "a weight") {
                    Ok(w) => apply.run(V1Edit::Weight(profile, n2.clone(), w)),
                    Err(e) => error.set(Some(e)),
                }
            />
        }
    });
    view! {
        <div class="form-priority v1-plugin" class:on=row.enabled data-testid="v1-plugin" data-name=row.name.clone()>
            <label class="form-toggle">
                <input
                    type="checkbox"
                    data-testid="v1-plugin-toggle"
                    data-name=row.name.clone()
                    prop:checked=row.enabled
                    on:change=move |ev| apply.run(V1Edit::Enabled(profile, n1.clone(), event_target_checked(&ev)))
                />
                <span class="mono">{row.name.clone()}</span>
                {(!row.default_enabled && !unknown).then(|| view! { <span class="form-tag" title="Not in v1.35's default list">"added"</span> })}
                {unknown.then(|| view! { <span class="form-tag form-tag-bad" title="v1.35 registers no plugin by this name">"unknown"</span> })}
            </label>
            <span class="v1-points" title=format!("Extension points: {points}")>{points.clone()}</span>
            {weight.map(|w| w.into_any()).unwrap_or_else(|| view! { <span class="v1-no-weight" title="Not a Score plugin">"—"</span> }.into_any())}
        </div>
    }
}
