//! A new tab's offer of the work of closed tabs ([`super::tab_copy`] keeps it): a tab with
//! no work of its own, opened with no link and not an embed, lists the newest; choosing one
//! makes it the tab's work (with Undo in the notice).

use super::address::AddressBar;
use super::editors::Editors;
use super::notice::Notice;
use super::saved::{self, Saved, EXAMPLE_KEY};
use super::tab_copy::{self, ago, Offer};
use crate::gallery::{self, example_named};
use leptos::prelude::*;

/// The closed tabs' work, offered to a new tab, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct RecentWork {
    /// The closed tabs' work on offer, newest first (empty: no offer).
    pub offered: RwSignal<Vec<Offer>>,
    address: StoredValue<AddressBar>,
    editors: StoredValue<Editors>,
    notice: StoredValue<Notice>,
}

impl RecentWork {
    /// Starts keeping the tab's copy ([`tab_copy::start`]) and, when `offer` (a new tab),
    /// lists the closed tabs' work.
    pub fn new(address: AddressBar, editors: Editors, notice: Notice, offer: bool) -> RecentWork {
        let recent = RecentWork {
            offered: RwSignal::new(Vec::new()),
            address: StoredValue::new(address),
            editors: StoredValue::new(editors),
            notice: StoredValue::new(notice),
        };
        wasm_bindgen_futures::spawn_local(async move {
            let offers = tab_copy::start(offer).await;
            if !offers.is_empty() {
                recent.offered.set(offers);
            }
        });
        recent
    }

    /// Closes the offer.
    pub fn dismiss(&self) {
        self.offered.set(Vec::new());
    }

    /// Makes closed tab `id`'s work this tab's (Undo in the notice puts the work back), once
    /// its example and its texts kept in IndexedDB are read.
    pub fn restore(&self, id: &str) {
        let notice = self.notice.get_value();
        let Some(entry) = tab_copy::entry(id) else {
            self.offered
                .update(|offers| offers.retain(|offer| offer.id != id));
            notice.notify("That work is no longer kept in this browser.".into());
            return;
        };
        let this = *self;
        let id = id.to_string();
        let editors = self.editors.get_value();
        let version = editors.version.get_untracked();
        wasm_bindgen_futures::spawn_local(async move {
            let stashed = entry.stashed();
            let missing = !stashed.is_empty()
                && (crate::stash::preload(stashed.clone()).await.is_err()
                    || stashed.iter().any(|k| crate::stash::get(k).is_none()));
            let example = example_named(&entry.get(EXAMPLE_KEY).unwrap_or_default());
            if example.texts().is_none() {
                let _ = gallery::fetch(example).await;
            }
            if editors.version.get_untracked() != version {
                notice.notify(
                    "That work was not restored: the work here changed while it loaded. Choose it again to restore it.".into(),
                );
                return;
            }
            let saved = match Saved::read(|n| entry.get(n)) {
                Ok(saved) => saved,
                Err(name) => {
                    notice.notify(format!(
                        "That work could not be restored: its {name} example could not be loaded ({}). Try again.",
                        gallery::failure(name).unwrap_or_else(|| "it was not fetched".into())
                    ));
                    return;
                }
            };
            let lesson = saved::lesson_in(|n| entry.get(n));
            this.address.get_value().open_work(&saved.shared, lesson);
            // It is this tab's work now, changed when it was.
            tab_copy::adopt(entry.time);
            tab_copy::forget_entry(&id);
            this.offered.set(Vec::new());
            let mut text = format!(
                "Restored the work of a closed tab ({}, {}).",
                entry.label(),
                ago(js_sys::Date::now(), entry.time)
            );
            if missing {
                text.push_str(
                    " Part of it was no longer in the browser's storage: those editors show their example.",
                );
            }
            notice.notify(text);
            notice.undo.set(Some(editors.version.get_untracked()));
        });
    }
}
