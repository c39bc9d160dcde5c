//! Links: a whole scenario in the URL fragment, so that sharing a run needs no server.
//!
//! Three forms, all after the `#` (which browsers never send to a server):
//!
//! - `lesson=host-ports&stop=2`: a guided lesson ([`crate::lesson`]) at one of its stops
//!   (counted from 1; the first when `stop` is left out), on its scenario as it is, with the
//!   seed [`SEED`]. The stop says where the run opens, unless view parameters follow (the page
//!   writes them when the user stepped away from the stop);
//! - `example=pdb-steers&cycle=3&phase=findNodesThatFit`: a gallery example by name, when
//!   every editor holds that example's text (an optional `seed=7` changes the seed);
//! - `scenario=<base64url(zlib(JSON))>&cycle=3`: anything else. The JSON holds the format
//!   version, the scheduler (`v1.17`/`v1.35`), the seed, the example the texts started from,
//!   and the text of every editor that differs from that example; an editor that still holds
//!   the example's text travels as a fingerprint of it (a link stays short when one editor
//!   changed, and says so when the example has changed since).
//!
//! The view travels in plain parameters beside any form: `cycle` (counted from 1, as the
//! controls count), `phase` (the function name: `scheduleOne` … `bind`, or `preempt`) and
//! `step` (the position in the run, when it is not the one the cycle and phase imply).
//! Unknown parameters are ignored, so later additions to the fragment do not break old pages.
//!
//! Decoding is bounded: a fragment longer than [`MAX_FRAGMENT`] is refused before anything is
//! decoded, and the decompressed scenario may not exceed [`MAX_SCENARIO`] (a decompression
//! bomb stops there). Every failure is a [`LinkError`] with a sentence for the page; problems
//! that leave the scenario intact (a bad cycle number, an unknown phase) are [`Warning`]s.
//! Pure Rust: no DOM, unit-tested natively.

use crate::analysis::Phase;
use crate::base::{EditorFile, EDITORS, SEED};
use crate::gallery::{Example, Loaded, GALLERY};
use crate::lesson::{LessonAt, Stop, LESSONS};
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;
use schedlab_core::scenario::SchedulerVersion;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The longest fragment decoded (characters after the `#`).
pub const MAX_FRAGMENT: usize = 4 * 1024 * 1024;
/// The longest link written (the whole address): Chromium opens no longer URL (2 MiB).
pub const MAX_LINK: usize = 2 * 1024 * 1024;
/// The most a scenario may decompress to (bytes of JSON).
pub const MAX_SCENARIO: usize = 16 * 1024 * 1024;
/// Links longer than this (the whole address) may be cut by chat tools and some browsers.
pub const CHAT_LIMIT: usize = 2000;
/// The version of the `scenario=` payload this page writes and reads.
pub const FORMAT: u64 = 1;
/// The largest `step` a link may name (runs stop long before it).
const MAX_STEP: u64 = u32::MAX as u64;
/// Parameters read from a fragment; any after these are ignored (a link has at most six).
const MAX_PARAMS: usize = 64;

/// base64url without padding; padding is accepted when decoding.
const B64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// What a link shares: the run's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shared {
    /// The gallery example the texts started from (the page's label and its Reset).
    pub example: String,
    /// Every editor's text, in [`EditorFile::ALL`] order.
    pub texts: [String; EDITORS],
    /// The seed of the tie-break between equally scored nodes.
    pub seed: u64,
}

impl Shared {
    /// A gallery example as it is.
    pub fn of_example(example: Loaded) -> Shared {
        Shared {
            example: example.name().to_string(),
            texts: example.texts().map(String::from),
            seed: SEED,
        }
    }

    /// A lesson's scenario as it is (the gallery example of the same name), with seed
    /// [`SEED`]; `None` while that example's texts are not at hand ([`Example::texts`]).
    pub fn of_lesson(at: LessonAt) -> Option<Shared> {
        at.source().example().texts().map(Shared::of_example)
    }
}

/// Where a link opens the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// The cycle to inspect, as an index (the link's `cycle=1` is index 0).
    pub cycle: Option<usize>,
    /// The phase of that cycle being walked.
    pub phase: Option<Phase>,
    /// The position (steps applied), when it is not the one the cycle and phase imply.
    pub step: Option<usize>,
}

/// The place in the run a lesson's stop shows: its cycle, at its phase.
pub fn stop_view(stop: &Stop) -> View {
    View {
        cycle: Some(stop.index()),
        phase: Some(stop.phase),
        step: None,
    }
}

/// A link, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    /// The inputs.
    pub shared: Shared,
    /// The lesson a `lesson=` link opens, at its stop.
    pub lesson: Option<LessonAt>,
    /// Where to open the run.
    pub view: View,
    /// What was wrong with it without stopping it from opening.
    pub warnings: Vec<Warning>,
}

/// Why a link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// The fragment is longer than [`MAX_FRAGMENT`].
    TooLong(usize),
    /// Parameters, but none of `scenario`, `example` and `lesson`.
    NoScenario,
    /// More than one of `scenario`, `example` and `lesson`.
    Ambiguous,
    /// The scenario is not base64url.
    Base64,
    /// The compressed data is damaged or cut short.
    Corrupt,
    /// The scenario decompresses to more than [`MAX_SCENARIO`].
    TooBig,
    /// The decompressed scenario is not the JSON this page writes.
    Payload(String),
    /// Written by a newer page (its format version).
    Newer(u64),
    /// An example this page does not have.
    UnknownExample(String),
    /// A lesson this page does not have.
    UnknownLesson(String),
    /// A scheduler this page does not have.
    UnknownScheduler(String),
    /// An editor the link gives no text for.
    MissingEditor(&'static str),
    /// A text for an editor this page does not have.
    UnknownEditor(String),
    /// A gallery example whose texts are not at hand: not fetched yet, or the fetch failed
    /// ([`crate::gallery::fetch`]). The page fetches it and reads the link again.
    Unavailable {
        /// The example.
        example: String,
        /// Why its last fetch failed (`None`: it was not fetched yet).
        why: Option<String>,
    },
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::TooLong(n) => write!(
                f,
                "it is {n} characters long, more than the {MAX_FRAGMENT} this page reads"
            ),
            LinkError::NoScenario => {
                f.write_str("it names neither a scenario nor an example nor a lesson")
            }
            LinkError::Ambiguous => {
                f.write_str("it names more than one of a scenario, an example and a lesson")
            }
            LinkError::Base64 => f.write_str(
                "its scenario is not valid base64url text (was the link cut or changed on the way?)",
            ),
            LinkError::Corrupt => f.write_str(
                "its scenario is damaged or cut short (the compressed data does not check out)",
            ),
            LinkError::TooBig => write!(
                f,
                "its scenario unpacks to more than {} MB, the most this page reads",
                MAX_SCENARIO / (1024 * 1024)
            ),
            LinkError::Payload(e) => write!(f, "its scenario is not in the expected form ({e})"),
            LinkError::Newer(v) => write!(
                f,
                "it was made by a newer schedlab (link format {v}; this page reads format {FORMAT})"
            ),
            LinkError::UnknownExample(name) => write!(
                f,
                "it names an example \"{}\" that this page does not have",
                shown(name)
            ),
            LinkError::UnknownLesson(name) => write!(
                f,
                "it names a lesson \"{}\" that this page does not have",
                shown(name)
            ),
            LinkError::UnknownScheduler(s) => write!(
                f,
                "it is for a scheduler \"{}\" that this page does not have",
                shown(s)
            ),
            LinkError::MissingEditor(stem) => write!(f, "it has no text for the {stem} editor"),
            LinkError::UnknownEditor(stem) => write!(
                f,
                "it has a text for an editor \"{}\" that this page does not have",
                shown(stem)
            ),
            LinkError::Unavailable { example, why } => match why {
                Some(why) => write!(f, "the {example} example could not be loaded ({why})"),
                None => write!(f, "the {example} example is not loaded yet"),
            },
        }
    }
}

/// A problem that leaves the scenario intact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// `cycle` is not a cycle number (1, 2, 3, … up to the playground's cycle limit).
    BadCycle(String),
    /// `step` is not a step number.
    BadStep(String),
    /// `seed` is not a seed.
    BadSeed(String),
    /// `phase` names no phase.
    UnknownPhase(String),
    /// A phase without a cycle.
    PhaseWithoutCycle,
    /// `stop` is not a stop number (1, 2, 3, …).
    BadStop(String),
    /// `stop` is past the lesson's last stop.
    StopPastEnd {
        /// The stop the link names (from 1).
        stop: u64,
        /// How many stops the lesson has.
        stops: usize,
    },
    /// An editor taken from an example whose text has changed since the link was made.
    ExampleChanged {
        /// The example.
        example: String,
        /// The editor (its stem).
        editor: &'static str,
    },
    /// The scheduler the link names is not the one its configuration selects.
    SchedulerMismatch {
        /// What the link says.
        link: &'static str,
        /// What the configuration text selects.
        config: &'static str,
    },
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::BadCycle(v) => write!(
                f,
                "\"cycle={}\" is not a cycle number (1, 2, 3, …), so the run opens at its end",
                shown(v)
            ),
            Warning::BadStep(v) => write!(
                f,
                "\"step={}\" is not a step number, so it is ignored",
                shown(v)
            ),
            Warning::BadSeed(v) => write!(
                f,
                "\"seed={}\" is not a seed, so seed {SEED} is used",
                shown(v)
            ),
            Warning::UnknownPhase(v) => write!(
                f,
                "\"phase={}\" is not one of {}, so it is ignored",
                shown(v),
                Phase::ALL.map(|p| p.function()).join(", ")
            ),
            Warning::PhaseWithoutCycle => f.write_str("a phase without a cycle is ignored"),
            Warning::BadStop(v) => write!(
                f,
                "\"stop={}\" is not a stop number (1, 2, 3, …), so the lesson opens at its first stop",
                shown(v)
            ),
            Warning::StopPastEnd { stop, stops } => write!(
                f,
                "this lesson has {stops} stops, not {stop}, so it opens at its last stop"
            ),
            Warning::ExampleChanged { example, editor } => write!(
                f,
                "the {editor} editor came from the \"{example}\" example, which has changed since the link was made: it holds today's version"
            ),
            Warning::SchedulerMismatch { link, config } => write!(
                f,
                "the link says kube-scheduler {link}, but its configuration is for {config}, which runs"
            ),
        }
    }
}

/// The JSON inside `scenario=`.
#[derive(Serialize, Deserialize)]
struct Payload {
    v: u64,
    scheduler: String,
    seed: u64,
    example: String,
    /// The editors that differ from the example, by stem.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    texts: BTreeMap<String, String>,
    /// The editors that hold the example's text: the fingerprint of that text.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    same: BTreeMap<String, String>,
}

/// Only the version, read first so that a newer format is named as such.
#[derive(Deserialize)]
struct Version {
    v: u64,
}

/// The fragment (without `#`) that opens `shared` at `view`.
pub fn encode(shared: &Shared, view: &View) -> String {
    let mut out = encode_scenario(shared);
    out.push_str(&view_params(view));
    out
}

/// The fragment that opens a lesson at its stop: `lesson=NAME&stop=K`, then `view`'s
/// parameters when the page stands somewhere else than the stop.
pub fn encode_lesson(at: LessonAt, view: Option<&View>) -> String {
    let mut out = format!("lesson={}&stop={}", at.source().name, at.stop_index() + 1);
    if let Some(view) = view {
        out.push_str(&view_params(view));
    }
    out
}

/// The scenario part of a fragment: `example=…` when every editor holds that example's text,
/// else `scenario=…`.
pub fn encode_scenario(shared: &Shared) -> String {
    // The page's example is always at hand; one that is not is compared with nothing.
    let example = gallery(&shared.example).and_then(Example::texts);
    if let Some(example) = example {
        let unchanged = EditorFile::ALL
            .iter()
            .all(|f| shared.texts[f.index()] == example.text(*f));
        if unchanged {
            return if shared.seed == SEED {
                format!("example={}", example.name())
            } else {
                format!("example={}&seed={}", example.name(), shared.seed)
            };
        }
    }
    let mut texts = BTreeMap::new();
    let mut same = BTreeMap::new();
    for f in EditorFile::ALL {
        let text = &shared.texts[f.index()];
        if matches!(f, EditorFile::Extenders | EditorFile::Plugins) && text.is_empty() {
            // No extenders' answers, no plugins: the link is the one the page wrote before it
            // had these editors (and pages of then read it).
            continue;
        }
        match example {
            Some(e) if text == e.text(f) => {
                same.insert(f.stem().to_string(), fingerprint(text));
            }
            _ => {
                texts.insert(f.stem().to_string(), text.clone());
            }
        }
    }
    let config = &shared.texts[EditorFile::Config.index()];
    let payload = Payload {
        v: FORMAT,
        scheduler: crate::forms::config::scheduler_of(config)
            .as_str()
            .to_string(),
        seed: shared.seed,
        example: shared.example.clone(),
        texts,
        same,
    };
    let json = serde_json::to_vec(&payload).unwrap_or_default();
    // Small scenarios get the smallest links; big ones a compression that stays quick.
    let level = if json.len() <= 1024 * 1024 { 9 } else { 6 };
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&json, level);
    format!("scenario={}", B64.encode(packed))
}

/// The `&compare=…` parameter: configuration B of the questions panel's comparison
/// (`v1.17`, `v1.35`, or `text.` and its text, zlib-packed and base64url-encoded).
pub fn compare_param(b: &str) -> String {
    if SchedulerVersion::parse(b).is_some() {
        return format!("&compare={b}");
    }
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(b.as_bytes(), 9);
    format!("&compare=text.{}", B64.encode(packed))
}

/// Configuration B named by a fragment's `compare` parameter, if any (and if it unpacks
/// within [`MAX_SCENARIO`] to UTF-8 text).
pub fn decode_compare(fragment: &str) -> Option<String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT {
        return None;
    }
    let (_, value) = params(fragment)
        .into_iter()
        .find(|(k, _)| *k == "compare")?;
    if SchedulerVersion::parse(value).is_some() {
        return Some(value.to_string());
    }
    let packed = B64.decode(value.strip_prefix("text.")?).ok()?;
    let bytes =
        miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MAX_SCENARIO).ok()?;
    String::from_utf8(bytes).ok()
}

/// The view's parameters, each with its leading `&` (empty for the default view: the end).
pub fn view_params(view: &View) -> String {
    let mut out = String::new();
    if let Some(c) = view.cycle {
        out.push_str(&format!("&cycle={}", c + 1));
        if let Some(p) = view.phase {
            out.push_str(&format!("&phase={}", p.function()));
        }
    }
    if let Some(s) = view.step {
        out.push_str(&format!("&step={s}"));
    }
    out
}

/// Reads a fragment (with or without its `#`). `Ok(None)` when it is no link: empty, or an
/// in-page anchor such as `#editor-pods` (no `=`).
pub fn decode(fragment: &str) -> Result<Option<Opened>, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT {
        return Err(LinkError::TooLong(fragment.len()));
    }
    if !fragment.contains('=') {
        return Ok(None);
    }
    let params = params(fragment);
    let get = |key: &str| params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let mut warnings = Vec::new();
    let mut lesson = None;
    let shared = match (get("scenario"), get("example"), get("lesson")) {
        (None, None, None) => return Err(LinkError::NoScenario),
        (Some(packed), None, None) => unpack(packed, &mut warnings)?,
        (None, None, Some(name)) => {
            let at = read_lesson(name, get("stop"), &mut warnings)?;
            lesson = Some(at);
            Shared::of_example(at_hand(at.source().example())?)
        }
        (None, Some(name), None) => {
            let example =
                gallery(name).ok_or_else(|| LinkError::UnknownExample(name.to_string()))?;
            let mut shared = Shared::of_example(at_hand(example)?);
            if let Some(seed) = get("seed") {
                match parse_number(seed) {
                    Some(s) => shared.seed = s,
                    None => warnings.push(Warning::BadSeed(seed.to_string())),
                }
            }
            shared
        }
        _ => return Err(LinkError::Ambiguous),
    };
    let view = match lesson {
        Some(at) if !has_view(&params) => stop_view(at.stop()),
        _ => read_view(&params, &mut warnings),
    };
    Ok(Some(Opened {
        shared,
        lesson,
        view,
        warnings,
    }))
}

/// `lesson=NAME` and its `stop=K` (from 1; the first when absent or unreadable, the last when
/// past the end).
fn read_lesson(
    name: &str,
    stop: Option<&str>,
    warnings: &mut Vec<Warning>,
) -> Result<LessonAt, LinkError> {
    let unknown = || LinkError::UnknownLesson(name.to_string());
    let index = LESSONS
        .iter()
        .position(|l| l.name == name)
        .ok_or_else(unknown)?;
    let first = LessonAt::new(index, 0).ok_or_else(unknown)?;
    let stops = first.lesson().stops.len();
    let Some(stop) = stop else {
        return Ok(first);
    };
    Ok(match parse_number(stop) {
        Some(k) if k >= 1 && k <= stops as u64 => first.at_stop(k as usize - 1).unwrap_or(first),
        Some(k) if k > stops as u64 => {
            warnings.push(Warning::StopPastEnd { stop: k, stops });
            first.at_stop(stops - 1).unwrap_or(first)
        }
        _ => {
            warnings.push(Warning::BadStop(stop.to_string()));
            first
        }
    })
}

/// Whether the fragment says where the run stands (`cycle`, `phase` or `step`).
fn has_view(params: &[(&str, &str)]) -> bool {
    params
        .iter()
        .any(|(k, _)| matches!(*k, "cycle" | "phase" | "step"))
}

/// Only the view of a fragment (problems ignored): for a fragment this page wrote itself. A
/// lesson's fragment without view parameters stands at its stop.
pub fn decode_view(fragment: &str) -> View {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_FRAGMENT {
        return View::default();
    }
    let params = params(fragment);
    let get = |key: &str| params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    if let Some(name) = get("lesson").filter(|_| !has_view(&params)) {
        if let Ok(at) = read_lesson(name, get("stop"), &mut Vec::new()) {
            return stop_view(at.stop());
        }
    }
    read_view(&params, &mut Vec::new())
}

/// A short fingerprint of a text: 64-bit FNV-1a, in hex. Tells whether a text changed; it is
/// no protection against anyone.
pub fn fingerprint(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The name of a phase in a link.
pub fn phase_named(name: &str) -> Option<Phase> {
    Phase::ALL
        .into_iter()
        .find(|p| p.function().eq_ignore_ascii_case(name))
}

/// A value from a link as a message quotes it: at most 40 characters.
fn shown(value: &str) -> String {
    const MAX: usize = 40;
    if value.chars().count() <= MAX {
        value.to_string()
    } else {
        let cut: String = value.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

fn gallery(name: &str) -> Option<&'static Example> {
    GALLERY.iter().find(|e| e.name == name)
}

/// A gallery example's texts, or why the link cannot be read without them yet.
fn at_hand(example: &'static Example) -> Result<Loaded, LinkError> {
    example.texts().ok_or_else(|| LinkError::Unavailable {
        example: example.name.to_string(),
        why: crate::gallery::failure(example.name),
    })
}

/// The gallery example a fragment needs the texts of before it can be read (`None` when it
/// needs none, or they are at hand): [`decode`] answers [`LinkError::Unavailable`] for it.
pub fn example_needed(fragment: &str) -> Option<&'static Example> {
    match decode(fragment) {
        Err(LinkError::Unavailable { example, .. }) => gallery(&example),
        _ => None,
    }
}

/// The first [`MAX_PARAMS`] `key=value` pairs, in order (a part without `=` has an empty
/// value).
fn params(fragment: &str) -> Vec<(&str, &str)> {
    fragment
        .split('&')
        .filter(|p| !p.is_empty())
        .take(MAX_PARAMS)
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect()
}

/// A whole number written with digits only (no sign, no exponent), within `u64`.
fn parse_number(text: &str) -> Option<u64> {
    if text.is_empty() || text.len() > 20 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn read_view(params: &[(&str, &str)], warnings: &mut Vec<Warning>) -> View {
    let get = |key: &str| params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let mut view = View::default();
    if let Some(c) = get("cycle") {
        let max = crate::session::MAX_CYCLES as u64;
        match parse_number(c) {
            Some(n) if (1..=max).contains(&n) => view.cycle = Some(n as usize - 1),
            _ => warnings.push(Warning::BadCycle(c.to_string())),
        }
    }
    if let Some(p) = get("phase") {
        match (phase_named(p), view.cycle) {
            (Some(phase), Some(_)) => view.phase = Some(phase),
            (Some(_), None) => warnings.push(Warning::PhaseWithoutCycle),
            (None, _) => warnings.push(Warning::UnknownPhase(p.to_string())),
        }
    }
    if let Some(s) = get("step") {
        match parse_number(s) {
            Some(n) if n <= MAX_STEP => view.step = Some(n as usize),
            _ => warnings.push(Warning::BadStep(s.to_string())),
        }
    }
    view
}

/// `scenario=` back into texts.
fn unpack(packed: &str, warnings: &mut Vec<Warning>) -> Result<Shared, LinkError> {
    // Some mail and chat tools wrap long lines: whitespace is not part of base64url.
    let compact: String = packed.split_ascii_whitespace().collect();
    if compact.is_empty() {
        return Err(LinkError::Base64);
    }
    let packed = B64.decode(compact).map_err(|_| LinkError::Base64)?;
    let json = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&packed, MAX_SCENARIO)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooBig,
            _ => LinkError::Corrupt,
        })?;
    let version: Version =
        serde_json::from_slice(&json).map_err(|e| LinkError::Payload(e.to_string()))?;
    if version.v > FORMAT {
        return Err(LinkError::Newer(version.v));
    }
    if version.v == 0 {
        return Err(LinkError::Payload("format version 0".into()));
    }
    let payload: Payload =
        serde_json::from_slice(&json).map_err(|e| LinkError::Payload(e.to_string()))?;
    drop(json);
    let scheduler = SchedulerVersion::parse(&payload.scheduler)
        .ok_or_else(|| LinkError::UnknownScheduler(payload.scheduler.clone()))?;
    for stem in payload.texts.keys().chain(payload.same.keys()) {
        if !EditorFile::ALL.iter().any(|f| f.stem() == stem) {
            return Err(LinkError::UnknownEditor(stem.clone()));
        }
    }
    // The example the texts started from: the page compares the editors with it (whether
    // they are edited, Reset), so its texts must be at hand even when the link holds every
    // editor's text.
    let example = gallery(&payload.example).map(at_hand).transpose()?;
    let mut texts: [String; EDITORS] = Default::default();
    for f in EditorFile::ALL {
        let text = if let Some(t) = payload.texts.get(f.stem()) {
            t.clone()
        } else if let Some(print) = payload.same.get(f.stem()) {
            let example =
                example.ok_or_else(|| LinkError::UnknownExample(payload.example.clone()))?;
            let text = example.text(f);
            if fingerprint(text) != *print {
                warnings.push(Warning::ExampleChanged {
                    example: example.name().to_string(),
                    editor: f.stem(),
                });
            }
            text.to_string()
        } else if matches!(
            f,
            EditorFile::Devices | EditorFile::Extenders | EditorFile::Plugins
        ) {
            // A link written before the page had a Devices, an Extenders or a Plugins editor:
            // it had none.
            String::new()
        } else {
            return Err(LinkError::MissingEditor(f.stem()));
        };
        texts[f.index()] = text;
    }
    let config = crate::forms::config::scheduler_of(&texts[EditorFile::Config.index()]);
    if config != scheduler {
        warnings.push(Warning::SchedulerMismatch {
            link: scheduler.as_str(),
            config: config.as_str(),
        });
    }
    Ok(Shared {
        // A label the gallery does not know falls back to the first example (only the
        // label and Reset use it; the texts are the link's).
        example: example.map_or(GALLERY[0].name, Loaded::name).to_string(),
        texts,
        seed: payload.seed,
    })
}

#[cfg(test)]
mod compare_tests {
    use super::*;

    #[test]
    fn a_comparison_travels_in_the_link_beside_the_scenario() {
        let fragment = format!("example=classic{}", compare_param("v1.35"));
        assert_eq!(fragment, "example=classic&compare=v1.35");
        assert_eq!(decode_compare(&fragment).as_deref(), Some("v1.35"));
        let text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
        let fragment = format!("scenario=abc&cycle=2{}", compare_param(text));
        assert_eq!(decode_compare(&fragment).as_deref(), Some(text));
        // The scenario's own parameters still read as before.
        assert_eq!(decode_view(&fragment).cycle, Some(1));
        assert_eq!(decode_compare("example=classic"), None);
        assert_eq!(decode_compare("example=classic&compare=text.%%%"), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSIC_NODES: &str = include_str!("../../assets/scenarios/classic/nodes.yaml");
    const CLASSIC_PODS: &str = include_str!("../../assets/scenarios/classic/pods.yaml");
    const CLASSIC_POLICY: &str = include_str!("../../assets/scenarios/classic/policy.json");
    const V117_CONFIG: &str = include_str!("../../assets/scenarios/config.yaml");
    const PDB_NODES: &str = include_str!("../../assets/scenarios/pdb-steers/nodes.yaml");
    const PDB_PODS: &str = include_str!("../../assets/scenarios/pdb-steers/pods.yaml");

    fn classic() -> Shared {
        Shared {
            example: "classic".into(),
            texts: [
                CLASSIC_NODES.into(),
                CLASSIC_PODS.into(),
                String::new(),
                CLASSIC_POLICY.into(),
                V117_CONFIG.into(),
                String::new(),
                String::new(),
            ],
            seed: 0,
        }
    }

    /// The classic example with db-0 moved to disktype=hdd.
    fn edited() -> Shared {
        let mut s = classic();
        assert!(CLASSIC_PODS.contains("disktype: ssd"));
        s.texts[1] = CLASSIC_PODS.replace("disktype: ssd", "disktype: hdd");
        s
    }

    /// Packs a JSON text the way `scenario=` does.
    fn pack(json: &str) -> String {
        let z = miniz_oxide::deflate::compress_to_vec_zlib(json.as_bytes(), 6);
        format!("scenario={}", B64.encode(z))
    }

    /// The JSON inside an encoded `scenario=` fragment.
    fn unpack_json(fragment: &str) -> serde_json::Value {
        let packed = fragment.strip_prefix("scenario=").unwrap();
        let packed = packed.split('&').next().unwrap();
        let z = B64.decode(packed).unwrap();
        let json = miniz_oxide::inflate::decompress_to_vec_zlib(&z).unwrap();
        serde_json::from_slice(&json).unwrap()
    }

    fn opened(fragment: &str) -> Opened {
        decode(fragment).expect("opens").expect("is a link")
    }

    #[test]
    fn an_edited_scenario_comes_back_whole_with_its_view() {
        let mut shared = edited();
        shared.seed = 7;
        shared.texts[2] =
            "{\"kind\": \"Policy\", \"apiVersion\": \"v1\", \"predicates\": []}\n".into();
        let view = View {
            cycle: Some(3),
            phase: Some(Phase::Filter),
            step: None,
        };
        let fragment = encode(&shared, &view);
        assert!(fragment.starts_with("scenario="), "{fragment}");
        // Index 3 is the fourth cycle, as the controls count.
        assert!(
            fragment.ends_with("&cycle=4&phase=findNodesThatFit"),
            "{fragment}"
        );
        // Only URL-safe characters, nothing that needs escaping in a fragment.
        assert!(fragment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_=&".contains(&b)));
        let back = opened(&format!("#{fragment}"));
        assert_eq!(back.shared, shared);
        assert_eq!(back.view, view);
        assert_eq!(back.warnings, []);
    }

    #[test]
    fn only_the_editors_that_differ_travel_as_text() {
        let fragment = encode_scenario(&edited());
        let json = unpack_json(&fragment);
        assert_eq!(json["v"], 1);
        assert_eq!(json["scheduler"], "v1.17");
        assert_eq!(json["seed"], 0);
        assert_eq!(json["example"], "classic");
        let texts = json["texts"].as_object().unwrap();
        assert_eq!(texts.keys().collect::<Vec<_>>(), ["pods"]);
        let same = json["same"].as_object().unwrap();
        // (The example's empty devices travel by fingerprint too.)
        assert_eq!(
            same.keys().collect::<Vec<_>>(),
            ["config", "devices", "nodes", "policy"]
        );
        assert_eq!(same["nodes"], fingerprint(CLASSIC_NODES));
        // One edited editor keeps an ordinary edit under the chat limit.
        assert!(fragment.len() < CHAT_LIMIT - 100, "{}", fragment.len());
    }

    #[test]
    fn a_v135_scenario_names_its_scheduler() {
        let mut shared = edited();
        shared.texts[EditorFile::Config.index()] =
            include_str!("../../assets/scenarios/config-v1.yaml").into();
        let json = unpack_json(&encode_scenario(&shared));
        assert_eq!(json["scheduler"], "v1.35");
        assert_eq!(opened(&encode_scenario(&shared)).shared, shared);
    }

    #[test]
    fn an_unchanged_example_gets_a_short_link_by_name() {
        assert_eq!(encode(&classic(), &View::default()), "example=classic");
        let view = View {
            cycle: Some(2),
            phase: None,
            step: None,
        };
        assert_eq!(encode(&classic(), &view), "example=classic&cycle=3");
        let mut seeded = classic();
        seeded.seed = 42;
        assert_eq!(
            encode(
                &seeded,
                &View {
                    cycle: Some(0),
                    phase: Some(Phase::Bind),
                    step: Some(9)
                }
            ),
            "example=classic&seed=42&cycle=1&phase=bind&step=9"
        );
    }

    #[test]
    fn a_gallery_link_opens_the_example_on_its_cycle() {
        let back = opened("#example=pdb-steers&cycle=3");
        assert_eq!(back.shared.example, "pdb-steers");
        assert_eq!(back.shared.texts[0], PDB_NODES);
        assert_eq!(back.shared.texts[1], PDB_PODS);
        assert_eq!(back.shared.seed, 0);
        assert_eq!(back.view.cycle, Some(2));
        assert_eq!(back.view.phase, None);
        assert_eq!(back.warnings, []);
        let walked = opened("example=pdb-steers&cycle=3&phase=preempt&seed=5&step=12");
        assert_eq!(walked.view.phase, Some(Phase::Preempt));
        assert_eq!(walked.view.step, Some(12));
        assert_eq!(walked.shared.seed, 5);
        // Parameters the page does not know are left alone; past the 64th, none is read.
        assert_eq!(
            opened("example=classic&embed=1&cycle=1").view.cycle,
            Some(0)
        );
        let crowded = format!("{}example=classic", "x=1&".repeat(64));
        assert_eq!(decode(&crowded), Err(LinkError::NoScenario));
        let fits = format!("{}example=classic", "x=1&".repeat(63));
        assert_eq!(opened(&fits).shared, classic());
    }

    #[test]
    fn a_lesson_link_opens_its_scenario_at_the_stop() {
        // host-ports, stop 2: cycle 2 (ingress-1) at findNodesThatFit, on port-clash as it is.
        let back = opened("#lesson=host-ports&stop=2");
        let at = back.lesson.expect("a lesson");
        assert_eq!(at.source().name, "host-ports");
        assert_eq!(at.stop_index(), 1);
        assert_eq!(back.shared.example, "port-clash");
        assert_eq!(
            back.shared.texts[0],
            include_str!("../../assets/scenarios/port-clash/nodes.yaml")
        );
        assert_eq!(back.shared.seed, SEED);
        assert_eq!(
            back.view,
            View {
                cycle: Some(1),
                phase: Some(Phase::Filter),
                step: None
            }
        );
        assert_eq!(back.warnings, []);
        // No stop: the first. A lesson is written back the same way.
        let first = opened("lesson=schedule-one");
        assert_eq!(first.lesson.map(|l| l.stop_index()), Some(0));
        assert_eq!(first.view, stop_view(first.lesson.unwrap().stop()));
        assert_eq!(first.shared, classic());
        assert_eq!(
            encode_lesson(at, None),
            "lesson=host-ports&stop=2",
            "the stop, counted from 1"
        );
        assert_eq!(opened(&encode_lesson(at, None)), back);
        // Stepped away from the stop: the view follows, and wins over the stop.
        let away = View {
            cycle: Some(3),
            phase: None,
            step: Some(9),
        };
        let fragment = encode_lesson(at, Some(&away));
        assert_eq!(fragment, "lesson=host-ports&stop=2&cycle=4&step=9");
        let back = opened(&fragment);
        assert_eq!(back.lesson, Some(at));
        assert_eq!(back.view, away);
        assert_eq!(decode_view(&fragment), away);
        // A page's own lesson fragment without a view stands at the stop.
        assert_eq!(
            decode_view("#lesson=host-ports&stop=2"),
            stop_view(at.stop())
        );
        // Lessons run with seed 0: a seed parameter is not read.
        assert_eq!(opened("lesson=host-ports&seed=9").shared.seed, SEED);
    }

    #[test]
    fn a_bad_lesson_link_says_what_is_wrong() {
        assert_eq!(
            decode("#lesson=no-such-lesson&stop=2"),
            Err(LinkError::UnknownLesson("no-such-lesson".into()))
        );
        assert_eq!(
            decode("#lesson=no-such-lesson").unwrap_err().to_string(),
            "it names a lesson \"no-such-lesson\" that this page does not have"
        );
        let long = format!("#lesson={}", "y".repeat(5000));
        assert_eq!(
            decode(&long).unwrap_err().to_string(),
            format!(
                "it names a lesson \"{}…\" that this page does not have",
                "y".repeat(40)
            )
        );
        for both in [
            "lesson=host-ports&example=classic",
            "scenario=abc&lesson=host-ports",
        ] {
            assert_eq!(decode(both), Err(LinkError::Ambiguous), "{both}");
        }
        assert_eq!(
            LinkError::Ambiguous.to_string(),
            "it names more than one of a scenario, an example and a lesson"
        );
        assert_eq!(
            decode("stop=2").unwrap_err().to_string(),
            "it names neither a scenario nor an example nor a lesson"
        );
        // A bad stop costs only the stop: the lesson opens at its first stop.
        for bad in ["0", "-1", "two", "", "1e1", "99999999999999999999999"] {
            let back = opened(&format!("lesson=host-ports&stop={bad}"));
            assert_eq!(back.lesson.map(|l| l.stop_index()), Some(0), "stop={bad}");
            assert_eq!(back.warnings, [Warning::BadStop(bad.into())], "stop={bad}");
        }
        assert_eq!(
            Warning::BadStop("two".into()).to_string(),
            "\"stop=two\" is not a stop number (1, 2, 3, …), so the lesson opens at its first stop"
        );
        // Past the end: the last stop (host-ports has five).
        let back = opened("lesson=host-ports&stop=7");
        assert_eq!(back.lesson.map(|l| l.stop_index()), Some(4));
        assert_eq!(back.warnings, [Warning::StopPastEnd { stop: 7, stops: 5 }]);
        assert_eq!(
            back.warnings[0].to_string(),
            "this lesson has 5 stops, not 7, so it opens at its last stop"
        );
        assert_eq!(back.view, stop_view(back.lesson.unwrap().stop()));
        // The fragment's bound applies to lessons too.
        let huge = format!("lesson=host-ports&stop={}", "1".repeat(MAX_FRAGMENT));
        assert!(matches!(decode(&huge), Err(LinkError::TooLong(_))));
        assert_eq!(decode_view(&huge), View::default());
    }

    #[test]
    fn every_lesson_link_opens_every_stop() {
        for (index, src) in LESSONS.iter().enumerate() {
            let mut stop = 0;
            while let Some(at) = LessonAt::new(index, stop) {
                let back = opened(&encode_lesson(at, None));
                assert_eq!(back.lesson, Some(at), "{} stop {}", src.name, stop + 1);
                assert_eq!(back.view, stop_view(at.stop()));
                assert_eq!(back.warnings, []);
                // Unedited, it is the gallery example of the lesson's scenario.
                assert_eq!(
                    encode_scenario(&back.shared),
                    format!("example={}", src.scenario)
                );
                stop += 1;
            }
            assert!((3..=6).contains(&stop), "{}: {stop} stops", src.name);
        }
    }

    #[test]
    fn fragments_that_are_not_links_are_left_alone() {
        assert_eq!(decode(""), Ok(None));
        assert_eq!(decode("#"), Ok(None));
        // The status line links to an editor.
        assert_eq!(decode("#editor-pods"), Ok(None));
        assert_eq!(decode("#cycle=3"), Err(LinkError::NoScenario));
        assert_eq!(
            decode("#example=classic&scenario=abc"),
            Err(LinkError::Ambiguous)
        );
    }

    #[test]
    fn an_unknown_example_is_refused_by_name() {
        assert_eq!(
            decode("#example=no-such-example&cycle=3"),
            Err(LinkError::UnknownExample("no-such-example".into()))
        );
        assert_eq!(
            decode("#example="),
            Err(LinkError::UnknownExample(String::new()))
        );
        let e = decode("#example=nope").unwrap_err().to_string();
        assert_eq!(
            e,
            "it names an example \"nope\" that this page does not have"
        );
        // A long name is quoted short.
        let long = format!("#example={}", "x".repeat(5000));
        let e = decode(&long).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "it names an example \"{}…\" that this page does not have",
                "x".repeat(40)
            )
        );
    }

    #[test]
    fn bad_cycle_numbers_open_the_scenario_at_its_end_with_a_warning() {
        for bad in [
            "0",
            "-1",
            "+3",
            "abc",
            "3abc",
            "1e3",
            "",
            " 3",
            "99999999999999999999999",
            "200001",
        ] {
            let back = opened(&format!("#example=classic&cycle={bad}&phase=bind"));
            assert_eq!(back.view.cycle, None, "cycle={bad}");
            assert_eq!(back.view.phase, None, "cycle={bad}");
            assert_eq!(
                back.warnings,
                [Warning::BadCycle(bad.into()), Warning::PhaseWithoutCycle],
                "cycle={bad}"
            );
            assert_eq!(back.shared, classic());
        }
        // The largest cycle number a run can have is accepted (the run decides later).
        assert_eq!(
            opened("#example=classic&cycle=200000").view.cycle,
            Some(199_999)
        );
        let back = opened("#example=classic&cycle=2&phase=sideways&step=x&seed=-4");
        assert_eq!(back.view.cycle, Some(1));
        assert_eq!(
            back.warnings,
            [
                Warning::BadSeed("-4".into()),
                Warning::UnknownPhase("sideways".into()),
                Warning::BadStep("x".into())
            ]
        );
        assert_eq!(back.shared.seed, 0);
        assert_eq!(
            Warning::BadCycle("0".into()).to_string(),
            "\"cycle=0\" is not a cycle number (1, 2, 3, …), so the run opens at its end"
        );
    }

    #[test]
    fn corrupt_base64_is_refused() {
        for bad in [
            "scenario=",
            "scenario=ab$cd",
            "scenario=a",
            "scenario=%20%20",
        ] {
            assert_eq!(decode(bad), Err(LinkError::Base64), "{bad}");
        }
    }

    #[test]
    fn truncated_or_damaged_data_is_refused() {
        let fragment = encode_scenario(&edited());
        let z = B64
            .decode(fragment.strip_prefix("scenario=").unwrap())
            .unwrap();
        // The deflate stream cut short: 6 bytes less, then only half of it.
        for cut in [&z[..z.len() - 6], &z[..z.len() / 2], &z[..1]] {
            let truncated = format!("scenario={}", B64.encode(cut));
            assert_eq!(
                decode(&truncated),
                Err(LinkError::Corrupt),
                "{} bytes",
                cut.len()
            );
        }
        // The text cut anywhere: refused as base64 or as data, never opened.
        for keep in [
            fragment.len() - 1,
            fragment.len() - 5,
            fragment.len() / 2,
            12,
        ] {
            let cut = &fragment[..keep];
            assert!(
                matches!(decode(cut), Err(LinkError::Base64 | LinkError::Corrupt)),
                "{keep}: {:?}",
                decode(cut)
            );
        }
        // One byte changed in the middle: the checksum (or the stream) says so.
        let mut damaged = z.clone();
        let mid = damaged.len() / 2;
        damaged[mid] ^= 0x10;
        let damaged = format!("scenario={}", B64.encode(&damaged));
        assert_eq!(decode(&damaged), Err(LinkError::Corrupt));
    }

    #[test]
    fn a_decompression_bomb_stops_at_the_limit() {
        // 64 MiB of spaces packs into about 64 KiB: it must stop at 16 MiB, not unpack it all.
        let bomb = vec![b' '; 64 * 1024 * 1024];
        let z = miniz_oxide::deflate::compress_to_vec_zlib(&bomb, 9);
        drop(bomb);
        let fragment = format!("scenario={}", B64.encode(&z));
        assert!(fragment.len() < 200_000, "{}", fragment.len());
        assert_eq!(decode(&fragment), Err(LinkError::TooBig));
        // Just over the limit is refused too; just under is read (and then judged as JSON).
        let over = vec![b' '; MAX_SCENARIO + 1];
        let z = miniz_oxide::deflate::compress_to_vec_zlib(&over, 9);
        assert_eq!(
            decode(&format!("scenario={}", B64.encode(&z))),
            Err(LinkError::TooBig)
        );
        let under = vec![b' '; MAX_SCENARIO];
        let z = miniz_oxide::deflate::compress_to_vec_zlib(&under, 9);
        assert!(matches!(
            decode(&format!("scenario={}", B64.encode(&z))),
            Err(LinkError::Payload(_))
        ));
    }

    #[test]
    fn an_oversized_fragment_is_refused_before_decoding() {
        let long = format!("scenario={}", "A".repeat(MAX_FRAGMENT));
        assert_eq!(decode(&long), Err(LinkError::TooLong(MAX_FRAGMENT + 9)));
        // The view of an oversized fragment is not read either.
        assert_eq!(decode_view(&format!("{long}&cycle=2")), View::default());
    }

    #[test]
    fn payloads_of_the_wrong_form_are_refused() {
        assert!(matches!(
            decode(&pack("not json")),
            Err(LinkError::Payload(_))
        ));
        assert!(matches!(
            decode(&pack("{\"v\": 1}")),
            Err(LinkError::Payload(_))
        ));
        assert_eq!(
            decode(&pack(
                "{\"v\": 2, \"scheduler\": \"v1.17\", \"seed\": 0, \"example\": \"classic\"}"
            )),
            Err(LinkError::Newer(2))
        );
        assert_eq!(
            decode(&pack(
                "{\"v\": 1, \"scheduler\": \"v9.99\", \"seed\": 0, \"example\": \"classic\"}"
            )),
            Err(LinkError::UnknownScheduler("v9.99".into()))
        );
        assert_eq!(
            decode(&pack(
                "{\"v\": 1, \"scheduler\": \"v1.17\", \"seed\": 0, \"example\": \"classic\", \"texts\": {\"nodes\": \"\", \"pods\": \"\", \"policy\": \"\"}}"
            )),
            Err(LinkError::MissingEditor("config"))
        );
        // A link written before the Devices editor existed names four editors: its devices
        // editor opens empty, as the page then had none.
        let old = decode(&pack(
            "{\"v\": 1, \"scheduler\": \"v1.17\", \"seed\": 0, \"example\": \"classic\", \"texts\": {\"nodes\": \"n\", \"pods\": \"p\", \"policy\": \"x\", \"config\": \"c\"}}",
        ))
        .expect("an old link opens")
        .expect("a scenario");
        assert_eq!(old.shared.texts[EditorFile::Devices.index()], "");
        assert_eq!(old.shared.texts[EditorFile::Config.index()], "c");
        assert_eq!(
            decode(&pack(
                "{\"v\": 1, \"scheduler\": \"v1.17\", \"seed\": 0, \"example\": \"classic\", \"texts\": {\"timeline\": \"\"}}"
            )),
            Err(LinkError::UnknownEditor("timeline".into()))
        );
        // Editors taken from an example the page does not have cannot be filled in.
        assert_eq!(
            decode(&pack(
                "{\"v\": 1, \"scheduler\": \"v1.17\", \"seed\": 0, \"example\": \"gone\", \"same\": {\"nodes\": \"0\"}, \"texts\": {\"pods\": \"\", \"policy\": \"\", \"config\": \"\"}}"
            )),
            Err(LinkError::UnknownExample("gone".into()))
        );
    }

    #[test]
    fn a_changed_example_and_a_scheduler_mismatch_are_warned_about() {
        let json = format!(
            "{{\"v\": 1, \"scheduler\": \"v1.35\", \"seed\": 3, \"example\": \"classic\", \"same\": {{\"nodes\": \"0123456789abcdef\", \"policy\": \"{}\", \"config\": \"{}\"}}, \"texts\": {{\"pods\": \"kind: Pod\\n\"}}}}",
            fingerprint(CLASSIC_POLICY),
            fingerprint(V117_CONFIG)
        );
        let back = opened(&pack(&json));
        assert_eq!(back.shared.texts[0], CLASSIC_NODES);
        assert_eq!(back.shared.texts[1], "kind: Pod\n");
        assert_eq!(back.shared.seed, 3);
        assert_eq!(
            back.warnings,
            [
                Warning::ExampleChanged {
                    example: "classic".into(),
                    editor: "nodes"
                },
                Warning::SchedulerMismatch {
                    link: "v1.35",
                    config: "v1.17"
                }
            ]
        );
        // Every text given: an unknown example only changes the label.
        let json = "{\"v\": 1, \"scheduler\": \"v1.17\", \"seed\": 0, \"example\": \"gone\", \"texts\": {\"nodes\": \"a\", \"pods\": \"b\", \"policy\": \"c\", \"config\": \"d\"}}";
        let back = opened(&pack(json));
        assert_eq!(back.shared.example, "classic");
        // (A link written before the Devices, Extenders and Plugins editors has none: they
        // are empty.)
        assert_eq!(
            back.shared.texts,
            ["a", "b", "", "c", "d", "", ""].map(String::from)
        );
    }

    #[test]
    fn fingerprints_are_fnv1a_64() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(fingerprint(""), "cbf29ce484222325");
        assert_eq!(fingerprint("a"), "af63dc4c8601ec8c");
        assert_eq!(fingerprint("foobar"), "85944171f73967e8");
    }

    #[test]
    fn base64url_follows_rfc_4648() {
        // RFC 4648's test vectors, and the two characters the URL alphabet replaces.
        assert_eq!(B64.encode("foobar"), "Zm9vYmFy");
        assert_eq!(B64.encode("fo"), "Zm8");
        assert_eq!(B64.encode([0xfb, 0xff]), "-_8");
        assert_eq!(B64.decode("Zm8=").unwrap(), b"fo");
        assert_eq!(B64.decode("Zm8").unwrap(), b"fo");
    }

    #[test]
    fn phases_are_named_as_upstream_names_them() {
        assert_eq!(phase_named("findNodesThatFit"), Some(Phase::Filter));
        assert_eq!(phase_named("scheduleone"), Some(Phase::QueuePop));
        assert_eq!(phase_named("filter"), None);
    }
}
