//! The questions panel: Compare (the editors' configuration against another, side by side),
//! Sweep (one setting over values, charted; a point opens that run) and Capacity (how many
//! more copies of a pod fit). Each runs on its button from the editors' texts as they are, in
//! a background worker ([`crate::background`]); the answers come from [`crate::questions`].

use crate::background::{Asker, Ran, Request};
use crate::components::share_link::copy_link;
use crate::questions::{self, CompareView, Editors, Other, PodDiff, SweepView};
use crate::state::{AddressBar, Notice, Work};
use leptos::prelude::*;
use schedlab_core::questions::capacity::Capacity;
use schedlab_core::questions::compare::{bytes, millicores};
use schedlab_core::questions::summary::Summary;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::Diagnostic;
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// Which question the panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Compare two configurations.
    Compare,
    /// Sweep a setting.
    Sweep,
    /// Count what still fits.
    Capacity,
}

/// An answer, or the problems that stopped it.
enum Answer<T> {
    None,
    Running,
    Done(Arc<T>, Ran),
    Failed(Vec<String>),
}

impl<T> Clone for Answer<T> {
    fn clone(&self) -> Self {
        match self {
            Answer::None => Answer::None,
            Answer::Running => Answer::Running,
            Answer::Done(v, ran) => Answer::Done(Arc::clone(v), ran.clone()),
            Answer::Failed(e) => Answer::Failed(e.clone()),
        }
    }
}

/// Asks `request` in a background worker ([`crate::background`]) and stores the answer; a
/// question asked before on the same line is cancelled.
fn ask<T: DeserializeOwned + Send + Sync + 'static>(
    asker: Asker,
    answer: RwSignal<Answer<T>>,
    request: Request,
) {
    answer.set(Answer::Running);
    asker.ask(request, move |reply: Result<T, Vec<String>>, ran| {
        answer.set(match reply {
            Ok(v) => Answer::Done(Arc::new(v), ran),
            Err(e) => Answer::Failed(e),
        });
    });
}

/// The five editors' texts, as a question carries them.
fn texts(work: Work) -> Vec<String> {
    work.texts_untracked()
}

/// The five editors, read as the run reads them.
fn read_editors(work: Work) -> Result<Editors, Vec<Diagnostic>> {
    Editors::read(texts(work))
}

fn percent(v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// The panel: its summary line, and its body once opened (the body's code, the questions'
/// panes, is fetched when the panel is first opened).
#[component]
pub fn QuestionsPanel() -> impl IntoView {
    let address = expect_context::<AddressBar>();
    let open = RwSignal::new(address.compare.get_untracked().is_some());
    view! {
        <section class="questions" aria-label="Compare, sweep, capacity" data-testid="questions">
            <details prop:open=move || open.get() on:toggle=move |ev| {
                let el: web_sys::HtmlDetailsElement = event_target(&ev);
                if el.open() {
                    crate::background::warm_up();
                }
                open.set(el.open());
            }>
                <summary data-testid="questions-toggle">
                    <h2>"Compare · Sweep · Capacity"</h2>
                    <span class="questions-hint">
                        "What changes under another configuration, which setting to choose, how many more pods fit."
                    </span>
                </summary>
                {super::on_demand_once(move || open.get(), questions_body_view)}
            </details>
        </section>
    }
}

split_point! {
    /// A split point (`#[lazy]`): the body's code, fetched when the panel first opens.
    fn questions_body_view() -> AnyView {
        view! { <QuestionsBody/> }.into_any()
    }
}

/// Set on the panel's `<details>` by the header's Compare when the body was not drawn yet:
/// the body then scrolls the whole panel into view once it is.
pub const SCROLL_WHEN_DRAWN: &str = "data-scroll-when-drawn";

/// Scrolls the panel into view if the header asked for it before the body was drawn.
fn scroll_if_asked() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let selector = format!("[data-testid=questions] details[{SCROLL_WHEN_DRAWN}]");
    if let Ok(Some(details)) = document.query_selector(&selector) {
        let _ = details.remove_attribute(SCROLL_WHEN_DRAWN);
        details.scroll_into_view();
    }
}

/// The tabs and the chosen question's pane.
#[component]
fn QuestionsBody() -> impl IntoView {
    request_animation_frame(scroll_if_asked);
    let question = RwSignal::new(Question::Compare);
    let tab = move |q: Question, label: &'static str, id: &'static str| {
        view! {
            <button
                role="tab"
                class:active=move || question.get() == q
                aria-selected=move || (question.get() == q).to_string()
                data-testid=format!("questions-tab-{id}")
                on:click=move |_| question.set(q)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="questions-tabs" role="tablist">
            {tab(Question::Compare, "Compare", "compare")}
            {tab(Question::Sweep, "Sweep", "sweep")}
            {tab(Question::Capacity, "Capacity", "capacity")}
        </div>
        {move || match question.get() {
            Question::Compare => view! { <ComparePane/> }.into_any(),
            Question::Sweep => view! { <SweepPane/> }.into_any(),
            Question::Capacity => view! { <CapacityPane/> }.into_any(),
        }}
    }
}

/// The problems, or "Running…" with a Cancel button, or where the answer ran.
fn status<T: Send + Sync + 'static>(asker: Asker, answer: RwSignal<Answer<T>>) -> impl IntoView {
    let cancel = move |_| {
        asker.cancel();
        answer.set(Answer::None);
    };
    move || match answer.get() {
        Answer::Running => view! {
            <p class="questions-status" role="status">
                "Running…"
                <button data-testid="questions-cancel" on:click=cancel>"Cancel"</button>
            </p>
        }
        .into_any(),
        Answer::Done(_, ran) => view! {
            <p
                class="questions-ran"
                data-testid="questions-ran"
                data-in-worker=ran.in_worker.to_string()
                data-threads=ran.threads.to_string()
            >
                {ran.words()}
            </p>
        }
        .into_any(),
        Answer::Failed(errors) => view! {
            <ul class="questions-errors" role="alert" data-testid="questions-errors">
                {errors.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
            </ul>
        }
        .into_any(),
        Answer::None => ().into_any(),
    }
}

#[component]
fn ComparePane() -> impl IntoView {
    let editors = expect_context::<crate::state::Editors>();
    let work = editors.work;
    let address = expect_context::<AddressBar>();
    let initial = address.compare.get_untracked();
    let kind = RwSignal::new(match &initial {
        Some(Other::Defaults(v)) => v.as_str().to_string(),
        Some(Other::Text(_)) => "text".to_string(),
        None => match editors.scheduler.get_untracked() {
            SchedulerVersion::V1_17 => "v1.35".to_string(),
            SchedulerVersion::V1_35 => "v1.17".to_string(),
        },
    });
    let text = RwSignal::new(match &initial {
        Some(Other::Text(t)) => t.clone(),
        _ => crate::gallery::DEFAULT_CONFIG_V1.to_string(),
    });
    let answer = RwSignal::new(Answer::<CompareView>::None);
    let asker = Asker::new();
    let presses = StoredValue::new(0u64);
    let selected = RwSignal::new(0usize);
    let other = move || match kind.get_untracked().as_str() {
        "text" => Other::Text(text.get_untracked()),
        v => Other::Defaults(SchedulerVersion::parse(v).unwrap_or(SchedulerVersion::V1_35)),
    };
    let run = move || {
        let b = other();
        address.set_compare(b.clone());
        let seed = work.seed.get_untracked();
        selected.set(0);
        let request = Request::Compare {
            texts: texts(work),
            other: b,
            seed,
        };
        ask(asker, answer, request);
    };
    if initial.is_some() {
        run();
    }
    view! {
        <div class="questions-pane" data-testid="compare-pane">
            <p class="questions-intro">
                "A is the configuration in the editors. Choose B; both run on the same nodes and pods with the same seed."
            </p>
            <div class="questions-form">
                <label>
                    "B: "
                    <select
                        data-testid="compare-b"
                        prop:value=move || kind.get()
                        on:change=move |ev| kind.set(event_target_value(&ev))
                    >
                        <option value="v1.17">"kube-scheduler v1.17 defaults"</option>
                        <option value="v1.35">"kube-scheduler v1.35 defaults"</option>
                        <option value="text">"a configuration of my own…"</option>
                    </select>
                </label>
                <button class="primary" data-testid="compare-run" on:click=move |_| run()>
                    "Compare"
                </button>
                <button
                    data-testid="compare-link"
                    title="Copy a link that opens this scenario with this comparison"
                    on:click=move |_| {
                        address.set_compare(other());
                        copy_link(address, presses);
                    }
                >
                    "Copy link"
                </button>
            </div>
            <Show when=move || kind.get() == "text">
                <textarea
                    class="questions-text"
                    data-testid="compare-b-text"
                    spellcheck="false"
                    aria-label="Configuration B"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                ></textarea>
            </Show>
            {status(asker, answer)}
            {move || match answer.get() {
                Answer::Done(v, _) => compare_result(v, selected).into_any(),
                _ => ().into_any(),
            }}
        </div>
    }
}

fn compare_result(v: Arc<CompareView>, selected: RwSignal<usize>) -> impl IntoView {
    let headline = if v.diffs.is_empty() {
        format!("No pod ends differently ({} the same).", v.same)
    } else {
        format!(
            "{} pod(s) end differently, {} the same.",
            v.diffs.len(),
            v.same
        )
    };
    let diffs = v.diffs.clone();
    let total_diffs = diffs.len();
    let show_all_diffs = RwSignal::new(false);
    let show_all_nodes = RwSignal::new(false);
    let total_nodes = v.nodes.len();
    let shown_nodes = v.nodes_to_show(false).len();
    let hidden_nodes = total_nodes - shown_nodes;
    let detail = {
        let diffs = diffs.clone();
        move || diffs.get(selected.get()).cloned().map(score_diff)
    };
    view! {
        <p class="questions-headline" data-testid="compare-headline">{headline}</p>
        <div class="compare-labels">
            <span class="side-a">{v.labels.0.clone()}</span>
            <span class="side-b">{v.labels.1.clone()}</span>
        </div>
        {summary_chart(&v.summaries.0, &v.summaries.1)}
        <div class="compare-clusters" data-testid="compare-clusters">
            <table>
                <thead>
                    <tr><th>"node"</th><th>"A"</th><th>"B"</th></tr>
                </thead>
                <tbody>
                    {move || {
                        let shown = v.nodes_to_show(show_all_nodes.get());
                        shown.into_iter().map(|i| {
                            let n = &v.nodes[i];
                            view! {
                                <tr>
                                    <th scope="row">{n.name.clone()}</th>
                                    <td>{node_cell(n.cpu.0, &n.pods.0)}</td>
                                    <td>{node_cell(n.cpu.1, &n.pods.1)}</td>
                                </tr>
                            }
                        }).collect_view()
                    }}
                </tbody>
            </table>
            {move || (!show_all_nodes.get() && hidden_nodes > 0).then(|| view! {
                <p class="questions-more">
                    {format!("The nodes holding a pod that differs ({shown_nodes} of {}). ", total_nodes)}
                    <button data-testid="compare-all-nodes" on:click=move |_| show_all_nodes.set(true)>
                        {format!("Show all {total_nodes} nodes")}
                    </button>
                </p>
            })}
        </div>
        <Show when={let empty = diffs.is_empty(); move || !empty}>
            <h3>"Pods that differ"</h3>
            <ul class="compare-diffs" data-testid="compare-diffs">
                {
                    let diffs = diffs.clone();
                    move || {
                        let shown = if show_all_diffs.get() { usize::MAX } else { questions::FIRST_ROWS };
                        diffs.iter().enumerate().take(shown).map(|(i, d)| view! {
                            <li>
                                <button
                                    class:active=move || selected.get() == i
                                    data-testid="compare-diff"
                                    on:click=move |_| selected.set(i)
                                >
                                    <strong>{d.pod.clone()}</strong>
                                    {format!(": A {} · B {}", d.fates.0, d.fates.1)}
                                </button>
                            </li>
                        }).collect_view()
                    }
                }
            </ul>
            {move || (!show_all_diffs.get() && total_diffs > questions::FIRST_ROWS).then(|| view! {
                <p class="questions-more">
                    {format!("The first {} of {total_diffs}. ", questions::FIRST_ROWS)}
                    <button data-testid="compare-all-diffs" on:click=move |_| show_all_diffs.set(true)>
                        {format!("Show all {total_diffs} pods")}
                    </button>
                </p>
            })}
            {detail.clone()}
        </Show>
    }
}

/// A node's CPU bar and its pods, differing pods highlighted.
fn node_cell(cpu: f64, pods: &[(String, bool)]) -> impl IntoView {
    let width = format!("width: {:.1}%", (cpu * 100.0).clamp(0.0, 100.0));
    view! {
        <div class="usage-bar" title=format!("CPU requested {}", percent(cpu))>
            <span style=width></span>
        </div>
        <span class="compare-pods">
            {pods.iter().map(|(name, differs)| view! {
                <span class="pod-chip" class:differs=*differs data-differs=differs.to_string()>
                    {name.rsplit('/').next().unwrap_or(name).to_string()}
                </span>
            }).collect_view()}
        </span>
    }
}

/// The two summaries as a small bar chart (percentages) and a table (the rest).
fn summary_chart(a: &Summary, b: &Summary) -> impl IntoView {
    let bars = [
        ("CPU mean", a.cpu.mean, b.cpu.mean),
        ("CPU std dev", a.cpu.stddev, b.cpu.stddev),
        ("memory mean", a.memory.mean, b.memory.mean),
        ("memory std dev", a.memory.stddev, b.memory.stddev),
    ];
    let (w, row, label_w, bar_w) = (420.0, 22.0, 110.0, 260.0);
    let h = row * 2.0 * bars.len() as f64 + 10.0;
    view! {
        <figure class="summary-chart" data-testid="compare-chart">
            <svg viewBox=format!("0 0 {w} {h}") role="img" aria-label="Requested CPU and memory per node, under A and B">
                {bars.iter().enumerate().map(|(i, (name, x, y))| {
                    let top = 5.0 + i as f64 * row * 2.0;
                    view! {
                        <text x="0" y=top + row * 0.9 class="chart-label">{name.to_string()}</text>
                        <rect x=label_w y=top + 2.0 width=bar_w * x.clamp(0.0, 1.0) height=row * 0.8 - 2.0 class="bar-a"></rect>
                        <text x=label_w + bar_w * x.clamp(0.0, 1.0) + 4.0 y=top + row * 0.7 class="chart-value">{format!("A {}", percent(*x))}</text>
                        <rect x=label_w y=top + row + 2.0 width=bar_w * y.clamp(0.0, 1.0) height=row * 0.8 - 2.0 class="bar-b"></rect>
                        <text x=label_w + bar_w * y.clamp(0.0, 1.0) + 4.0 y=top + row * 1.7 class="chart-value">{format!("B {}", percent(*y))}</text>
                    }
                }).collect_view()}
            </svg>
            <figcaption>"Requested / allocatable over nodes, A (dark) and B (light)."</figcaption>
        </figure>
        <table class="summary-table" data-testid="compare-summary">
            <thead><tr><th></th><th>"A"</th><th>"B"</th></tr></thead>
            <tbody>
                <tr><th scope="row">"placed"</th><td>{a.placed}</td><td>{b.placed}</td></tr>
                <tr><th scope="row">"pending"</th><td>{a.pending}</td><td>{b.pending}</td></tr>
                <tr><th scope="row">"preemptions"</th><td>{a.preemptions}</td><td>{b.preemptions}</td></tr>
                <tr><th scope="row">"empty nodes"</th><td>{a.empty_nodes}</td><td>{b.empty_nodes}</td></tr>
                <tr><th scope="row">"largest free CPU"</th><td>{millicores(a.largest_free.milli_cpu)}</td><td>{millicores(b.largest_free.milli_cpu)}</td></tr>
                <tr><th scope="row">"largest free memory"</th><td>{bytes(a.largest_free.memory)}</td><td>{bytes(b.largest_free.memory)}</td></tr>
            </tbody>
        </table>
    }
}

/// One differing pod's score tables, side by side.
fn score_diff(d: PodDiff) -> impl IntoView {
    let Some((x, y)) = d.nodes.clone() else {
        return view! {
            <p class="compare-detail" data-testid="compare-detail">
                {format!("{}: under A {}; under B {}.", d.pod, d.fates.0, d.fates.1)}
            </p>
        }
        .into_any();
    };
    let cell = |c: Option<(i64, i64)>| match c {
        Some((s, w)) => format!("{s} × {w}"),
        None => "–".into(),
    };
    let total = |t: Option<i64>| t.map_or("–".to_string(), |t| t.to_string());
    view! {
        <table class="compare-detail score-diff" data-testid="compare-detail">
            <caption>{format!("{}: prioritizeNodes under each configuration (score × weight)", d.pod)}</caption>
            <thead>
                <tr>
                    <th></th>
                    <th colspan="2">"under A"</th>
                    <th colspan="2">"under B"</th>
                </tr>
                <tr>
                    <th>"plugin"</th>
                    <th>{format!("{x} (A's)")}</th>
                    <th>{y.clone()}</th>
                    <th>{format!("{y} (B's)")}</th>
                    <th>{x.clone()}</th>
                </tr>
            </thead>
            <tbody>
                {d.rows.iter().map(|(name, v)| view! {
                    <tr>
                        <th scope="row">{name.clone()}</th>
                        <td>{cell(v[0])}</td><td>{cell(v[1])}</td><td>{cell(v[2])}</td><td>{cell(v[3])}</td>
                    </tr>
                }).collect_view()}
                <tr class="total">
                    <th scope="row">"total"</th>
                    <td>{total(d.totals[0])}</td><td>{total(d.totals[1])}</td><td>{total(d.totals[2])}</td><td>{total(d.totals[3])}</td>
                </tr>
            </tbody>
        </table>
    }
    .into_any()
}

#[component]
fn SweepPane() -> impl IntoView {
    let editors = expect_context::<crate::state::Editors>();
    let work = editors.work;
    let notice = expect_context::<Notice>();
    let setting = RwSignal::new("seed".to_string());
    let weight_of = RwSignal::new(match editors.scheduler.get_untracked() {
        SchedulerVersion::V1_17 => "LeastRequestedPriority".to_string(),
        SchedulerVersion::V1_35 => "NodeResourcesBalancedAllocation".to_string(),
    });
    let values = RwSignal::new("0..9".to_string());
    let answer = RwSignal::new(Answer::<SweepView>::None);
    let asker = Asker::new();
    let opened = RwSignal::new(None::<usize>);
    let full_setting = move || match setting.get_untracked().as_str() {
        "weight" => format!("weight.{}", weight_of.get_untracked().trim()),
        s => s.to_string(),
    };
    let run = move |_| {
        let (s, v) = (full_setting(), values.get_untracked());
        let seed = work.seed.get_untracked();
        opened.set(None);
        let request = Request::Sweep {
            texts: texts(work),
            setting: s,
            values: v,
            seed,
        };
        ask(asker, answer, request);
    };
    let suggest = move |s: &str| match s {
        "seed" => "0..9",
        "percentageOfNodesToScore" => "10..100:10",
        "scoringStrategy" => "LeastAllocated,MostAllocated",
        _ => "1..5",
    };
    let open_point = move |i: usize| {
        if let Answer::Done(v, _) = answer.get_untracked() {
            let Some(point) = v.points.get(i) else { return };
            let opened_run = read_editors(work)
                .map_err(|e| e.iter().map(ToString::to_string).collect::<Vec<_>>())
                .and_then(|e| questions::open_point(&e, &v.setting, point).map_err(|e| vec![e]));
            match opened_run {
                Ok((seed, texts)) => {
                    opened.set(Some(i));
                    editors.open_run(seed, texts);
                    notice.notify(format!(
                        "Opened the run with {} = {}. Undo puts the editors back.",
                        v.setting.name(),
                        point.value
                    ));
                }
                Err(e) => answer.set(Answer::Failed(e)),
            }
        }
    };
    view! {
        <div class="questions-pane" data-testid="sweep-pane">
            <p class="questions-intro">
                "One setting of the editors' configuration, tried over several values: one run each."
            </p>
            <div class="questions-form">
                <label>
                    "Setting: "
                    <select
                        data-testid="sweep-setting"
                        prop:value=move || setting.get()
                        on:change=move |ev| {
                            let s = event_target_value(&ev);
                            values.set(suggest(&s).to_string());
                            setting.set(s);
                        }
                    >
                        <option value="seed">"seed (selectHost's ties)"</option>
                        <option value="percentageOfNodesToScore">"percentageOfNodesToScore"</option>
                        <option value="weight">"a score weight…"</option>
                        <option value="scoringStrategy">"scoringStrategy (v1.35 NodeResourcesFit)"</option>
                    </select>
                </label>
                <Show when=move || setting.get() == "weight">
                    <label>
                        "of "
                        <input
                            data-testid="sweep-weight-of"
                            prop:value=move || weight_of.get()
                            on:input=move |ev| weight_of.set(event_target_value(&ev))
                            aria-label="Priority or Score plugin"
                        />
                    </label>
                </Show>
                <label>
                    "Values: "
                    <input
                        data-testid="sweep-values"
                        prop:value=move || values.get()
                        on:input=move |ev| values.set(event_target_value(&ev))
                        title="A list (1,2,5) or a range FROM..TO or FROM..TO:STEP"
                    />
                </label>
                <button class="primary" data-testid="sweep-run" on:click=run>"Sweep"</button>
            </div>
            {status(asker, answer)}
            {move || match answer.get() {
                Answer::Done(v, _) => sweep_result(v, opened, open_point).into_any(),
                _ => ().into_any(),
            }}
        </div>
    }
}

fn sweep_result(
    v: Arc<SweepView>,
    opened: RwSignal<Option<usize>>,
    open_point: impl Fn(usize) + Copy + 'static,
) -> impl IntoView {
    let series = questions::chart_series(&v.points);
    let n = v.points.len();
    let (w, h, left, bottom, top, right) = (560.0, 260.0, 48.0, 40.0, 12.0, 12.0);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let x_of = move |i: usize| {
        if n <= 1 {
            left + plot_w / 2.0
        } else {
            left + plot_w * i as f64 / (n - 1) as f64
        }
    };
    let y_of = move |pct: f64| top + plot_h * (1.0 - pct.clamp(0.0, 100.0) / 100.0);
    let label_every = n.div_ceil(12).max(1);
    let name = v.setting.name();
    view! {
        <figure class="sweep-chart" data-testid="sweep-chart">
            <svg viewBox=format!("0 0 {w} {h}") role="img" aria-label=format!("Summary metrics against {name}")>
                // Axes and grid: 0–100 % on y, the values on x.
                {[0.0, 25.0, 50.0, 75.0, 100.0].iter().map(|p| view! {
                    <line x1=left x2=w - right y1=y_of(*p) y2=y_of(*p) class="grid"></line>
                    <text x=left - 6.0 y=y_of(*p) + 4.0 class="axis-tick" text-anchor="end">{format!("{p}%")}</text>
                }).collect_view()}
                <line x1=left x2=left y1=top y2=top + plot_h class="axis"></line>
                <line x1=left x2=w - right y1=top + plot_h y2=top + plot_h class="axis"></line>
                {v.points.iter().enumerate().filter(|(i, _)| i % label_every == 0).map(|(i, p)| view! {
                    <text x=x_of(i) y=top + plot_h + 16.0 class="axis-tick" text-anchor="middle">{p.value.clone()}</text>
                }).collect_view()}
                <text x=left + plot_w / 2.0 y=h - 4.0 class="axis-title" text-anchor="middle">{name.clone()}</text>
                <text x="12" y=top + plot_h / 2.0 class="axis-title" text-anchor="middle" transform=format!("rotate(-90 12 {})", top + plot_h / 2.0)>"% of allocatable"</text>
                {series.iter().map(|(_, class, values)| {
                    let path: Vec<String> = values.iter().enumerate().map(|(i, v)| format!("{:.1},{:.1}", x_of(i), y_of(*v))).collect();
                    view! { <polyline points=path.join(" ") class=format!("series {class}")></polyline> }
                }).collect_view()}
                // One clickable point per value, on the CPU mean line.
                {series[0].2.iter().zip(&v.points).enumerate().map(|(i, (y, p))| view! {
                    <circle
                        cx=x_of(i) cy=y_of(*y) r="5"
                        class="sweep-point"
                        class:opened=move || opened.get() == Some(i)
                        data-testid=format!("sweep-point-{i}")
                        tabindex="0"
                        role="button"
                        aria-label=format!("open the run with {} = {}", name, p.value)
                        on:click=move |_| open_point(i)
                    >
                        <title>"Open this run"</title>
                    </circle>
                }).collect_view()}
            </svg>
            <figcaption class="legend">
                {series.iter().map(|(label, class, _)| view! {
                    <span class=format!("legend-item {class}")>{label.to_string()}</span>
                }).collect_view()}
                <span class="legend-note">"Click a point to open that run."</span>
            </figcaption>
        </figure>
        <table class="sweep-table" data-testid="sweep-table">
            <thead>
                <tr>
                    <th>{v.setting.name()}</th><th>"placed"</th><th>"pending"</th><th>"preemptions"</th>
                    <th>"CPU mean"</th><th>"CPU std dev"</th><th>"memory mean"</th><th>"empty nodes"</th><th></th>
                </tr>
            </thead>
            <tbody>
                {v.points.iter().enumerate().map(|(i, p)| {
                    let s = &p.summary;
                    view! {
                        <tr class:opened=move || opened.get() == Some(i)>
                            <th scope="row">{p.value.clone()}</th>
                            <td>{s.placed}</td><td>{s.pending}</td><td>{s.preemptions}</td>
                            <td>{percent(s.cpu.mean)}</td><td>{percent(s.cpu.stddev)}</td>
                            <td>{percent(s.memory.mean)}</td><td>{s.empty_nodes}</td>
                            <td><button data-testid=format!("sweep-open-{i}") on:click=move |_| open_point(i)>"Open"</button></td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn CapacityPane() -> impl IntoView {
    let editors = expect_context::<crate::state::Editors>();
    let work = editors.work;
    let template = RwSignal::new(questions::SAMPLE_TEMPLATE.to_string());
    let answer = RwSignal::new(Answer::<Capacity>::None);
    let asker = Asker::new();
    let run = move |_| {
        let t = template.get_untracked();
        let seed = work.seed.get_untracked();
        let request = Request::Capacity {
            texts: texts(work),
            template: t,
            seed,
        };
        ask(asker, answer, request);
    };
    view! {
        <div class="questions-pane" data-testid="capacity-pane">
            <p class="questions-intro">
                "A pod template (a Pod, or a Deployment): how many more copies the cluster takes after the scenario has run, where they land, and why the next one does not fit."
            </p>
            <textarea
                class="questions-text"
                data-testid="capacity-template"
                spellcheck="false"
                aria-label="Pod template"
                prop:value=move || template.get()
                on:input=move |ev| template.set(event_target_value(&ev))
            ></textarea>
            <div class="questions-form">
                <button class="primary" data-testid="capacity-run" on:click=run>"Count"</button>
            </div>
            {status(asker, answer)}
            {move || match answer.get() {
                Answer::Done(c, _) => capacity_result(&c).into_any(),
                _ => ().into_any(),
            }}
        </div>
    }
}

fn capacity_result(c: &Capacity) -> impl IntoView {
    c.templates
        .iter()
        .map(|t| {
            let most = t.per_node.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
            let headline = format!(
                "{}: {}{} more cop{} fit (kube-scheduler {}).",
                t.template,
                if t.limited { "at least " } else { "" },
                t.count,
                if t.count == 1 { "y" } else { "ies" },
                c.scheduler.as_str()
            );
            view! {
                <div class="capacity-result" data-testid="capacity-result">
                    <p class="questions-headline" data-testid="capacity-count">{headline}</p>
                    {t.first_failure.clone().map(|(pod, message)| view! {
                        <p class="capacity-failure" data-testid="capacity-failure">
                            "The next one, " <code>{pod}</code> ", stays Pending: " <q>{message}</q>
                        </p>
                    })}
                    <table class="capacity-nodes" data-testid="capacity-nodes">
                        <thead><tr><th>"node"</th><th>"copies"</th></tr></thead>
                        <tbody>
                            {t.per_node.iter().map(|(node, n)| {
                                let width = format!("width: {:.1}%", *n as f64 * 100.0 / most as f64);
                                view! {
                                    <tr>
                                        <th scope="row">{node.clone()}</th>
                                        <td><span class="count-bar" style=width></span>{n.to_string()}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        })
        .collect_view()
}
