//! Gallery examples fetched on demand ([`crate::gallery::fetch`]): a pick, a lesson or a link
//! whose example's texts are not at hand waits for them, while [`ExampleFetch::fetching`]
//! names the example; a newer pick, lesson or link supersedes the wait, and a failed fetch
//! changes nothing but [`ExampleFetch::error`] (with Try again).

use super::editors::Editors;
use super::notice::Notice;
use crate::gallery::{self, Example, Loaded};
use crate::lesson::LessonAt;
use leptos::prelude::*;

/// A gallery example that could not be fetched, and what asked for it (Try again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchFailure {
    /// What to tell the user.
    pub text: String,
    /// What waited for the example.
    pub retry: Retry,
}

/// What waits for an example's texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retry {
    /// A gallery pick.
    Example(&'static str),
    /// A lesson, at a stop.
    Lesson(LessonAt),
}

/// The examples being fetched, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct ExampleFetch {
    /// The gallery example being fetched for a pick, a lesson or a link (`None` when none is).
    pub fetching: RwSignal<Option<&'static str>>,
    /// Why the last pick or lesson could not open: its example could not be fetched.
    pub error: RwSignal<Option<FetchFailure>>,
    /// Counts the waits for an example: a newer pick, lesson or link supersedes one.
    generation: StoredValue<u64>,
    editors: StoredValue<Editors>,
    notice: StoredValue<Notice>,
}

// The contexts ExampleFetch reaches, each kept by its handle (a context holds no other by value,
// so every one stays small to copy).
impl ExampleFetch {
    fn editors(&self) -> Editors {
        self.editors.get_value()
    }

    fn notice(&self) -> Notice {
        self.notice.get_value()
    }
}

impl ExampleFetch {
    /// Nothing fetched yet.
    pub fn new(editors: Editors, notice: Notice) -> ExampleFetch {
        ExampleFetch {
            fetching: RwSignal::new(None),
            error: RwSignal::new(None),
            generation: StoredValue::new(0),
            editors: StoredValue::new(editors),
            notice: StoredValue::new(notice),
        }
    }

    /// Runs `then` with an example's texts: at once when they are at hand (compiled in, or
    /// fetched before), else once they are fetched, while [`ExampleFetch::fetching`] names the
    /// example. A newer pick, lesson or link supersedes the wait, and so does any change to
    /// the work meanwhile (the notice says so): `then` never runs over work it did not see. A
    /// failed fetch changes nothing but [`ExampleFetch::error`].
    pub fn with_example(
        &self,
        example: &'static Example,
        retry: Retry,
        then: impl FnOnce(Loaded) + 'static,
    ) {
        let generation = self.supersede();
        if let Some(loaded) = example.texts() {
            then(loaded);
            return;
        }
        self.fetching.set(Some(example.name));
        let version = self.editors().version.get_untracked();
        let this = *self;
        wasm_bindgen_futures::spawn_local(async move {
            let fetched = gallery::fetch(example).await;
            if this.generation.get_value() != generation {
                return;
            }
            this.fetching.set(None);
            match fetched {
                Ok(loaded) if this.editors().version.get_untracked() == version => then(loaded),
                Ok(_) => this.notice().notify(format!(
                    "The {} example was not opened: the work changed while it loaded. Choose it again to open it.",
                    example.name
                )),
                Err(why) => this.error.set(Some(FetchFailure {
                    text: format!(
                        "The {} example could not be loaded ({why}). Nothing was replaced: the editors hold what they held.",
                        example.name
                    ),
                    retry,
                })),
            }
        });
    }

    /// Fetches a link's example, then runs `then` (unless a newer pick, lesson or link
    /// superseded the wait). A failure is recorded ([`gallery::failure`]), not shown here.
    pub fn fetch_for_link(&self, example: &'static Example, then: impl FnOnce() + 'static) {
        let generation = self.supersede();
        self.fetching.set(Some(example.name));
        let this = *self;
        wasm_bindgen_futures::spawn_local(async move {
            let _ = gallery::fetch(example).await;
            if this.generation.get_value() != generation {
                return;
            }
            this.fetching.set(None);
            then();
        });
    }

    /// Ends any wait for an example (its fetch goes on, and keeps its texts, but opens
    /// nothing) and its error; the number of the wait that starts now.
    pub fn supersede(&self) -> u64 {
        let generation = self.generation.get_value() + 1;
        self.generation.set_value(generation);
        if self.fetching.get_untracked().is_some() {
            self.fetching.set(None);
        }
        if self.error.with_untracked(Option::is_some) {
            self.error.set(None);
        }
        generation
    }
}
