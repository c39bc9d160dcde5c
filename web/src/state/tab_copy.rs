//! The tab's copy of its work for after it closes, and the closed tabs' copies (which
//! [`super::recent`] offers to a new tab).
//!
//! Each tab has an id, kept in its `sessionStorage` (a reload keeps it). Once the user changes
//! the tab's work, every save also writes a copy of it to `localStorage` under
//! `schedlab.v2.recent.<id>`, in the microtask after the save (a tab closed at once still
//! leaves it); a tab writes only its own entry, so two open tabs never overwrite each other.
//! A tab holds the Web Lock `schedlab.tab.<id>` while it is open: an entry whose lock nobody
//! holds is a closed tab's (a browser without Web Locks marks its entry closed on `pagehide`).
//! A duplicated tab, whose copied id another open tab holds, takes a new one.
//!
//! The newest [`KEEP`] closed tabs' copies are kept. Texts kept in IndexedDB
//! ([`crate::stash`]) are referred to by key; a copy that `localStorage` refuses is said as a
//! refused save is ([`super::SavedWork`]).

use super::saved::{self, EXAMPLE_KEY};
use super::storage::{self, STASHED};
use crate::gallery::example_named;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

/// How many closed tabs' work is kept (the older ones are deleted).
pub const KEEP: usize = 5;
/// Where a tab's entry is kept in `localStorage`: this plus its id.
const ENTRY: &str = "schedlab.v2.recent.";
/// Without Web Locks: a tab's entry is closed while this plus its id is set.
const CLOSED: &str = "schedlab.v2.recent-closed.";
/// Where a tab keeps its id in `sessionStorage`: this plus its slot.
const ID: &str = "schedlab.v2.recent-id.";
/// The Web Lock an open tab holds: this plus its id.
const LOCK: &str = "schedlab.tab.";
/// An entry longer than this is not kept (`localStorage` holds about 5 MB for the site).
const MAX_ENTRY: usize = 2 * 1024 * 1024;
/// Without Web Locks, an entry never marked closed (a crashed tab) is deleted after this long.
const STALE_MS: f64 = 30.0 * 24.0 * 3600.0 * 1000.0;
/// The name a refused entry's problem is kept under ([`storage::failed`]).
const PROBLEM: &str = "recent";

thread_local! {
    /// This tab's id, once it holds it.
    static TAB: RefCell<Option<String>> = const { RefCell::new(None) };
    /// A write waits for the id.
    static PENDING: Cell<bool> = const { Cell::new(false) };
    /// A write is queued.
    static QUEUED: Cell<bool> = const { Cell::new(false) };
    /// The user changed the work in this tab (or the tab had an entry when it started).
    static TOUCHED: Cell<bool> = const { Cell::new(false) };
    /// When the work was last changed.
    static EDITED_AT: Cell<Option<f64>> = const { Cell::new(None) };
}

#[wasm_bindgen(inline_js = r#"
export function recent_has_locks() {
  return !!(globalThis.navigator && navigator.locks && navigator.locks.request);
}
export function recent_hold(name, wait_ms) {
  return new Promise((resolve) => {
    let options = { ifAvailable: true };
    if (wait_ms > 0 && typeof AbortSignal.timeout === 'function') {
      options = { signal: AbortSignal.timeout(wait_ms) };
    }
    navigator.locks
      .request(name, options, (lock) => {
        resolve(!!lock);
        // Held until the page goes.
        return lock ? new Promise(() => {}) : undefined;
      })
      .catch(() => resolve(false));
  });
}
export async function recent_held() {
  const state = await navigator.locks.query();
  return (state.held ?? []).map((l) => l.name);
}
export function recent_mark_on_hide(key) {
  addEventListener('pagehide', () => {
    try { localStorage.setItem(key, String(Date.now())); } catch {}
  });
  addEventListener('pageshow', () => {
    try { localStorage.removeItem(key); } catch {}
  });
}
"#)]
extern "C" {
    fn recent_has_locks() -> bool;
    async fn recent_hold(name: &str, wait_ms: f64) -> JsValue;
    #[wasm_bindgen(catch)]
    async fn recent_held() -> Result<JsValue, JsValue>;
    fn recent_mark_on_hide(key: &str);
}

/// A tab's entry: when its work was last changed, and the work's saved texts by name
/// ([`storage::entries`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// When its work was last changed (ms since the epoch).
    pub time: f64,
    saved: BTreeMap<String, String>,
}

impl Entry {
    /// A text of the work by name (one kept in IndexedDB once [`crate::stash::preload`]ed).
    pub fn get(&self, name: &str) -> Option<String> {
        match self.saved.get(&format!("{name}{STASHED}")) {
            Some(key) => crate::stash::get(key),
            None => self.saved.get(name).cloned(),
        }
    }

    /// The IndexedDB keys of its texts kept there.
    pub fn stashed(&self) -> Vec<String> {
        self.saved
            .iter()
            .filter(|(name, _)| name.ends_with(STASHED))
            .map(|(_, key)| key.clone())
            .collect()
    }

    /// What the offer calls it: its example, or its lesson.
    pub fn label(&self) -> String {
        let example = self.saved.get(EXAMPLE_KEY).map_or("", String::as_str);
        let lesson = saved::lesson_in(|n| self.saved.get(n).cloned());
        label(
            example_named(example).name,
            lesson.map(|at| at.lesson().title.as_str()),
        )
    }
}

/// What the offer calls a closed tab's work.
pub fn label(example: &str, lesson: Option<&str>) -> String {
    match lesson {
        Some(title) => format!("Lesson “{title}”, edited"),
        None => format!("{example}, edited"),
    }
}

/// How long ago `then` was, at `now` (both in ms).
pub fn ago(now: f64, then: f64) -> String {
    let minutes = ((now - then) / 60_000.0).floor().max(0.0) as u64;
    match minutes {
        0 => "just now".into(),
        1..=59 => format!("{minutes} min ago"),
        60..=1439 => format!("{} h ago", minutes / 60),
        1440..=2879 => "yesterday".into(),
        _ => format!("{} days ago", minutes / 1440),
    }
}

/// A closed tab's work, as the offer lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    /// The tab's id.
    pub id: String,
    /// Its example or lesson.
    pub label: String,
    /// When it was last changed (ms since the epoch).
    pub time: f64,
}

/// The user changed the work (called before it is saved): from now on the tab keeps a copy.
pub fn touched() {
    adopt(js_sys::Date::now());
}

/// The work, changed at `time`, is the tab's to keep (a closed tab's, restored here).
pub fn adopt(time: f64) {
    TOUCHED.with(|t| t.set(true));
    EDITED_AT.with(|t| t.set(Some(time)));
}

/// A save changed the tab's work: its entry is rewritten in the next microtask (once for
/// several saves at once). Called by [`storage`] ([`storage::on_save`]).
pub fn changed() {
    if QUEUED.with(|q| q.replace(true)) {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        QUEUED.with(|q| q.set(false));
        write();
    });
}

/// Writes the tab's entry (or deletes it, when the work is its example's).
fn write() {
    if !TOUCHED.with(Cell::get) {
        return;
    }
    let Some(local) = storage::local_storage() else {
        return;
    };
    let Some(id) = TAB.with(|t| t.borrow().clone()) else {
        PENDING.with(|p| p.set(true));
        return;
    };
    let own = format!("{ENTRY}{id}");
    let saved: BTreeMap<String, String> = storage::entries(saved::is_work).into_iter().collect();
    let has_own = saved
        .keys()
        .any(|n| saved::is_own(n.strip_suffix(STASHED).unwrap_or(n)));
    if !has_own {
        let _ = local.remove_item(&own);
        storage::saved(PROBLEM);
        return;
    }
    let time = EDITED_AT.with(Cell::get).unwrap_or_else(js_sys::Date::now);
    let Ok(text) = serde_json::to_string(&Entry { time, saved }) else {
        return;
    };
    match put(&local, &id, &text) {
        Ok(()) => storage::saved(PROBLEM),
        Err(why) => storage::failed(
            PROBLEM,
            format!(
                "Your latest changes could not be saved for after this tab closes ({why}). Use Export to keep a copy before you close it."
            ),
        ),
    }
}

/// Stores the entry of tab `id`; when `localStorage` is full, the other tabs' entries make
/// room, oldest first.
fn put(local: &web_sys::Storage, id: &str, text: &str) -> Result<(), String> {
    if text.len() > MAX_ENTRY {
        return Err(format!(
            "the work is {} MB, more than the {} MB kept for closed tabs",
            text.len() / (1024 * 1024),
            MAX_ENTRY / (1024 * 1024)
        ));
    }
    let own = format!("{ENTRY}{id}");
    let mut error = match local.set_item(&own, text) {
        Ok(()) => return Ok(()),
        Err(e) => e,
    };
    let mut others: Vec<(String, Entry)> = entries(local)
        .into_iter()
        .filter(|(other, _)| other != id)
        .collect();
    others.sort_by(|a, b| a.1.time.total_cmp(&b.1.time));
    for (other, _) in others {
        forget(local, &other);
        match local.set_item(&own, text) {
            Ok(()) => return Ok(()),
            Err(e) => error = e,
        }
    }
    Err(crate::stash::describe(&error))
}

/// Every tab's entry, by id (unreadable ones are left out).
fn entries(local: &web_sys::Storage) -> Vec<(String, Entry)> {
    let n = local.length().unwrap_or(0);
    let ids: Vec<String> = (0..n)
        .filter_map(|i| local.key(i).ok().flatten())
        .filter_map(|k| k.strip_prefix(ENTRY).map(String::from))
        .collect();
    ids.into_iter()
        .filter_map(|id| {
            let text = local.get_item(&format!("{ENTRY}{id}")).ok().flatten()?;
            Some((id, serde_json::from_str(&text).ok()?))
        })
        .collect()
}

/// Tab `id`'s entry.
pub fn entry(id: &str) -> Option<Entry> {
    let text = storage::local_storage()?
        .get_item(&format!("{ENTRY}{id}"))
        .ok()
        .flatten()?;
    serde_json::from_str(&text).ok()
}

/// Deletes tab `id`'s entry (its work is another tab's now).
pub fn forget_entry(id: &str) {
    if let Some(local) = storage::local_storage() {
        forget(&local, id);
    }
}

/// Deletes tab `id`'s entry.
fn forget(local: &web_sys::Storage, id: &str) {
    let _ = local.remove_item(&format!("{ENTRY}{id}"));
    let _ = local.remove_item(&format!("{CLOSED}{id}"));
}

/// A new tab id.
fn new_id() -> String {
    let random = (js_sys::Math::random() * f64::from(u32::MAX)) as u32;
    format!("{:x}-{random:08x}", js_sys::Date::now() as u64)
}

/// Takes the tab's id (its own, unless another open tab holds it) and holds it while the
/// page is open.
async fn claim() -> Option<String> {
    let session = storage::session_storage()?;
    let local = storage::local_storage()?;
    let key = format!("{ID}{}", storage::slot());
    let mut id = session.get_item(&key).ok().flatten().unwrap_or_else(new_id);
    if recent_has_locks() {
        let lock = |id: &str| format!("{LOCK}{id}");
        // A reload's page before this one may still be letting it go.
        let held = recent_hold(&lock(&id), 0.0).await.is_truthy()
            || recent_hold(&lock(&id), 500.0).await.is_truthy();
        if !held {
            // Another open tab holds it: this one is its duplicate.
            id = new_id();
            let _ = recent_hold(&lock(&id), 0.0).await;
        }
    } else {
        let _ = local.remove_item(&format!("{CLOSED}{id}"));
        recent_mark_on_hide(&format!("{CLOSED}{id}"));
    }
    let _ = session.set_item(&key, &id);
    Some(id)
}

/// Takes the tab's id and holds it while the page is open (then writes the entry a save
/// before asked for), and deletes the closed tabs' entries past the newest [`KEEP`]. With
/// `list` (a new tab), the closed tabs' work, newest first, while the tab's work is unchanged.
pub async fn start(list: bool) -> Vec<Offer> {
    if storage::local_storage().is_none() {
        return Vec::new();
    }
    let Some(id) = claim().await else {
        return Vec::new();
    };
    if let Some(own) = entry(&id) {
        // A reload: the tab goes on keeping its work, changed when it was.
        TOUCHED.with(|t| t.set(true));
        EDITED_AT.with(|t| {
            if t.get().is_none() {
                t.set(Some(own.time));
            }
        });
    }
    TAB.with(|t| *t.borrow_mut() = Some(id.clone()));
    if PENDING.with(|p| p.replace(false)) {
        write();
    }
    let closed = closed_entries(&id).await;
    if !list || TOUCHED.with(Cell::get) {
        return Vec::new();
    }
    closed
        .into_iter()
        .map(|(id, entry)| Offer {
            label: entry.label(),
            time: entry.time,
            id,
        })
        .collect()
}

/// The closed tabs' entries, newest first; the older ones past [`KEEP`] are deleted.
async fn closed_entries(own: &str) -> Vec<(String, Entry)> {
    let Some(local) = storage::local_storage() else {
        return Vec::new();
    };
    let held: Option<Vec<String>> = if recent_has_locks() {
        match recent_held().await {
            Ok(names) => Some(
                js_sys::Array::from(&names)
                    .iter()
                    .filter_map(|n| n.as_string())
                    .collect(),
            ),
            // Which tabs are open is unknown: none is offered.
            Err(_) => return Vec::new(),
        }
    } else {
        None
    };
    let now = js_sys::Date::now();
    let mut closed = Vec::new();
    for (id, entry) in entries(&local) {
        if id == own {
            continue;
        }
        let is_closed = match &held {
            Some(held) => !held.contains(&format!("{LOCK}{id}")),
            None => local
                .get_item(&format!("{CLOSED}{id}"))
                .ok()
                .flatten()
                .is_some(),
        };
        if is_closed {
            closed.push((id, entry));
        } else if held.is_none() && now - entry.time > STALE_MS {
            forget(&local, &id);
        }
    }
    closed.sort_by(|a, b| b.1.time.total_cmp(&a.1.time));
    for (id, _) in closed.iter().skip(KEEP) {
        forget(&local, id);
    }
    closed.truncate(KEEP);
    closed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_how_long_ago() {
        let min = 60_000.0;
        assert_eq!(ago(10.0 * min, 10.0 * min), "just now");
        assert_eq!(ago(0.0, 5.0), "just now");
        assert_eq!(ago(10.0 * min, 7.0 * min), "3 min ago");
        assert_eq!(ago(200.0 * min, 0.0), "3 h ago");
        assert_eq!(ago(1500.0 * min, 0.0), "yesterday");
        assert_eq!(ago(5000.0 * min, 0.0), "3 days ago");
    }

    #[test]
    fn labels_name_the_lesson_or_the_example() {
        assert_eq!(label("classic", None), "classic, edited");
        assert_eq!(
            label("classic", Some("Filters")),
            "Lesson “Filters”, edited"
        );
    }

    #[test]
    fn entries_read_texts_by_name() {
        let mut entry = Entry::default();
        entry.saved.insert("editor.nodes".into(), "x".into());
        entry
            .saved
            .insert(format!("editor.pods{STASHED}"), "1-abc".into());
        assert_eq!(entry.get("editor.nodes").as_deref(), Some("x"));
        assert_eq!(entry.stashed(), vec!["1-abc".to_string()]);
        // Not preloaded: not at hand.
        assert_eq!(entry.get("editor.pods"), None);
    }
}
