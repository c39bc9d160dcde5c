//! What a form view says about its file: that the text must be fixed first, or that form edits
//! drop the file's comments.

use crate::forms::has_comments;
use leptos::prelude::*;

/// The notice above a form.
#[component]
pub fn FormNotice(
    /// The file's text.
    text: Signal<String>,
    /// `nodes`, `pods`, ...: how the note names the file.
    stem: &'static str,
    /// Why the text does not parse, if it does not.
    #[prop(into)]
    error: Signal<Option<String>>,
) -> impl IntoView {
    let comments = Memo::new(move |_| text.with(|t| has_comments(t)));
    move || match error.get() {
        Some(e) => view! {
            <div class="form-unparsed" data-testid="form-unparsed" role="alert">
                <strong>"Fix the text first."</strong>
                " The form edits only a file that parses; the text view shows where it breaks."
                <code class="form-unparsed-reason">{e}</code>
            </div>
        }
        .into_any(),
        None if comments.get() => view! {
            <p class="form-note" data-testid="form-comments-note">
                {format!("Form edits rewrite {stem}.yaml; comments are not kept.")}
            </p>
        }
        .into_any(),
        None => ().into_any(),
    }
}
