//! The page's state, in small contexts, each provided on its own with its own actions, so that
//! a component takes only what it reads ([`provide`] makes them once, for [`crate::App`]):
//!
//! - [`Editors`] ([`editors`]): the work ([`Work`]: the five texts, their example, the seed),
//!   the tab on screen, and every change to the work with Undo and Redo;
//! - [`Loads`] ([`loads`]): the run of the work in the engine, its errors and progress;
//! - [`RunPosition`] ([`position`]): the loaded run's facts, the frame on screen, stepping,
//!   the phase walk and the ticker (where each control moves: [`stepping`], pure);
//! - [`Selected`] ([`selection`]) and [`CycleInspector`] ([`inspection`]);
//! - [`OpenLesson`] ([`lesson`]), [`Picker`] ([`picker`]: the gallery, Reset) and
//!   [`ExampleFetch`] ([`fetch`]: examples fetched on demand);
//! - [`AddressBar`] ([`address`]) and [`Opening`] ([`opening`]: a link's view or a lesson's
//!   stop, once its run is loaded);
//! - [`SavedWork`] ([`saved`], over `storage`: `sessionStorage` per tab), [`RecentWork`]
//!   ([`recent`]: closed tabs' work, which each tab keeps in `localStorage`: [`tab_copy`]),
//!   [`Notice`] and [`HelpOpen`].
//!
//! The run itself lives in the engine ([`crate::engine`], in a Web Worker where one starts): an
//! action sends it a request (load these texts, go to this step, inspect this cycle) and shows
//! the reply. Views read signals and call actions; they never run the scheduler themselves.

pub mod address;
pub mod editors;
pub mod fetch;
pub mod help;
pub mod inspection;
pub mod lesson;
pub mod loads;
mod location;
pub mod notice;
pub mod opening;
pub mod picker;
pub mod position;
pub mod recent;
pub mod saved;
pub mod selection;
pub mod start;
pub mod stepping;
mod storage;
pub mod tab_copy;
pub mod work;

pub use address::{AddressBar, LinkCopy, LinkUrl};
pub use editors::Editors;
pub use fetch::ExampleFetch;
pub use help::HelpOpen;
pub use inspection::CycleInspector;
pub use lesson::OpenLesson;
pub use loads::Loads;
pub use notice::Notice;
pub use opening::Opening;
pub use picker::Picker;
pub use position::{RunPosition, SPEEDS};
pub use recent::RecentWork;
pub use saved::SavedWork;
pub use selection::{Selected, Selection};
pub use stepping::{InspectTarget, Inspected};
pub use work::Work;

use crate::embed::PageMode;
use leptos::prelude::*;

/// Reads how the page starts ([`start::Start`]), makes every context and provides each, then
/// sends the first load and starts following the address bar.
pub fn provide(mode: PageMode) {
    let problem = RwSignal::new(None);
    storage::on_save(tab_copy::changed);
    let start = start::Start::read(mode, problem);
    let work = Work::new(&start.shared);
    let position = RunPosition::default();
    let selected = Selected::new(position);
    let inspector = CycleInspector::new(position);
    let opening = Opening::new(position, start.view, start.lesson.is_some(), start.message);
    let notice = Notice::default();
    let loads = Loads::new(work, position, opening);
    let editors = Editors::new(work, loads, position, selected, opening, notice);
    let fetch = ExampleFetch::new(editors, notice);
    let lesson = OpenLesson::new(start.lesson, editors, fetch, loads, opening, position);
    let picker = Picker::new(editors, fetch, lesson);
    let parts = address::Parts {
        editors,
        fetch,
        lesson,
        loads,
        opening,
        position,
    };
    let address = AddressBar::new(parts, start.conflict, start.restore_failed);
    let recent = RecentWork::new(address, editors, notice, start.offer_recent);
    provide_context(mode);
    provide_context(SavedWork { problem });
    provide_context(HelpOpen(RwSignal::new(false)));
    provide_context(notice);
    provide_context(position);
    provide_context(selected);
    provide_context(inspector);
    provide_context(opening);
    provide_context(loads);
    provide_context(editors);
    provide_context(fetch);
    provide_context(lesson);
    provide_context(picker);
    provide_context(address);
    provide_context(recent);
    loads.start(start.valid);
    address.watch();
}
