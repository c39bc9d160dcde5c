//! The parsed document a form view edits: parsed lazily from the editor text, and reused
//! without parsing again when the text is the one the form itself just wrote.

use crate::forms::{Document, ObjRef};
use leptos::prelude::*;
use std::sync::Arc;

/// A parse result; equal only to itself (comparing big documents on every change would cost
/// as much as parsing them).
#[derive(Clone, Debug)]
pub struct Parsed(pub Result<Arc<Document>, String>);

impl PartialEq for Parsed {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Ok(a), Ok(b)) => Arc::ptr_eq(a, b),
            (Err(a), Err(b)) => a == b,
            _ => false,
        }
    }
}

/// A form's handle on its file: the parsed document and the way to change it.
#[derive(Clone, Copy)]
pub struct FormDoc {
    text: Signal<String>,
    /// The parsed document (or why the text does not parse).
    pub parsed: Memo<Parsed>,
    cache: StoredValue<Option<(String, Arc<Document>)>>,
    on_edit: Callback<String>,
}

impl FormDoc {
    /// Parses `text` whenever it changes (and something reads [`FormDoc::parsed`]).
    pub fn new(text: Signal<String>, on_edit: Callback<String>) -> FormDoc {
        let cache: StoredValue<Option<(String, Arc<Document>)>> = StoredValue::new(None);
        let parsed = Memo::new(move |_| {
            text.with(|t| {
                let hit = cache.with_value(|c| {
                    c.as_ref()
                        .filter(|(s, _)| s == t)
                        .map(|(_, d)| Arc::clone(d))
                });
                Parsed(match hit {
                    Some(doc) => Ok(doc),
                    None => Document::parse(t).map(Arc::new),
                })
            })
        });
        FormDoc {
            text,
            parsed,
            cache,
            on_edit,
        }
    }

    /// Reads the document (tracked); `None` when the text does not parse.
    pub fn with<T>(&self, f: impl FnOnce(&Document) -> T) -> Option<T> {
        self.parsed.with(|p| p.0.as_ref().ok().map(|d| f(d)))
    }

    /// The parse error, if any (tracked).
    pub fn error(&self) -> Option<String> {
        self.parsed.with(|p| p.0.as_ref().err().cloned())
    }

    /// Changes a copy of the document and hands its text to `on_edit`. Nothing is written when
    /// the text does not parse or the change fails.
    pub fn edit<T>(&self, f: impl FnOnce(&mut Document) -> Result<T, String>) -> Result<T, String> {
        let current = self
            .parsed
            .with_untracked(|p| p.0.clone())
            .map_err(|_| "Fix the text first".to_string())?;
        let mut doc = (*current).clone();
        let out = f(&mut doc)?;
        let text = doc.to_text();
        if self.text.with_untracked(|t| *t != text) {
            self.cache.set_value(Some((text.clone(), Arc::new(doc))));
            self.on_edit.run(text);
        }
        Ok(out)
    }

    /// Duplicates the object at `at` and opens the copy (the filter is set to find it).
    pub fn duplicate(
        &self,
        at: ObjRef,
        filter: RwSignal<String>,
        expanded: RwSignal<Option<String>>,
    ) {
        if let Ok(Some(copy)) = self.edit(|d: &mut Document| Ok(d.duplicate(at))) {
            if !filter.with(|f| copy.contains(f.trim())) {
                filter.set(copy.clone());
            }
            expanded.set(Some(copy));
        }
    }

    /// Deletes the object at `at`.
    pub fn remove(&self, at: ObjRef) {
        let _ = self.edit(|d| {
            d.remove(at);
            Ok(())
        });
    }
}
