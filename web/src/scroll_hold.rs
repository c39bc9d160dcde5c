//! A first visit starts at the top of the page: until the visitor first presses a key or a
//! pointer, the inspector and the lesson panel leave the page where it is rather than scroll
//! to the walked phase or the stop. Links and reloads still scroll to theirs.

use leptos::prelude::*;

thread_local! {
    /// Whether the page stays where it is for now ([`hold_until_the_visitor_acts`]).
    static HOLD_SCROLL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the page stays where it is for now ([`hold_until_the_visitor_acts`]).
pub fn page_scroll_held() -> bool {
    HOLD_SCROLL.with(std::cell::Cell::get)
}

/// Keeps the inspector and the lesson panel from scrolling the page to the walked phase or the
/// stop until the visitor first presses a key or a pointer: a first visit, whose first lesson
/// stop walks cycle 1, starts at the top, with the top bar and the lesson in view.
pub fn hold_until_the_visitor_acts() {
    if HOLD_SCROLL.with(|h| h.replace(true)) {
        return;
    }
    // The listeners last as long as the page.
    std::mem::forget(window_event_listener(leptos::ev::pointerdown, |_| {
        HOLD_SCROLL.with(|h| h.set(false))
    }));
    std::mem::forget(window_event_listener(leptos::ev::keydown, |_| {
        HOLD_SCROLL.with(|h| h.set(false))
    }));
}
