//! Under the header: a save the browser refused, the question a link asks when the tab holds other edited work, why a
//! link could not be opened (or what was wrong with it), a gallery example being fetched (or
//! why it could not be), and what Copy link did.

use super::share_link::CopyNote;
use crate::state::Playground;
use leptos::prelude::*;

/// The banners (nothing when there is nothing to say).
#[component]
pub fn LinkBanner() -> impl IntoView {
    let state = expect_context::<Playground>();
    let something_to_say = move || {
        state.save_problem.with(Option::is_some)
            || state.link_conflict.with(Option::is_some)
            || state.link_message.with(Option::is_some)
            || state.fetching.with(Option::is_some)
            || state.fetch_error.with(Option::is_some)
    };
    // What Copy link did is drawn at once: its field must be on the page when it takes the focus.
    view! {
        {super::on_demand_once(something_to_say, link_banner_view)}
        <CopyNote/>
    }
}

split_point! {
    /// A split point (`#[lazy]`): this view's code, fetched when first drawn.
    fn link_banner_view() -> AnyView {
        view! { <LinkBannerNow /> }.into_any()
    }
}

/// What the component draws once its code is here.
#[component]
fn LinkBannerNow() -> impl IntoView {
    let state = expect_context::<Playground>();
    let conflict = move || {
        state.link_conflict.get().is_some().then(|| {
            view! {
                <div class="link-banner conflict" role="alert" data-testid="link-conflict">
                    <span>
                        <strong>"You opened a link, but this tab holds edited work that differs from it."</strong>
                        " Your work stays on screen until you choose: restore your work (the link is dropped), or open the link (it replaces your work in this tab)."
                    </span>
                    <span class="link-banner-actions">
                        <button class="button" data-testid="link-keep" on:click=move |_| state.keep_work()>
                            "Restore my work"
                        </button>
                        <button class="button primary" data-testid="link-open" on:click=move |_| state.open_link()>
                            "Open the link"
                        </button>
                    </span>
                </div>
            }
        })
    };
    let message = move || {
        state.link_message.get().map(|m| {
            view! {
                <div
                    class=if m.error { "link-banner error" } else { "link-banner warn" }
                    role="alert"
                    data-testid="link-message"
                    data-error=m.error.to_string()
                >
                    <span>{m.text}</span>
                    <button
                        class="link"
                        aria-label="Dismiss"
                        data-testid="link-message-dismiss"
                        on:click=move |_| state.link_message.set(None)
                    >
                        "×"
                    </button>
                </div>
            }
        })
    };
    // A save the browser refused: the work is on screen only.
    let unsaved = move || {
        state.save_problem.get().map(|text| {
            view! {
                <div class="link-banner error" role="alert" data-testid="save-problem">
                    <span>{text}</span>
                </div>
            }
        })
    };
    // A gallery example (for a pick, a lesson or a link) on its way.
    let fetching = move || {
        state.fetching.get().map(|name| {
            view! {
                <div class="link-banner fetching" role="status" data-testid="gallery-loading">
                    <span>{format!("Loading the {name} example…")}</span>
                </div>
            }
        })
    };
    // It could not be fetched: the editors are as they were.
    let fetch_error = move || {
        state.fetch_error.get().map(|failure| {
            view! {
                <div class="link-banner error" role="alert" data-testid="gallery-error">
                    <span>{failure.text}</span>
                    <span class="link-banner-actions">
                        <button
                            class="button"
                            data-testid="gallery-retry"
                            on:click=move |_| {
                                // Edited texts are the user's work: replace them only when they agree.
                                let agreed = !state.is_edited()
                                    || window()
                                        .confirm_with_message("Replace your edited texts with this example?")
                                        .unwrap_or(false);
                                if agreed {
                                    state.retry_fetch();
                                }
                            }
                        >
                            "Try again"
                        </button>
                        <button
                            class="link"
                            aria-label="Dismiss"
                            data-testid="gallery-error-dismiss"
                            on:click=move |_| state.fetch_error.set(None)
                        >
                            "×"
                        </button>
                    </span>
                </div>
            }
        })
    };
    view! {
        {unsaved}
        {conflict}
        {message}
        {fetching}
        {fetch_error}
    }
}
