//! What the page and the engine's host say to each other: the page's [`Request`]s (load, go
//! to a step, inspect a cycle, export, forget) and the host's [`Reply`]s. Plain data, which
//! crosses to a worker as JSON ([`super::wire`]).

use crate::analysis::Inspection;
use crate::session::{Frame, Session, SessionInfo};
use schedlab_core::Diagnostic;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A worker that ran a load with a Plugins program and said nothing for this long is stuck in a
/// plugin (the engine's own work yields every few milliseconds): the page replaces it
/// ([`Reply::Stuck`]).
pub const STUCK_MS: u32 = 5000;

/// Read the editors' texts and run them.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Load {
    /// Counts the page's loads: a newer one supersedes this one.
    pub generation: u64,
    /// The editors' texts, in [`crate::base::EditorFile::ALL`] order. (Not in the JSON: they
    /// cross to a worker as strings of their own, [`super::worker::send`].)
    #[serde(skip)]
    pub texts: Vec<String>,
    /// The seed.
    pub seed: u64,
    /// Where to show the run (clamped to its end).
    pub position: usize,
    /// Read big lists a part at a time and run a big scenario in slices even where one task
    /// could (the page asked after a paint, because loads have been slow).
    pub sliced: bool,
    /// Texts to run instead when `texts` have errors (the last valid texts, on a reload). (Not
    /// in the JSON, as `texts`.)
    #[serde(skip)]
    pub fallback: Option<Vec<String>>,
    /// kubernetes#141781 fixed (`--fidelity extender-nodeinfo-fix`): v1.35's Score plugins see
    /// the pods of the nodes an extender returned.
    #[serde(default)]
    pub extender_nodeinfo_fix: bool,
    /// The worker before stopped answering while it ran these texts' Plugins program: it is
    /// not run again; the load fails with that (and runs `fallback`, if given).
    #[serde(default)]
    pub stuck: bool,
}

/// What an export asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Export {
    /// `schedlab run --output json` of the run, with `--summary` or with every table.
    Report {
        /// Without the filter and score tables.
        summary: bool,
    },
    /// The placements as CSV.
    PlacementsCsv,
    /// Every extender exchange of the run, as a `kind: ExtenderRecording` (empty: none).
    ExtenderRecording,
}

impl Export {
    /// The export of `session`.
    pub fn of(self, session: &Session) -> String {
        match self {
            Export::Report { summary } => session.report_json(summary),
            Export::PlacementsCsv => session.placements_csv(),
            Export::ExtenderRecording => session.recording_yaml().unwrap_or_default(),
        }
    }
}

/// What the page asks the engine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Request {
    /// Read the texts and run them ([`Reply::Reading`], [`Reply::Valid`] or
    /// [`Reply::Failed`], [`Reply::Running`], [`Reply::Loaded`]).
    Load(Load),
    /// Forget the loaded session (a new example or link replaces the work), and stop the loads
    /// up to `generation`.
    Forget {
        /// The page's loads so far count as superseded.
        generation: u64,
    },
    /// Go to `position` (clamped to the run), and reply with its frame. `prefetch`: record
    /// the cycle about to run in detail (phase stepping shows it before it runs).
    GoTo {
        /// Names the reply.
        id: u64,
        /// Steps applied.
        position: usize,
        /// Record the next cycle in detail.
        prefetch: bool,
    },
    /// The inspection of cycle `cycle`.
    Inspect {
        /// Names the reply.
        id: u64,
        /// The cycle.
        cycle: usize,
    },
    /// An export of the loaded run.
    Export {
        /// Names the reply.
        id: u64,
        /// What to export.
        what: Export,
    },
}

/// What the engine answers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Reply {
    /// A load reads a big list: its file, the items read, and how many it has.
    Reading {
        /// The load's generation.
        generation: u64,
        /// The file.
        file: String,
        /// Items read.
        read: usize,
        /// Items in all.
        of: usize,
    },
    /// A load's texts read without errors: they are the last valid texts.
    Valid {
        /// The load's generation.
        generation: u64,
    },
    /// A load's texts have errors; the last valid session stays, unless the load's fallback
    /// texts read, and then their run follows.
    Failed {
        /// The load's generation.
        generation: u64,
        /// What is wrong.
        errors: Vec<Diagnostic>,
        /// The fallback texts read: their run follows.
        fallback: bool,
    },
    /// A big load runs: the cycles run so far.
    Running {
        /// The load's generation.
        generation: u64,
        /// Cycles run so far.
        cycles: usize,
    },
    /// A load's run is over and is now the session, shown at the load's position.
    Loaded {
        /// The load's generation.
        generation: u64,
        /// The run's fixed facts.
        info: Arc<SessionInfo>,
        /// The world at the position.
        frame: Arc<Frame>,
    },
    /// The world at the position a [`Request::GoTo`] asked for (`None`: no session).
    Frame {
        /// The request's id.
        id: u64,
        /// The world there.
        frame: Option<Arc<Frame>>,
    },
    /// A cycle's inspection (`None`: no such cycle, or no session).
    Inspection {
        /// The request's id.
        id: u64,
        /// What the inspector shows.
        inspection: Option<Box<Inspection>>,
    },
    /// An export's text (`None`: no session).
    Exported {
        /// The request's id.
        id: u64,
        /// The text.
        text: Option<String>,
    },
    /// A load waits for live extender calls (the page's `fetch`): the URLs being called, and
    /// how many calls this load has made so far.
    Calling {
        /// The load's generation.
        generation: u64,
        /// The URLs being called.
        urls: Vec<String>,
        /// Calls made so far by this load.
        made: usize,
    },
    /// The engine lost its session (its worker failed, and the page's own thread took over):
    /// the page loads its run again. Made on the page; never crosses.
    Lost,
    /// The worker stopped answering while it ran a load with a Plugins program (a plugin that
    /// loops forever): it was stopped and a new one started. The page loads its texts again
    /// with [`Load::stuck`]. Made on the page; never crosses.
    Stuck,
}

/// Takes replies.
pub type Handler = Box<dyn Fn(Reply)>;
