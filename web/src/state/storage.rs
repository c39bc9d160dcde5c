//! The tab's saved work, best effort: a browser that refuses storage (private mode, quota) only
//! loses persistence, never the page, and the page says so ([`super::SavedWork`]).
//!
//! Texts over [`crate::stash::INLINE_MAX`], and texts `sessionStorage` refuses, are kept in
//! IndexedDB ([`crate::stash`]); `sessionStorage` then holds their key under the name plus
//! `.stashed`.
//!
//! Kept in `sessionStorage`, which belongs to one tab (a duplicated tab gets a copy), so two
//! tabs never overwrite each other's work, and a reload keeps it. The frames of one tab share
//! its `sessionStorage`, so a page in a frame keeps its work under a slot named after the
//! frame's place in the page (`frame-1`: the second frame; `frame-0.2`: the third frame inside
//! the first), which stays the same when the frame or the whole page reloads. Keys:
//! `schedlab.v2.<slot>.<name>`, the slot being `tab` in a top-level page. Every save also
//! updates the tab's copy in `localStorage` for after it closes ([`on_save`]:
//! [`super::tab_copy`]).

use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

const PREFIX: &str = "schedlab.v2";
/// The names earlier versions used in `localStorage` (shared by every tab).
const LEGACY: &str = "schedlab.v1.";
/// Deeper nesting than this is not told apart.
const MAX_DEPTH: usize = 16;

thread_local! {
    static SLOT: String = find_slot();
    /// Nothing is read or written (an embed).
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// From now on nothing is read or written: the page keeps no work (an embed).
pub fn disable() {
    OFF.with(|off| off.set(true));
}

fn session() -> Option<web_sys::Storage> {
    if OFF.with(std::cell::Cell::get) {
        return None;
    }
    web_sys::window()?.session_storage().ok().flatten()
}

/// The tab's `sessionStorage` (none in an embed, or when the browser refuses it).
pub fn session_storage() -> Option<web_sys::Storage> {
    session()
}

/// The site's `localStorage`, shared by every tab (none in an embed, or when refused).
pub fn local_storage() -> Option<web_sys::Storage> {
    session()?;
    web_sys::window()?.local_storage().ok().flatten()
}

/// The name of this page's slot: `tab`, or a frame's (`frame-1`).
pub fn slot() -> String {
    SLOT.with(Clone::clone)
}

fn key(name: &str) -> String {
    SLOT.with(|slot| format!("{PREFIX}.{slot}.{name}"))
}

/// `tab` for a top-level page; in a frame, `frame-` and the index of each frame on the way
/// down from the top (readable across origins: `parent`, `length` and `parent[i]` are).
fn find_slot() -> String {
    let Some(mut here) = web_sys::window() else {
        return "tab".into();
    };
    let mut path = Vec::new();
    for _ in 0..MAX_DEPTH {
        let Some(parent) = here.parent().ok().flatten() else {
            break;
        };
        if js_sys::Object::is(parent.as_ref(), here.as_ref()) {
            break;
        }
        let index = (0..parent.length()).find(|&i| {
            js_sys::Reflect::get_u32(parent.as_ref(), i)
                .is_ok_and(|frame| js_sys::Object::is(&frame, here.as_ref()))
        });
        path.push(index.map_or_else(|| "x".to_string(), |i| i.to_string()));
        here = parent;
    }
    if path.is_empty() {
        return "tab".into();
    }
    path.reverse();
    format!("frame-{}", path.join("."))
}

/// Where a text kept in IndexedDB is named ([`crate::stash`]): the key's own name plus this.
pub const STASHED: &str = ".stashed";

thread_local! {
    /// Per name, the newest save: a slower IndexedDB write that an earlier save started
    /// must not point the name at its older text.
    static SAVES: RefCell<HashMap<String, u64>> = RefCell::new(HashMap::new());
    /// The names whose last save failed, and why the last one did.
    static FAILED: RefCell<(HashSet<String>, String)> = RefCell::new(Default::default());
    /// Where the page shows a failed save.
    static PROBLEM: Cell<Option<RwSignal<Option<String>>>> = const { Cell::new(None) };
}

/// Shows failed saves (and their end) in `signal`.
pub fn report_to(signal: RwSignal<Option<String>>) {
    PROBLEM.with(|p| p.set(Some(signal)));
    show_problem();
}

fn show_problem() {
    let text = FAILED.with(|f| {
        let f = f.borrow();
        (!f.0.is_empty()).then(|| f.1.clone())
    });
    if let Some(signal) = PROBLEM.with(Cell::get) {
        if signal.get_untracked() != text {
            signal.set(text);
        }
    }
}

thread_local! {
    /// Called after each save ([`on_save`]).
    static AFTER_SAVE: Cell<Option<fn()>> = const { Cell::new(None) };
}

/// From now on `f` is called after each save and removal.
pub fn on_save(f: fn()) {
    AFTER_SAVE.with(|a| a.set(Some(f)));
}

fn after_save() {
    if let Some(f) = AFTER_SAVE.with(Cell::get) {
        f();
    }
}

/// A save under `name` succeeded: a problem it had is over.
pub fn saved(name: &str) {
    let changed = FAILED.with(|f| {
        let mut f = f.borrow_mut();
        // Saving anything again ends a failed read too.
        f.0.remove(name) | f.0.remove("")
    });
    if changed {
        show_problem();
    }
}

/// A save under `name` failed: the page says `why` until it succeeds.
pub fn failed(name: &str, why: String) {
    FAILED.with(|f| {
        let mut f = f.borrow_mut();
        f.0.insert(name.to_string());
        f.1 = why;
    });
    show_problem();
}

/// Records a problem reading the saved work back (shown as a failed save is, until the
/// work is saved again).
pub fn failed_to_read(message: String) {
    failed("", message);
}

pub fn load(name: &str) -> Option<String> {
    let s = session()?;
    if let Some(stashed) = s
        .get_item(&format!("{}{STASHED}", key(name)))
        .ok()
        .flatten()
    {
        return crate::stash::get(&stashed);
    }
    s.get_item(&key(name)).ok().flatten()
}

/// Saves a text: in `sessionStorage` when it is small and fits, else in IndexedDB (a
/// failure is shown on the page, and the text stays on screen).
pub fn save(name: &str, value: &str) {
    let Some(s) = session() else {
        return;
    };
    let generation = SAVES.with(|g| {
        let mut g = g.borrow_mut();
        let n = g.entry(name.to_string()).or_default();
        *n += 1;
        *n
    });
    let own = key(name);
    let pointer = format!("{own}{STASHED}");
    if value.len() <= crate::stash::INLINE_MAX && s.set_item(&own, value).is_ok() {
        let _ = s.remove_item(&pointer);
        saved(name);
        after_save();
        return;
    }
    // Too big for sessionStorage, or refused by it: IndexedDB.
    let stash_key = crate::stash::key_of(value);
    let name = name.to_string();
    let value = value.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let stored = crate::stash::put(stash_key.clone(), value).await;
        let newest = SAVES.with(|g| g.borrow().get(&name).copied()) == Some(generation);
        if !newest {
            return;
        }
        match stored.and_then(|()| {
            s.set_item(&pointer, &stash_key)
                .map_err(|e| crate::stash::describe(&e))
        }) {
            Ok(()) => {
                let _ = s.remove_item(&own);
                saved(&name);
                after_save();
            }
            Err(why) => failed(
                &name,
                format!(
                    "Your latest changes could not be saved in this tab ({why}). They stay on screen: use Export to keep a copy before you reload or close the tab."
                ),
            ),
        }
    });
}

pub fn remove(name: &str) {
    SAVES.with(|g| {
        if let Some(n) = g.borrow_mut().get_mut(name) {
            *n += 1;
        }
    });
    if let Some(s) = session() {
        let _ = s.remove_item(&key(name));
        let _ = s.remove_item(&format!("{}{STASHED}", key(name)));
        after_save();
    }
    saved(name);
}

/// Every key of `storage`, in its order.
fn all_keys(storage: &web_sys::Storage) -> impl Iterator<Item = String> + '_ {
    let n = storage.length().unwrap_or(0);
    (0..n).filter_map(|i| storage.key(i).ok().flatten())
}

/// This tab's (or frame's) saved texts whose names `keep` accepts, by name; a text kept in
/// IndexedDB under its name plus `.stashed`, with its key there as the value.
pub fn entries(keep: impl Fn(&str) -> bool) -> Vec<(String, String)> {
    let Some(s) = session() else {
        return Vec::new();
    };
    let prefix = key("");
    all_keys(&s)
        .filter_map(|k| {
            let name = k.strip_prefix(&prefix)?;
            keep(name.strip_suffix(STASHED).unwrap_or(name)).then(|| name.to_string())
        })
        .filter_map(|name| {
            let value = s.get_item(&key(&name)).ok().flatten()?;
            Some((name, value))
        })
        .collect()
}

/// The IndexedDB keys of the texts this tab (or frame) saved there.
pub fn stashed_keys() -> Vec<String> {
    let Some(s) = session() else {
        return Vec::new();
    };
    let prefix = key("");
    all_keys(&s)
        .filter(|k| k.starts_with(&prefix) && k.ends_with(STASHED))
        .filter_map(|k| s.get_item(&k).ok().flatten())
        .collect()
}

/// Whether this tab (or frame) has saved nothing at all: a first visit.
pub fn is_empty() -> bool {
    let Some(s) = session() else {
        return true;
    };
    let prefix = key("");
    let n = s.length().unwrap_or(0);
    !(0..n).any(|i| {
        s.key(i)
            .ok()
            .flatten()
            .is_some_and(|k| k.starts_with(&prefix))
    })
}

/// Work saved by an earlier version in `localStorage` moves into the first tab that opens
/// with no work of its own (and leaves `localStorage`, so no other tab takes it again).
pub fn adopt_legacy() {
    let Some(local) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return;
    };
    let Some(session) = session() else {
        return;
    };
    let names = ["example"].into_iter().map(String::from).chain(
        ["nodes", "pods", "policy", "config"]
            .into_iter()
            .flat_map(|stem| [format!("editor.{stem}"), format!("valid.{stem}")]),
    );
    let names: Vec<String> = names.collect();
    let has_own = names
        .iter()
        .any(|n| session.get_item(&key(n)).ok().flatten().is_some());
    if has_own {
        return;
    }
    for name in &names {
        let legacy = format!("{LEGACY}{name}");
        if let Some(value) = local.get_item(&legacy).ok().flatten() {
            if session.set_item(&key(name), &value).is_ok() {
                let _ = local.remove_item(&legacy);
            }
        }
    }
}
