//! Large texts of the tab's saved work, kept in IndexedDB.
//!
//! `sessionStorage` holds about 5 MB per site, so a big paste (2000 nodes, 2000 pods) does not
//! fit there. A text over [`INLINE_MAX`] bytes, or one that `sessionStorage` refuses, is put in
//! IndexedDB instead, under a key made from its content (the same text saved twice, or by two
//! tabs, is stored once), and `sessionStorage` keeps only that key. IndexedDB is shared by every
//! tab of the site, but an entry is never changed once written, so tabs still never overwrite
//! each other's work. Entries no tab has used for [`KEEP_DAYS`] days are deleted.
//!
//! IndexedDB answers asynchronously, while the page reads its saved work synchronously when it
//! starts; so [`preload`] reads every text this tab refers to before the page is mounted.

use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::prelude::*;

/// Texts longer than this (in bytes) go to IndexedDB.
pub const INLINE_MAX: usize = 256 * 1024;
/// Entries unused for this long are deleted when a page starts.
pub const KEEP_DAYS: f64 = 30.0;

thread_local! {
    /// The texts read by [`preload`] and written since, by key.
    static TEXTS: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
}

#[wasm_bindgen(inline_js = r#"
const DB = 'schedlab';
const STORE = 'texts';
let opened = null;
function db() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('the database is blocked by another tab'));
  });
  opened.catch(() => { opened = null; });
  return opened;
}
function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('aborted'));
  });
}
export async function stash_put(key, text) {
  const tx = (await db()).transaction(STORE, 'readwrite');
  tx.objectStore(STORE).put({ text, used: Date.now() }, key);
  await done(tx);
}
export async function stash_get_all(keys) {
  const tx = (await db()).transaction(STORE, 'readwrite');
  const store = tx.objectStore(STORE);
  const found = {};
  for (const key of keys) {
    const request = store.get(key);
    request.onsuccess = () => {
      const entry = request.result;
      if (entry && typeof entry.text === 'string') {
        found[key] = entry.text;
        store.put({ text: entry.text, used: Date.now() }, key);
      }
    };
  }
  await done(tx);
  return found;
}
export async function stash_forget_older_than(ms) {
  const tx = (await db()).transaction(STORE, 'readwrite');
  const request = tx.objectStore(STORE).openCursor();
  const limit = Date.now() - ms;
  request.onsuccess = () => {
    const cursor = request.result;
    if (!cursor) return;
    if (!(cursor.value?.used >= limit)) cursor.delete();
    cursor.continue();
  };
  await done(tx);
}
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn stash_put(key: &str, text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn stash_get_all(keys: Vec<String>) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    async fn stash_forget_older_than(ms: f64) -> Result<JsValue, JsValue>;
}

/// The key a text is stored under: its length and a 64-bit FNV-1a of its bytes.
pub fn key_of(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}-{hash:016x}", text.len())
}

/// A text read by [`preload`] or written since.
pub fn get(key: &str) -> Option<String> {
    TEXTS.with(|t| t.borrow().get(key).cloned())
}

/// Reads the texts under `keys` (marking them used). Texts that are missing are simply not
/// there for [`get`].
pub async fn preload(keys: Vec<String>) -> Result<(), String> {
    let result = if keys.is_empty() {
        Ok(())
    } else {
        match stash_get_all(keys).await {
            Ok(found) => {
                let found: js_sys::Object = found.unchecked_into();
                TEXTS.with(|t| {
                    let mut t = t.borrow_mut();
                    for entry in js_sys::Object::entries(&found).iter() {
                        let pair: js_sys::Array = entry.unchecked_into();
                        if let (Some(k), Some(v)) =
                            (pair.get(0).as_string(), pair.get(1).as_string())
                        {
                            t.insert(k, v);
                        }
                    }
                });
                Ok(())
            }
            Err(e) => Err(describe(&e)),
        }
    };
    result
}

/// Deletes the entries no tab has used for [`KEEP_DAYS`] days (best effort).
pub async fn tidy() {
    let _ = stash_forget_older_than(KEEP_DAYS * 24.0 * 3600.0 * 1000.0).await;
}

/// Stores `text` under `key` (kept in memory at once, in IndexedDB when the promise settles).
pub async fn put(key: String, text: String) -> Result<(), String> {
    let stored = stash_put(&key, &text).await.map_err(|e| describe(&e));
    TEXTS.with(|t| t.borrow_mut().insert(key, text));
    stored.map(|_| ())
}

/// A thrown JavaScript value in words (`QuotaExceededError: ...`).
pub fn describe(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        let name = String::from(err.name());
        let message = String::from(err.message());
        return if message.is_empty() {
            name
        } else {
            format!("{name}: {message}")
        };
    }
    e.as_string()
        .unwrap_or_else(|| "the browser refused to store it".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_length_and_fnv1a() {
        // FNV-1a 64 of "" is the offset basis; of "a" it is af63dc4c8601ec8c (the published
        // test vector).
        assert_eq!(key_of(""), "0-cbf29ce484222325");
        assert_eq!(key_of("a"), "1-af63dc4c8601ec8c");
        assert_ne!(key_of("ab"), key_of("ba"));
    }
}
