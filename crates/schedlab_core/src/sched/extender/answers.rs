//! Who answers an extender call, behind one interface ([`Answers::ask`]):
//!
//! - a **mock** table from the scenario ([`Mock`]): answers computed from the pod and the nodes,
//!   with no JSON in between (runs anywhere, a lesson included, and fast);
//! - a **recording** of earlier calls from the scenario ([`Recording`]): a request is answered
//!   with the reply recorded for the same URL and the same body, byte for byte; a request it
//!   does not hold is an error naming the extender, never a silent pass;
//! - a **live** server, through a [`Transport`] the host sets: the CLI's blocking HTTP client,
//!   or, in the page, a `fetch` made between steps (the run pauses at the call, see
//!   [`Answers::awaiting`]).
//!
//! Every exchange with a server is kept (so stepping back and replaying asks nothing twice,
//! and a run can be saved as a recording); with [`Answers::set_record`], a mock's answers are
//! kept too, as the JSON a server would have sent.

use super::mock::{Mock, MockAnswer};
use super::recording::{RecordedCall, Recording};
use super::wire::{self, FilterReply, PreemptReply, PriorityReply};
use super::{Extender, Flavor, Verb};
use crate::model::Millis;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// The most of a reply that is read: a larger one is an error naming the extender.
pub const MAX_REPLY_BYTES: usize = 64 << 20;

/// What one HTTP exchange gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exchange {
    /// A reply: its status code and body.
    Reply {
        /// HTTP status code.
        status: u16,
        /// The body, as text.
        body: String,
    },
    /// No reply within `httpTimeout`.
    TimedOut,
    /// The request could not be made: the transport's words (`dial tcp 127.0.0.1:1: connect:
    /// connection refused`).
    Failed(String),
}

/// Makes the HTTP POST of a live call (the CLI's client; the page's `fetch` works between
/// steps instead, see [`Answers::awaiting`]).
pub trait Transport: Send + Sync {
    /// POSTs `body` (`Content-Type: application/json`) to `url`, waiting at most `timeout`
    /// (`None`: no limit) for the whole exchange; reads at most [`MAX_REPLY_BYTES`].
    fn post(&self, url: &str, body: &str, timeout: Option<Millis>) -> Exchange;
}

/// A call the page must make before the run can go on: the run stopped at it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingCall {
    /// The full URL.
    pub url: String,
    /// The JSON body.
    pub body: String,
    /// `httpTimeout` (`None`: none).
    pub timeout: Option<Millis>,
}

/// The decoded reply of one verb.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Decoded {
    /// `ExtenderFilterResult`.
    Filter(FilterReply),
    /// `HostPriorityList`.
    Priorities(PriorityReply),
    /// `ExtenderPreemptionResult`.
    Preempt(PreemptReply),
    /// `ExtenderBindingResult.Error`.
    Bind(String),
}

/// Where a call's answer came from (shown in the inspector).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The scenario's mock table.
    Mock,
    /// The scenario's recording.
    Recording,
    /// A live server.
    Live,
}

/// The exchange of one call as the inspector shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Texts {
    /// The request body (`None` when not kept: too large, or a mock's without details).
    pub request: Option<String>,
    /// The reply body, or what happened instead.
    pub reply: Option<String>,
}

/// What a call gave: the decoded reply, or the error upstream would see.
pub(crate) struct Answered {
    pub result: Result<Decoded, String>,
    pub source: Source,
    pub texts: Texts,
}

/// The longest request or reply text a trace keeps.
const KEPT_TEXT: usize = 64 << 10;

fn kept(text: String) -> Option<String> {
    (text.len() <= KEPT_TEXT).then_some(text)
}

/// How a call's bytes are made, only when they are needed.
pub(crate) struct Call<'a> {
    /// The extender.
    pub ext: &'a Extender,
    /// The verb.
    pub verb: Verb,
    /// Whose rules apply.
    pub flavor: Flavor,
    /// The request body.
    pub body: &'a dyn Fn() -> String,
    /// The mock's answer, when a mock answers.
    pub mock: &'a dyn Fn(&Mock) -> MockAnswer,
    /// A mock's reply as the JSON a server would send.
    pub encode: &'a dyn Fn(&Decoded) -> String,
    /// Whether to keep the texts for the trace.
    pub detail: bool,
}

/// Every extender's answerer for a run, and the exchanges made so far.
#[derive(Default)]
pub struct Answers {
    /// Mocks by URL prefix (as configured).
    mocks: Vec<Mock>,
    /// The scenario's recording, then every exchange made (and mocked, when recording).
    kept: Mutex<Recording>,
    /// The live transport, if the host set one.
    transport: Mutex<Option<Arc<dyn Transport>>>,
    /// Whether a call that nothing answers pauses the run (the page) instead of failing.
    wait_for_host: AtomicBool,
    /// Whether mock answers are kept as exchanges.
    record: AtomicBool,
    /// Calls the run paused at.
    awaiting: Mutex<Vec<PendingCall>>,
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers")
            .field("mocks", &self.mocks.len())
            .field("live", &self.transport().is_some())
            .finish()
    }
}

impl Answers {
    /// Answers from these mocks and this recording (both from the scenario).
    pub(crate) fn new(mocks: Vec<Mock>, recording: Recording) -> Answers {
        Answers {
            mocks,
            kept: Mutex::new(recording),
            ..Answers::default()
        }
    }

    /// Calls that no mock and no recording answers go to `transport`.
    pub fn set_transport(&self, transport: Arc<dyn Transport>) {
        *self
            .transport
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(transport);
    }

    fn transport(&self) -> Option<Arc<dyn Transport>> {
        self.transport
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Calls that nothing answers pause the run ([`Self::awaiting`]) instead of failing: the
    /// host makes them and adds the replies with [`Self::add_exchange`].
    pub fn set_wait_for_host(&self, wait: bool) {
        self.wait_for_host.store(wait, Ordering::Relaxed);
    }

    /// Keeps mock answers as exchanges too (for [`Self::recording`]).
    pub fn set_record(&self, record: bool) {
        self.record.store(record, Ordering::Relaxed);
    }

    /// The mock for `ext`, if the scenario has one.
    pub(crate) fn mock_for(&self, ext: &Extender) -> Option<&Mock> {
        self.mocks.iter().find(|m| m.url_prefix == ext.url_prefix)
    }

    /// The mock for `ext` when it answers `verb` plainly (status 200, no `Error`, in time) and
    /// nothing is recorded: then a cycle without details may take its answer straight from
    /// the table ([`Mock::filter_into`], [`Mock::score_into`]), with no reply built.
    pub(crate) fn plain_mock(&self, ext: &Extender, verb: Verb) -> Option<&Mock> {
        if self.record.load(Ordering::Relaxed) {
            return None;
        }
        let mock = self.mock_for(ext)?;
        let b = mock.behaviour(verb);
        let in_time = ext.http_timeout.is_none_or(|t| Millis(b.delay_ms) <= t);
        (b.status == 200 && b.error.is_empty() && in_time).then_some(mock)
    }

    /// Whether a mock answers for the extender with this URL prefix.
    pub fn has_mock(&self, url_prefix: &str) -> bool {
        self.mocks.iter().any(|m| m.url_prefix == url_prefix)
    }

    /// The URL prefixes the mocks answer for.
    pub fn mock_prefixes(&self) -> Vec<String> {
        self.mocks.iter().map(|m| m.url_prefix.clone()).collect()
    }

    /// Every exchange kept so far (the scenario's recording first), as a recording to save.
    pub fn recording(&self) -> Recording {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Adds an exchange the host made (the page's `fetch` of an awaited call): a live one,
    /// as the transport's.
    pub fn add_exchange(&self, url: &str, body: &str, exchange: Exchange, elapsed_ms: u64) {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .add(RecordedCall::new(url, body, exchange, Some(elapsed_ms)).live());
    }

    /// Takes the calls the run paused at (empty when it did not pause).
    pub fn take_awaiting(&self) -> Vec<PendingCall> {
        std::mem::take(&mut *self.awaiting.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// How many calls the run paused at (not yet taken).
    pub fn awaiting_count(&self) -> usize {
        self.awaiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Asks `call`'s extender: a mock if one answers for it, else the kept exchanges, else the
    /// live transport.
    pub(crate) fn ask(&self, call: &Call) -> Answered {
        let timeout = call.ext.http_timeout;
        let url = call.ext.url(call.verb);
        if let Some(mock) = self.mock_for(call.ext) {
            let answer = (call.mock)(mock);
            let exchange = match timeout {
                Some(t) if Millis(answer.delay_ms) > t => Exchange::TimedOut,
                _ if answer.status != 200 => Exchange::Reply {
                    status: answer.status,
                    body: String::new(),
                },
                _ => Exchange::Reply {
                    status: 200,
                    body: String::new(),
                },
            };
            let mut texts = Texts::default();
            let ok = matches!(exchange, Exchange::Reply { status: 200, .. });
            let record = self.record.load(Ordering::Relaxed);
            if record || call.detail {
                let body = (call.body)();
                let reply = ok.then(|| (call.encode)(&answer.reply));
                let exchange = match (&exchange, &reply) {
                    (Exchange::Reply { status, .. }, Some(r)) => Exchange::Reply {
                        status: *status,
                        body: r.clone(),
                    },
                    _ => exchange.clone(),
                };
                texts.reply = kept(describe(&exchange));
                if record {
                    self.kept
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .add(RecordedCall::new(
                            &url,
                            &body,
                            exchange,
                            Some(answer.delay_ms),
                        ));
                }
                texts.request = kept(body);
            }
            let result = if ok {
                Ok(answer.reply)
            } else {
                Err(exchange_error(call, &url, &exchange))
            };
            return Answered {
                result,
                source: Source::Mock,
                texts,
            };
        }
        let body = (call.body)();
        let found = self
            .kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .find(&url, &body)
            .map(|c| (c.exchange(), c.recorded));
        let (exchange, source) = match found {
            Some((exchange, recorded)) => (
                exchange,
                if recorded {
                    Source::Recording
                } else {
                    Source::Live
                },
            ),
            None => match self.transport() {
                Some(t) => {
                    let exchange = t.post(&url, &body, timeout);
                    self.kept
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .add(RecordedCall::new(&url, &body, exchange.clone(), None).live());
                    (exchange, Source::Live)
                }
                None if self.wait_for_host.load(Ordering::Relaxed) => {
                    self.awaiting
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(PendingCall {
                            url: url.clone(),
                            body: body.clone(),
                            timeout,
                        });
                    let result = Err(format!(
                        "extender {:?}: waiting for the reply to {}",
                        call.ext.url_prefix, url
                    ));
                    return Answered {
                        result,
                        source: Source::Live,
                        texts: Texts::default(),
                    };
                }
                None => {
                    let result = Err(format!(
                        "extender {:?}: no recorded reply to this {} request (POST {}) and no \
                         server to ask; record the scenario again with the extender running, \
                         or answer with an ExtenderMock",
                        call.ext.url_prefix,
                        call.verb.as_str(),
                        url
                    ));
                    return Answered {
                        result,
                        source: Source::Recording,
                        texts: Texts {
                            request: kept(body),
                            reply: None,
                        },
                    };
                }
            },
        };
        let result = match &exchange {
            Exchange::Reply { status: 200, body } if body.len() > MAX_REPLY_BYTES => Err(format!(
                "extender {:?}: the {} reply is larger than {} MiB",
                call.ext.url_prefix,
                call.verb.as_str(),
                MAX_REPLY_BYTES >> 20
            )),
            Exchange::Reply { status: 200, body } => decode(call.verb, body),
            other => Err(exchange_error(call, &url, other)),
        };
        Answered {
            result,
            source,
            texts: Texts {
                request: kept(body),
                reply: kept(describe(&exchange)),
            },
        }
    }
}

/// Decodes `body` as `verb`'s reply.
fn decode(verb: Verb, body: &str) -> Result<Decoded, String> {
    match verb {
        Verb::Filter => wire::decode_filter(body).map(Decoded::Filter),
        Verb::Prioritize => wire::decode_priorities(body).map(Decoded::Priorities),
        Verb::Preempt => wire::decode_preempt(body).map(Decoded::Preempt),
        Verb::Bind => wire::decode_bind(body).map(Decoded::Bind),
    }
}

/// A reply as the inspector shows it.
fn describe(exchange: &Exchange) -> String {
    match exchange {
        Exchange::Reply { status: 200, body } => body.clone(),
        Exchange::Reply { status, body } if body.is_empty() => format!("HTTP {status}"),
        Exchange::Reply { status, body } => format!("HTTP {status}: {body}"),
        Exchange::TimedOut => "no reply within httpTimeout".into(),
        Exchange::Failed(e) => e.clone(),
    }
}

/// The error `HTTPExtender.send` returns for an exchange that gave no usable reply: a status
/// other than 200 (`failed filter with extender at URL ..., code 500`; v1.17 capitalises
/// it), or Go's `*url.Error` for a timeout or a failed connection.
fn exchange_error(call: &Call, url: &str, exchange: &Exchange) -> String {
    match exchange {
        Exchange::Reply { status, .. } => {
            let failed = match call.flavor {
                Flavor::V117 => "Failed",
                Flavor::V135 => "failed",
            };
            format!(
                "{failed} {} with extender at URL {url}, code {status}",
                call.ext.verb(call.verb)
            )
        }
        Exchange::TimedOut => format!(
            "Post {}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
            crate::model::words::go_quote(url)
        ),
        Exchange::Failed(e) => format!("Post {}: {e}", crate::model::words::go_quote(url)),
    }
}
