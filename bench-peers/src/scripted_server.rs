//! A test fixture, not a model: a scripted OpenAI Chat Completions server for the agent-loop
//! bench (`benches/agent_turns.rs`). It runs in its own process, so its CPU time never counts
//! in the client's `getrusage(RUSAGE_SELF)`.
//!
//! - `POST {base}/chat/completions` on `127.0.0.1`, HTTP/1.1 with keep-alive, one thread per
//!   connection, whole JSON replies only (a request asking for `stream: true` gets a 400).
//! - Stateless: a request whose last message has role `tool` gets a final text
//!   `chat.completion`; any other gets a `chat.completion` holding one call to `search` with
//!   the arguments [`CALL_ARGUMENTS`]. Both carry `usage`.
//! - The final text says whether the tool's result was the `search` output
//!   ([`final_text`]), so a client can check that the tool really ran and that every request
//!   carried its whole tool list.
//! - Every wait is bounded: a connection idle for [`IDLE`] is closed, a request must arrive
//!   whole within [`IDLE`], the process lives at most [`MAX_LIFETIME`], and it exits when its
//!   stdin closes (its parent closed it or died) or, on Linux, when its parent dies.
//!
//! [`ScriptedServer::start`] re-executes the current binary with the argument `serve`; that
//! binary's `main` hands over to [`serve_main`], which prints the port on stdout.

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The arguments of the scripted call: the `small` payload of the per-call benches.
pub const CALL_ARGUMENTS: &str = r#"{"query":"rust tools","limit":5,"mode":"fast"}"#;

/// How long a connection may sit idle, or a request take to arrive whole.
pub const IDLE: Duration = Duration::from_secs(30);

/// The longest the server process lives, whatever happens.
pub const MAX_LIFETIME: Duration = Duration::from_secs(3 * 3600);

/// The largest request read.
const MAX_REQUEST: usize = 16 << 20;

/// The final answer when the request's tool result is the `search` output and the request
/// offered `tools` tools.
pub fn final_text(tools: usize) -> String {
    format!("The search tool answered; {tools} tools were offered.")
}

/// The server's `main`: binds `127.0.0.1:0`, prints the port on stdout, serves until stdin
/// closes.
pub fn serve_main() -> ! {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_PDEATHSIG and a signal number has no memory effects.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
    let port = listener.local_addr().expect("a bound address").port();
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{port}").expect("write the port");
        out.flush().expect("flush the port");
    }
    // The parent closing stdin (or dying, which closes it) ends the process.
    std::thread::spawn(|| {
        let mut sink = [0u8; 64];
        let mut stdin = std::io::stdin().lock();
        while matches!(stdin.read(&mut sink), Ok(n) if n > 0) {}
        std::process::exit(0);
    });
    std::thread::spawn(|| {
        std::thread::sleep(MAX_LIFETIME);
        eprintln!("scripted server: lifetime of {MAX_LIFETIME:?} reached, exiting");
        std::process::exit(2);
    });
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                std::thread::spawn(move || {
                    if let Err(error) = connection(stream) {
                        // A keep-alive connection the client left idle past `IDLE` ends
                        // with a read timeout (EAGAIN): that is no failure either.
                        use std::io::ErrorKind::{TimedOut, UnexpectedEof, WouldBlock};
                        if !matches!(error.kind(), UnexpectedEof | WouldBlock | TimedOut) {
                            eprintln!("scripted server: connection ended: {error}");
                        }
                    }
                });
            }
            Err(error) => eprintln!("scripted server: accept failed: {error}"),
        }
    }
    std::process::exit(1)
}

/// Serves one keep-alive connection until the client closes it or it idles out.
fn connection(stream: TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(IDLE))?;
    stream.set_write_timeout(Some(IDLE))?;
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    let mut line = String::new();
    loop {
        // The request line; EOF between requests is the client closing.
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        let started = Instant::now();
        let request_line = line.trim_end().to_owned();
        let mut length = None;
        let mut chunked = false;
        let mut close = false;
        loop {
            line.clear();
            if reader.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let Some((name, value)) = header.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse::<usize>().ok(),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "connection" => close = value.eq_ignore_ascii_case("close"),
                _ => {}
            }
        }
        let body = if chunked {
            read_chunked(&mut reader)?
        } else {
            let length = length.unwrap_or(0);
            if length > MAX_REQUEST {
                return Err(std::io::Error::other("request too large"));
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body)?;
            body
        };
        if started.elapsed() > IDLE {
            return Err(std::io::Error::other("request took too long"));
        }
        let (status, reply) =
            if request_line.starts_with("POST ") && request_line.contains("/chat/completions ") {
                answer(&body)
            } else {
                (404, error_body(&format!("no route for {request_line}")))
            };
        let reason = match status {
            200 => "OK",
            404 => "Not Found",
            _ => "Bad Request",
        };
        let head = format!(
            "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: {}\r\n\r\n",
            reply.len(),
            if close { "close" } else { "keep-alive" }
        );
        writer.write_all(head.as_bytes())?;
        writer.write_all(reply.as_bytes())?;
        writer.flush()?;
        if close {
            return Ok(());
        }
    }
}

/// A chunked request body.
fn read_chunked(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = line.trim().split(';').next().unwrap_or("");
        let size = usize::from_str_radix(size, 16)
            .map_err(|_| std::io::Error::other(format!("bad chunk size {size:?}")))?;
        if body.len() + size > MAX_REQUEST {
            return Err(std::io::Error::other("request too large"));
        }
        if size == 0 {
            // Trailers, then the blank line.
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
                    return Ok(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        line.clear();
        reader.read_line(&mut line)?;
    }
}

/// What the server reads of a request: the messages (each left as JSON text), the tool count
/// and `stream`.
#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    messages: Vec<&'a RawValue>,
    #[serde(default)]
    tools: Option<Vec<serde::de::IgnoredAny>>,
    #[serde(default)]
    stream: Option<bool>,
    #[serde(default)]
    model: Option<String>,
}

/// The reply to one request body: a call, or the final answer after a tool result.
fn answer(body: &[u8]) -> (u16, String) {
    let request: Request<'_> = match serde_json::from_slice(body) {
        Ok(request) => request,
        Err(error) => return (400, error_body(&format!("not a chat request: {error}"))),
    };
    if request.stream == Some(true) {
        return (
            400,
            error_body("this scripted server answers whole replies only"),
        );
    }
    let Some(last) = request.messages.last() else {
        return (400, error_body("no messages"));
    };
    let last: Value = match serde_json::from_str(last.get()) {
        Ok(last) => last,
        Err(error) => return (400, error_body(&format!("bad message: {error}"))),
    };
    let tools = request.tools.map_or(0, |tools| tools.len());
    let model = request.model.unwrap_or_default();
    let prompt_tokens = body.len() / 4;
    let message = if last["role"] == "tool" {
        let content = content_text(&last["content"]);
        let text = if content.contains(r#""query":"rust tools""#) && content.contains(r#""count":"#)
        {
            final_text(tools)
        } else {
            format!("The tool result was not the search output: {content}")
        };
        serde_json::json!({"role": "assistant", "content": text})
    } else {
        serde_json::json!({
            "role": "assistant",
            "content": null,
            "tool_calls": [{
                "id": "call_search_1",
                "type": "function",
                "function": {"name": "search", "arguments": CALL_ARGUMENTS},
            }],
        })
    };
    let finish = if message.get("tool_calls").is_some() {
        "tool_calls"
    } else {
        "stop"
    };
    let reply = serde_json::json!({
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 1_700_000_000u64,
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": 16,
            "total_tokens": prompt_tokens + 16,
        },
    });
    (200, reply.to_string())
}

/// A message's content as text: a string, or the text of its parts.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part["text"].as_str())
            .collect(),
        _ => String::new(),
    }
}

/// An OpenAI-shaped error body.
fn error_body(message: &str) -> String {
    serde_json::json!({"error": {"message": message, "type": "invalid_request_error"}}).to_string()
}

/// The server process, from the client's side: started by re-executing the current binary
/// with `serve`; stopped (stdin closed, then killed if it lingers) on drop.
pub struct ScriptedServer {
    child: Child,
    stdin: Option<ChildStdin>,
    port: u16,
}

impl ScriptedServer {
    /// Starts the server and waits (at most 30 s) for its port.
    pub fn start() -> ScriptedServer {
        let exe = std::env::current_exe().expect("the current executable");
        let mut child = Command::new(exe)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the scripted server");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("the server's stdout");
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let read = BufReader::new(stdout).read_line(&mut line);
            let _ = send.send(read.map(|_| line));
        });
        let port = match receive.recv_timeout(Duration::from_secs(30)) {
            Ok(Ok(line)) => line.trim().parse::<u16>().ok(),
            _ => None,
        };
        let Some(port) = port else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the scripted server did not print its port within 30 s");
        };
        ScriptedServer { child, stdin, port }
    }

    /// The base URL (the part before `/chat/completions`).
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
