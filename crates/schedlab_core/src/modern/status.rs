//! The framework's status codes (`fwk.Code`) and a plugin's status.

use crate::sched::Reason;

/// `fwk.Code`, upstream's result codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// The plugin ran and found nothing wrong.
    #[default]
    Success,
    /// An internal error: the cycle ends with outcome `Error`.
    Error,
    /// The pod does not fit, but preemption may help.
    Unschedulable,
    /// The pod does not fit and preemption cannot help.
    UnschedulableAndUnresolvable,
    /// Permit: the pod waits.
    Wait,
    /// PreFilter / PreScore: this plugin's Filter / Score does not run this cycle.
    Skip,
    /// The pod waits for something outside the scheduler (requeued without backoff).
    Pending,
}

impl Code {
    /// Upstream's spelling (`Code.String()`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Success => "Success",
            Code::Error => "Error",
            Code::Unschedulable => "Unschedulable",
            Code::UnschedulableAndUnresolvable => "UnschedulableAndUnresolvable",
            Code::Wait => "Wait",
            Code::Skip => "Skip",
            Code::Pending => "Pending",
        }
    }

    /// `IsRejected`: Unschedulable, UnschedulableAndUnresolvable or Pending.
    pub fn is_rejected(self) -> bool {
        matches!(
            self,
            Code::Unschedulable | Code::UnschedulableAndUnresolvable | Code::Pending
        )
    }
}

/// A plugin's answer: a code and its reasons (empty for `Success`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// The code.
    pub code: Code,
    /// The reasons, in order (`Status.Reasons()`).
    pub reasons: Vec<Reason>,
}

impl Status {
    /// `nil`, a success.
    pub fn success() -> Status {
        Status::default()
    }

    /// A status with one reason.
    pub fn new(code: Code, reason: impl Into<Reason>) -> Status {
        Status {
            code,
            reasons: vec![reason.into()],
        }
    }

    /// A `Skip`.
    pub fn skip() -> Status {
        Status {
            code: Code::Skip,
            reasons: Vec::new(),
        }
    }

    /// Whether this is a success.
    pub fn is_success(&self) -> bool {
        self.code == Code::Success
    }

    /// `Status.Message()`: the reasons joined with `", "`.
    pub fn message(&self) -> String {
        self.reasons
            .iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}
