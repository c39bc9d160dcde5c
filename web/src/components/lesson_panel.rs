//! The lesson panel: the open lesson's title and two-line story, the stop on screen ("Stop k of
//! n" and what to look at there) with the way to the previous and the next stop; after the last
//! stop, the next lesson or the list of lessons. When the scenario was edited during the lesson,
//! it says that the run no longer matches the lesson instead of pointing at the wrong cycles.
//! After "Back to lessons" it lists the lessons.
//!
//! It sits above the editors, in the column that stays on screen while the page scrolls (on a
//! narrow screen, just above the inspector), and brings the inspector (on a narrow screen,
//! itself) into view each time a stop is shown.

use crate::lesson::{LessonAt, LESSONS};
use crate::state::{Editors, OpenLesson, Opening, Work};
use leptos::prelude::*;

/// Below this width the page is one column (`assets/style.css`).
const NARROW_PX: f64 = 900.0;

/// Asks before a lesson replaces edited texts, as a gallery pick does.
pub fn may_replace_work(work: Work) -> bool {
    !work.is_edited()
        || window()
            .confirm_with_message("Replace your edited texts with this lesson's scenario?")
            .unwrap_or(false)
}

/// The panel: the open lesson at its stop, or the list of lessons (its code comes with the
/// first screen's other views: [`super::first_screen`]).
#[component]
pub fn LessonPanel() -> impl IntoView {
    let lesson = expect_context::<OpenLesson>();
    let work = expect_context::<Editors>().work;
    let stop_shown = expect_context::<Opening>().stop_shown;
    Effect::new(move |_| {
        if stop_shown.get() > 0 && !crate::scroll_hold::page_scroll_held() {
            // After the inspector has drawn the stop (and scrolled its phase into view).
            request_animation_frame(|| request_animation_frame(scroll_to_stop));
        }
    });
    move || {
        if let Some(at) = lesson.at.get() {
            lesson_card(lesson, work, at).into_any()
        } else if lesson.list.get() {
            lesson_list(lesson, work).into_any()
        } else {
            ().into_any()
        }
    }
}

/// The open lesson at its stop.
fn lesson_card(lesson: OpenLesson, work: Work, at: LessonAt) -> impl IntoView {
    let shown = at.lesson();
    let k = at.stop_index();
    let stops = shown.stops.len();
    let story = shown
        .story_lines()
        .map(|line| view! { <p>{line.to_string()}</p> })
        .collect_view();
    let stop_view = move || {
        if lesson.edited.get() {
            return mismatch(lesson, work, k, stops).into_any();
        }
        stop(lesson, at).into_any()
    };
    view! {
        <section
            class="card lesson"
            data-testid="lesson-panel"
            data-lesson=at.source().name
            data-stop=(k + 1).to_string()
            aria-label="Lesson"
        >
            <header class="lesson-head">
                <span class="lesson-kicker">
                    {format!("Lesson {} of {}", at.index() + 1, LESSONS.len())}
                </span>
                <button
                    class="lesson-close"
                    data-testid="lesson-close"
                    aria-label="Close the lesson"
                    title="Close the lesson: the scenario stays as it is"
                    on:click=move |_| lesson.close()
                >
                    "×"
                </button>
            </header>
            <h2 class="lesson-title" data-testid="lesson-title">{shown.title.clone()}</h2>
            <div class="lesson-story" data-testid="lesson-story">{story}</div>
            {stop_view}
        </section>
    }
}

/// The stop: where it is, what to look at, and the way on.
fn stop(lesson: OpenLesson, at: LessonAt) -> impl IntoView {
    let shown = at.lesson();
    let k = at.stop_index();
    let here = at.stop();
    let dots = shown
        .stops
        .iter()
        .enumerate()
        .map(|(j, s)| {
            let label = format!("Stop {}: cycle {}, {}", j + 1, s.cycle, s.phase.function());
            let class = if j == k {
                "lesson-dot current"
            } else if j < k {
                "lesson-dot done"
            } else {
                "lesson-dot"
            };
            view! {
                <li>
                    <button
                        class=class
                        title=label.clone()
                        aria-label=label
                        aria-current=(j == k).then_some("step")
                        data-testid="lesson-dot"
                        on:click=move |_| lesson.go_to_stop(j)
                    ></button>
                </li>
            }
        })
        .collect_view();
    let away = move || {
        (!lesson.at_stop.get()).then(|| {
            view! {
                <p class="lesson-away" data-testid="lesson-away">
                    "You have stepped away from this stop. "
                    <button class="link" data-testid="lesson-back-to-stop" on:click=move |_| lesson.go_to_stop(k)>
                        "Back to it"
                    </button>
                </p>
            }
        })
    };
    let onward = if at.is_last_stop() {
        let next = at.next_lesson();
        view! {
            <button class="ctl" data-testid="lesson-to-list" on:click=move |_| lesson.show_list()>
                "Back to lessons"
            </button>
            {next.map(|n| {
                let title = n.lesson().title.clone();
                view! {
                    <button
                        class="ctl primary"
                        data-testid="lesson-next-lesson"
                        title=format!("Next lesson: {title} (])")
                        on:click=move |_| lesson.open(n)
                    >
                        "Next lesson ▶"
                    </button>
                }
            })}
        }
        .into_any()
    } else {
        view! {
            <button
                class="ctl primary"
                data-testid="lesson-next"
                title="Next stop (])"
                on:click=move |_| lesson.next_stop()
            >
                "Next stop ▶"
            </button>
        }
        .into_any()
    };
    let up_next = at
        .is_last_stop()
        .then(|| match at.next_lesson() {
            Some(n) => format!("Up next: {}", n.lesson().title),
            None => "That was the last lesson.".to_string(),
        })
        .map(|text| view! { <p class="lesson-up-next" data-testid="lesson-up-next">{text}</p> });
    view! {
        <div class="lesson-progress">
            <span class="lesson-count" data-testid="lesson-stop-count">
                {format!("Stop {} of {}", k + 1, shown.stops.len())}
            </span>
            <ol class="lesson-dots" aria-label="Stops">{dots}</ol>
            <span class="lesson-where" data-testid="lesson-where">
                {format!("cycle {} · ", here.cycle)}
                <code>{here.phase.function()}</code>
            </span>
        </div>
        <p class="lesson-text" data-testid="lesson-stop-text">{here.text.clone()}</p>
        {away}
        <div class="lesson-nav">
            <button
                class="ctl"
                data-testid="lesson-prev"
                title="Previous stop ([)"
                disabled=k == 0
                on:click=move |_| lesson.previous_stop()
            >
                "◀ Prev stop"
            </button>
            {onward}
        </div>
        {up_next}
    }
}

/// The scenario no longer is the lesson's.
fn mismatch(lesson: OpenLesson, work: Work, k: usize, stops: usize) -> impl IntoView {
    let reload = move |_| {
        if may_replace_work(work) {
            lesson.reload();
        }
    };
    view! {
        <div class="lesson-mismatch" role="status" data-testid="lesson-mismatch">
            <p>
                <strong>"The run no longer matches this lesson."</strong>
                {format!(
                    " You edited its scenario, so stop {} of {stops} would point at the wrong cycles. Reload the lesson to continue there, or keep your edits as a scenario of your own.",
                    k + 1
                )}
            </p>
            <div class="lesson-nav">
                <button class="ctl primary" data-testid="lesson-reload" on:click=reload>
                    "Reload the lesson"
                </button>
                <button class="ctl" data-testid="lesson-keep-edits" on:click=move |_| lesson.close()>
                    "Keep my edits"
                </button>
            </div>
        </div>
    }
}

/// Every lesson, to pick one.
fn lesson_list(lesson: OpenLesson, work: Work) -> impl IntoView {
    let items = (0..LESSONS.len())
        .filter_map(|i| LessonAt::new(i, 0))
        .map(|at| {
            let listed = at.lesson();
            let meta = format!("{} stops", listed.stops.len());
            let about = listed.story_lines().next().unwrap_or_default().to_string();
            view! {
                <li>
                    <button
                        class="lesson-item"
                        data-testid="lesson-item"
                        data-lesson=at.source().name
                        title=about
                        on:click=move |_| {
                            if may_replace_work(work) {
                                lesson.open(at);
                            }
                        }
                    >
                        <span class="lesson-item-title">{listed.title.clone()}</span>
                        <span class="lesson-item-meta">{meta}</span>
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="card lesson lesson-list" data-testid="lesson-list" aria-label="Lessons">
            <header class="lesson-head">
                <span class="lesson-kicker">"Lessons"</span>
                <button
                    class="lesson-close"
                    data-testid="lesson-close"
                    aria-label="Close the list of lessons"
                    on:click=move |_| lesson.close()
                >
                    "×"
                </button>
            </header>
            <p class="lesson-list-hint">
                "Guided walks through kube-scheduler, stop by stop, each on a scenario of the gallery."
            </p>
            <ol class="lesson-items">{items}</ol>
        </section>
    }
}

/// Brings a stop into view: on a wide screen the inspector (the panel stays on screen beside
/// it), its current phase too when that would end below the window; on a narrow screen the
/// panel, with the inspector right under it.
fn scroll_to_stop() {
    let doc = document();
    let win = window();
    let width = win
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .unwrap_or(0.0);
    let height = win
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let top_of = |selector: &str| {
        doc.query_selector(selector)
            .ok()
            .flatten()
            .map(|el| el.get_bounding_client_rect())
    };
    let delta = if width <= NARROW_PX {
        top_of(".lesson").map(|r| r.top() - 8.0)
    } else {
        // Below the controls, which stick to the top.
        let gap = top_of(".controls").map_or(0.0, |r| r.bottom().max(0.0)) + 12.0;
        top_of(".inspector").map(|inspector| {
            let delta = inspector.top() - gap;
            match top_of(".phase-block.current") {
                Some(block) if block.bottom() - delta > height => block.top() - gap,
                _ => delta,
            }
        })
    };
    if let Some(delta) = delta.filter(|d| d.abs() > 1.0) {
        win.scroll_by_with_x_and_y(0.0, delta);
    }
}
