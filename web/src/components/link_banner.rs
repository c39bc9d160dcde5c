//! Under the header: a save the browser refused, the question a link asks when the tab holds
//! other edited work, why a link could not be opened (or what was wrong with it), a gallery
//! example being fetched (or why it could not be), what Copy link did, and a new tab's offer
//! of closed tabs' work ([`RecentWorkOffer`]).

use super::recent_work::RecentWorkOffer;
use super::share_link::CopyNote;
use crate::state::{AddressBar, Editors, ExampleFetch, Opening, Picker, RecentWork, SavedWork};
use leptos::prelude::*;

/// The banners (nothing when there is nothing to say).
#[component]
pub fn LinkBanner() -> impl IntoView {
    let opening = expect_context::<Opening>();
    let fetch = expect_context::<ExampleFetch>();
    let address = expect_context::<AddressBar>();
    let saved = expect_context::<SavedWork>();
    let recent = expect_context::<RecentWork>();
    let something_to_say = move || {
        saved.problem.with(Option::is_some)
            || recent.offered.with(|o| !o.is_empty())
            || address.conflict.with(Option::is_some)
            || opening.link_message.with(Option::is_some)
            || fetch.fetching.with(Option::is_some)
            || fetch.error.with(Option::is_some)
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
    let editors = expect_context::<Editors>();
    let opening = expect_context::<Opening>();
    let fetch = expect_context::<ExampleFetch>();
    let picker = expect_context::<Picker>();
    let address = expect_context::<AddressBar>();
    let saved = expect_context::<SavedWork>();
    let conflict = move || {
        address.conflict.get().is_some().then(|| {
            view! {
                <div class="link-banner conflict" role="alert" data-testid="link-conflict">
                    <span>
                        <strong>"You opened a link, but this tab holds edited work that differs from it."</strong>
                        " Your work stays on screen until you choose: restore your work (the link is dropped), or open the link (it replaces your work in this tab)."
                    </span>
                    <span class="link-banner-actions">
                        <button class="button" data-testid="link-keep" on:click=move |_| address.keep_work()>
                            "Restore my work"
                        </button>
                        <button class="button primary" data-testid="link-open" on:click=move |_| address.open_link()>
                            "Open the link"
                        </button>
                    </span>
                </div>
            }
        })
    };
    let message = move || {
        opening.link_message.get().map(|m| {
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
                        on:click=move |_| opening.link_message.set(None)
                    >
                        "×"
                    </button>
                </div>
            }
        })
    };
    // A save the browser refused: the work is on screen only.
    let unsaved = move || {
        saved.problem.get().map(|text| {
            view! {
                <div class="link-banner error" role="alert" data-testid="save-problem">
                    <span>{text}</span>
                </div>
            }
        })
    };
    // A gallery example (for a pick, a lesson or a link) on its way.
    let fetching = move || {
        fetch.fetching.get().map(|name| {
            view! {
                <div class="link-banner fetching" role="status" data-testid="gallery-loading">
                    <span>{format!("Loading the {name} example…")}</span>
                </div>
            }
        })
    };
    // It could not be fetched: the editors are as they were.
    let fetch_error = move || {
        fetch.error.get().map(|failure| {
            view! {
                <div class="link-banner error" role="alert" data-testid="gallery-error">
                    <span>{failure.text}</span>
                    <span class="link-banner-actions">
                        <button
                            class="button"
                            data-testid="gallery-retry"
                            on:click=move |_| {
                                // Edited texts are the user's work: replace them only when they agree.
                                let agreed = !editors.work.is_edited()
                                    || window()
                                        .confirm_with_message("Replace your edited texts with this example?")
                                        .unwrap_or(false);
                                if agreed {
                                    picker.retry_fetch();
                                }
                            }
                        >
                            "Try again"
                        </button>
                        <button
                            class="link"
                            aria-label="Dismiss"
                            data-testid="gallery-error-dismiss"
                            on:click=move |_| fetch.error.set(None)
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
        <RecentWorkOffer/>
    }
}
