//! The scenario the editors open: a gallery example (the header's menu), Reset (the example
//! again, or in a lesson its scenario at the stop), and Try again after an example could not
//! be fetched.

use super::editors::Editors;
use super::fetch::{ExampleFetch, Retry};
use super::lesson::OpenLesson;
use crate::gallery::example_named;
use leptos::prelude::*;

/// The scenario picks, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct Picker {
    editors: StoredValue<Editors>,
    fetch: StoredValue<ExampleFetch>,
    lesson: StoredValue<OpenLesson>,
}

// The contexts Picker reaches, each kept by its handle (a context holds no other by value,
// so every one stays small to copy).
impl Picker {
    fn editors(&self) -> Editors {
        self.editors.get_value()
    }

    fn fetch(&self) -> ExampleFetch {
        self.fetch.get_value()
    }

    fn lesson(&self) -> OpenLesson {
        self.lesson.get_value()
    }
}

impl Picker {
    /// Picks over `editors`.
    pub fn new(editors: Editors, fetch: ExampleFetch, lesson: OpenLesson) -> Picker {
        Picker {
            editors: StoredValue::new(editors),
            fetch: StoredValue::new(fetch),
            lesson: StoredValue::new(lesson),
        }
    }

    /// Opens a gallery example in every editor (the edited texts are replaced), and leaves the
    /// lesson, if one is open. An example not at hand is fetched first: the editors change
    /// when it has come, and not at all when it cannot.
    pub fn load_example(&self, name: &str) {
        let this = *self;
        let example = example_named(name);
        self.fetch()
            .with_example(example, Retry::Example(example.name), move |loaded| {
                this.lesson().set(None);
                this.lesson().list.set(false);
                this.editors().open_example(loaded, None);
            });
    }

    /// Puts the example back in every editor and forgets the saved texts. In a lesson, its
    /// scenario comes back and the run stands at its stop again.
    pub fn reset(&self) {
        let example = self.editors().work.loaded_untracked().name();
        match self.lesson().at.get_untracked() {
            Some(at) if at.source().scenario == example => self.lesson().restart(at),
            _ => self.load_example(example),
        }
    }

    /// Try again: what could not open because its example could not be fetched.
    pub fn retry_fetch(&self) {
        match self.fetch().error.get_untracked().map(|f| f.retry) {
            Some(Retry::Example(name)) => self.load_example(name),
            Some(Retry::Lesson(at)) => self.lesson().restart(at),
            None => {}
        }
    }
}
