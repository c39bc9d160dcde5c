//! A recording of extender exchanges (`kind: ExtenderRecording`): each call's URL, its exact
//! request body and what came back (a status and a body, a timeout, or a failed connection).
//! Replaying looks a request up by URL and body, byte for byte, so a scenario with a
//! recording runs with no server and gives the same trace.
//!
//! ```yaml
//! apiVersion: schedlab.dev/v1alpha1
//! kind: ExtenderRecording
//! metadata: {name: gpu-run}
//! calls:
//! - url: http://127.0.0.1:8888/scheduler/filter
//!   request: '{"Pod":{...},"Nodes":null,"NodeNames":["node-a","node-b"]}'
//!   status: 200
//!   reply: '{"NodeNames":["node-a"],"FailedNodes":{"node-b":"no GPU"},"Error":""}'
//!   elapsedMs: 3
//! - url: http://127.0.0.1:8888/scheduler/prioritize
//!   request: '...'
//!   timedOut: true
//! ```

use super::answers::Exchange;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One recorded exchange.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordedCall {
    /// The full URL (`urlPrefix` + `/` + verb).
    pub url: String,
    /// The request body, exactly as sent.
    pub request: String,
    /// The HTTP status of the reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The reply body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// No reply within `httpTimeout`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
    /// The connection failed: the transport's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// How long the exchange took (wall clock, or a mock's delay); shown, never used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<u64>,
    /// Whether it came from the scenario (a replay), not from this run.
    #[serde(skip)]
    pub recorded: bool,
}

impl RecordedCall {
    /// The record of one exchange.
    pub(crate) fn new(
        url: &str,
        request: &str,
        exchange: Exchange,
        elapsed_ms: Option<u64>,
    ) -> RecordedCall {
        let mut c = RecordedCall {
            url: url.to_string(),
            request: request.to_string(),
            elapsed_ms,
            recorded: true,
            ..RecordedCall::default()
        };
        match exchange {
            Exchange::Reply { status, body } => {
                c.status = Some(status);
                c.reply = Some(body);
            }
            Exchange::TimedOut => c.timed_out = true,
            Exchange::Failed(e) => c.error = Some(e),
        }
        c
    }

    /// Marks it as made by this run's live transport.
    pub(crate) fn live(mut self) -> RecordedCall {
        self.recorded = false;
        self
    }

    /// What came back.
    pub(crate) fn exchange(&self) -> Exchange {
        if self.timed_out {
            return Exchange::TimedOut;
        }
        if let Some(e) = &self.error {
            return Exchange::Failed(e.clone());
        }
        Exchange::Reply {
            status: self.status.unwrap_or(200),
            body: self.reply.clone().unwrap_or_default(),
        }
    }
}

/// Recorded exchanges, found by URL and request body.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    calls: Vec<RecordedCall>,
    /// Hash of (url, request) → indices into `calls`.
    index: HashMap<u64, Vec<usize>>,
}

/// FNV-1a over the URL, a separator and the body: the same on every platform.
fn key(url: &str, body: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in url.bytes().chain([0u8]).chain(body.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Recording {
    /// A recording of `calls` (later duplicates of a request are kept but never found).
    pub fn from_calls(calls: Vec<RecordedCall>) -> Recording {
        let mut r = Recording::default();
        for mut c in calls {
            c.recorded = true;
            r.add(c);
        }
        r
    }

    /// Adds one exchange, unless the same request is already held.
    pub(crate) fn add(&mut self, call: RecordedCall) {
        if self.find(&call.url, &call.request).is_some() {
            return;
        }
        let k = key(&call.url, &call.request);
        self.index.entry(k).or_default().push(self.calls.len());
        self.calls.push(call);
    }

    /// The exchange recorded for this request.
    pub(crate) fn find(&self, url: &str, body: &str) -> Option<&RecordedCall> {
        self.index
            .get(&key(url, body))?
            .iter()
            .map(|&i| &self.calls[i])
            .find(|c| c.url == url && c.request == body)
    }

    /// Every exchange, in the order they were made.
    pub fn calls(&self) -> &[RecordedCall] {
        &self.calls
    }

    /// Adds every exchange of `other` that this one does not hold.
    pub fn merge(&mut self, other: &Recording) {
        for c in &other.calls {
            self.add(c.clone());
        }
    }

    /// Whether it holds no exchange.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// As a `kind: ExtenderRecording` object.
    pub fn to_object(&self, name: &str) -> serde_json::Value {
        serde_json::json!({
            "apiVersion": crate::model::SCHEDLAB_API_VERSION,
            "kind": "ExtenderRecording",
            "metadata": {"name": name},
            "calls": self.calls,
        })
    }
}
