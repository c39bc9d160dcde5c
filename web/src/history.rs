//! Undo and redo of the editors' work: every edit, import, gallery pick, lesson, link opened
//! and scheduler switch (Ctrl+Z, Ctrl+Shift+Z).
//!
//! [`History`] keeps the states the user can go back to. A change records the state it
//! replaces ([`History::record`]); typing in one editor is one change until a pause of
//! [`BURST_MS`] or another editor. It is bounded by [`MAX_STATES`] and by [`MAX_BYTES`] of
//! text (the oldest states go first); texts are shared (`Arc<str>`), so a state that changed
//! one editor costs that editor's text only. Pure: the page's clock is passed in.

use crate::base::EDITORS;
use std::sync::Arc;

/// Typing in one editor within this long of the last keystroke extends the same change.
pub const BURST_MS: f64 = 1000.0;
/// States kept to go back to.
pub const MAX_STATES: usize = 200;
/// Text kept to go back to (counted per state, shared texts included).
pub const MAX_BYTES: usize = 64 << 20;

/// What the user changed (a typing burst is extended only by more typing in its editor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Typing in the editor with this index.
    Typing(usize),
    /// Anything else: a form field, an import, a gallery pick, a link, a reset.
    Other,
}

/// One state of the work: the editors' texts and what they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkState {
    /// The gallery example the texts started from.
    pub example: &'static str,
    /// The five editors' texts.
    pub texts: [Arc<str>; EDITORS],
    /// The seed.
    pub seed: u64,
}

impl WorkState {
    fn bytes(&self) -> usize {
        self.texts.iter().map(|t| t.len()).sum()
    }
}

/// The states behind and ahead of the current one.
#[derive(Debug, Default)]
pub struct History {
    past: Vec<WorkState>,
    future: Vec<WorkState>,
    /// The typing burst that the newest past state opened: its editor and last keystroke.
    burst: Option<(usize, f64)>,
}

impl History {
    /// A change is about to replace the current state at time `now_ms`: keep it (made by
    /// `current`, called only when needed) to go back to, unless the change only continues a
    /// typing burst; and forget what was undone.
    pub fn record(&mut self, current: impl FnOnce() -> WorkState, change: Change, now_ms: f64) {
        self.future.clear();
        if let (Change::Typing(editor), Some((last_editor, last_ms))) = (change, self.burst) {
            if editor == last_editor && now_ms - last_ms < BURST_MS {
                self.burst = Some((editor, now_ms));
                return;
            }
        }
        let current = current();
        if self.past.last() != Some(&current) {
            self.past.push(current);
        }
        self.burst = match change {
            Change::Typing(editor) => Some((editor, now_ms)),
            Change::Other => None,
        };
        self.trim();
    }

    /// The state to go back to from `current` (kept for redo), if any.
    pub fn undo(&mut self, current: WorkState) -> Option<WorkState> {
        let previous = self.past.pop()?;
        self.future.push(current);
        self.burst = None;
        Some(previous)
    }

    /// The state undone last (`current` goes back to undo), if any.
    pub fn redo(&mut self, current: WorkState) -> Option<WorkState> {
        let next = self.future.pop()?;
        self.past.push(current);
        self.burst = None;
        self.trim();
        Some(next)
    }

    /// Whether there is a state to go back to.
    pub fn can_undo(&self) -> bool {
        !self.past.is_empty()
    }

    /// Whether there is an undone state to go forward to.
    pub fn can_redo(&self) -> bool {
        !self.future.is_empty()
    }

    /// Drops the oldest states past the bounds (always keeping the newest one).
    fn trim(&mut self) {
        let mut bytes: usize = self.past.iter().map(WorkState::bytes).sum();
        let mut drop = 0;
        while self.past.len() - drop > 1
            && (self.past.len() - drop > MAX_STATES || bytes > MAX_BYTES)
        {
            bytes -= self.past[drop].bytes();
            drop += 1;
        }
        self.past.drain(..drop);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(nodes: &str) -> WorkState {
        WorkState {
            example: "classic",
            texts: [
                nodes.into(),
                "".into(),
                "".into(),
                "".into(),
                "".into(),
                "".into(),
                "".into(),
            ],
            seed: 0,
        }
    }

    #[test]
    fn undo_and_redo_walk_back_and_forth() {
        let mut h = History::default();
        h.record(|| state("a"), Change::Other, 0.0);
        h.record(|| state("b"), Change::Other, 10.0);
        // Now at "c".
        assert_eq!(h.undo(state("c")), Some(state("b")));
        assert_eq!(h.undo(state("b")), Some(state("a")));
        assert_eq!(h.undo(state("a")), None);
        assert_eq!(h.redo(state("a")), Some(state("b")));
        assert_eq!(h.redo(state("b")), Some(state("c")));
        assert_eq!(h.redo(state("c")), None);
    }

    #[test]
    fn a_new_change_forgets_what_was_undone() {
        let mut h = History::default();
        h.record(|| state("a"), Change::Other, 0.0);
        assert_eq!(h.undo(state("b")), Some(state("a")));
        assert!(h.can_redo());
        h.record(|| state("a"), Change::Other, 5.0);
        assert!(!h.can_redo());
        assert_eq!(h.undo(state("x")), Some(state("a")));
    }

    #[test]
    fn typing_in_one_editor_is_one_change_until_a_pause_or_another_editor() {
        let mut h = History::default();
        h.record(|| state(""), Change::Typing(0), 0.0);
        h.record(|| state("h"), Change::Typing(0), 300.0);
        h.record(|| state("he"), Change::Typing(0), 900.0);
        // A pause of a second: a new change.
        h.record(|| state("hel"), Change::Typing(0), 1900.0);
        // Another editor: a new change, at once.
        h.record(|| state("hell"), Change::Typing(1), 1950.0);
        assert_eq!(h.undo(state("hello")), Some(state("hell")));
        assert_eq!(h.undo(state("hell")), Some(state("hel")));
        assert_eq!(h.undo(state("hel")), Some(state("")));
        assert!(!h.can_undo());
    }

    #[test]
    fn an_import_after_typing_is_a_change_of_its_own() {
        let mut h = History::default();
        h.record(|| state(""), Change::Typing(0), 0.0);
        h.record(|| state("x"), Change::Other, 100.0);
        assert_eq!(h.undo(state("imported")), Some(state("x")));
        assert_eq!(h.undo(state("x")), Some(state("")));
    }

    #[test]
    fn the_oldest_states_go_past_the_bounds() {
        let mut h = History::default();
        for i in 0..MAX_STATES + 5 {
            h.record(|| state(&i.to_string()), Change::Other, i as f64);
        }
        let mut undone = 0;
        let mut last = None;
        while let Some(s) = h.undo(state("now")) {
            undone += 1;
            last = Some(s);
        }
        assert_eq!(undone, MAX_STATES);
        // 0 to 4 were dropped: the oldest left is 5.
        assert_eq!(last, Some(state("5")));

        let mut h = History::default();
        let big = "x".repeat(MAX_BYTES / 2 + 1);
        h.record(|| state(&big), Change::Other, 0.0);
        h.record(|| state(&format!("{big}y")), Change::Other, 1.0);
        h.record(|| state("small"), Change::Other, 2.0);
        // Two big texts pass the bound: only the newest big one and "small" stay.
        assert_eq!(h.undo(state("now")), Some(state("small")));
        assert_eq!(h.undo(state("small")), Some(state(&format!("{big}y"))));
        assert_eq!(h.undo(state("x")), None);
    }
}
