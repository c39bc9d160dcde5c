//! The views' `&'static str` fields (a pod's phase, an event's reason, a status code) as they
//! are read back from JSON (a reply from the engine's worker): the same few strings, interned,
//! each distinct text allocated once for the page's lifetime. Imports nothing of the page.

use serde::{Deserialize, Deserializer};
use std::cell::RefCell;
use std::collections::HashSet;

/// A `&'static str` field of a view. (Written through this alias, serde does not take the
/// field for text borrowed from the input, which a `'static` one cannot be.)
pub type StaticStr = &'static str;

thread_local! {
    static INTERNED: RefCell<HashSet<&'static str>> = RefCell::new(HashSet::new());
}

/// `text` as a `&'static str`: the one interned copy.
pub fn intern(text: &str) -> &'static str {
    INTERNED.with_borrow_mut(|set| {
        if let Some(&s) = set.get(text) {
            return s;
        }
        let s: &'static str = Box::leak(text.to_owned().into_boxed_str());
        set.insert(s);
        s
    })
}

/// Reads a `&'static str` field.
pub fn static_str<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let text = String::deserialize(d)?;
    Ok(intern(&text))
}

/// Reads an `Option<&'static str>` field.
pub fn static_str_option<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<&'static str>, D::Error> {
    let text = Option::<String>::deserialize(d)?;
    Ok(text.as_deref().map(intern))
}
