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
use crate::lesson::LessonAt;
use std::cell::{Cell, RefCell};
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
/// An entry longer than this (in UTF-16 units) is not kept (`localStorage` holds about 5 MB
/// for the site).
const MAX_ENTRY: f64 = 2.0 * 1024.0 * 1024.0;
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

// Entries are read, sorted and pruned here, in JavaScript: the page's main module stays small.
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
export function recent_mark_on_hide(key) {
  addEventListener('pagehide', () => {
    try { localStorage.setItem(key, String(Date.now())); } catch {}
  });
  addEventListener('pageshow', () => {
    try { localStorage.removeItem(key); } catch {}
  });
}
function read(key) {
  try {
    const entry = JSON.parse(localStorage.getItem(key));
    return entry && typeof entry.time === 'number' && entry.saved && typeof entry.saved === 'object' ? entry : null;
  } catch {
    return null;
  }
}
function ids(prefix) {
  const found = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(prefix)) found.push(key.slice(prefix.length));
  }
  return found;
}
export function recent_entry(key) {
  return read(key);
}
export function recent_put(prefix, id, time, names, values, max) {
  const saved = {};
  names.forEach((name, i) => { saved[name] = values[i]; });
  const text = JSON.stringify({ time, saved });
  if (text.length > max) {
    return `the work is ${Math.round(text.length / 1048576)} MB, more than the ${Math.round(max / 1048576)} MB kept for closed tabs`;
  }
  // When localStorage is full, the other tabs' entries make room, oldest first.
  const others = ids(prefix)
    .filter((other) => other !== id)
    .map((other) => [other, read(prefix + other)?.time ?? 0])
    .sort((a, b) => a[1] - b[1]);
  for (;;) {
    try {
      localStorage.setItem(prefix + id, text);
      return null;
    } catch (e) {
      const oldest = others.shift();
      if (!oldest) return e?.name ? (e.message ? `${e.name}: ${e.message}` : e.name) : String(e);
      localStorage.removeItem(prefix + oldest[0]);
    }
  }
}
export async function recent_closed(prefix, closed_prefix, lock_prefix, own, keep, stale_ms) {
  let held = null;
  if (navigator.locks?.query) {
    try {
      held = new Set(((await navigator.locks.query()).held ?? []).map((l) => l.name));
    } catch {
      // Which tabs are open is unknown: none is offered.
      return [];
    }
  }
  const list = [];
  for (const id of ids(prefix)) {
    if (id === own) continue;
    const entry = read(prefix + id);
    const closed = held ? !held.has(lock_prefix + id) : localStorage.getItem(closed_prefix + id) !== null;
    if (!entry || (!held && !closed && Date.now() - entry.time > stale_ms)) {
      localStorage.removeItem(prefix + id);
      localStorage.removeItem(closed_prefix + id);
    } else if (closed) {
      list.push({ id, entry });
    }
  }
  list.sort((a, b) => b.entry.time - a.entry.time);
  for (const { id } of list.slice(keep)) {
    localStorage.removeItem(prefix + id);
    localStorage.removeItem(closed_prefix + id);
  }
  return list.slice(0, keep).map(({ id, entry }) => [id, entry]);
}
"#)]
extern "C" {
    fn recent_has_locks() -> bool;
    async fn recent_hold(name: &str, wait_ms: f64) -> JsValue;
    fn recent_mark_on_hide(key: &str);
    fn recent_entry(key: &str) -> JsValue;
    fn recent_put(
        prefix: &str,
        id: &str,
        time: f64,
        names: Vec<String>,
        values: Vec<String>,
        max: f64,
    ) -> Option<String>;
    async fn recent_closed(
        prefix: &str,
        closed_prefix: &str,
        lock_prefix: &str,
        own: &str,
        keep: usize,
        stale_ms: f64,
    ) -> JsValue;
}

/// A tab's entry: when its work was last changed, and the work's saved texts by name
/// ([`storage::entries`]).
pub struct Entry {
    /// When its work was last changed (ms since the epoch).
    pub time: f64,
    /// The texts by name.
    saved: JsValue,
}

impl Entry {
    /// The entry `value` holds (`{time, saved}`), when it does.
    fn of(value: &JsValue) -> Option<Entry> {
        let time = js_sys::Reflect::get(value, &"time".into()).ok()?.as_f64()?;
        let saved = js_sys::Reflect::get(value, &"saved".into()).ok()?;
        saved.is_object().then_some(Entry { time, saved })
    }

    /// A saved text by name as it is kept (a text in IndexedDB: its key, under the name plus
    /// `.stashed`).
    fn raw(&self, name: &str) -> Option<String> {
        js_sys::Reflect::get(&self.saved, &name.into())
            .ok()?
            .as_string()
    }

    /// A text of the work by name (one kept in IndexedDB once [`crate::stash::preload`]ed).
    pub fn get(&self, name: &str) -> Option<String> {
        match self.raw(&format!("{name}{STASHED}")) {
            Some(key) => crate::stash::get(&key),
            None => self.raw(name),
        }
    }

    /// The IndexedDB keys of its texts kept there.
    pub fn stashed(&self) -> Vec<String> {
        js_sys::Object::keys(self.saved.unchecked_ref::<js_sys::Object>())
            .iter()
            .filter_map(|name| name.as_string())
            .filter(|name| name.ends_with(STASHED))
            .filter_map(|name| self.raw(&name))
            .collect()
    }

    /// What the offer calls it: its example, or its lesson.
    pub fn label(&self) -> String {
        let example = self.raw(EXAMPLE_KEY).unwrap_or_default();
        let lesson: Option<LessonAt> = saved::lesson_in(|n| self.raw(n));
        label(
            example_named(&example).name,
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
    let (names, values): (Vec<String>, Vec<String>) =
        storage::entries(saved::is_work).into_iter().unzip();
    let has_own = names
        .iter()
        .any(|n| saved::is_own(n.strip_suffix(STASHED).unwrap_or(n)));
    if !has_own {
        let _ = local.remove_item(&format!("{ENTRY}{id}"));
        storage::saved(PROBLEM);
        return;
    }
    let time = EDITED_AT.with(Cell::get).unwrap_or_else(js_sys::Date::now);
    match recent_put(ENTRY, &id, time, names, values, MAX_ENTRY) {
        None => storage::saved(PROBLEM),
        Some(why) => storage::failed(
            PROBLEM,
            format!(
                "Your latest changes could not be saved for after this tab closes ({why}). Use Export to keep a copy before you close it."
            ),
        ),
    }
}

/// Tab `id`'s entry.
pub fn entry(id: &str) -> Option<Entry> {
    storage::local_storage()?;
    Entry::of(&recent_entry(&format!("{ENTRY}{id}")))
}

/// Deletes tab `id`'s entry (its work is another tab's now).
pub fn forget_entry(id: &str) {
    if let Some(local) = storage::local_storage() {
        let _ = local.remove_item(&format!("{ENTRY}{id}"));
        let _ = local.remove_item(&format!("{CLOSED}{id}"));
    }
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
/// before asked for). With `list` (a new tab): deletes the closed tabs' entries past the
/// newest [`KEEP`], and lists the rest, newest first, while the tab's work is unchanged.
pub async fn start(list: bool) -> Vec<Offer> {
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
    if !list {
        return Vec::new();
    }
    let closed = recent_closed(ENTRY, CLOSED, LOCK, &id, KEEP, STALE_MS).await;
    if TOUCHED.with(Cell::get) {
        return Vec::new();
    }
    js_sys::Array::from(&closed)
        .iter()
        .filter_map(|pair| {
            let pair = js_sys::Array::from(&pair);
            let entry = Entry::of(&pair.get(1))?;
            Some(Offer {
                id: pair.get(0).as_string()?,
                label: entry.label(),
                time: entry.time,
            })
        })
        .collect()
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
}
