//! The side of the engine that holds the session: it reads the editors' texts (rereading only
//! the files that changed), builds the scenario, runs it to its end in slices, and answers the
//! page's requests about it. It runs in the session worker or on the page's thread (see [`super`])
//! and talks only through [`Request`]s and [`Reply`]s.
//!
//! A load goes in tasks of at most some 16 ms each, so that whatever thread holds the host
//! stays responsive: a changed list of 2000 items or more is read a chunk of items at a time
//! ([`ListReader`]), each other big text in a task of its own, then the scenario is built, then
//! the session is made and run in slices, and shown in a task of its own. A newer load stops
//! one still going (its reading and its run alike). A failed load keeps the last valid session.

use super::protocol::{Handler, Load, Reply, Request};
use crate::analysis;
use crate::base::{EditorFile, PAGE_MAX_TEXT};
use crate::plugins::CustomPluginFact;
use crate::session::Session;
use crate::tasks::now_ms;
use schedlab_core::input::{read_source, Inputs, ListReader};
use schedlab_core::scheduler::extenders::PendingCall;
use schedlab_core::scheduler::v1_35::with_custom_plugins;
use schedlab_core::{Diagnostic, Scenario, Source};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::Arc;

/// Cycles simulated between two looks at the clock while loading a big scenario.
const LOAD_CHUNK: usize = 4;
/// Loading yields after this long, so the thread that holds the host never freezes (a slice
/// also takes the checkpoint it reaches: some 30 ms on big-cluster).
const LOAD_SLICE_MS: f64 = 16.0;
/// A changed text longer than this that is a plain list of 2000 items or more is read a chunk
/// of items at a time between tasks ([`ListReader`]), not in one go.
const SLICED_READ_BYTES: usize = 256 << 10;
/// Items read between two looks at the clock.
const READ_CHUNK: usize = 100;
/// Pods (bound and pending) past which a new session is made and run in later tasks, not in
/// the task that read its inputs.
const DEFERRED_START_PODS: usize = 2000;

thread_local! {
    static HOST: RefCell<Host> = RefCell::new(Host::default());
    /// Replies made but not yet delivered (they go out once the host is no longer borrowed).
    static OUTBOX: RefCell<Vec<Reply>> = const { RefCell::new(Vec::new()) };
    /// Where replies go: the page's own handler, or the worker's `postMessage`.
    static DELIVER: RefCell<Option<Handler>> = const { RefCell::new(None) };
    /// Requests not yet handled, oldest first ([`handle`]).
    static WAITING: RefCell<VecDeque<Request>> = const { RefCell::new(VecDeque::new()) };
    /// Whether a task is handling [`WAITING`]'s requests.
    static HANDLING: Cell<bool> = const { Cell::new(false) };
    /// The plugins of the Plugins program last read, for the session that runs it.
    static REGISTERED: RefCell<Vec<CustomPluginFact>> = const { RefCell::new(Vec::new()) };
}

/// Sends the host's replies to `deliver`.
pub fn set_delivery(deliver: impl Fn(Reply) + 'static) {
    DELIVER.with_borrow_mut(|d| *d = Some(Box::new(deliver)));
}

/// Handles `request` once the host's code is loaded (its own chunk of the wasm: see
/// [`handle_now`]), in the order the requests came, and delivers the replies each made.
pub fn handle(request: Request) {
    WAITING.with_borrow_mut(|w| w.push_back(request));
    if HANDLING.replace(true) {
        return; // the running task takes it in turn
    }
    wasm_bindgen_futures::spawn_local(async {
        while let Some(request) = WAITING.with_borrow_mut(VecDeque::pop_front) {
            handle_now(request).await;
        }
        HANDLING.set(false);
    });
}

split_point! {
    /// Handles `request` and delivers its replies. A split point (`#[lazy]`): the host, the engine
    /// and the input readers are fetched on the first request, not in the page's first load.
    fn handle_now(request: Request) {
        HOST.with_borrow_mut(|host| host.handle(request));
        deliver_replies();
    }
}

fn post(reply: Reply) {
    OUTBOX.with_borrow_mut(|o| o.push(reply));
}

fn deliver_replies() {
    loop {
        let replies = OUTBOX.take();
        if replies.is_empty() {
            return;
        }
        for reply in replies {
            DELIVER.with_borrow(|d| {
                if let Some(deliver) = d {
                    deliver(reply)
                }
            });
        }
    }
}

/// Runs `f` on the host in a task of its own, unless a newer load started meanwhile.
fn later(generation: u64, f: impl FnOnce(&mut Host) + 'static) {
    crate::tasks::later(0, move || {
        HOST.with_borrow_mut(|host| {
            if host.generation == generation {
                f(host)
            }
        });
        deliver_replies();
    });
}

/// Makes the extender calls the run of `session` paused at (the page's `fetch`: nothing else
/// answers them), then, unless a newer load started meanwhile, adds what came back and runs
/// on from where it paused.
fn call_extenders(session: Session, load: Load, calls: Vec<PendingCall>) {
    let generation = load.generation;
    post(Reply::Calling {
        generation,
        urls: calls.iter().map(|c| c.url.clone()).collect(),
        made: session.live_calls(),
    });
    schedlab_fetch::call_all(calls, move |made| {
        HOST.with_borrow_mut(|host| {
            if host.generation == generation {
                let mut session = session;
                for (call, exchange, ms) in made {
                    session.add_exchange(&call, exchange, ms);
                }
                host.continue_loading(session, load, true);
            }
        });
        deliver_replies();
    });
}

/// The session and what it was made from.
#[derive(Default)]
struct Host {
    /// The last loaded session.
    session: Option<Session>,
    /// Each editor's last text and what it read to: an edit rereads only its own file.
    parsed: Vec<Option<ParsedFile>>,
    /// The newest load's generation: work for an older one stops.
    generation: u64,
}

impl Host {
    fn handle(&mut self, request: Request) {
        match request {
            Request::Load(load) => {
                self.generation = load.generation;
                if load.sliced {
                    self.read_in_slices(load)
                } else {
                    self.read_and_start(load)
                }
            }
            Request::Forget { generation } => {
                self.generation = generation;
                self.session = None;
            }
            Request::GoTo {
                id,
                position,
                prefetch,
            } => {
                let frame = self.session.as_mut().map(|s| {
                    s.go_to(position);
                    if prefetch {
                        s.prefetch_next_cycle();
                    }
                    Arc::new(s.frame())
                });
                post(Reply::Frame { id, frame });
            }
            Request::Inspect { id, cycle } => {
                let inspection = self.session.as_ref().and_then(|s| {
                    let detail = s.cycle_detail(cycle)?;
                    let (trace, cluster, claims) = &*detail;
                    let mut inspection =
                        analysis::inspect_cycle(trace, cluster, claims, &s.info, cycle);
                    if let Some(view) = inspection.cycle.as_mut() {
                        let bind = s.bind_call(cycle);
                        crate::extender_view::add_to_cycle(view, trace, cluster, bind.as_ref());
                    }
                    Some(Box::new(inspection))
                });
                post(Reply::Inspection { id, inspection });
            }
            Request::Export { id, what } => {
                let text = self.session.as_ref().map(|s| what.of(s));
                post(Reply::Exported { id, text });
            }
        }
    }

    /// Reads each big list that changed a chunk of items at a time ([`SLICED_READ_BYTES`]),
    /// then the rest, and starts the run.
    fn read_in_slices(&mut self, load: Load) {
        let names = source_names(&load.texts);
        self.parsed.resize_with(load.texts.len(), || None);
        let fresh = (0..load.texts.len()).find(|&i| {
            (SLICED_READ_BYTES..=PAGE_MAX_TEXT).contains(&load.texts[i].len())
                && self.parsed[i]
                    .as_ref()
                    .is_none_or(|p| !p.is_of(&names[i], &load.texts[i]))
        });
        let Some(index) = fresh else {
            self.read_and_start(load);
            return;
        };
        match ListReader::new(&names[index], &load.texts[index]) {
            Some(reader) => self.continue_reading(reader, index, load),
            None => {
                // Not a list to read in parts: read it in a task of its own.
                let src = Source {
                    name: &names[index],
                    text: &load.texts[index],
                };
                let read = read_within_page_limit(&src);
                self.parsed[index] = Some(ParsedFile {
                    name: names[index].clone(),
                    text: load.texts[index].clone(),
                    read,
                });
                later(load.generation, |host| host.read_in_slices(load));
            }
        }
    }

    /// Reads more of editor `index`'s list; once it is read, keeps it as that editor's read
    /// and goes on (in a later task) with the rest of the load.
    fn continue_reading(&mut self, mut reader: ListReader, index: usize, load: Load) {
        let started = now_ms();
        loop {
            match reader.read_some(READ_CHUNK) {
                // An item that does not parse: the whole text is read at once, which words
                // the error.
                None => {
                    self.read_and_start(load);
                    return;
                }
                Some(true) => {
                    let (name, text) = (reader.name().to_string(), reader.text().to_string());
                    let read = reader.finish();
                    self.parsed[index] = Some(ParsedFile { name, text, read });
                    break;
                }
                Some(false) if now_ms() - started > LOAD_SLICE_MS => {
                    let (read, of) = reader.progress();
                    post(Reply::Reading {
                        generation: load.generation,
                        file: reader.name().to_string(),
                        read,
                        of,
                    });
                    later(load.generation, move |host| {
                        host.continue_reading(reader, index, load)
                    });
                    return;
                }
                Some(false) => {}
            }
        }
        later(load.generation, |host| host.read_in_slices(load));
    }

    /// Reads what is left of the texts and starts the run; or says what is wrong with them
    /// (and then starts the run of `load.fallback`, if it has one that reads).
    fn read_and_start(&mut self, load: Load) {
        let generation = load.generation;
        let read = if load.stuck {
            Err(vec![Diagnostic::new(
                &EditorFile::Plugins.source_name(""),
                "",
                format!(
                    "the engine stopped answering for {} s while it ran these plugins (does a plugin loop forever?): it was stopped, and the plugins are not run again until this program changes",
                    super::protocol::STUCK_MS / 1000
                ),
            )])
        } else {
            self.read_cached(&load.texts)
        };
        match read {
            Ok(scenario) => {
                post(Reply::Valid { generation });
                self.start(scenario, load);
            }
            Err(errors) => {
                let fallback = load.fallback.as_deref().and_then(|t| self::load(t).ok());
                post(Reply::Failed {
                    generation,
                    errors,
                    fallback: fallback.is_some(),
                });
                if let Some(scenario) = fallback {
                    self.start(scenario, load);
                }
            }
        }
    }

    /// [`load`], rereading only the files whose text changed since the last call.
    fn read_cached(&mut self, texts: &[String]) -> Result<Scenario, Vec<Diagnostic>> {
        let names = source_names(texts);
        let sources = sources(&names, texts);
        let mut inputs = Inputs::default();
        let mut errors = Vec::new();
        self.parsed.resize_with(texts.len(), || None);
        for (parsed, src) in self.parsed.iter_mut().zip(&sources) {
            if parsed.as_ref().is_none_or(|p| !p.is_of(src.name, src.text)) {
                *parsed = Some(ParsedFile {
                    name: src.name.to_string(),
                    text: src.text.to_string(),
                    read: read_within_page_limit(src),
                });
            }
            match parsed.as_ref().map(|p| &p.read) {
                Some(Ok(read)) => inputs.append(read.clone()),
                Some(Err(e)) => errors.extend(e.iter().cloned()),
                None => {}
            }
        }
        assemble(inputs, errors, &names, &sources)
    }

    /// Runs a new session to its end in slices, then shows it at `load.position` (clamped).
    fn start(&mut self, mut scenario: Scenario, load: Load) {
        scenario.extender_nodeinfo_fix = load.extender_nodeinfo_fix;
        let plugins = REGISTERED.with(|r| r.take());
        if scenario.cluster.pods().len() <= DEFERRED_START_PODS {
            let session = Session::new(scenario, load.seed).with_custom_plugins(plugins);
            self.continue_loading(session, load, false);
            return;
        }
        // A big one: the session is made in a task of its own, and runs from the one after.
        post(Reply::Running {
            generation: load.generation,
            cycles: 0,
        });
        later(load.generation, move |_| {
            let session = Session::new(scenario, load.seed).with_custom_plugins(plugins);
            later(load.generation, move |host| {
                host.continue_loading(session, load, true)
            });
        });
    }

    /// Runs `session` for a slice of [`LOAD_SLICE_MS`], then again in a later task, until its
    /// end. A `sliced` load (a big one, or one that has already yielded) is shown in a task of
    /// its own too.
    fn continue_loading(&mut self, mut session: Session, load: Load, sliced: bool) {
        let started = now_ms();
        loop {
            if session.run_some(LOAD_CHUNK) {
                if sliced || now_ms() - started > LOAD_SLICE_MS / 2.0 {
                    // Showing the run takes a task of its own.
                    post(Reply::Running {
                        generation: load.generation,
                        cycles: session.cycles_known(),
                    });
                    later(load.generation, move |host| {
                        host.finish_loading(session, load)
                    });
                    return;
                }
                break;
            }
            let awaited = session.take_awaited_calls();
            if !awaited.is_empty() {
                call_extenders(session, load, awaited);
                return;
            }
            if now_ms() - started > LOAD_SLICE_MS {
                post(Reply::Running {
                    generation: load.generation,
                    cycles: session.cycles_known(),
                });
                later(load.generation, move |host| {
                    host.continue_loading(session, load, true)
                });
                return;
            }
        }
        self.finish_loading(session, load);
    }

    /// Keeps a session that ran to its end, at `load.position` (clamped), and shows it.
    fn finish_loading(&mut self, mut session: Session, load: Load) {
        session.go_to(load.position);
        let info = Arc::clone(&session.info);
        let frame = Arc::new(session.frame());
        self.session = Some(session);
        post(Reply::Loaded {
            generation: load.generation,
            info,
            frame,
        });
    }
}

/// The file name each editor's text is read under (`nodes.yaml`, `policy.json`, ...).
fn source_names(texts: &[String]) -> Vec<String> {
    EditorFile::ALL
        .iter()
        .zip(texts)
        .map(|(f, t)| f.source_name(t))
        .collect()
}

/// The editors' texts as sources for the core.
fn sources<'a>(names: &'a [String], texts: &'a [String]) -> Vec<Source<'a>> {
    names
        .iter()
        .zip(texts)
        .map(|(name, text)| Source { name, text })
        .collect()
}

/// [`read_source`], unless the text is over [`PAGE_MAX_TEXT`]: then an error that says so (the
/// text stays in its editor, saved).
fn read_within_page_limit(src: &Source) -> Result<Inputs, Vec<Diagnostic>> {
    // The Plugins program is no input of the core's: `assemble` runs it.
    if src.name == EditorFile::Plugins.source_name("") {
        return Ok(Inputs::default());
    }
    if src.text.len() > PAGE_MAX_TEXT {
        return Err(vec![Diagnostic::new(
            src.name,
            "",
            format!(
                "this text is {:.1} MB, more than the {} MB the playground reads per editor; it is kept here, but not run (`schedlab run` reads files of up to 64 MiB)",
                src.text.len() as f64 / 1e6,
                PAGE_MAX_TEXT >> 20
            ),
        )]);
    }
    read_source(src)
}

/// One editor's text as last read.
struct ParsedFile {
    name: String,
    text: String,
    read: Result<Inputs, Vec<Diagnostic>>,
}

impl ParsedFile {
    /// Whether this is the read of `text` under `name` (else the editor's text must be read).
    fn is_of(&self, name: &str, text: &str) -> bool {
        self.name == name && self.text == text
    }
}

/// Reads the texts (in [`EditorFile::ALL`] order) as one scenario.
pub fn load(texts: &[String]) -> Result<Scenario, Vec<Diagnostic>> {
    let names = source_names(texts);
    let sources = sources(&names, texts);
    let mut inputs = Inputs::default();
    let mut errors = Vec::new();
    for src in &sources {
        match read_within_page_limit(src) {
            Ok(read) => inputs.append(read),
            Err(e) => errors.extend(e),
        }
    }
    assemble(inputs, errors, &names, &sources)
}

/// The scenario of the files as read (their objects and their errors).
///
/// kube-scheduler v1.35 reads no Policy: when the inputs hold a v1 configuration, the Policy
/// editor is left out of the scenario (the Policy tab says so), its objects and its errors
/// alike. A Policy typed into another editor stays, and the core reports the mix.
fn assemble(
    mut inputs: Inputs,
    mut errors: Vec<Diagnostic>,
    names: &[String],
    sources: &[Source],
) -> Result<Scenario, Vec<Diagnostic>> {
    crate::misplaced::check(&mut inputs, names, &mut errors);
    if !inputs.modern_configs.is_empty() {
        let policy_file = &names[EditorFile::Policy.index()];
        inputs.policies.retain(|(_, o)| o.file != *policy_file);
        inputs.warnings.retain(|d| d.file != *policy_file);
        errors.retain(|d| d.file != *policy_file);
    }
    let program = sources.get(EditorFile::Plugins.index());
    let registered = match program.map_or(Ok(Vec::new()), |p| {
        schedlab_js_plugins::program_plugins(p.text)
    }) {
        Ok(registered) => registered,
        Err(problems) => {
            let file = EditorFile::Plugins.source_name("");
            errors.extend(problems.into_iter().map(|p| {
                let mut d = Diagnostic::new(&file, "", p.message);
                d.line = p.line;
                d
            }));
            Vec::new()
        }
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let plugins: Vec<_> = registered.iter().map(|r| r.plugin.clone()).collect();
    let scenario = with_custom_plugins(&plugins, || Scenario::from_inputs(inputs, sources))?;
    let facts = CustomPluginFact::of(&registered, &scenario.scheduler);
    REGISTERED.with(|r| *r.borrow_mut() = facts);
    Ok(scenario)
}
