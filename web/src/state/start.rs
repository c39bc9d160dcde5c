//! What the page opens with: the tab's saved work, unless the address bar holds a link (then
//! the link's scenario, or, over other edited work, the question which to keep); a first visit
//! (nothing saved in the tab, no link) opens the first lesson's first stop, and offers the work
//! of closed tabs ([`super::recent`]). Before the page mounts, [`preload_examples`] fetches the
//! gallery examples it starts with (the saved work's, its lesson's, a link's), so that
//! everything here stays synchronous.

use super::location;
use super::opening::LinkMessage;
use super::saved::{self, Saved, EXAMPLE_KEY, LESSON_KEY};
use super::storage;
use crate::embed::PageMode;
use crate::gallery::{self, example_named, Example, Loaded};
use crate::lesson::LessonAt;
use crate::link::{self, LinkError, Opened, Shared, View};
use leptos::prelude::*;
use std::sync::Arc;

/// A fragment, and what [`link::decode`] read in it.
type ReadLink = (String, Result<Option<Opened>, LinkError>);

thread_local! {
    /// The address bar's link as [`preload_examples`] read it.
    static PRELOADED: std::cell::RefCell<Option<ReadLink>> = const { std::cell::RefCell::new(None) };
}

/// How the page starts.
pub struct Start {
    /// The work in the editors.
    pub shared: Shared,
    /// Where its first run opens (at its end when `None`).
    pub view: Option<View>,
    /// What to say about the link in the address bar.
    pub message: Option<LinkMessage>,
    /// A link that waits for the user's choice over the tab's edited work.
    pub conflict: Option<Arc<Opened>>,
    /// The open lesson.
    pub lesson: Option<LessonAt>,
    /// The saved work could not be restored (its example could not be fetched).
    pub restore_failed: bool,
    /// The last texts that loaded, should the saved ones have errors.
    pub valid: Option<Vec<String>>,
    /// A new tab (no work of its own, no link): it offers the work of closed tabs.
    pub offer_recent: bool,
}

impl Start {
    /// Reads the tab's saved work and the address bar. Failed saves (and a saved work that
    /// cannot be restored) are said in `save_problem`.
    pub fn read(mode: PageMode, save_problem: RwSignal<Option<String>>) -> Start {
        if mode.embed {
            // An embed shows what its host page asks for and keeps nothing.
            storage::disable();
        }
        storage::report_to(save_problem);
        storage::adopt_legacy();
        let first_visit = storage::is_empty() && !mode.embed;
        let fragment = location::fragment();
        // The fragment this tab wrote itself (a reload): the saved work is newer. (Read
        // before a saved work that cannot be restored turns storage off.)
        let own_fragment = saved::is_own_fragment(&fragment);
        let (saved, restore_failed) = match Saved::load() {
            Ok(saved) => (saved, false),
            Err(example) => (Start::unrestored(example, save_problem), true),
        };
        let mut start = Start {
            shared: saved.shared.clone(),
            view: None,
            message: None,
            conflict: None,
            lesson: saved::saved_lesson(),
            restore_failed,
            valid: None,
            offer_recent: false,
        };
        if own_fragment {
            if !restore_failed {
                start.view = Some(link::decode_view(&fragment));
            }
        } else {
            start.open_link(&fragment, &saved, first_visit);
        }
        start.valid = saved::valid_texts();
        start
    }

    /// The work starts from an example that could not be fetched: it stays saved as it is,
    /// and the address bar as it is (a reload tries again); the first example shows meanwhile.
    fn unrestored(example: &str, save_problem: RwSignal<Option<String>>) -> Saved {
        storage::disable();
        save_problem.set(Some(format!(
            "Your saved work could not be restored: it starts from the {example} example, which could not be loaded ({}). It is still saved in this tab: reload the page to try again. Until then, nothing you do here is saved.",
            gallery::failure(example).unwrap_or_else(|| "it was not fetched".into())
        )));
        Saved {
            shared: Shared::of_example(Loaded::first()),
        }
    }

    /// The link in the address bar (none: on a first visit, the first lesson), over `saved`.
    fn open_link(&mut self, fragment: &str, saved: &Saved, first_visit: bool) {
        match preloaded_link(fragment) {
            Ok(None) => {
                self.offer_recent = first_visit;
                // A first visit opens the first lesson at its first stop.
                let first = LessonAt::new(0, 0).filter(|_| first_visit);
                if let Some((at, shared)) = first.and_then(|at| Some((at, Shared::of_lesson(at)?)))
                {
                    saved::save_shared(&shared, false);
                    self.view = Some(link::stop_view(at.stop()));
                    self.shared = shared;
                    self.lesson = Some(at);
                    crate::scroll_hold::hold_until_the_visitor_acts();
                }
            }
            Err(e) => self.message = Some(LinkMessage::could_not_open(&e, &saved.showing())),
            Ok(Some(opened)) => {
                if saved.is_edited() && opened.shared != saved.shared {
                    self.conflict = Some(Arc::new(opened));
                } else {
                    saved::save_shared(&opened.shared, opened.shared == saved.shared);
                    self.message = LinkMessage::of_problems(
                        opened.warnings.iter().map(|w| w.to_string()).collect(),
                    );
                    self.view = Some(opened.view);
                    self.lesson = opened.lesson;
                    self.shared = opened.shared;
                }
            }
        }
    }
}

/// Fetches the gallery examples the page starts with, so that [`Start::read`] finds their
/// texts at hand: the example of the tab's saved work, its lesson's, and the one a link in the
/// address bar needs; called before the page is mounted. A failed fetch is recorded
/// ([`gallery::failure`]) and said by the page (the saved work stays saved; the link is not
/// opened).
pub async fn preload_examples() {
    let embed = PageMode::of_page().embed;
    let mut wanted: Vec<&'static Example> = Vec::new();
    if !embed {
        // What Start::read does first: work of an earlier version becomes this tab's.
        storage::adopt_legacy();
        if let Some(name) = storage::load(EXAMPLE_KEY) {
            wanted.push(example_named(&name));
        }
        if let Some(src) = storage::load(LESSON_KEY).and_then(|n| crate::lesson::lesson_named(&n)) {
            wanted.push(src.example());
        }
    }
    for example in wanted {
        if example.texts().is_none() {
            let _ = gallery::fetch(example).await;
        }
    }
    let fragment = location::fragment();
    // A fragment this tab wrote itself is not read (the saved work is newer).
    let own = !embed && saved::is_own_fragment(&fragment);
    if own {
        return;
    }
    let mut decoded = link::decode(&fragment);
    if let Err(LinkError::Unavailable { example, .. }) = &decoded {
        let _ = gallery::fetch(example_named(example)).await;
        decoded = link::decode(&fragment);
    }
    PRELOADED.with(|p| *p.borrow_mut() = Some((fragment, decoded)));
}

/// The link in the address bar, read: as [`preload_examples`] read it when that was this
/// fragment, else now.
fn preloaded_link(fragment: &str) -> Result<Option<Opened>, LinkError> {
    match PRELOADED.with(|p| p.borrow_mut().take()) {
        Some((read, decoded)) if read == fragment => decoded,
        _ => link::decode(fragment),
    }
}
