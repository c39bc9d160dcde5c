//! Scheduler extenders in the JavaScript API: a call that no ExtenderMock and no
//! ExtenderRecording answers pauses the run (`StopReason` `AwaitingExtender`); the embedder
//! makes the calls `awaitedCalls()` lists and adds what came back (`addExchange`), or lets
//! `runLive()` make them with `fetch` (gloo-net, through `schedlab_fetch`, each within the
//! extender's `httpTimeout`). `extenderRecording()` gives every exchange as a
//! `kind: ExtenderRecording` object, which a later run replays with no server.
//!
//! ```js
//! const sim = Simulator.fromFiles(files);
//! await sim.runLive();                    // or, by hand:
//! let stop = sim.run();
//! while (stop === 'AwaitingExtender') {
//!   for (const call of sim.awaitedCalls()) sim.addExchange(call, await callExtender(call));
//!   stop = sim.run();
//! }
//! ```

use crate::api::{limits, parse, read_run_options, stop_name, throw, to_js, Embedded, Simulator};
use crate::types::{AwaitedCall, ExtenderReply};
use schedlab_core::model::Millis;
use schedlab_core::scheduler::extenders::{Exchange, PendingCall};
use schedlab_core::simulation::StopReason;
use wasm_bindgen::prelude::*;

impl Embedded {
    /// Takes the calls the run just paused at into [`Embedded::awaited`]; whether any waits.
    pub(crate) fn collect_awaited(&mut self) -> bool {
        for call in self.sim.take_awaited_calls() {
            if !self.awaited.contains(&call) {
                self.awaited.push(call);
            }
        }
        !self.awaited.is_empty()
    }

    /// The calls the run waits for.
    pub fn awaited_calls(&self) -> Vec<AwaitedCall> {
        self.awaited
            .iter()
            .map(|c| AwaitedCall {
                url: c.url.clone(),
                body: c.body.clone(),
                timeout_ms: c.timeout.map(|t| t.0),
            })
            .collect()
    }

    /// Adds what one call gave; the run goes on past it at the next `step` or `run`. Err: the
    /// reply is not one of a reply, a timeout or an error.
    pub fn add_exchange(
        &mut self,
        call: &AwaitedCall,
        reply: &ExtenderReply,
    ) -> Result<(), String> {
        let exchange = match reply {
            ExtenderReply {
                status: Some(status),
                timed_out: None | Some(false),
                error: None,
                ..
            } => Exchange::Reply {
                status: *status,
                body: reply.body.clone().unwrap_or_default(),
            },
            ExtenderReply {
                status: None,
                timed_out: Some(true),
                error: None,
                ..
            } => Exchange::TimedOut,
            ExtenderReply {
                status: None,
                timed_out: None | Some(false),
                error: Some(e),
                ..
            } => Exchange::Failed(e.clone()),
            _ => {
                return Err(
                    "expected one of {status, body}, {timedOut: true} or {error}".to_string(),
                )
            }
        };
        let pending = PendingCall {
            url: call.url.clone(),
            body: call.body.clone(),
            timeout: call.timeout_ms.map(Millis),
        };
        self.add_pending(&pending, exchange, reply.elapsed_ms.unwrap_or(0));
        Ok(())
    }

    fn add_pending(&mut self, call: &PendingCall, exchange: Exchange, elapsed_ms: u64) {
        self.awaited
            .retain(|c| !(c.url == call.url && c.body == call.body));
        self.answers
            .add_exchange(&call.url, &call.body, exchange, elapsed_ms);
    }

    /// Every extender exchange so far (the scenario's recording, then the calls added) as a
    /// `kind: ExtenderRecording` object; `None` when there is none.
    pub fn extender_recording(&self) -> Option<serde_json::Value> {
        let recording = self.answers.recording();
        (!recording.is_empty()).then(|| recording.to_object("recorded-by-the-api"))
    }
}

/// A JavaScript object as a Rust value, through JSON; `what` names it in the error.
fn read<T: serde::de::DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default();
    serde_json::from_str(&text).map_err(|e| throw(&format!("{what}: {e}"), Vec::new()))
}

#[wasm_bindgen]
impl Simulator {
    /// The extender calls the run waits for (after `run()` or `step()` stopped at
    /// `AwaitingExtender`): make each one and add what it gave with `addExchange`.
    #[wasm_bindgen(js_name = awaitedCalls, unchecked_return_type = "AwaitedCall[]")]
    pub fn awaited_calls(&self) -> JsValue {
        to_js(&self.inner.borrow().awaited_calls())
    }

    /// Adds what an awaited call gave: `{status, body}`, `{timedOut: true}` or `{error}`
    /// (`elapsedMs` optional). The next `run()` or `step()` goes on past it.
    #[wasm_bindgen(js_name = addExchange)]
    pub fn add_exchange(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AwaitedCall")] call: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ExtenderReply")] reply: JsValue,
    ) -> Result<(), JsValue> {
        let call: AwaitedCall = read(&call, "the call")?;
        let reply: ExtenderReply = read(&reply, "the reply")?;
        self.inner
            .borrow_mut()
            .add_exchange(&call, &reply)
            .map_err(|e| throw(&e, Vec::new()))
    }

    /// Every extender exchange so far as a `kind: ExtenderRecording` object (`null`: none):
    /// add it to the inputs and a later run replays the calls with no server.
    #[wasm_bindgen(js_name = extenderRecording)]
    pub fn extender_recording(&self) -> JsValue {
        match self.inner.borrow().extender_recording() {
            Some(v) => parse(&v.to_string()),
            None => JsValue::NULL,
        }
    }

    /// `run()`, making every extender call it waits for with `fetch` (within the extender's
    /// `httpTimeout`) until it stops for another reason. A call the browser cannot make (the
    /// extender is down, or sends no CORS headers: see `schedlab extender-proxy`) fails as an
    /// unreachable server does.
    #[wasm_bindgen(js_name = runLive, unchecked_return_type = "Promise<StopReason>")]
    pub fn run_live(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "RunOptions")] options: Option<JsValue>,
    ) -> Result<js_sys::Promise, JsValue> {
        let options = read_run_options(&options.unwrap_or(JsValue::UNDEFINED))?;
        let limits = limits(&options);
        let inner = std::rc::Rc::clone(&self.inner);
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            loop {
                let stop = inner.borrow_mut().run(limits);
                let calls = std::mem::take(&mut inner.borrow_mut().awaited);
                if stop != StopReason::AwaitingExtender || calls.is_empty() {
                    return Ok(to_js(&stop_name(stop)));
                }
                for call in calls {
                    let (exchange, ms) = schedlab_fetch::fetch(&call).await;
                    inner.borrow_mut().add_pending(&call, exchange, ms);
                }
            }
        }))
    }
}

/// Makes one extender call with `fetch` (gloo-net), within its `timeoutMs`, and says what it
/// gave, for `addExchange`.
#[wasm_bindgen(js_name = callExtender, unchecked_return_type = "Promise<ExtenderReply>")]
pub fn call_extender(
    #[wasm_bindgen(unchecked_param_type = "AwaitedCall")] call: JsValue,
) -> Result<js_sys::Promise, JsValue> {
    let call: AwaitedCall = read(&call, "the call")?;
    Ok(wasm_bindgen_futures::future_to_promise(async move {
        let pending = PendingCall {
            url: call.url,
            body: call.body,
            timeout: call.timeout_ms.map(Millis),
        };
        let (exchange, ms) = schedlab_fetch::fetch(&pending).await;
        let mut reply = ExtenderReply {
            elapsed_ms: Some(ms),
            ..ExtenderReply::default()
        };
        match exchange {
            Exchange::Reply { status, body } => {
                reply.status = Some(status);
                reply.body = Some(body);
            }
            Exchange::TimedOut => reply.timed_out = Some(true),
            Exchange::Failed(e) => reply.error = Some(e),
        }
        Ok(to_js(&reply))
    }))
}
