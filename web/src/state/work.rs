//! The work: the four editors' texts, the gallery example they started from, and the seed.
//! Plain signals with what can be read off them (edited or not, the work as a link shares
//! it); the actions that change the work, with Undo and Redo, are [`super::editors`]'.

use crate::base::{EditorFile, EDITORS, SEED};
use crate::gallery::{Example, Loaded};
use crate::history::WorkState;
use crate::link::Shared;
use leptos::prelude::*;
use std::sync::Arc;

/// The work's signals (part of [`super::Editors`], and read by the run's loads, the lesson
/// and the address bar).
#[derive(Clone, Copy)]
pub struct Work {
    texts: [RwSignal<String>; EDITORS],
    /// The example the editors started from: always one whose texts are at hand, so
    /// everything that compares the editors with it stays synchronous.
    example: RwSignal<Loaded>,
    /// The seed of the run ([`SEED`] unless a link named another).
    pub seed: RwSignal<u64>,
}

impl Work {
    /// The work `shared` holds (its example must be at hand, else the first example's).
    pub fn new(shared: &Shared) -> Work {
        Work {
            texts: shared.texts.clone().map(RwSignal::new),
            example: RwSignal::new(Loaded::named_or_first(&shared.example)),
            seed: RwSignal::new(shared.seed),
        }
    }

    /// An editor's text.
    pub fn text(&self, file: EditorFile) -> ReadSignal<String> {
        self.texts[file.index()].read_only()
    }

    /// Every editor's text now, in [`EditorFile::ALL`] order.
    pub fn texts_untracked(&self) -> Vec<String> {
        self.texts.iter().map(|t| t.get_untracked()).collect()
    }

    /// The texts as shared strings (for Undo, and for a bug report).
    pub fn shared_texts(&self) -> [Arc<str>; EDITORS] {
        self.texts
            .map(|t| t.with_untracked(|t| Arc::from(t.as_str())))
    }

    /// Their total length in bytes.
    pub fn total_len(&self) -> usize {
        self.texts
            .iter()
            .map(|t| t.with_untracked(String::len))
            .sum()
    }

    /// Replaces one editor's text.
    pub fn set_text(&self, file: EditorFile, text: String) {
        self.texts[file.index()].set(text);
    }

    /// Replaces the texts that differ from `texts`.
    pub fn set_changed_texts(&self, texts: [String; EDITORS]) {
        for (signal, text) in self.texts.iter().zip(texts) {
            if signal.with_untracked(|t| *t != text) {
                signal.set(text);
            }
        }
    }

    /// The example the editors started from.
    pub fn loaded(&self) -> Loaded {
        self.example.get()
    }

    /// [`Work::loaded`], untracked.
    pub fn loaded_untracked(&self) -> Loaded {
        self.example.get_untracked()
    }

    /// The gallery example the editors started from.
    pub fn example(&self) -> &'static Example {
        self.example.get().example
    }

    /// The editors now start from `example`.
    pub fn set_example(&self, example: Loaded) {
        self.example.set(example);
    }

    /// Whether any editor differs from the example.
    pub fn is_edited(&self) -> bool {
        EditorFile::ALL.iter().any(|f| {
            let example = self.example.get();
            self.texts[f.index()].with(|t| t != example.text(*f))
        })
    }

    /// [`Work::is_edited`], untracked.
    pub fn is_edited_untracked(&self) -> bool {
        let example = self.example.get_untracked();
        EditorFile::ALL
            .iter()
            .any(|f| self.texts[f.index()].with_untracked(|t| t != example.text(*f)))
    }

    /// Whether the open lesson's texts (`want`) and its seed are not what the work holds
    /// (tracked).
    pub fn differs_from(&self, want: [&str; EDITORS]) -> bool {
        self.seed.get() != SEED
            || self
                .texts
                .iter()
                .zip(want)
                .any(|(t, want)| t.with(|t| t != want))
    }

    /// What a message says the page shows when a link fails.
    pub fn showing(&self) -> String {
        if self.is_edited_untracked() {
            "the edited work in this tab".to_string()
        } else {
            format!("the {} example", self.example.get_untracked().name())
        }
    }

    /// The work now, as a link shares it.
    pub fn shared_untracked(&self) -> Shared {
        Shared {
            example: self.example.get_untracked().name().to_string(),
            texts: self.texts.map(|t| t.get_untracked()),
            seed: self.seed.get_untracked(),
        }
    }

    /// [`Work::shared_untracked`], tracked.
    pub fn shared(&self) -> Shared {
        Shared {
            example: self.example.get().name().to_string(),
            texts: self.texts.map(|t| t.get()),
            seed: self.seed.get(),
        }
    }

    /// The work now, as Undo keeps it.
    pub fn state(&self) -> WorkState {
        WorkState {
            example: self.example.get_untracked().name(),
            texts: self.shared_texts(),
            seed: self.seed.get_untracked(),
        }
    }

    /// Subscribes the caller to every text, the seed and the example.
    pub fn track(&self) {
        for t in &self.texts {
            t.track();
        }
        self.seed.track();
        self.example.track();
    }
}
