//! JavaScript plugins for the v1.35 scheduler, run synchronously on the thread that made them
//! (so results stay deterministic): a plugin object or factory ([`js_plugin`], the JS API's
//! `plugins` option) and the playground's Plugins editor, a program that registers plugins by
//! name ([`program_plugins`]). What a plugin is handed and may answer: [`object`].

mod object;
mod program;

pub use object::js_plugin;
pub use program::{program_plugins, ProgramError, ProgramPlugin, PROGRAM_GLOBALS};
