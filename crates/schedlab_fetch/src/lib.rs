//! Live scheduler-extender calls from a browser. When a run reaches an extender call that no
//! ExtenderMock and no ExtenderRecording answers, it pauses there
//! (`StopReason::AwaitingExtender`, `Simulation::take_awaited_calls`); the host (the
//! playground's engine, in its worker or on the page, or the JavaScript API's `runLive`) makes
//! the calls with `fetch` (gloo-net), each within the extender's `httpTimeout`, adds what came
//! back to the scenario's exchanges, and runs on.
//!
//! A browser hides why a `fetch` failed: an extender that is not running and one that does not
//! send the CORS headers a page needs both give a bare `TypeError`. Where the page is not
//! cross-origin isolated, a second, opaque request (`no-cors`) tells the two apart; the words
//! then name `schedlab extender-proxy`, which adds the headers.

use schedlab_core::scheduler::extenders::{Exchange, PendingCall, MAX_REPLY_BYTES};
use wasm_bindgen::{JsCast, JsValue};

/// How long the `no-cors` request that tells a refused connection from a missing CORS
/// header may take.
const PROBE_MS: f64 = 2_000.0;

/// Makes `calls` one after the other in a task of their own, then hands `then` each call with
/// what came back and how long it took (milliseconds).
pub fn call_all(
    calls: Vec<PendingCall>,
    then: impl FnOnce(Vec<(PendingCall, Exchange, u64)>) + 'static,
) {
    wasm_bindgen_futures::spawn_local(async move {
        let mut made = Vec::with_capacity(calls.len());
        for call in calls {
            let (exchange, ms) = fetch(&call).await;
            made.push((call, exchange, ms));
        }
        then(made);
    });
}

/// Milliseconds on a clock that only goes forward (the worker's or the window's
/// `performance.now()`).
fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// POSTs one call's body to its URL, as `HTTPExtender.send` does (`Content-Type:
/// application/json`, the whole exchange within `httpTimeout`, at most [`MAX_REPLY_BYTES`]
/// read); what came back, and how long it took in milliseconds.
pub async fn fetch(call: &PendingCall) -> (Exchange, u64) {
    let started = now_ms();
    let signal = call
        .timeout
        .map(|t| web_sys::AbortSignal::timeout_with_f64(t.0 as f64));
    let request = gloo_net::http::Request::post(&call.url)
        .header("Content-Type", "application/json")
        .abort_signal(signal.as_ref())
        .body(JsValue::from_str(&call.body));
    let exchange = match request {
        Err(e) => Exchange::Failed(e.to_string()),
        Ok(request) => match request.send().await {
            Ok(response) => read(response).await,
            Err(e) if timed_out(&e) => Exchange::TimedOut,
            Err(_) => Exchange::Failed(unreachable_words(&call.url).await),
        },
    };
    let elapsed = (now_ms() - started).max(0.0).round() as u64;
    (exchange, elapsed)
}

/// The reply's status and body (a body over [`MAX_REPLY_BYTES`] is refused unread when its
/// length is announced, else after reading).
async fn read(response: gloo_net::http::Response) -> Exchange {
    let status = response.status();
    let too_big = || {
        Exchange::Failed(format!(
            "the reply is larger than {} MiB (schedlab's limit)",
            MAX_REPLY_BYTES >> 20
        ))
    };
    let announced = response
        .headers()
        .get("content-length")
        .and_then(|l| l.trim().parse::<usize>().ok());
    if announced.is_some_and(|l| l > MAX_REPLY_BYTES) {
        return too_big();
    }
    match response.text().await {
        Ok(body) if body.len() > MAX_REPLY_BYTES => too_big(),
        Ok(body) => Exchange::Reply { status, body },
        Err(e) if timed_out(&e) => Exchange::TimedOut,
        Err(e) => Exchange::Failed(format!("reading the reply: {e}")),
    }
}

/// Whether a `fetch` error is the `httpTimeout` signal's.
fn timed_out(e: &gloo_net::Error) -> bool {
    matches!(e, gloo_net::Error::JsError(j) if j.name == "TimeoutError" || j.name == "AbortError")
}

/// `http://host:port` and the rest of a URL.
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => url.split_at(after_scheme + i),
        None => (url, ""),
    }
}

/// What to do about a call the browser could not make: the proxy that adds the CORS headers,
/// with the `urlPrefix` that goes through it.
fn proxy_advice(url: &str) -> String {
    let (origin, path) = split_origin(url);
    let prefix = path.rsplit_once('/').map_or("", |(p, _)| p);
    format!(
        "run `schedlab extender-proxy --to {origin}` and set the extender's urlPrefix to http://127.0.0.1:8889{prefix}"
    )
}

/// Words for a `fetch` that failed: where the page is not cross-origin isolated, an opaque
/// `no-cors` request tells an extender that answered without CORS headers from one that does
/// not answer at all.
async fn unreachable_words(url: &str) -> String {
    let (origin, _) = split_origin(url);
    let isolated = js_sys::Reflect::get(&js_sys::global(), &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if isolated {
        return format!(
            "the browser's fetch failed: nothing answers at {origin}, or the extender does not send the CORS headers a page needs (Access-Control-Allow-Origin); to call an extender on this machine, {}",
            proxy_advice(url)
        );
    }
    let probe = gloo_net::http::Request::get(url)
        .mode(web_sys::RequestMode::NoCors)
        .abort_signal(Some(&web_sys::AbortSignal::timeout_with_f64(PROBE_MS)))
        .send()
        .await;
    match probe {
        Ok(_) => format!(
            "CORS: the extender at {origin} answered, but without the headers a page needs to read the reply (Access-Control-Allow-Origin, and Access-Control-Allow-Headers: Content-Type), so the browser withheld it; {}",
            proxy_advice(url)
        ),
        Err(_) => format!(
            "nothing answers at {origin}: the browser could not connect (is the extender running?)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_proxy_advice_keeps_the_url_prefix_path() {
        assert_eq!(
            split_origin("http://127.0.0.1:8888/basic/filter"),
            ("http://127.0.0.1:8888", "/basic/filter")
        );
        assert_eq!(split_origin("http://x"), ("http://x", ""));
        assert_eq!(
            proxy_advice("http://127.0.0.1:8888/basic/filter"),
            "run `schedlab extender-proxy --to http://127.0.0.1:8888` and set the extender's urlPrefix to http://127.0.0.1:8889/basic"
        );
        assert_eq!(
            proxy_advice("http://localhost:9000/filter"),
            "run `schedlab extender-proxy --to http://localhost:9000` and set the extender's urlPrefix to http://127.0.0.1:8889"
        );
    }
}
