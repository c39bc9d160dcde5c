//! Opening the run at a place: a link's view or a lesson's stop, applied at once when the run
//! is loaded, else once it is ([`super::Loads`] applies it then); and what the page says about
//! the link that asked (why it could not be opened, or what in it did not fit the run).

use super::position::RunPosition;
use crate::link::{LinkError, View};
use leptos::prelude::*;

/// A message about a link: why it could not be opened, or what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMessage {
    /// The link could not be opened (else it opened, with problems).
    pub error: bool,
    /// What to tell the user.
    pub text: String,
}

impl LinkMessage {
    /// A link that could not be opened; the page shows `showing` instead.
    pub fn could_not_open(e: &LinkError, showing: &str) -> LinkMessage {
        LinkMessage {
            error: true,
            text: format!("This link could not be opened: {e}. Showing {showing} instead."),
        }
    }

    /// A link that opened with `problems` (none: no message).
    pub fn of_problems(problems: Vec<String>) -> Option<LinkMessage> {
        (!problems.is_empty()).then(|| LinkMessage {
            error: false,
            text: format!("Opened the link, but {}.", problems.join("; ")),
        })
    }
}

/// Where the run opens, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct Opening {
    position: StoredValue<RunPosition>,
    /// Where a link asked to open the run, applied when its run is loaded.
    pending: StoredValue<Option<View>>,
    /// The view being applied is a lesson's stop.
    stop_pending: StoredValue<bool>,
    /// Counts the times a lesson's stop was brought on screen (the panel scrolls to it).
    pub stop_shown: RwSignal<u64>,
    /// Why a link could not be opened, or what was wrong with it.
    pub link_message: RwSignal<Option<LinkMessage>>,
}

// The contexts Opening reaches, each kept by its handle (a context holds no other by value,
// so every one stays small to copy).
impl Opening {
    fn position(&self) -> RunPosition {
        self.position.get_value()
    }
}

impl Opening {
    /// The page opens at `view` once its first run is loaded (a lesson's stop when
    /// `is_stop`), saying `message` about its link.
    pub fn new(
        position: RunPosition,
        view: Option<View>,
        is_stop: bool,
        message: Option<LinkMessage>,
    ) -> Opening {
        Opening {
            position: StoredValue::new(position),
            pending: StoredValue::new(view),
            stop_pending: StoredValue::new(view.is_some() && is_stop),
            stop_shown: RwSignal::new(0),
            link_message: RwSignal::new(message),
        }
    }

    /// The next run loaded opens at `view` (at its end when `None`).
    pub fn wait_for_run(&self, view: Option<View>) {
        self.pending.set_value(view);
    }

    /// Whether the view being opened is a lesson's stop.
    pub fn mark_stop(&self, is_stop: bool) {
        self.stop_pending.set_value(is_stop);
    }

    /// Whether a view waits for its run.
    pub fn is_pending(&self) -> bool {
        self.pending.with_value(Option::is_some)
    }

    /// The run loaded: opens it where the view waiting for it says.
    pub fn apply_pending(&self) {
        if let Some(view) = self.pending.get_value() {
            self.pending.set_value(None);
            self.apply(view);
        }
    }

    /// The run did not load: the view waiting for it is dropped.
    pub fn drop_pending(&self) {
        self.pending.set_value(None);
        self.stop_pending.set_value(false);
    }

    /// Opens the loaded run at `view`. What does not fit this run (a cycle past its end, a
    /// phase the cycle does not have) is said in the link message.
    pub fn apply(&self, view: View) {
        let Some(problems) = self.position().open_view(view) else {
            return;
        };
        if !problems.is_empty() {
            self.link_message.update(|m| match m {
                Some(m) if !m.error => {
                    m.text = format!("{}; {}.", m.text.trim_end_matches('.'), problems.join("; "))
                }
                _ => *m = LinkMessage::of_problems(problems),
            });
        }
        if self.stop_pending.get_value() {
            self.stop_pending.set_value(false);
            self.stop_shown.update(|n| *n += 1);
        }
    }
}
