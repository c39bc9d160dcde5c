//! The form view of `extenders.yaml`: each ExtenderMock as a table of rules (first match
//! wins: the nodes and pods it applies to, the filter verdict with its message, the score, the
//! preemption rule) and how each verb's whole call answers (an HTTP status, a delay against
//! `httpTimeout`, an `Error`, the filter reply's list); the recordings, listed.

use super::form_doc::FormDoc;
use super::form_notice::FormNotice;
use crate::forms::extenders::{
    self, MockEdit, RuleField, RuleRow, VerbField, ANSWER_WITH, PREEMPT_RULES, VERBS, VERDICTS,
};
use crate::forms::{Document, ObjRef};
use leptos::prelude::*;

/// The Extenders editor's form.
#[component]
pub fn ExtendersForm(text: Signal<String>, on_edit: Callback<String>) -> impl IntoView {
    let doc = FormDoc::new(text, on_edit);
    let error = RwSignal::new(None::<String>);
    let mocks = Memo::new(move |_| doc.with(extenders::mocks).unwrap_or_default());
    let recordings = Memo::new(move |_| doc.with(extenders::recordings).unwrap_or_default());
    let add = move |_| {
        let r = doc
            .edit(|d: &mut Document| Ok(extenders::add_mock(d, "http://127.0.0.1:8888/scheduler")));
        error.set(r.err());
    };
    view! {
        <div class="form ext-form" data-testid="extenders-form">
            <FormNotice text=text stem="extenders" error=Signal::derive(move || doc.error())/>
            <Show when=move || doc.error().is_none()>
                {move || error.get().map(|e| view! { <p class="form-error" role="alert">{e}</p> })}
                <p class="form-hint">
                    "An ExtenderMock answers for the configured extender with the same urlPrefix. Its rules are matched first to last; a node no rule matches passes with score 0. A field applies on Enter or when you leave it."
                </p>
                <For
                    each=move || mocks.get()
                    key=|(at, name, url)| format!("{at:?}/{name}/{url}")
                    children=move |(at, name, url)| view! { <MockCard doc=doc at=at name=name url=url/> }
                />
                <div class="form-add-row">
                    <button class="form-button" data-testid="extender-mock-add" on:click=add>"+ Add a mock"</button>
                </div>
                {move || {
                    let list = recordings.get();
                    (!list.is_empty()).then(|| {
                        let items = list
                            .into_iter()
                            .map(|(at, name, urls)| view! { <Recording doc=doc at=at name=name urls=urls/> })
                            .collect_view();
                        view! {
                            <section class="form-section">
                                <header class="form-section-head"><h3>"Recordings"</h3></header>
                                <p class="form-hint">"A request found here, byte for byte, gets its recorded reply; one that is not is a clear error. The text view shows every exchange."</p>
                                <ul class="ext-recordings">{items}</ul>
                            </section>
                        }
                    })
                }}
            </Show>
        </div>
    }
}

/// One recording: its name and calls, and a button that removes it.
#[component]
fn Recording(doc: FormDoc, at: ObjRef, name: String, urls: Vec<String>) -> impl IntoView {
    let mut distinct: Vec<&String> = urls.iter().collect();
    distinct.sort();
    distinct.dedup();
    let summary = format!(
        "{} call(s): {}",
        urls.len(),
        distinct
            .iter()
            .map(|u| u.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    view! {
        <li data-testid="extender-recording">
            <b class="mono">{name}</b>" · "{summary}" "
            <button class="form-link" data-testid="extender-recording-remove" on:click=move |_| doc.remove(at)>"Remove"</button>
        </li>
    }
}

/// One mock: its name and urlPrefix, its rules, its verbs.
#[component]
fn MockCard(doc: FormDoc, at: ObjRef, name: String, url: String) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let edit = move |e: MockEdit| {
        let r = doc.edit(|d| extenders::apply(d, at, e));
        error.set(r.clone().err());
        r
    };
    let rows = Memo::new(move |_| {
        doc.with(|d| d.get(at).map(extenders::rules).unwrap_or_default())
            .unwrap_or_default()
    });
    let verb_value = move |verb: &'static str, field: VerbField| {
        Signal::derive(move || {
            doc.with(|d| {
                d.get(at)
                    .map(|v| extenders::verb_field(v, verb, field))
                    .unwrap_or_default()
            })
            .unwrap_or_default()
        })
    };
    let rules = move || {
        rows.get()
            .into_iter()
            .enumerate()
            .map(|(i, row)| view! { <RuleLine i=i row=row edit=Callback::new(edit)/> })
            .collect_view()
    };
    let verbs = VERBS
        .iter()
        .map(|&verb| {
            let field = move |f: VerbField, placeholder: &'static str, test: &'static str| {
                view! {
                    <td>
                        <input
                            type="text"
                            class="ext-input"
                            data-testid=test
                            data-verb=verb
                            placeholder=placeholder
                            prop:value=move || verb_value(verb, f).get()
                            on:change=move |ev| { let _ = edit(MockEdit::Verb(verb, f, event_target_value(&ev))); }
                        />
                    </td>
                }
            };
            let answer_with = if verb == "filter" {
                view! {
                    <td>
                        <select
                            data-testid="extender-verb-answer-with"
                            prop:value=move || verb_value(verb, VerbField::AnswerWith).get()
                            on:change=move |ev| { let _ = edit(MockEdit::Verb(verb, VerbField::AnswerWith, event_target_value(&ev))); }
                        >
                            {ANSWER_WITH.iter().map(|a| view! { <option value=*a>{if a.is_empty() { "as asked" } else { a }}</option> }).collect_view()}
                        </select>
                    </td>
                }
                .into_any()
            } else {
                view! { <td></td> }.into_any()
            };
            view! {
                <tr>
                    <th scope="row"><code>{verb}</code></th>
                    {field(VerbField::Status, "200", "extender-verb-status")}
                    {field(VerbField::DelayMs, "0", "extender-verb-delay")}
                    {field(VerbField::Error, "none", "extender-verb-error")}
                    {answer_with}
                </tr>
            }
        })
        .collect_view();
    let rename = move |ev| {
        let _ = edit(MockEdit::Name(event_target_value(&ev)));
    };
    let re_url = move |ev| {
        let _ = edit(MockEdit::Url(event_target_value(&ev)));
    };
    let mock_attr = name.clone();
    view! {
        <section class="form-section ext-mock" data-testid="extender-mock" data-mock=mock_attr>
            <header class="ext-mock-head">
                <h3>"ExtenderMock"</h3>
                <label class="ext-rule-field">
                    <span class="form-label">"name"</span>
                    <input type="text" class="ext-input" data-testid="extender-mock-name" prop:value=name on:change=rename/>
                </label>
                <label class="ext-rule-field ext-wide">
                    <span class="form-label">"urlPrefix (the extender it answers for)"</span>
                    <input type="text" class="ext-input" data-testid="extender-mock-url" prop:value=url on:change=re_url/>
                </label>
                <button class="form-link" data-testid="extender-mock-remove" on:click=move |_| doc.remove(at)>"Remove this mock"</button>
            </header>
            {move || error.get().map(|e| view! { <p class="form-error" role="alert" data-testid="extender-mock-error">{e}</p> })}
            <div class="ext-rule-list" data-testid="extender-rules">{rules}</div>
            <div class="form-add-row">
                <button class="form-button" data-testid="extender-rule-add" on:click=move |_| { let _ = edit(MockEdit::AddRule); }>"+ Add a rule"</button>
            </div>
            <details class="ext-verbs-edit">
                <summary>"How each call answers (status, delay, Error)"</summary>
                <table class="ext-rules">
                    <thead><tr><th scope="col">"verb"</th><th scope="col">"HTTP status"</th><th scope="col">"delay (ms)"</th><th scope="col">"Error"</th><th scope="col">"filter answers with"</th></tr></thead>
                    <tbody>{verbs}</tbody>
                </table>
                <p class="form-hint">"A delay longer than the extender's httpTimeout makes the call time out; a status other than 200 fails it as a server would."</p>
            </details>
        </section>
    }
}

/// One rule of a mock: which nodes and pods it applies to, then what it answers.
#[component]
fn RuleLine(i: usize, row: RuleRow, edit: Callback<MockEdit, Result<(), String>>) -> impl IntoView {
    let text = move |label: &'static str,
                     field: RuleField,
                     value: String,
                     placeholder: &'static str,
                     test: &'static str| {
        view! {
            <label class="ext-rule-field">
                <span class="form-label">{label}</span>
                <input
                    type="text"
                    class="ext-input"
                    data-testid=test
                    placeholder=placeholder
                    prop:value=value
                    on:change=move |ev| { let _ = edit.run(MockEdit::Rule(i, field, event_target_value(&ev))); }
                />
            </label>
        }
    };
    let choice = move |label: &'static str,
                       field: RuleField,
                       value: String,
                       choices: &'static [&'static str],
                       test: &'static str| {
        view! {
            <label class="ext-rule-field">
                <span class="form-label">{label}</span>
                <select
                    data-testid=test
                    prop:value=value
                    on:change=move |ev| { let _ = edit.run(MockEdit::Rule(i, field, event_target_value(&ev))); }
                >
                    {choices.iter().map(|c| view! { <option value=*c>{*c}</option> }).collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <div class="ext-rule" data-testid="extender-rule" data-rule=i>
            <div class="ext-rule-head">
                <b>{format!("rule {}", i + 1)}</b>
                {(i > 0).then(|| view! { <button class="form-link" title="match this rule before the one above" on:click=move |_| { let _ = edit.run(MockEdit::RaiseRule(i)); }>"↑ earlier"</button> })}
                <button class="form-link" data-testid="extender-rule-remove" title="remove this rule" on:click=move |_| { let _ = edit.run(MockEdit::RemoveRule(i)); }>"remove"</button>
            </div>
            <div class="ext-rule-grid">
                {text("nodes", RuleField::Nodes, row.nodes, "any node", "extender-rule-nodes")}
                {text("node labels", RuleField::NodeSelector, row.node_selector, "key=value, ...", "extender-rule-node-labels")}
                {text("pods", RuleField::Pods, row.pods, "any pod", "extender-rule-pods")}
                {text("pod labels", RuleField::PodSelector, row.pod_selector, "key=value, ...", "extender-rule-pod-labels")}
                {choice("filter", RuleField::Filter, row.filter, &VERDICTS, "extender-rule-filter")}
                {text("message", RuleField::Message, row.message, "rejected by the extender", "extender-rule-message")}
                {text("score", RuleField::Score, row.score, "0", "extender-rule-score")}
                {choice("preempt", RuleField::Preempt, row.preempt, &PREEMPT_RULES, "extender-rule-preempt")}
            </div>
        </div>
    }
}
