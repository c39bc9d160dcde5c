//! The framework's status codes (`fwk.Code`) and a plugin's status.

use crate::sched::Reason;
pub(crate) use crate::trace::v135::Code;

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
