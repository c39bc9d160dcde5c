//! The head of the Extenders editor, above its text and form views: the scheduler's configured
//! extenders (from the Policy or the v1 configuration) with who answers each one (an
//! ExtenderMock in this editor, an ExtenderRecording, or the live server, called from the
//! page with `fetch`), the live calls this run made with a button that saves them into this
//! editor as an ExtenderRecording (so a shared link replays with no server), the calls that
//! failed with what to do about them, and the kubernetes#141781 switch.

use crate::base::EditorFile;
use crate::engine::{self, Export};
use crate::extender_data::ExtenderFacts;
use crate::forms::extenders::{add_mock, with_recording};
use crate::forms::Document;
use crate::state::{Editors, Loads, RunPosition};
use leptos::prelude::*;

/// The panel, drawn once the Extenders tab is first shown (its code, with the YAML reader
/// its buttons edit with, is fetched then: it stays out of the page's first load).
#[component]
pub fn ExtendersPanel() -> impl IntoView {
    let tab = expect_context::<Editors>().tab;
    super::on_demand_once(
        move || tab.get() == EditorFile::Extenders,
        extenders_panel_view,
    )
}

split_point! {
    /// A split point (`#[lazy]`): the panel's code, fetched when first drawn.
    fn extenders_panel_view() -> AnyView {
        view! { <ExtendersPanelNow/> }.into_any()
    }
}

/// The panel itself.
#[component]
fn ExtendersPanelNow() -> impl IntoView {
    let editors = expect_context::<Editors>();
    let loads = expect_context::<Loads>();
    let position = expect_context::<RunPosition>();
    let facts = Memo::new(move |_| {
        position
            .info
            .with(|i| i.as_ref().map(|i| i.extenders.clone()))
            .unwrap_or_default()
    });
    let text = editors.text(EditorFile::Extenders);
    let problem = RwSignal::new(None::<String>);
    let save = move |_| {
        problem.set(None);
        engine::export(Export::ExtenderRecording, move |yaml| {
            let Some(yaml) = yaml.filter(|y| !y.is_empty()) else {
                problem.set(Some("No extender call to save yet.".into()));
                return;
            };
            match with_recording(&text.get_untracked(), &yaml) {
                Ok(t) => editors.commit(EditorFile::Extenders, t),
                Err(e) => problem.set(Some(format!(
                    "The Extenders editor does not parse, so the recording cannot be added: {e}"
                ))),
            }
        });
    };
    let mock = move |url: String| {
        let current = text.get_untracked();
        match Document::parse(&current) {
            Ok(mut doc) => {
                add_mock(&mut doc, &url);
                editors.commit(EditorFile::Extenders, doc.to_text());
            }
            Err(e) => problem.set(Some(format!(
                "The Extenders editor does not parse, so no mock can be added: {e}"
            ))),
        }
    };
    let fix = move |ev| {
        loads.nodeinfo_fix.set(event_target_checked(&ev));
        loads.reload();
    };
    let calling = move || {
        loads.calling.get().map(|(urls, made)| {
            view! {
                <p class="ext-calling" data-testid="extender-calling" role="status">
                    {format!("Waiting for {} (live call {})…", urls.join(", "), made + 1)}
                </p>
            }
        })
    };
    view! {
        <div class="ext-panel" data-testid="extenders-panel">
            {move || {
                let f = facts.get();
                if f.configured.is_empty() {
                    view! {
                        <p class="form-note" data-testid="no-extenders">
                            "The scheduler has no extenders. Add them to the Policy ("<code>"extenders"</code>", v1.17) or to the v1 configuration ("<code>"extenders"</code>", v1.35); this editor then holds an "<code>"ExtenderMock"</code>" table per extender, or a recording of its calls. Without either, the page calls the extender's URL."
                        </p>
                    }
                    .into_any()
                } else {
                    view! { <Configured facts=f mock=Callback::new(mock)/> }.into_any()
                }
            }}
            {calling}
            {move || {
                let f = facts.get();
                (f.live_calls > 0).then(|| view! {
                    <p class="ext-live">
                        <span data-testid="extender-live-calls">{format!("{} live call(s) this run. ", f.live_calls)}</span>
                        <button class="form-button" data-testid="extender-save-recording" on:click=save>
                            "Save them as a recording"
                        </button>
                        <span class="ext-hint">" (a shared link then replays them with no server)"</span>
                    </p>
                })
            }}
            {move || problem.get().map(|p| view! { <p class="form-error" role="alert">{p}</p> })}
            <Failures facts=facts/>
            <Show when=move || loads.nodeinfo_fix.get() || facts.with(|f| !f.configured.is_empty())>
                <label class="form-check" title="kubernetes#141781: with nodeCacheCapable: false, v1.33-v1.35 score the nodes an extender returned as if they had no pods; PR #141919 fixes it">
                    <input type="checkbox" data-testid="extender-nodeinfo-fix" prop:checked=move || loads.nodeinfo_fix.get() on:change=fix/>
                    "Fix kubernetes#141781: v1.35's Score plugins see the pods of the nodes an extender returned ("
                    <code>"--fidelity extender-nodeinfo-fix"</code>")"
                </label>
            </Show>
        </div>
    }
}

/// The configured extenders, each with who answers it.
#[component]
fn Configured(facts: ExtenderFacts, mock: Callback<String>) -> impl IntoView {
    let rows = facts
        .configured
        .into_iter()
        .map(|e| {
            let verbs = e
                .verbs
                .iter()
                .map(|(v, path)| format!("{v}: {path}"))
                .collect::<Vec<_>>()
                .join(" · ");
            let mut flags = vec![format!("weight {}", e.weight)];
            if e.ignorable {
                flags.push("ignorable".into());
            }
            if e.node_cache_capable {
                flags.push("nodeCacheCapable".into());
            }
            flags.push(match e.timeout_ms {
                Some(t) => format!("httpTimeout {}", schedlab_core::model::Millis(t)),
                None => "no httpTimeout".into(),
            });
            if !e.managed.is_empty() {
                flags.push(format!("manages {}", e.managed.join(", ")));
            }
            let who = match e.answered_by.as_str() {
                "mock" => "answered by its ExtenderMock below",
                "recording" => "answered by the recording below",
                _ => "called live from the page",
            };
            let url = e.url_prefix.clone();
            let can_mock = e.answered_by != "mock";
            let (ext_attr, by_attr) = (e.url_prefix.clone(), e.answered_by.clone());
            view! {
                <li data-testid="configured-extender" data-extender=ext_attr data-answered-by=by_attr>
                    <span class="mono ext-url">{e.url_prefix}</span>
                    <span class=format!("tag ext-source ext-source-{}", e.answered_by)>{who}</span>
                    <span class="ext-verbs mono">{verbs}</span>
                    <span class="ext-flags">{flags.join(" · ")}</span>
                    {can_mock.then(|| view! {
                        <button class="form-link" data-testid="extender-add-mock" on:click=move |_| mock.run(url.clone())>
                            "Answer it with a mock"
                        </button>
                    })}
                </li>
            }
        })
        .collect_view();
    view! { <ul class="ext-configured">{rows}</ul> }
}

/// Live calls that got no reply, with what to do.
#[component]
fn Failures(facts: Memo<ExtenderFacts>) -> impl IntoView {
    move || {
        let failures = facts.with(|f| f.failures.clone());
        (!failures.is_empty()).then(|| {
            let items = failures
                .into_iter()
                .map(|(url, what)| {
                    view! { <li><span class="mono">{url}</span>": "{super::with_code(&what)}</li> }
                })
                .collect_view();
            view! {
                <div class="ext-failures" data-testid="extender-failures" role="alert">
                    <strong>"Live extender calls failed."</strong>
                    " The cycles that made them show the error (ignorable extenders are skipped). A page can read an extender's reply only when the extender sends CORS headers; "
                    <code>"schedlab extender-proxy"</code>
                    " adds them for an extender on this machine."
                    <ul>{items}</ul>
                </div>
            }
        })
    }
}
