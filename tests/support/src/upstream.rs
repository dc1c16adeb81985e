//! The scripted upstream: a **fixture, not a model**. No model weights can be downloaded
//! here, so the far end of every agent test is this small HTTP/1.1 server on 127.0.0.1. It
//! answers each request with the next reply of its script (replies written after the
//! providers' documentation: tool calls, parallel calls, a bad call, a final answer, whole,
//! as server-sent events, or as newline-delimited JSON) and records every request, so a test can check what the transport
//! sent. Everything between it and the agent (gateways, the transports) is real.
//!
//! Every Chat Completions and Responses request body is checked against OpenAI's official
//! OpenAPI spec ([`crate::openapi`]), every Gemini one against the API reference's rules
//! ([`crate::rules::gemini_request`]), every Ollama one against its request types
//! ([`crate::rules::ollama`]): a body that breaks them is answered with HTTP 400 and
//! the violations, as the API would, and dropping the upstream then fails the test.
//!
//! It runs on its own thread and runtime, so a test may block (on a child process, say)
//! while a gateway calls it.

use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One scripted reply.
#[derive(Clone, Debug)]
pub enum Scripted {
    /// A JSON body with a status and extra headers.
    Json {
        status: u16,
        headers: Vec<(String, String)>,
        body: Value,
    },
    /// Server-sent events: each string is one event's `data`, sent as `data: ..\n\n`, then
    /// the connection closes. `event:` names are added from each payload's `"type"` (the way
    /// Anthropic and OpenAI Responses send them).
    Sse { events: Vec<String> },
    /// Newline-delimited JSON (`application/x-ndjson`, as Ollama streams): each string is one
    /// line, then the connection closes.
    Ndjson { lines: Vec<String> },
    /// Waits, then sends the reply.
    After(Duration, Box<Scripted>),
}

impl Scripted {
    /// A 200 JSON reply.
    pub fn json(body: Value) -> Scripted {
        Scripted::Json {
            status: 200,
            headers: Vec::new(),
            body,
        }
    }

    /// An error status with a JSON body.
    pub fn status(status: u16, body: Value) -> Scripted {
        Scripted::Json {
            status,
            headers: Vec::new(),
            body,
        }
    }

    /// Adds a header to a JSON reply.
    pub fn header(mut self, name: &str, value: &str) -> Scripted {
        if let Scripted::Json { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    /// A newline-delimited JSON stream of these values (strings are sent as they are).
    pub fn ndjson(lines: impl IntoIterator<Item = Value>) -> Scripted {
        Scripted::Ndjson {
            lines: lines
                .into_iter()
                .map(|line| match line {
                    Value::String(raw) => raw,
                    other => other.to_string(),
                })
                .collect(),
        }
    }

    /// An event stream of these JSON payloads (strings are sent as they are).
    pub fn sse(events: impl IntoIterator<Item = Value>) -> Scripted {
        Scripted::Sse {
            events: events
                .into_iter()
                .map(|event| match event {
                    Value::String(raw) => raw,
                    other => other.to_string(),
                })
                .collect(),
        }
    }
}

/// A request as the upstream received it.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`Value::Null` when it is not JSON, or not kept: see
    /// [`Upstream::sizes_only`]).
    pub body: Value,
    /// The body's length in bytes.
    pub bytes: usize,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct Shared {
    script: VecDeque<Scripted>,
    requests: Vec<Recorded>,
    /// Requests the spec or the rules reject: the path and what is wrong.
    violations: Vec<(String, Vec<String>)>,
    /// Bodies are read and counted but neither parsed, checked nor kept.
    sizes_only: bool,
}

/// The running fixture. Dropping it stops it.
pub struct Upstream {
    port: u16,
    shared: Arc<Mutex<Shared>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Upstream {
    /// Starts serving `script` on a free port of 127.0.0.1.
    pub fn start(script: impl IntoIterator<Item = Scripted>) -> Upstream {
        Upstream::serve(script, false)
    }

    /// [`start`](Upstream::start) for a measurement of the client's memory: each request's
    /// body is read and its size recorded, but it is not parsed, checked or kept (its
    /// [`Recorded::body`] is `Null`), so the upstream holds no copy of what it received.
    pub fn sizes_only(script: impl IntoIterator<Item = Scripted>) -> Upstream {
        Upstream::serve(script, true)
    }

    fn serve(script: impl IntoIterator<Item = Scripted>, sizes_only: bool) -> Upstream {
        let shared = Arc::new(Mutex::new(Shared {
            script: script.into_iter().collect(),
            requests: Vec::new(),
            violations: Vec::new(),
            sizes_only,
        }));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("bound").port();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = Arc::clone(&shared);
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = TcpListener::from_std(listener).expect("tokio listener");
                let accept = async {
                    loop {
                        let Ok((socket, _)) = listener.accept().await else {
                            continue;
                        };
                        tokio::spawn(serve(socket, Arc::clone(&serving)));
                    }
                };
                tokio::select! {
                    () = accept => {}
                    _ = stopped => {}
                }
            });
        });
        Upstream {
            port,
            shared,
            stop: Some(stop),
        }
    }

    /// `http://127.0.0.1:{port}`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.lock().expect("not poisoned").requests.clone()
    }

    /// Adds replies to the end of the script.
    pub fn push(&self, replies: impl IntoIterator<Item = Scripted>) {
        self.shared
            .lock()
            .expect("not poisoned")
            .script
            .extend(replies);
    }

    /// How many replies are left.
    pub fn remaining(&self) -> usize {
        self.shared.lock().expect("not poisoned").script.len()
    }

    /// Takes the spec violations seen so far (path, what is wrong), for a test that sends a
    /// bad body on purpose; those left at drop fail the test.
    pub fn take_violations(&self) -> Vec<(String, Vec<String>)> {
        std::mem::take(&mut self.shared.lock().expect("not poisoned").violations)
    }
}

impl Drop for Upstream {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if std::thread::panicking() {
            return;
        }
        let violations = self.take_violations();
        assert!(
            violations.is_empty(),
            "request bodies the OpenAI spec or the Gemini or Ollama rules reject: {violations:#?}"
        );
    }
}

/// What the body breaks, and what it was checked against: OpenAI's OpenAPI spec for Chat
/// Completions and Responses, the Gemini API reference's rules for `generateContent`,
/// Ollama's request types for `/api/chat`.
fn check_body(path: &str, body: &Value) -> Option<(&'static str, Vec<String>)> {
    let found = if path.contains(":generateContent") || path.contains(":streamGenerateContent") {
        (
            "the Gemini API reference",
            crate::rules::gemini_request::check_request(body),
        )
    } else if path.ends_with("/api/chat") {
        (
            "Ollama's api/types.go",
            crate::rules::ollama::check_request(body),
        )
    } else {
        (
            "openai-openapi.yaml",
            crate::openapi::violations(path, body)?,
        )
    };
    Some(found).filter(|(_, violations)| !violations.is_empty())
}

/// Reads one request, records it, sends the next scripted reply, closes.
async fn serve(mut socket: TcpStream, shared: Arc<Mutex<Shared>>) {
    let sizes_only = shared.lock().expect("not poisoned").sizes_only;
    let Some(request) = read_request(&mut socket, sizes_only).await else {
        return;
    };
    let violations = if sizes_only {
        None
    } else {
        check_body(&request.path, &request.body)
    };
    let reply = {
        let mut shared = shared.lock().expect("not poisoned");
        let path = request.path.clone();
        shared.requests.push(request);
        match violations {
            Some((against, violations)) => {
                let message = format!(
                    "the request body violates {against}: {}",
                    violations.join("; ")
                );
                shared.violations.push((path, violations));
                Some(Scripted::status(
                    400,
                    serde_json::json!({"error": {"message": message, "type": "invalid_request_error"}}),
                ))
            }
            None => shared.script.pop_front(),
        }
    };
    let reply = reply.unwrap_or_else(|| {
        Scripted::status(
            500,
            serde_json::json!({"error": {"message": "the scripted upstream's script is exhausted"}}),
        )
    });
    let _ = write_reply(&mut socket, reply).await;
}

async fn read_request(socket: &mut TcpStream, sizes_only: bool) -> Option<Recorded> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 << 10];
    let head_end = loop {
        if let Some(at) = find(&buf, b"\r\n\r\n") {
            break at;
        }
        if buf.len() > 1 << 20 {
            return None;
        }
        let n = tokio::time::timeout(Duration::from_secs(30), socket.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split_whitespace();
    let method = first.next()?.to_owned();
    let path = first.next()?.to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length.min(64 << 20) {
        let n = tokio::time::timeout(Duration::from_secs(30), socket.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            break;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let bytes = body.len();
    let body = if sizes_only {
        Value::Null
    } else {
        serde_json::from_slice(&body).unwrap_or(Value::Null)
    };
    Some(Recorded {
        method,
        path,
        headers,
        body,
        bytes,
    })
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

async fn write_reply(socket: &mut TcpStream, reply: Scripted) -> std::io::Result<()> {
    match reply {
        Scripted::After(wait, reply) => {
            tokio::time::sleep(wait).await;
            Box::pin(write_reply(socket, *reply)).await
        }
        Scripted::Json {
            status,
            headers,
            body,
        } => {
            let body = body.to_string();
            let mut head = format!(
                "HTTP/1.1 {status} Scripted\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            socket.write_all(head.as_bytes()).await?;
            socket.write_all(body.as_bytes()).await?;
            socket.shutdown().await
        }
        Scripted::Ndjson { lines } => {
            socket
                .write_all(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\nconnection: close\r\n\r\n",
                )
                .await?;
            for line in lines {
                socket.write_all(format!("{line}\n").as_bytes()).await?;
                socket.flush().await?;
            }
            socket.shutdown().await
        }
        Scripted::Sse { events } => {
            socket
                .write_all(
                    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n",
                )
                .await?;
            for data in events {
                let mut frame = String::new();
                if let Some(kind) = serde_json::from_str::<Value>(&data)
                    .ok()
                    .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_owned))
                {
                    frame.push_str(&format!("event: {kind}\n"));
                }
                frame.push_str(&format!("data: {data}\n\n"));
                socket.write_all(frame.as_bytes()).await?;
                socket.flush().await?;
            }
            socket.shutdown().await
        }
    }
}
