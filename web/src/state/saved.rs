//! What the tab saves, under which name (`super::storage` keeps it): the editors' texts and
//! the last texts that loaded, the example they started from, the seed, the open lesson, and
//! the fingerprint of the last link this tab wrote into the address bar. The page starts from
//! it ([`Saved::load`]); an embed saves nothing.

use super::storage;
use crate::base::{EditorFile, SEED};
use crate::gallery::{example_named, Loaded};
use crate::lesson::LessonAt;
use crate::link::{self, Shared};
use leptos::prelude::*;

/// Saved per tab: the example the editors started from.
pub const EXAMPLE_KEY: &str = "example";
/// Saved per tab: the seed, when a link brought another than [`SEED`].
const SEED_KEY: &str = "seed";
/// Saved per tab: the fingerprint of the last fragment this page wrote into the address bar
/// (a reload that finds it there restores the tab's work rather than "opening a link").
const LINKED_KEY: &str = "linked";
/// Saved per tab: the lesson open in the panel (its name), and its stop (from 1).
pub const LESSON_KEY: &str = "lesson";
const LESSON_STOP_KEY: &str = "lesson.stop";

/// Why the tab's work is not saved, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct SavedWork {
    /// Why the tab's work is not saved (a refused save, a saved text that could not be read
    /// back), while it is not.
    pub problem: RwSignal<Option<String>>,
}

/// Where an editor's text is kept.
fn text_key(file: EditorFile) -> String {
    format!("editor.{}", file.stem())
}

/// Where the text of the last inputs that loaded is kept.
fn valid_key(file: EditorFile) -> String {
    format!("valid.{}", file.stem())
}

/// Saves an editor's text.
pub fn save_text(file: EditorFile, text: &str) {
    storage::save(&text_key(file), text);
}

/// Saves the texts of a load that read (in [`EditorFile::ALL`] order) as the last valid ones.
pub fn save_valid(texts: &[String]) {
    for (f, t) in EditorFile::ALL.iter().zip(texts) {
        storage::save(&valid_key(*f), t);
    }
}

/// The last texts that loaded, when every editor's is saved.
pub fn valid_texts() -> Option<Vec<String>> {
    EditorFile::ALL
        .iter()
        .map(|f| storage::load(&valid_key(*f)))
        .collect()
}

/// Saves `example` as the tab's, with no texts of its own: the editors hold the example's.
pub fn save_example(example: Loaded) {
    storage::save(EXAMPLE_KEY, example.name());
    storage::remove(SEED_KEY);
    for f in EditorFile::ALL {
        storage::remove(&text_key(f));
        storage::remove(&valid_key(f));
    }
}

/// Saves a link's inputs as the tab's work. `same_as_saved`: they are the texts already
/// saved, so the last valid inputs saved with them still apply.
pub fn save_shared(shared: &Shared, same_as_saved: bool) {
    let example = Loaded::named_or_first(&shared.example);
    storage::save(EXAMPLE_KEY, example.name());
    if shared.seed == SEED {
        storage::remove(SEED_KEY);
    } else {
        storage::save(SEED_KEY, &shared.seed.to_string());
    }
    for f in EditorFile::ALL {
        let text = &shared.texts[f.index()];
        if text == example.text(f) {
            storage::remove(&text_key(f));
        } else {
            storage::save(&text_key(f), text);
        }
        if !same_as_saved {
            storage::remove(&valid_key(f));
        }
    }
}

/// Saves the open lesson and its stop as the tab's (or forgets them).
pub fn save_lesson(at: Option<LessonAt>) {
    match at {
        Some(at) => {
            storage::save(LESSON_KEY, at.source().name);
            storage::save(LESSON_STOP_KEY, &(at.stop_index() + 1).to_string());
        }
        None => {
            storage::remove(LESSON_KEY);
            storage::remove(LESSON_STOP_KEY);
        }
    }
}

/// The lesson this tab had open, at its stop.
pub fn saved_lesson() -> Option<LessonAt> {
    lesson_in(storage::load)
}

/// The lesson open in saved work that `get` reads by name.
pub fn lesson_in(get: impl Fn(&str) -> Option<String>) -> Option<LessonAt> {
    let name = get(LESSON_KEY)?;
    let stop = get(LESSON_STOP_KEY)
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(1);
    LessonAt::named(&name, stop.saturating_sub(1))
}

/// Whether `name` holds part of the work (not the last valid texts, nor the address bar's).
pub fn is_work(name: &str) -> bool {
    [EXAMPLE_KEY, SEED_KEY, LESSON_KEY, LESSON_STOP_KEY].contains(&name)
        || EditorFile::ALL.iter().any(|f| text_key(*f) == name)
}

/// Whether `name` holds what makes the work differ from its example (a text, the seed).
pub fn is_own(name: &str) -> bool {
    name == SEED_KEY || EditorFile::ALL.iter().any(|f| text_key(*f) == name)
}

/// Whether `fragment` is one this tab wrote into the address bar itself (so the saved work is
/// at least as new as it). The linked key holds one fingerprint, or two (space-separated) when
/// the page was left with an address-bar update pending: the address as it was and as it was
/// about to be, since a reload may start from either.
pub fn is_own_fragment(fragment: &str) -> bool {
    let fingerprint = link::fingerprint(fragment);
    storage::load(LINKED_KEY).is_some_and(|f| f.split(' ').any(|f| f == fingerprint))
}

/// Records `fragments` (one, or the old and the new address) as written by this tab.
pub fn save_linked(fragments: &[&str]) {
    let prints: Vec<String> = fragments.iter().map(|f| link::fingerprint(f)).collect();
    storage::save(LINKED_KEY, &prints.join(" "));
}

/// The work saved in this tab.
pub struct Saved {
    /// Its inputs, as a link shares them.
    pub shared: Shared,
}

impl Saved {
    /// The tab's work; the name of its example when that example's texts are not at hand
    /// (its fetch failed: [`super::start::preload_examples`]).
    pub fn load() -> Result<Saved, &'static str> {
        Saved::read(storage::load)
    }

    /// The work `get` reads by name (this tab's, or a closed tab's: [`super::recent`]).
    pub fn read(get: impl Fn(&str) -> Option<String>) -> Result<Saved, &'static str> {
        let example = example_named(&get(EXAMPLE_KEY).unwrap_or_default());
        let example = example.texts().ok_or(example.name)?;
        Ok(Saved {
            shared: Shared {
                example: example.name().to_string(),
                texts: EditorFile::ALL
                    .map(|f| get(&text_key(f)).unwrap_or_else(|| example.text(f).into())),
                seed: get(SEED_KEY).and_then(|s| s.parse().ok()).unwrap_or(SEED),
            },
        })
    }

    /// Whether the texts differ from their example's.
    pub fn is_edited(&self) -> bool {
        let example = Loaded::named_or_first(&self.shared.example);
        EditorFile::ALL
            .iter()
            .any(|f| self.shared.texts[f.index()] != example.text(*f))
    }

    /// What a message says the page shows when a link fails.
    pub fn showing(&self) -> String {
        if self.is_edited() {
            "the edited work in this tab".to_string()
        } else {
            format!("the {} example", self.shared.example)
        }
    }
}

/// Reads the tab's saved texts that are kept in IndexedDB ([`crate::stash`]), so that the page
/// finds them when it starts; called before the page is mounted (an embed has none).
pub async fn preload_saved_work() {
    if crate::embed::PageMode::of_page().embed {
        return;
    }
    let keys = storage::stashed_keys();
    if keys.is_empty() {
        return;
    }
    let problem = match crate::stash::preload(keys.clone()).await {
        Err(why) => Some(why),
        Ok(()) => keys
            .iter()
            .any(|k| crate::stash::get(k).is_none())
            .then(|| "part of it is no longer in the browser's storage".to_string()),
    };
    if let Some(why) = problem {
        storage::failed_to_read(format!(
            "Your saved work could not be read back in full ({why}): the editors without it show their example."
        ));
    }
}
