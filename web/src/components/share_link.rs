//! Copy link: the address of the page with the whole scenario in its fragment, written to the
//! clipboard, or shown selected in a field where the page may not use the clipboard. The note
//! under the header says which, and warns when the link is longer than chat tools keep.

use crate::link::{CHAT_LIMIT, MAX_LINK};
use crate::state::{AddressBar, LinkCopy, LinkUrl};
use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// How long the "Link copied" note stays (a long link's warning stays until closed).
const COPIED_NOTE_MS: u32 = 6000;

/// Copies the link to what is on screen (or says why it cannot); `presses` counts the
/// button's presses, so that only the last one's note goes away by itself.
pub fn copy_link(address: AddressBar, presses: StoredValue<u64>) {
    presses.update_value(|n| *n += 1);
    let press = presses.get_value();
    match address.link_url() {
        LinkUrl::TooBig(len) => address.copy.set(Some(LinkCopy::TooBig(len))),
        LinkUrl::Url(url) => {
            leptos::task::spawn_local(async move {
                let len = url.chars().count();
                if !write_clipboard(&url).await {
                    address.copy.set(Some(LinkCopy::Manual(url)));
                    return;
                }
                address.copy.set(Some(LinkCopy::Copied(len)));
                if len <= CHAT_LIMIT {
                    TimeoutFuture::new(COPIED_NOTE_MS).await;
                    let same = address
                        .copy
                        .with_untracked(|c| matches!(c, Some(LinkCopy::Copied(_))));
                    if same && presses.get_value() == press {
                        address.copy.set(None);
                    }
                }
            });
        }
    }
}

/// The button in the top bar (in the page's first module: it is on the first screen, and
/// the link's code is there anyway for the address bar).
#[component]
pub fn ShareLink() -> impl IntoView {
    let address = expect_context::<AddressBar>();
    let presses = StoredValue::new(0u64);
    let copy = move |_| copy_link(address, presses);
    view! {
        <button
            class="button"
            data-testid="copy-link"
            title="Copy a link to this scenario at this cycle. The scenario travels in the link itself: nothing is sent to a server."
            on:click=copy
        >
            "Copy link"
        </button>
    }
}

/// The note under the header about the last Copy link.
#[component]
pub fn CopyNote() -> impl IntoView {
    let copy = expect_context::<AddressBar>().copy;
    let field = NodeRef::<leptos::html::Input>::new();
    // The manual field opens selected, ready for Ctrl+C.
    Effect::new(move |_| {
        if let Some(input) = field.get() {
            let _ = input.focus();
            input.select();
        }
    });
    let long = |len: usize| {
        (len > CHAT_LIMIT).then(|| {
            view! {
                <p class="link-long" data-testid="link-long">
                    {format!(
                        "This link is {len} characters long. Many chat tools and some browsers keep only about {CHAT_LIMIT} characters of a link, so it may arrive cut off: share a file from Export instead (or a gallery example left as it is, whose link is short)."
                    )}
                </p>
            }
        })
    };
    move || {
        copy.get().map(|outcome| {
            let (kind, title, body) = match &outcome {
                LinkCopy::Copied(len) => (
                    "copied",
                    "Link copied",
                    format!(
                        "{len} characters. The scenario, the seed and the cycle on screen are in the link itself: nothing is sent to a server."
                    ),
                ),
                LinkCopy::Manual(url) => (
                    "manual",
                    "Copy this link",
                    format!(
                        "This page may not use the clipboard here. The link ({} characters) is selected below: press Ctrl+C (⌘C on a Mac).",
                        url.chars().count()
                    ),
                ),
                LinkCopy::TooBig(len) => (
                    "too-big",
                    "Too big for a link",
                    if *len == usize::MAX {
                        format!(
                            "This scenario is more than {} MB of text, more than a link may carry. Use Export to share it as a file.",
                            crate::link::MAX_SCENARIO >> 20
                        )
                    } else {
                        format!(
                            "This scenario makes a link of {len} characters, more than the {MAX_LINK} browsers open. Use Export to share it as a file."
                        )
                    },
                ),
            };
            let field_view = match &outcome {
                LinkCopy::Manual(url) => Some(view! {
                    <input
                        class="link-field"
                        type="text"
                        readonly=true
                        data-testid="link-field"
                        aria-label="Link to this scenario"
                        prop:value=url.clone()
                        node_ref=field
                        on:focus=move |ev| {
                            event_target::<web_sys::HtmlInputElement>(&ev).select();
                        }
                    />
                }),
                _ => None,
            };
            let warning = match &outcome {
                LinkCopy::Copied(len) => long(*len),
                LinkCopy::Manual(url) => long(url.chars().count()),
                LinkCopy::TooBig(_) => None,
            };
            view! {
                <div class="link-banner copy" data-testid="link-panel" data-outcome=kind role="status">
                    <span class="link-copy-text">
                        <span>
                            <strong>{title}</strong>
                            " · "
                            {body}
                        </span>
                        {field_view}
                        {warning}
                    </span>
                    <button
                        class="link"
                        aria-label="Close"
                        data-testid="link-panel-close"
                        on:click=move |_| copy.set(None)
                    >
                        "×"
                    </button>
                </div>
            }
        })
    }
}

/// `navigator.clipboard.writeText`, where the browser offers it (a secure context) and allows
/// it; false otherwise.
async fn write_clipboard(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let get = |target: &JsValue, name: &str| js_sys::Reflect::get(target, &JsValue::from_str(name));
    let Ok(clipboard) = get(&window, "navigator").and_then(|n| get(&n, "clipboard")) else {
        return false;
    };
    if clipboard.is_undefined() || clipboard.is_null() {
        return false;
    }
    let Some(write) = get(&clipboard, "writeText")
        .ok()
        .and_then(|w| w.dyn_into::<js_sys::Function>().ok())
    else {
        return false;
    };
    let Some(promise) = write
        .call1(&clipboard, &JsValue::from_str(text))
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}
