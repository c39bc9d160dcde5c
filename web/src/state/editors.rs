//! The editors with their history: the work ([`Work`]), the tab on screen, the scheduler the
//! Config text is for, and every change to the work (typing, a form's field, an import, a
//! sweep's run, a scheduler switched, a gallery example), each kept for Undo and Redo
//! ([`History`]) and saved as the tab's. Each change reruns the scenario ([`Loads`]).

use super::loads::Loads;
use super::notice::Notice;
use super::opening::Opening;
use super::position::RunPosition;
use super::saved;
use super::selection::Selected;
use super::work::Work;
use crate::base::{EditorFile, SEED};
use crate::gallery::{default_config, Loaded};
use crate::history::{Change, History, WorkState};
use crate::link::{Shared, View};
use leptos::prelude::*;
use schedlab_core::scenario::SchedulerVersion;

/// The editors, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct Editors {
    /// The texts, their example and the seed.
    pub work: Work,
    /// Counts the times the editors' texts were replaced from elsewhere (an example, a link, an
    /// import, a sweep's run): a big text so replaced is shown in part until asked for
    /// (`components/editor.rs`). Typing, a form's edit, Undo and Redo do not count.
    pub replaced: RwSignal<u64>,
    /// The editor tab on screen.
    pub tab: RwSignal<EditorFile>,
    /// The scheduler the Config editor's text is for (v1.35 for a v1 configuration).
    pub scheduler: Memo<SchedulerVersion>,
    /// Counts the changes to the work (texts, example, seed), undo and redo included.
    pub version: RwSignal<u64>,
    /// Whether Undo (Ctrl+Z) has a state to go back to.
    pub can_undo: RwSignal<bool>,
    /// Whether Redo (Ctrl+Shift+Z) has an undone state to go forward to.
    pub can_redo: RwSignal<bool>,
    /// The states that Undo and Redo go to.
    history: StoredValue<History, LocalStorage>,
    loads: StoredValue<Loads>,
    position: StoredValue<RunPosition>,
    selected: StoredValue<Selected>,
    opening: StoredValue<Opening>,
    notice: StoredValue<Notice>,
}

// The contexts Editors reaches, each kept by its handle (a context holds no other by value,
// so every one stays small to copy).
impl Editors {
    fn loads(&self) -> Loads {
        self.loads.get_value()
    }

    fn position(&self) -> RunPosition {
        self.position.get_value()
    }

    fn selected(&self) -> Selected {
        self.selected.get_value()
    }

    fn opening(&self) -> Opening {
        self.opening.get_value()
    }

    fn notice(&self) -> Notice {
        self.notice.get_value()
    }
}

impl Editors {
    /// The editors of `work`, with no history yet.
    pub fn new(
        work: Work,
        loads: Loads,
        position: RunPosition,
        selected: Selected,
        opening: Opening,
        notice: Notice,
    ) -> Editors {
        let config = work.text(EditorFile::Config);
        Editors {
            work,
            replaced: RwSignal::new(0),
            tab: RwSignal::new(EditorFile::Nodes),
            scheduler: Memo::new(move |_| config.with(|t| crate::forms::config::scheduler_of(t))),
            version: RwSignal::new(0),
            can_undo: RwSignal::new(false),
            can_redo: RwSignal::new(false),
            history: StoredValue::new_local(History::default()),
            loads: StoredValue::new(loads),
            position: StoredValue::new(position),
            selected: StoredValue::new(selected),
            opening: StoredValue::new(opening),
            notice: StoredValue::new(notice),
        }
    }

    /// An editor's text.
    pub fn text(&self, file: EditorFile) -> ReadSignal<String> {
        self.work.text(file)
    }

    /// Every editor's text now, with its file.
    pub fn files_untracked(&self) -> Vec<(EditorFile, String)> {
        EditorFile::ALL
            .iter()
            .map(|&f| (f, self.work.text(f).get_untracked()))
            .collect()
    }

    /// The user typed in an editor: save, reload, rerun.
    pub fn edit(&self, file: EditorFile, text: String) {
        self.remember(Change::Typing(file.index()));
        saved::save_text(file, &text);
        self.work.set_text(file, text);
        self.loads().rerun_after_typing();
    }

    /// A finished edit (a form field): save and rerun at once.
    pub fn commit(&self, file: EditorFile, text: String) {
        self.remember(Change::Other);
        saved::save_text(file, &text);
        self.work.set_text(file, text);
        self.loads().cancel_pending();
        self.loads().rerun(false);
    }

    /// Replaces the texts of some editors (an import), then reruns. The notice that tells of
    /// it offers Undo.
    pub fn import(&self, texts: Vec<(EditorFile, String)>) {
        self.replace_texts(texts);
        self.notice().undo.set(Some(self.version.get_untracked()));
    }

    /// Opens one run of a sweep: its seed, and the editors' texts that configure it. The
    /// notice's Undo puts the work back as it was.
    pub fn open_run(&self, seed: u64, texts: Vec<(EditorFile, String)>) {
        self.remember(Change::Other);
        self.loads().cancel_pending();
        self.work.seed.set(seed);
        self.replaced.update(|n| *n += 1);
        for (file, text) in texts {
            saved::save_text(file, &text);
            self.work.set_text(file, text);
        }
        self.loads().rerun(true);
        self.notice().undo.set(Some(self.version.get_untracked()));
    }

    /// Replaces the texts of some editors at once, then reruns.
    pub fn replace_texts(&self, texts: Vec<(EditorFile, String)>) {
        self.remember(Change::Other);
        self.loads().cancel_pending();
        self.replaced.update(|n| *n += 1);
        for (file, text) in texts {
            saved::save_text(file, &text);
            self.work.set_text(file, text);
        }
        self.loads().rerun(true);
    }

    /// Switches the scheduler: the Config editor gets that scheduler's default configuration
    /// (its old text can be put back with Undo, as after an import), then the scenario reruns.
    pub fn switch_scheduler(&self, to: SchedulerVersion) {
        if self.scheduler.get_untracked() == to {
            return;
        }
        self.import(vec![(EditorFile::Config, default_config(to).to_string())]);
        let what = match to {
            SchedulerVersion::V1_35 => {
                "Switched to kube-scheduler v1.35: the Config editor holds its default v1 configuration, and the Policy is not read."
            }
            SchedulerVersion::V1_17 => {
                "Switched to kube-scheduler v1.17: the Config editor holds its default configuration, and the Policy applies again."
            }
        };
        self.notice().notify(what.into());
    }

    /// Puts a gallery example in every editor and forgets the saved texts, then runs it and
    /// opens it at `view` (at its end when `None`).
    pub fn open_example(&self, example: Loaded, view: Option<View>) {
        self.remember(Change::Other);
        self.loads().cancel_pending();
        self.position().pause();
        // A notice told of the work this replaces.
        self.notice().dismiss();
        saved::save_example(example);
        self.work.set_example(example);
        self.work.seed.set(SEED);
        self.opening().wait_for_run(view);
        self.replaced.update(|n| *n += 1);
        for f in EditorFile::ALL {
            self.work.set_text(f, example.text(f).into());
        }
        self.selected().clear();
        self.position().follow_controls();
        self.loads().forget_run();
        self.loads().rerun(true);
    }

    /// Replaces the work with a link's (its example is at hand: [`crate::link::decode`]),
    /// and forgets the run and the selection; the caller reruns.
    pub fn take_shared(&self, shared: &Shared) {
        saved::save_shared(shared, false);
        self.work
            .set_example(Loaded::named_or_first(&shared.example));
        self.work.seed.set(shared.seed);
        self.replaced.update(|n| *n += 1);
        for f in EditorFile::ALL {
            self.work.set_text(f, shared.texts[f.index()].clone());
        }
        self.selected().clear();
        self.position().follow_controls();
        self.notice().undo.set(None);
        self.loads().forget_run();
    }

    // ---- undo and redo ---------------------------------------------------------------------

    /// A change is about to replace the work: keep it for Undo.
    pub fn remember(&self, change: Change) {
        super::tab_copy::touched();
        let work = self.work;
        let now = super::loads::now_ms();
        self.history
            .update_value(|h| h.record(|| work.state(), change, now));
        self.changed();
    }

    /// The work changed: a new version, and Undo and Redo as the history now allows.
    fn changed(&self) {
        self.version.update(|v| *v += 1);
        let (undo, redo) = self.history.with_value(|h| (h.can_undo(), h.can_redo()));
        self.can_undo.set(undo);
        self.can_redo.set(redo);
    }

    /// The notice's Undo: undoes the change it told of, and only while the work is as that
    /// change left it.
    pub fn undo_import(&self) {
        if self.notice().undo.get_untracked() == Some(self.version.get_untracked()) {
            self.notice().undo.set(None);
            self.undo();
        }
    }

    /// Ctrl+Z: back to the state before the last change.
    pub fn undo(&self) {
        let current = self.work.state();
        let mut to = None;
        self.history.update_value(|h| {
            let mut now = current;
            // A change that changed nothing (Reset of an unedited example) is skipped.
            while let Some(previous) = h.undo(now.clone()) {
                if previous != now {
                    to = Some(previous);
                    break;
                }
                now = previous;
            }
        });
        match to {
            Some(state) => {
                self.restore(state);
                self.notice()
                    .notify("Undone (Ctrl+Shift+Z redoes it).".into());
            }
            None => self.notice().notify("Nothing to undo.".into()),
        }
    }

    /// Ctrl+Shift+Z: forward to the state the last Undo left.
    pub fn redo(&self) {
        let current = self.work.state();
        let mut to = None;
        self.history.update_value(|h| to = h.redo(current));
        match to {
            Some(state) => {
                self.restore(state);
                self.notice().notify("Redone.".into());
            }
            None => self.notice().notify("Nothing to redo.".into()),
        }
    }

    /// Puts a state of the work back in the editors (saved as the tab's), then reruns.
    fn restore(&self, state: WorkState) {
        self.loads().cancel_pending();
        self.position().pause();
        self.notice().undo.set(None);
        let shared = Shared {
            example: state.example.to_string(),
            texts: state.texts.map(|t| t.to_string()),
            seed: state.seed,
        };
        saved::save_shared(&shared, false);
        // An example the work held was at hand then, and fetched texts are kept.
        self.work
            .set_example(Loaded::named_or_first(&shared.example));
        self.work.seed.set(shared.seed);
        self.work.set_changed_texts(shared.texts);
        self.changed();
        self.loads().rerun(true);
    }
}
