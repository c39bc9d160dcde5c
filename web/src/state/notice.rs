//! The notice under the header: a short message (what an import did, a scheduler switched),
//! dismissable, which may offer Undo of the change it tells of.

use leptos::prelude::*;

/// The notice, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct Notice {
    /// The message (`None`: no notice).
    pub text: RwSignal<Option<String>>,
    /// The notice offers Undo of the change that made this version of the work (only while
    /// the work is still at that version: [`super::Editors::version`]).
    pub undo: RwSignal<Option<u64>>,
}

impl Default for Notice {
    /// No notice.
    fn default() -> Notice {
        Notice {
            text: RwSignal::new(None),
            undo: RwSignal::new(None),
        }
    }
}

impl Notice {
    /// Shows a short message under the header.
    pub fn notify(&self, message: String) {
        self.text.set(Some(message));
    }

    /// Shows `notes`, if any, with no Undo (a download has nothing to undo: the Undo of an
    /// earlier import is not offered beside them).
    pub fn tell(&self, notes: Vec<String>) {
        if !notes.is_empty() {
            self.undo.set(None);
            self.notify(notes.join(" "));
        }
    }

    /// Closes the notice.
    pub fn dismiss(&self) {
        self.text.set(None);
        self.undo.set(None);
    }
}
