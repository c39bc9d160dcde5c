//! A glossary term on the page: the word with a dotted underline, focusable with the keyboard;
//! on hover or focus a small popover shows its [`glossary`](crate::glossary) entry and a link to
//! the Kubernetes documentation page.
//!
//! The popover is an HTML `popover` (the browser's top layer), so no scrolling box, no paint
//! containment (`content-visibility`) and no sideways writing mode of a column header clips or
//! turns it. It is placed next to the term with fixed coordinates, kept there while anything
//! scrolls, and never moves the page. One popover is open at a time; Escape closes it. Its text
//! is rendered only while it is open, so a table of terms costs one empty element per term.

use crate::glossary::{lookup, Entry};
use gloo_events::{EventListener, EventListenerOptions};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// How long the popover stays after the pointer leaves, so it can move onto the link (ms).
const LINGER_MS: u32 = 160;
/// Space between the term and its popover, and kept from the window's edges (px).
const GAP: f64 = 6.0;
const MARGIN: f64 = 8.0;

/// The open popover: its term, how to close it, how to place it again.
struct Open {
    id: u32,
    close: Rc<dyn Fn()>,
    place: Rc<dyn Fn()>,
}

thread_local! {
    static OPEN: RefCell<Option<Open>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u32> = const { Cell::new(0) };
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

/// Closes the open popover, if any (Escape, or another term opening).
fn close_open() {
    let open = OPEN.with(|o| o.borrow_mut().take());
    if let Some(open) = open {
        (open.close)();
    }
}

/// Places the open popover again (after a scroll or a resize).
fn place_open() {
    let place = OPEN.with(|o| o.borrow().as_ref().map(|o| Rc::clone(&o.place)));
    if let Some(place) = place {
        place();
    }
}

/// The page-wide listeners, once: Escape closes; scrolling (any box) and resizing re-place.
fn listen_once() {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    let keys = window_event_listener(leptos::ev::keydown, |ev| {
        if ev.key() == "Escape" {
            close_open();
        }
    });
    std::mem::forget(keys);
    let window = window();
    // Capture: scroll events do not bubble, and the queue and the tables scroll inside boxes.
    let capture = EventListenerOptions::run_in_capture_phase();
    // The listeners live as long as the page.
    EventListener::new_with_options(&window, "scroll", capture, |_| place_open()).forget();
    EventListener::new(&window, "resize", |_| place_open()).forget();
}

/// Puts `tip` beside `term`: below it, or above it when there is no room below, inside the
/// window.
fn place(term: &HtmlElement, tip: &HtmlElement) {
    if !tip.matches(":popover-open").unwrap_or(false) {
        return;
    }
    let r = term.get_bounding_client_rect();
    let t = tip.get_bounding_client_rect();
    let root = document().document_element();
    let (vw, vh) = root
        .map(|e| (f64::from(e.client_width()), f64::from(e.client_height())))
        .unwrap_or((1280.0, 800.0));
    let left = r.left().min(vw - t.width() - MARGIN).max(MARGIN);
    let below = r.bottom() + GAP;
    let above = r.top() - GAP - t.height();
    let top = if below + t.height() + MARGIN > vh && above >= MARGIN {
        above
    } else {
        below
    };
    let _ = tip.set_attribute("style", &format!("left: {left:.0}px; top: {top:.0}px"));
}

/// A glossary term. Unknown names render as plain text (a Policy may give a predicate any
/// name).
#[component]
pub fn Term(
    /// The glossary name (`findNodesThatFit`, `Unschedulable`, `tie set`).
    #[prop(into)]
    name: String,
    /// What the page shows; the name when absent.
    #[prop(optional)]
    children: Option<Children>,
    /// Show the name as code (ignored with children).
    #[prop(optional)]
    code: bool,
) -> impl IntoView {
    let label = match children {
        Some(c) => c(),
        None if code => view! { <code>{name.clone()}</code> }.into_any(),
        None => name.clone().into_any(),
    };
    let Some(entry) = lookup(&name) else {
        return label;
    };
    listen_once();
    let tip = Rc::new(Tip::new());
    let id = tip.id;
    on_cleanup(move || {
        OPEN.with(|o| {
            let mut o = o.borrow_mut();
            if o.as_ref().is_some_and(|open| open.id == id) {
                *o = None;
            }
        })
    });
    let tip_id = format!("term-tip-{id}");
    let described_by = tip_id.clone();
    let open = tip.open;
    let (enter, leave) = (Rc::clone(&tip), Rc::clone(&tip));
    let (focus_in, focus_out, key) = (Rc::clone(&tip), Rc::clone(&tip), Rc::clone(&tip));
    let Entry { text, url, .. } = entry;
    let title = entry.title();
    view! {
        <span
            class="term"
            tabindex="0"
            data-testid="term"
            data-term=title
            aria-describedby=described_by
            on:mouseenter=move |ev: web_sys::MouseEvent| enter.enter(&ev)
            on:mouseleave=move |_: web_sys::MouseEvent| leave.leave()
            on:focusin=move |ev: web_sys::FocusEvent| focus_in.focus_in(&ev)
            on:focusout=move |ev: web_sys::FocusEvent| focus_out.focus_out(&ev)
            on:keydown=move |ev: web_sys::KeyboardEvent| key.key(&ev)
        >
            {label}
            <span
                class="term-tip"
                popover="manual"
                id=tip_id
                data-testid="term-tip"
                on:click=|ev| ev.stop_propagation()
            >
                {move || open.get().then(|| view! {
                    <strong class="term-tip-title">{title}</strong>
                    <span class="term-tip-text">{*text}</span>
                    <a class="term-tip-link" href=*url target="_blank" rel="noopener noreferrer" data-testid="term-doc">
                        "Kubernetes docs ↗"
                    </a>
                })}
            </span>
        </span>
    }
    .into_any()
}

/// One term's popover: whether it shows, and where the pointer and the focus are.
struct Tip {
    id: u32,
    /// Its text is rendered.
    open: RwSignal<bool>,
    hovered: Cell<bool>,
    focused: Cell<bool>,
    /// Bumped on every enter: a pending close from an earlier leave then does nothing.
    generation: Cell<u32>,
    /// Set while Escape hands the focus back to the term, so that it does not reopen.
    refocusing: Cell<bool>,
}

impl Tip {
    /// A closed popover with an id of its own.
    fn new() -> Tip {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id + 1);
            id
        });
        Tip {
            id,
            open: RwSignal::new(false),
            hovered: Cell::new(false),
            focused: Cell::new(false),
            generation: Cell::new(0),
            refocusing: Cell::new(false),
        }
    }

    /// Whether this popover is the open one.
    fn is_open(&self) -> bool {
        OPEN.with(|o| o.borrow().as_ref().is_some_and(|open| open.id == self.id))
    }

    /// Opens the popover of `term` (closing any other).
    fn show(&self, term: HtmlElement) {
        let Some(tip) = tip_of(&term) else { return };
        if self.is_open() {
            return;
        }
        close_open();
        let (id, open) = (self.id, self.open);
        open.set(true);
        let (t1, p1) = (term.clone(), tip.clone());
        let place_again: Rc<dyn Fn()> = Rc::new(move || place(&t1, &p1));
        let p2 = tip.clone();
        let close: Rc<dyn Fn()> = Rc::new(move || {
            let _ = p2.hide_popover();
            open.try_set(false);
        });
        OPEN.with(|o| {
            *o.borrow_mut() = Some(Open {
                id,
                close,
                place: Rc::clone(&place_again),
            })
        });
        // The text renders before the next frame; show and place it then, measured.
        request_animation_frame(move || {
            let still = OPEN.with(|o| o.borrow().as_ref().is_some_and(|open| open.id == id));
            if still && tip.is_connected() {
                let _ = tip.set_attribute("style", "left: 0; top: 0");
                let _ = tip.show_popover();
                place_again();
            }
        });
    }

    /// Closes the popover when it is the open one.
    fn hide(&self) {
        if self.is_open() {
            close_open();
        }
    }

    /// The pointer entered the term.
    fn enter(&self, ev: &web_sys::Event) {
        self.hovered.set(true);
        self.generation.set(self.generation.get().wrapping_add(1));
        if let Some(term) = target_term(ev) {
            self.show(term);
        }
    }

    /// The pointer left: the popover goes a moment later, unless the pointer came back or the
    /// focus is inside.
    fn leave(self: &Rc<Self>) {
        self.hovered.set(false);
        let at = self.generation.get();
        let this = Rc::clone(self);
        crate::tasks::later(LINGER_MS, move || {
            if this.generation.get() == at && !this.focused.get() {
                this.hide();
            }
        });
    }

    /// The focus entered the term (or its link).
    fn focus_in(&self, ev: &web_sys::Event) {
        self.focused.set(true);
        if self.refocusing.get() {
            return;
        }
        if let Some(term) = target_term(ev) {
            self.show(term);
        }
    }

    /// The focus left: the popover goes, unless the focus moved onto its link (inside the
    /// term) or the pointer is on the term.
    fn focus_out(&self, ev: &web_sys::FocusEvent) {
        let next = ev
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        let inside =
            target_term(ev).is_some_and(|term| next.is_some_and(|n| term.contains(Some(&n))));
        if inside {
            return;
        }
        self.focused.set(false);
        if !self.hovered.get() {
            self.hide();
        }
    }

    /// Escape closes the popover; from its link, the focus goes back to the term (without
    /// reopening it), not to the page.
    fn key(&self, ev: &web_sys::KeyboardEvent) {
        if ev.key() != "Escape" {
            return;
        }
        self.hide();
        let Some(term) = target_term(ev) else { return };
        let on_link = document()
            .active_element()
            .is_some_and(|a| a != *term.as_ref() && term.contains(Some(a.as_ref())));
        if on_link {
            self.refocusing.set(true);
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = term.focus_with_options(&options);
            self.refocusing.set(false);
        }
    }
}

/// The term an event is on (its `currentTarget`).
fn target_term(ev: &web_sys::Event) -> Option<HtmlElement> {
    ev.current_target()?.dyn_into::<HtmlElement>().ok()
}

/// A term's popover element.
fn tip_of(term: &HtmlElement) -> Option<HtmlElement> {
    term.query_selector(":scope > .term-tip")
        .ok()
        .flatten()?
        .dyn_into::<HtmlElement>()
        .ok()
}
