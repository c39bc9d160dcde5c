//! Whether the keyboard help is open (`?` opens and closes it, Escape closes it).

use leptos::prelude::*;

/// The help overlay's open flag, provided as context by [`super::provide`].
#[derive(Clone, Copy)]
pub struct HelpOpen(pub RwSignal<bool>);
