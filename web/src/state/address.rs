//! The address bar follows the page: its fragment is a link to the scenario on screen, at the
//! cycle and phase on screen ([`crate::link`]), kept up to date with `history.replaceState`
//! (no new history entries) a moment after each change; while a lesson is open and unedited it
//! holds `#lesson=NAME&stop=K`. A link typed or pasted into it (or reached with Back) opens;
//! one that arrives over other edited work waits for the user's choice
//! ([`AddressBar::conflict`]). Copy link and the embed's link out come from here too.

use super::editors::Editors;
use super::fetch::ExampleFetch;
use super::lesson::OpenLesson;
use super::loads::Loads;
use super::location;
use super::opening::{LinkMessage, Opening};
use super::position::RunPosition;
use super::saved;
use crate::gallery::example_named;
use crate::history::Change;
use crate::lesson::LessonAt;
use crate::link::{self, LinkError, Opened, Shared, View};
use crate::questions::Other;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use std::sync::Arc;

/// The pause after the last change before the address bar is brought up to date.
const ADDRESS_SYNC_MS: u32 = 300;

/// What Copy link found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkUrl {
    /// The address of the page with the scenario in its fragment.
    Url(String),
    /// The link would be longer than a link may be ([`link::MAX_LINK`]): its length.
    TooBig(usize),
}

/// What the last Copy link did (said under the header until closed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkCopy {
    /// The link is on the clipboard; its length.
    Copied(usize),
    /// The page may not use the clipboard: the link, shown to copy by hand.
    Manual(String),
    /// Too long for a link (its length).
    TooBig(usize),
}

/// The address bar, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct AddressBar {
    /// A link opened while this tab held other edited work: the page asks which to keep, and
    /// shows the work until then.
    pub conflict: RwSignal<Option<Arc<Opened>>>,
    /// What the last Copy link did.
    pub copy: RwSignal<Option<LinkCopy>>,
    /// Configuration B of the questions panel's comparison, once chosen (or named by the
    /// link's `compare` parameter): the link carries it beside the scenario.
    pub compare: RwSignal<Option<Other>>,
    /// The scenario part of the link to the page (computed when read).
    scenario_link: Memo<String>,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
    /// The tab's saved work could not be restored (its example could not be fetched): nothing
    /// is saved, and the address bar keeps the link to that work, so a reload tries again.
    restore_failed: bool,
    editors: StoredValue<Editors>,
    fetch: StoredValue<ExampleFetch>,
    lesson: StoredValue<OpenLesson>,
    loads: StoredValue<Loads>,
    opening: StoredValue<Opening>,
    position: StoredValue<RunPosition>,
}

/// The parts of the page the address bar reads and opens links in.
#[derive(Clone, Copy)]
pub struct Parts {
    /// The editors.
    pub editors: Editors,
    /// Examples being fetched.
    pub fetch: ExampleFetch,
    /// The open lesson.
    pub lesson: OpenLesson,
    /// The run's loads.
    pub loads: Loads,
    /// Where the run opens.
    pub opening: Opening,
    /// Where the run stands.
    pub position: RunPosition,
}

// The contexts AddressBar reaches, each kept by its handle (a context holds no other by value,
// so every one stays small to copy).
impl AddressBar {
    fn editors(&self) -> Editors {
        self.editors.get_value()
    }

    fn fetch(&self) -> ExampleFetch {
        self.fetch.get_value()
    }

    fn lesson(&self) -> OpenLesson {
        self.lesson.get_value()
    }

    fn loads(&self) -> Loads {
        self.loads.get_value()
    }

    fn opening(&self) -> Opening {
        self.opening.get_value()
    }

    fn position(&self) -> RunPosition {
        self.position.get_value()
    }
}

impl AddressBar {
    /// The address bar of a page that starts with `conflict` waiting for an answer, and
    /// `restore_failed` when its saved work could not be restored.
    pub fn new(parts: Parts, conflict: Option<Arc<Opened>>, restore_failed: bool) -> AddressBar {
        let work = parts.editors.work;
        AddressBar {
            conflict: RwSignal::new(conflict),
            copy: RwSignal::new(None),
            compare: RwSignal::new(
                link::decode_compare(&location::fragment()).map(|b| Other::from_link_value(&b)),
            ),
            scenario_link: Memo::new(move |_| link::encode_scenario(&work.shared())),
            timer: StoredValue::new_local(None),
            restore_failed,
            editors: StoredValue::new(parts.editors),
            fetch: StoredValue::new(parts.fetch),
            lesson: StoredValue::new(parts.lesson),
            loads: StoredValue::new(parts.loads),
            opening: StoredValue::new(parts.opening),
            position: StoredValue::new(parts.position),
        }
    }

    /// Keeps the address bar on the scenario and the position on screen (a moment after the
    /// last change), and follows links typed into it. Called once, when the page starts.
    pub fn watch(&self) {
        let this = *self;
        Effect::new(move |_| {
            this.track_link();
            this.conflict.track();
            this.fetch().fetching.track();
            this.schedule_sync();
        });
        // The listeners live as long as the page.
        let handle = window_event_listener_untyped("hashchange", move |_| this.follow_address());
        std::mem::forget(handle);
        let handle = window_event_listener_untyped("pagehide", move |_| this.leave_page());
        std::mem::forget(handle);
    }

    /// Subscribes the caller to everything a link to the page says: the texts, the seed, the
    /// example, the position, the inspected cycle and phase, and the lesson.
    pub fn track_link(&self) {
        self.editors().work.track();
        self.position().frame.track();
        self.position().target.track();
        self.position().phase.track();
        self.lesson().at.track();
    }

    /// Sets configuration B of the comparison (the link carries it from now on).
    pub fn set_compare(&self, b: Other) {
        self.compare.set(Some(b));
        self.schedule_sync();
    }

    /// The user chose the link over the tab's work.
    pub fn open_link(&self) {
        if let Some(opened) = self.conflict.get_untracked() {
            self.conflict.set(None);
            self.open_shared(&opened);
        }
    }

    /// The user chose to keep the tab's work: the address bar links to it again.
    pub fn keep_work(&self) {
        self.conflict.set(None);
        self.sync();
    }

    /// Copy link: the address of the page with the scenario and the view in its fragment (the
    /// address bar is brought up to date at once).
    pub fn link_url(&self) -> LinkUrl {
        self.cancel_sync();
        match self.fragment() {
            Ok(fragment) => {
                if self.may_sync() {
                    location::set_fragment(&fragment);
                    saved::save_linked(&[&fragment]);
                }
                LinkUrl::Url(format!("{}#{fragment}", location::base()))
            }
            Err(len) => LinkUrl::TooBig(len),
        }
    }

    /// The full playground's address (an embed's own without `?embed`), at what is on screen
    /// here; without a fragment when the scenario is too big for a link.
    pub fn full_page_link(&self) -> String {
        let href = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let page = crate::embed::full_page_address(&href);
        match self.fragment() {
            Ok(fragment) if !fragment.is_empty() => format!("{page}#{fragment}"),
            _ => page,
        }
    }

    /// The fragment that links to what is on screen, or the length of the whole link when
    /// that is longer than a link may be ([`link::MAX_LINK`]); `usize::MAX` when the texts
    /// alone are more than a link may unpack to ([`link::MAX_SCENARIO`]).
    fn fragment(&self) -> Result<String, usize> {
        let lesson = self
            .lesson()
            .at
            .get_untracked()
            .filter(|_| !self.lesson().edited.get_untracked());
        let fragment = match lesson {
            // A lesson as it is: its name and stop, and where the run stands when that is not
            // the stop (at the end of the run: its last step, so the link says so).
            Some(at) => {
                let view = (!self.lesson().at_stop.get_untracked()).then(|| {
                    let mut view = self.position().current_view();
                    if view == View::default() {
                        view.step = self
                            .position()
                            .frame
                            .with_untracked(|f| f.as_ref().map(|f| f.end));
                    }
                    view
                });
                link::encode_lesson(at, view.as_ref())
            }
            // Texts past what a link may unpack to are not even packed (a big paste would
            // cost a second of zlib per change for a link nobody can open).
            None if self.editors().work.total_len() > link::MAX_SCENARIO => {
                return Err(usize::MAX);
            }
            None => {
                let mut fragment = self.scenario_link.get_untracked();
                fragment.push_str(&link::view_params(&self.position().current_view()));
                if let Some(b) = self.compare.get_untracked() {
                    fragment.push_str(&link::compare_param(&b.link_value()));
                }
                fragment
            }
        };
        let len = location::base().len() + 1 + fragment.len();
        if len <= link::MAX_LINK {
            Ok(fragment)
        } else {
            Err(len)
        }
    }

    /// Whether the address bar may be rewritten now: not while a link waits for the user's
    /// answer (a reload must ask again), nor while a run loads (its view is not on screen), nor
    /// while an example is fetched (a link typed in waits for it there), nor after the saved
    /// work could not be restored (a reload must find its link).
    fn may_sync(&self) -> bool {
        self.link_applied() && self.loads().loading.get_untracked().is_none()
    }

    /// Whether the link in the address bar is applied: the work was restored, and no link
    /// waits for its example, for the user's choice or for its view.
    fn link_applied(&self) -> bool {
        !self.restore_failed
            && self.fetch().fetching.with_untracked(Option::is_none)
            && self.conflict.with_untracked(|c| c.is_none())
            && !self.opening().is_pending()
    }

    /// Writes the link to what is on screen into the address bar (no history entry). A
    /// scenario too big for a link leaves the address without a fragment.
    fn sync(&self) {
        if !self.may_sync() {
            return;
        }
        let fragment = self.fragment().unwrap_or_default();
        location::set_fragment(&fragment);
        saved::save_linked(&[&fragment]);
    }

    /// Cancels the pending address-bar update; whether there was one.
    fn cancel_sync(&self) -> bool {
        let timer = self.timer.try_update_value(Option::take).flatten();
        timer.is_some()
    }

    fn schedule_sync(&self) {
        let this = *self;
        let timer = Timeout::new(ADDRESS_SYNC_MS, move || {
            this.cancel_sync();
            this.sync();
        });
        // Dropping the timer before cancels it.
        let before = self.timer.try_update_value(|t| t.replace(timer)).flatten();
        drop(before);
    }

    /// A fragment typed or pasted into the address bar (or reached with Back): open it as a
    /// link, asking first when the tab holds other edited work.
    fn follow_address(&self) {
        self.follow_fragment(location::fragment(), true);
    }

    /// [`AddressBar::follow_address`] for `fragment`; `may_fetch`: a link whose example is
    /// not at hand fetches it, then is followed again (if the address bar still holds it).
    fn follow_fragment(&self, fragment: String, may_fetch: bool) {
        if saved::is_own_fragment(&fragment) {
            return;
        }
        let decoded = link::decode(&fragment);
        if let (true, Err(LinkError::Unavailable { example, .. })) = (may_fetch, &decoded) {
            self.conflict.set(None);
            let this = *self;
            self.fetch()
                .fetch_for_link(example_named(example), move || {
                    if location::fragment() == fragment {
                        this.follow_fragment(fragment, false);
                    }
                });
            return;
        }
        if !matches!(decoded, Ok(None)) {
            // A new link supersedes one still waiting for an answer.
            self.conflict.set(None);
        }
        match decoded {
            // An in-page anchor: put the link back once it has scrolled.
            Ok(None) => self.schedule_sync(),
            Err(e) => self
                .opening()
                .link_message
                .set(Some(LinkMessage::could_not_open(
                    &e,
                    &self.editors().work.showing(),
                ))),
            Ok(Some(opened)) => {
                if opened.shared == self.editors().work.shared_untracked() {
                    self.opening().link_message.set(LinkMessage::of_problems(
                        opened.warnings.iter().map(|w| w.to_string()).collect(),
                    ));
                    self.lesson().list.set(false);
                    self.lesson().set(opened.lesson);
                    self.opening().mark_stop(opened.lesson.is_some());
                    self.loads().show_view(opened.view);
                } else if self.editors().work.is_edited_untracked() {
                    self.conflict.set(Some(Arc::new(opened)));
                } else {
                    self.open_shared(&opened);
                }
            }
        }
    }

    /// Replaces the tab's work with a link's scenario (saved as the tab's work), then runs it
    /// and opens it where the link says.
    fn open_shared(&self, opened: &Opened) {
        self.replace_work(&opened.shared, opened.lesson, Some(opened.view));
        self.opening().link_message.set(LinkMessage::of_problems(
            opened.warnings.iter().map(|w| w.to_string()).collect(),
        ));
        self.loads().rerun(true);
    }

    /// Replaces the tab's work with a closed tab's ([`super::recent`]), with its lesson open,
    /// then runs it: at the lesson's stop when the work is the lesson's, else at its end.
    pub fn open_work(&self, shared: &Shared, lesson: Option<LessonAt>) {
        let view = lesson
            .filter(|at| Shared::of_lesson(*at).as_ref() == Some(shared))
            .map(|at| link::stop_view(at.stop()));
        self.replace_work(shared, lesson, view);
        self.opening().link_message.set(None);
        self.loads().rerun(true);
    }

    /// The work becomes `shared` (saved as the tab's, kept for Undo), with `lesson` open; its
    /// run, once loaded, opens at `view`. The caller reruns.
    fn replace_work(&self, shared: &Shared, lesson: Option<LessonAt>, view: Option<View>) {
        self.editors().remember(Change::Other);
        self.fetch().supersede();
        self.loads().cancel_pending();
        self.position().pause();
        self.editors().take_shared(shared);
        self.lesson().list.set(false);
        self.lesson().set(lesson);
        self.opening().mark_stop(lesson.is_some() && view.is_some());
        self.opening().wait_for_run(view);
    }

    /// The page is being left (a reload, a link, a closed tab) with the address bar's update
    /// still pending: the address is brought up to date now, and both the old and the new
    /// address count as this tab's own, so a reload that started from the old one reopens
    /// the saved work (which is newer) rather than the older link.
    fn leave_page(&self) {
        if !self.cancel_sync() {
            return;
        }
        if !self.may_sync() {
            // Only a load still running holds the update back (an edit just made): the
            // address's link was applied and the saved work is newer, so a reload reopens the
            // work rather than asking about the link.
            if self.link_applied() {
                saved::save_linked(&[&location::fragment()]);
            }
            return;
        }
        let old = location::fragment();
        self.sync();
        let new = location::fragment();
        saved::save_linked(&[&old, &new]);
    }
}
