//! The open lesson ([`crate::lesson`]): its gallery scenario plus a stop. Opening one loads the
//! scenario as a gallery pick does and stands the run at the stop's cycle and phase (the same
//! [`crate::link::View`] a link opens); the panel lists the lessons after "Back to lessons".
//! While the scenario is edited (or its seed changed) the stops no longer describe the run,
//! and the lesson does not move.

use super::editors::Editors;
use super::fetch::{ExampleFetch, Retry};
use super::loads::Loads;
use super::opening::Opening;
use super::position::RunPosition;
use super::saved;
use super::stepping::InspectTarget;
use crate::lesson::LessonAt;
use crate::link::{self, Shared};
use leptos::prelude::*;

/// The open lesson, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct OpenLesson {
    /// The lesson open in the lesson panel, at its stop (`None`: no lesson).
    pub at: RwSignal<Option<LessonAt>>,
    /// The lesson panel lists the lessons ("Back to lessons").
    pub list: RwSignal<bool>,
    /// The open lesson's scenario was edited (or its seed changed): its stops no longer
    /// describe the run on screen.
    pub edited: Memo<bool>,
    /// The run stands where the open lesson's stop puts it (its cycle, at its phase).
    pub at_stop: Memo<bool>,
    editors: StoredValue<Editors>,
    fetch: StoredValue<ExampleFetch>,
    loads: StoredValue<Loads>,
    opening: StoredValue<Opening>,
}

// The contexts OpenLesson reaches, each kept by its handle (a context holds no other by value,
// so every one stays small to copy).
impl OpenLesson {
    fn editors(&self) -> Editors {
        self.editors.get_value()
    }

    fn fetch(&self) -> ExampleFetch {
        self.fetch.get_value()
    }

    fn loads(&self) -> Loads {
        self.loads.get_value()
    }

    fn opening(&self) -> Opening {
        self.opening.get_value()
    }
}

impl OpenLesson {
    /// `at` open (saved as the tab's).
    pub fn new(
        at: Option<LessonAt>,
        editors: Editors,
        fetch: ExampleFetch,
        loads: Loads,
        opening: Opening,
        position: RunPosition,
    ) -> OpenLesson {
        saved::save_lesson(at);
        let lesson = RwSignal::new(at);
        let work = editors.work;
        let edited = Memo::new(move |_| {
            let Some(at) = lesson.get() else {
                return false;
            };
            // A lesson whose example is not at hand cannot be what the editors hold.
            let Some(want) = at.source().editor_texts() else {
                return true;
            };
            work.differs_from(want)
        });
        let at_stop = Memo::new(move |_| {
            lesson.get().is_some_and(|at| {
                let stop = at.stop();
                position.phase.get() == Some(stop.phase)
                    && position.target.get() == InspectTarget::Cycle(stop.index())
            })
        });
        OpenLesson {
            at: lesson,
            list: RwSignal::new(false),
            edited,
            at_stop,
            editors: StoredValue::new(editors),
            fetch: StoredValue::new(fetch),
            loads: StoredValue::new(loads),
            opening: StoredValue::new(opening),
        }
    }

    /// Opens or leaves a lesson (saved with the tab's work).
    pub fn set(&self, at: Option<LessonAt>) {
        saved::save_lesson(at);
        self.at.set(at);
    }

    /// Opens a lesson at one of its stops: its scenario in every editor, as a gallery pick
    /// puts an example there (the caller asks first when that replaces edited texts), and
    /// the run at the stop's cycle and phase.
    pub fn open(&self, at: LessonAt) {
        self.list.set(false);
        if Shared::of_lesson(at).is_some_and(|s| s == self.editors().work.shared_untracked()) {
            // Its scenario is on screen already: only move.
            self.set(Some(at));
            self.show_stop(at);
        } else {
            self.restart(at);
        }
    }

    /// Puts a lesson's scenario back in every editor (the saved texts are forgotten), runs it
    /// and stands at the stop.
    pub fn restart(&self, at: LessonAt) {
        self.list.set(false);
        let this = *self;
        self.fetch()
            .with_example(at.source().example(), Retry::Lesson(at), move |loaded| {
                this.list.set(false);
                this.set(Some(at));
                this.opening().mark_stop(true);
                this.editors()
                    .open_example(loaded, Some(link::stop_view(at.stop())));
            });
    }

    /// The scenario was edited during a lesson: put the lesson's back, at the stop the panel
    /// shows (the caller asks first, as for a gallery pick).
    pub fn reload(&self) {
        if let Some(at) = self.at.get_untracked() {
            self.restart(at);
        }
    }

    /// Brings the run to a lesson's stop (when the run is the lesson's).
    fn show_stop(&self, at: LessonAt) {
        self.opening().mark_stop(true);
        self.loads().show_view(link::stop_view(at.stop()));
    }

    /// Goes to another stop of the open lesson (`stop` from 0). Nothing happens while its
    /// scenario is edited: the stops would point at the wrong cycles.
    pub fn go_to_stop(&self, stop: usize) {
        if self.edited.get_untracked() {
            return;
        }
        if let Some(at) = self.at.get_untracked().and_then(|l| l.at_stop(stop)) {
            self.set(Some(at));
            self.show_stop(at);
        }
    }

    /// The open lesson's next stop; after its last, the next lesson (or, after the last
    /// lesson, the list of lessons).
    pub fn next_stop(&self) {
        let Some(at) = self.at.get_untracked() else {
            return;
        };
        if self.edited.get_untracked() {
            return;
        }
        if !at.is_last_stop() {
            self.go_to_stop(at.stop_index() + 1);
        } else if let Some(next) = at.next_lesson() {
            self.open(next);
        } else {
            self.show_list();
        }
    }

    /// The open lesson's previous stop.
    pub fn previous_stop(&self) {
        if let Some(stop) = self
            .at
            .get_untracked()
            .and_then(|at| at.stop_index().checked_sub(1))
        {
            self.go_to_stop(stop);
        }
    }

    /// Closes the lesson panel: the page stays on the scenario, as a scenario of its own.
    pub fn close(&self) {
        self.list.set(false);
        self.set(None);
    }

    /// Leaves the lesson and lists the lessons in the panel.
    pub fn show_list(&self) {
        self.set(None);
        self.list.set(true);
    }
}
