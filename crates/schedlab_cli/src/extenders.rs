//! Scheduler extenders from the command line: the live HTTP calls (a blocking client, `ureq`),
//! the run's options (`--offline`, `--record-extenders FILE`, `--fidelity
//! extender-nodeinfo-fix`), and `schedlab extender-proxy`, the loopback helper that lets a
//! page call an extender running on this machine.

use schedlab_core::model::Millis;
use schedlab_core::scheduler::extenders::{Exchange, Transport, MAX_REPLY_BYTES};
use schedlab_core::Scenario;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Behaviours kube-scheduler v1.35 has that a run may switch off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Fidelity {
    /// Fix kubernetes#141781 (as PR #141919 would): when an extender answers its filter with
    /// `Nodes`, the Score plugins still see each node's pods. By default v1.35 reproduces the
    /// bug (NodeResourcesFit and BalancedAllocation score every such node as empty).
    ExtenderNodeinfoFix,
}

/// The extender options of `run` and `explain`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ExtenderArgs {
    /// Call no live extender: a call that no ExtenderMock or ExtenderRecording in the inputs
    /// answers is an error of the cycle (never a silent pass).
    #[arg(long)]
    pub offline: bool,
    /// Write every extender exchange of the run (live calls and mock answers) to FILE as an
    /// ExtenderRecording, which a later run (or the page) replays with no server.
    #[arg(long, value_name = "FILE")]
    pub record_extenders: Option<String>,
    /// Switch off a reproduced upstream behaviour.
    #[arg(long, value_enum, value_name = "FIX")]
    pub fidelity: Vec<Fidelity>,
}

impl ExtenderArgs {
    /// Sets the scenario up for its extenders: the live client unless `--offline`, the
    /// recording, the fixes.
    pub fn prepare(&self, scenario: &mut Scenario) {
        if !self.offline {
            scenario
                .extender_answers
                .set_transport(Arc::new(HttpTransport));
        }
        if self.record_extenders.is_some() {
            scenario.extender_answers.set_record(true);
        }
        if self.fidelity.contains(&Fidelity::ExtenderNodeinfoFix) {
            scenario.extender_nodeinfo_fix = true;
        }
    }

    /// Writes the recording, if asked for. Err: the message.
    pub fn save(&self, scenario: &Scenario) -> Result<(), String> {
        let Some(path) = &self.record_extenders else {
            return Ok(());
        };
        let recording = scenario.extender_answers.recording();
        let object = recording.to_object("recorded-by-schedlab");
        let text = if path.ends_with(".json") {
            serde_json::to_string_pretty(&object).map_err(|e| e.to_string())?
        } else {
            serde_yaml_ng::to_string(&object).map_err(|e| e.to_string())?
        };
        std::fs::write(path, text).map_err(|e| format!("{path}: cannot write: {e}"))
    }
}

/// The live calls: `POST` with `Content-Type: application/json`, the whole exchange within
/// `httpTimeout`, at most [`MAX_REPLY_BYTES`] read. Failures are worded as Go's client words
/// them (`dial tcp 127.0.0.1:1: connect: connection refused`).
pub struct HttpTransport;

impl Transport for HttpTransport {
    fn post(&self, url: &str, body: &str, timeout: Option<Millis>) -> Exchange {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(timeout.map(|t| Duration::from_millis(t.0)))
            .http_status_as_error(false)
            .build()
            .into();
        let sent = agent
            .post(url)
            .header("Content-Type", "application/json")
            .send(body);
        let mut response = match sent {
            Ok(r) => r,
            Err(e) => return failure(url, e),
        };
        let status = response.status().as_u16();
        let read = response
            .body_mut()
            .with_config()
            .limit(MAX_REPLY_BYTES as u64)
            .read_to_vec();
        match read {
            Ok(bytes) => Exchange::Reply {
                status,
                body: String::from_utf8_lossy(&bytes).into_owned(),
            },
            Err(e) => failure(url, e),
        }
    }
}

/// `host:port` of a URL, for Go's `dial tcp` words.
fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or(rest);
    if authority.contains(':') {
        authority.to_string()
    } else if url.starts_with("https") {
        format!("{authority}:443")
    } else {
        format!("{authority}:80")
    }
}

fn failure(url: &str, e: ureq::Error) -> Exchange {
    let at = host_port(url);
    match e {
        ureq::Error::Timeout(_) => Exchange::TimedOut,
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => Exchange::TimedOut,
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            Exchange::Failed(format!("dial tcp {at}: connect: connection refused"))
        }
        ureq::Error::HostNotFound => {
            let host = at.rsplit_once(':').map_or(at.as_str(), |(h, _)| h);
            Exchange::Failed(format!("dial tcp: lookup {host}: no such host"))
        }
        ureq::Error::ConnectionFailed => {
            Exchange::Failed(format!("dial tcp {at}: connect: connection failed"))
        }
        ureq::Error::BodyExceedsLimit(_) => Exchange::Failed(format!(
            "the reply is larger than {} MiB (schedlab's limit)",
            MAX_REPLY_BYTES >> 20
        )),
        other => Exchange::Failed(other.to_string()),
    }
}

// ---- extender-proxy ------------------------------------------------------------------------

/// `schedlab extender-proxy`.
#[derive(clap::Args, Clone, Debug)]
pub struct ProxyArgs {
    /// The extender to forward to: a loopback URL (`http://127.0.0.1:PORT`, `localhost`,
    /// `[::1]`), its path prefix kept.
    #[arg(long, value_name = "URL")]
    pub to: String,
    /// Where to listen: a loopback address and port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8889")]
    pub listen: String,
}

/// Whether `host` (a URL's host, or `host:port`) is this machine's loopback.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[');
    let host = host.split(']').next().unwrap_or(host);
    let host = match host.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') && p.chars().all(|c| c.is_ascii_digit()) => h,
        _ => host,
    };
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Runs the proxy until it is stopped.
pub fn proxy(args: &ProxyArgs) -> ExitCode {
    let Some(rest) = args.to.strip_prefix("http://") else {
        eprintln!(
            "error: --to {:?}: the extender must be an http:// URL on this machine",
            args.to
        );
        return ExitCode::from(2);
    };
    let authority = rest.split('/').next().unwrap_or(rest);
    if !is_loopback(authority) {
        eprintln!(
            "error: --to {:?}: the proxy forwards only to this machine (127.0.0.1, ::1 or localhost)",
            args.to
        );
        return ExitCode::from(2);
    }
    let loopback_listen = args
        .listen
        .to_socket_addrs()
        .map(|mut a| a.all(|a| a.ip().is_loopback()))
        .unwrap_or(false);
    if !loopback_listen {
        eprintln!(
            "error: --listen {:?}: the proxy listens only on this machine's loopback",
            args.listen
        );
        return ExitCode::from(2);
    }
    let listener = match TcpListener::bind(&args.listen) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: --listen {}: {e}", args.listen);
            return ExitCode::from(1);
        }
    };
    let local = listener
        .local_addr()
        .map_or(args.listen.clone(), |a| a.to_string());
    eprintln!(
        "extender-proxy: forwarding http://{local}/… to {} (loopback only, CORS allowed)",
        args.to.trim_end_matches('/')
    );
    let to = Arc::new(args.to.trim_end_matches('/').to_string());
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let to = Arc::clone(&to);
        std::thread::spawn(move || {
            let _ = serve(stream, &to);
        });
    }
    ExitCode::SUCCESS
}

/// The longest request the proxy reads.
const MAX_REQUEST_BYTES: usize = 64 << 20;

/// One connection: read a request, answer it (CORS preflight, or the forwarded POST).
fn serve(stream: TcpStream, to: &str) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, path) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("/").to_string(),
    );
    let mut length = 0usize;
    let mut origin: Option<String> = None;
    let mut timeout: Option<Millis> = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 {
            break;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().unwrap_or(0),
                "origin" => origin = Some(value.to_string()),
                // The page says how long it waits; the proxy waits as long.
                "x-schedlab-timeout-ms" => timeout = value.parse().ok().map(Millis),
                _ => {}
            }
        }
    }
    let cors = cors_headers(origin.as_deref());
    if method == "OPTIONS" {
        return respond(&mut writer, 204, "No Content", &cors, b"");
    }
    if method != "POST" {
        return respond(
            &mut writer,
            405,
            "Method Not Allowed",
            &cors,
            b"only POST\n",
        );
    }
    if length > MAX_REQUEST_BYTES {
        return respond(
            &mut writer,
            413,
            "Payload Too Large",
            &cors,
            b"request too large\n",
        );
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    let body = String::from_utf8_lossy(&body);
    let url = format!("{to}{path}");
    match HttpTransport.post(&url, &body, timeout) {
        Exchange::Reply { status, body } => {
            respond(&mut writer, status, "", &cors, body.as_bytes())
        }
        Exchange::TimedOut => respond(
            &mut writer,
            504,
            "Gateway Timeout",
            &cors,
            b"the extender did not answer in time\n",
        ),
        Exchange::Failed(e) => respond(
            &mut writer,
            502,
            "Bad Gateway",
            &cors,
            format!("{e}\n").as_bytes(),
        ),
    }
}

/// What a browser needs to let a page on any site read the reply: the CORS headers (and
/// Chrome's Private Network Access header, for a public page calling a loopback address).
fn cors_headers(origin: Option<&str>) -> Vec<(&'static str, String)> {
    vec![
        (
            "Access-Control-Allow-Origin",
            origin.unwrap_or("*").to_string(),
        ),
        ("Vary", "Origin".into()),
        ("Access-Control-Allow-Methods", "POST, OPTIONS".into()),
        (
            "Access-Control-Allow-Headers",
            "Content-Type, X-Schedlab-Timeout-Ms".into(),
        ),
        ("Access-Control-Allow-Private-Network", "true".into()),
        ("Access-Control-Max-Age", "600".into()),
    ]
}

fn respond(
    w: &mut TcpStream,
    status: u16,
    reason: &str,
    headers: &[(&'static str, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {reason}\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!(
        "Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    w.write_all(head.as_bytes())?;
    w.write_all(body)?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_count_as_loopback() {
        for host in [
            "127.0.0.1:8888",
            "localhost",
            "[::1]:80",
            "127.0.0.2",
            "localhost:9",
        ] {
            assert!(is_loopback(host), "{host}");
        }
        for host in [
            "10.0.0.1:80",
            "example.com",
            "0.0.0.0:1",
            "[2001:db8::1]:80",
        ] {
            assert!(!is_loopback(host), "{host}");
        }
    }

    #[test]
    fn host_port_defaults_the_port_by_scheme() {
        assert_eq!(host_port("http://127.0.0.1:1/filter"), "127.0.0.1:1");
        assert_eq!(host_port("http://example.com/x"), "example.com:80");
        assert_eq!(host_port("https://example.com"), "example.com:443");
    }
}
