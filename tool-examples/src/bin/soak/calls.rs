//! The calls the clients make: what each sends, what it must get back, and how an answer is
//! classified.
//!
//! Every call echoes something of its own where the tool allows it (the call's id in a plan
//! step, a tool name, a path, a number), so an answer given to the wrong call is caught, not
//! only a missing one.

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::{json, Map, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::fixture;

/// What a call is meant to exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// A call that must succeed.
    Good,
    /// A call that must be refused with an error the model can act on.
    Bad,
    /// A call that takes time (a program that sleeps or is killed, a search of many files).
    Slow,
}

impl Group {
    pub fn name(self) -> &'static str {
        match self {
            Group::Good => "good",
            Group::Bad => "bad",
            Group::Slow => "slow",
        }
    }
}

/// The kinds of call, their group and their weight per 1,000 calls.
pub const KINDS: &[(&str, Group, u32)] = &[
    ("read_file", Group::Good, 170),
    ("list_dir", Group::Good, 110),
    ("search_files", Group::Good, 140),
    ("csv_summary", Group::Good, 110),
    ("update_plan", Group::Good, 120),
    ("search_tools", Group::Good, 50),
    ("unknown_tool", Group::Bad, 45),
    ("wrong_type", Group::Bad, 45),
    ("missing_required", Group::Bad, 35),
    ("unknown_argument", Group::Bad, 30),
    ("out_of_range", Group::Bad, 30),
    ("path_traversal", Group::Bad, 45),
    ("missing_file", Group::Bad, 20),
    ("malformed_json", Group::Bad, 19),
    ("oversize_body", Group::Bad, 1),
    ("exec_sleep", Group::Slow, 15),
    ("exec_killed", Group::Slow, 5),
    ("big_search", Group::Slow, 10),
];

/// What a call sends.
pub enum Send {
    /// `tools/call` through the rmcp client.
    Tool {
        name: String,
        arguments: Map<String, Value>,
    },
    /// A POST written by hand: JSON cut off in the middle.
    Malformed,
    /// A POST written by hand: a body over rmcp's 4 MiB limit.
    Oversize,
}

/// What a call must get back.
#[derive(Debug)]
pub enum Expect {
    /// A result with `isError: false`.
    Success,
    /// A result with `isError: true`, of this kind (see [`error_kind`]).
    ToolError(&'static str),
    /// A JSON-RPC error with this code.
    Protocol(i32),
    /// An HTTP status 400..=499 (the hand-written requests).
    HttpClientError,
}

/// What the answer must contain, to show it answers this call.
pub enum Check {
    None,
    /// This text, in the result's text (or the error's message).
    Text(String),
    /// These values at JSON pointers into `structuredContent`.
    Fields(Vec<(&'static str, Value)>),
}

/// One call to make.
pub struct Plan {
    /// An index into [`KINDS`].
    pub kind: usize,
    pub send: Send,
    pub expect: Expect,
    pub check: Check,
}

/// How a call was answered.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Success,
    /// `isError: true`, with the kind read from the message.
    ToolError(&'static str),
    /// A JSON-RPC error.
    Protocol(i32),
    /// The status of a hand-written request.
    Http(u16),
    /// The client's transport failed: the call got no answer.
    Transport(String),
    /// No answer within the call timeout.
    Lost,
}

impl Outcome {
    pub fn label(&self) -> String {
        match self {
            Outcome::Success => "success".to_owned(),
            Outcome::ToolError(kind) => format!("tool error: {kind}"),
            Outcome::Protocol(code) => format!("JSON-RPC error {code}"),
            Outcome::Http(status) => format!("HTTP {status}"),
            Outcome::Transport(what) => format!("transport error: {what}"),
            Outcome::Lost => "no answer (lost)".to_owned(),
        }
    }

    /// Whether the call got an answer at all.
    pub fn answered(&self) -> bool {
        !matches!(self, Outcome::Transport(_) | Outcome::Lost)
    }
}

/// A small deterministic generator (xorshift64*), one per client.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("arguments are written as objects"),
    }
}

fn tool(name: impl Into<String>, arguments: Value) -> Send {
    Send::Tool {
        name: name.into(),
        arguments: object(arguments),
    }
}

/// The weight of a kind: with `exec` off, the `exec_command` calls' share goes to the big
/// searches, so that no slow call holds the registry's gate alone.
fn weight(kind: usize, exec: bool) -> u32 {
    let (name, _, weight) = KINDS[kind];
    match name {
        _ if exec => weight,
        "exec_sleep" | "exec_killed" => 0,
        "big_search" => KINDS
            .iter()
            .filter(|k| k.1 == Group::Slow)
            .map(|k| k.2)
            .sum(),
        _ => weight,
    }
}

/// Picks the next call, weighted by [`KINDS`]; `id` is the call's own number.
pub fn plan(rng: &mut Rng, id: u64, big_files: usize, exec: bool) -> Plan {
    let total: u32 = (0..KINDS.len()).map(|k| weight(k, exec)).sum();
    let mut pick = rng.below(u64::from(total)) as u32;
    let kind = (0..KINDS.len())
        .find(|&kind| {
            let weight = weight(kind, exec);
            if pick < weight {
                true
            } else {
                pick -= weight;
                false
            }
        })
        .unwrap_or(0);
    let k = rng.below(fixture::DOCS as u64);
    let invalid = || Expect::ToolError("invalid_arguments");
    let (send, expect, check) = match KINDS[kind].0 {
        "read_file" => (
            tool("read_file", json!({"path": format!("docs/f{k}.txt")})),
            Expect::Success,
            Check::Text(format!("L1: file {k}:")),
        ),
        "list_dir" => (
            tool("list_dir", json!({"path": "tree", "depth": 3})),
            Expect::Success,
            Check::Text("tree/a/b/leaf.txt".to_owned()),
        ),
        "search_files" => (
            tool(
                "search_files",
                json!({"query": format!("needle-{k}-"), "path": "docs"}),
            ),
            Expect::Success,
            Check::Fields(vec![
                ("/matches/0/path", json!(format!("docs/f{k}.txt"))),
                ("/truncated", json!(false)),
            ]),
        ),
        "csv_summary" => (
            tool("csv_summary", json!({"path": "data.csv"})),
            Expect::Success,
            Check::Fields(vec![
                ("/rows", json!(fixture::CSV_ROWS)),
                ("/columns/1/name", json!("value")),
            ]),
        ),
        "update_plan" => (
            tool(
                "update_plan",
                json!({
                    "explanation": "soak",
                    "plan": [
                        {"step": format!("soak-{id} first"), "status": "completed"},
                        {"step": format!("soak-{id} second"), "status": "in_progress"},
                    ],
                }),
            ),
            Expect::Success,
            Check::Text(format!("- [x] soak-{id} first")),
        ),
        "search_tools" => (
            tool("search_tools", json!({"query": "read a file"})),
            Expect::Success,
            Check::Text("read_file".to_owned()),
        ),
        "unknown_tool" => (
            tool(format!("no_such_tool_{id}"), json!({})),
            Expect::Protocol(-32602),
            Check::Text(format!("\"no_such_tool_{id}\"")),
        ),
        "wrong_type" => {
            let n = 1_000_000 + id;
            (
                tool("read_file", json!({"path": n})),
                invalid(),
                Check::Text(format!("expected string, got {n}.")),
            )
        }
        "missing_required" => (
            tool("read_file", json!({"limit": 5})),
            invalid(),
            Check::Text("missing required \"path\"".to_owned()),
        ),
        "unknown_argument" => {
            let mut arguments = json!({"path": "docs/f1.txt"});
            arguments[format!("soak_{id}")] = json!(true);
            (
                tool("read_file", arguments),
                invalid(),
                Check::Text(format!("unknown argument \"soak_{id}\"")),
            )
        }
        "out_of_range" => {
            let depth = 6 + id;
            (
                tool("list_dir", json!({"path": ".", "depth": depth})),
                invalid(),
                Check::Text(format!("{depth} is greater than the maximum 5")),
            )
        }
        "path_traversal" => {
            let path = if id.is_multiple_of(2) {
                format!("../../etc/passwd-soak-{id}")
            } else {
                format!("/etc/passwd-soak-{id}")
            };
            (
                tool("read_file", json!({ "path": path })),
                Expect::ToolError("tool_failed"),
                Check::Text(format!("passwd-soak-{id}\"")),
            )
        }
        "missing_file" => (
            tool(
                "read_file",
                json!({"path": format!("docs/missing-{id}.txt")}),
            ),
            Expect::ToolError("tool_failed"),
            Check::Text(format!("\"docs/missing-{id}.txt\" does not exist")),
        ),
        "malformed_json" => (
            Send::Malformed,
            Expect::HttpClientError,
            Check::Text("fail to deserialize request body".to_owned()),
        ),
        "oversize_body" => (Send::Oversize, Expect::HttpClientError, Check::None),
        "exec_sleep" => {
            let ms = 100 + rng.below(400);
            (
                tool(
                    "exec_command",
                    json!({"argv": ["sleep", format!("{}.{:03}", ms / 1000, ms % 1000)]}),
                ),
                Expect::Success,
                Check::Fields(vec![("/exit_code", json!(0)), ("/timed_out", json!(false))]),
            )
        }
        "exec_killed" => (
            tool(
                "exec_command",
                json!({"argv": ["sleep", "30"], "timeout_ms": 200 + rng.below(200)}),
            ),
            Expect::Success,
            Check::Fields(vec![
                ("/exit_code", Value::Null),
                ("/timed_out", json!(true)),
            ]),
        ),
        "big_search" => (
            tool(
                "search_files",
                json!({"query": format!("absent-{id}"), "path": "big"}),
            ),
            Expect::Success,
            Check::Fields(vec![
                ("/files_searched", json!(big_files)),
                ("/matches", json!([])),
            ]),
        ),
        other => unreachable!("no plan for {other}"),
    };
    Plan {
        kind,
        send,
        expect,
        check,
    }
}

/// The kind of a tool error, from its message (MCP carries no error code in a result).
pub fn error_kind(message: &str) -> &'static str {
    if message.starts_with("Invalid arguments for") {
        "invalid_arguments"
    } else if message.contains("are not valid JSON") {
        "malformed_arguments"
    } else if message.contains("was denied") {
        "denied"
    } else if message.contains("timed out after") {
        "timeout"
    } else if message.contains("panicked") {
        "panicked"
    } else if message.contains("was cancelled") {
        "cancelled"
    } else {
        "tool_failed"
    }
}

/// What came back, with the text and structured content the checks read.
pub struct Answer {
    pub outcome: Outcome,
    pub text: String,
    pub structured: Option<Value>,
}

impl Answer {
    fn bare(outcome: Outcome) -> Answer {
        Answer {
            outcome,
            text: String::new(),
            structured: None,
        }
    }

    /// Whether the answer is the one `expect` asks for.
    pub fn expected(&self, expect: &Expect) -> bool {
        match (expect, &self.outcome) {
            (Expect::Success, Outcome::Success) => true,
            (Expect::ToolError(want), Outcome::ToolError(got)) => want == got,
            (Expect::Protocol(want), Outcome::Protocol(got)) => want == got,
            (Expect::HttpClientError, Outcome::Http(status)) => (400..500).contains(status),
            _ => false,
        }
    }

    /// Whether the answer shows it answers this call.
    pub fn matches(&self, check: &Check) -> bool {
        match check {
            Check::None => true,
            Check::Text(text) => self.text.contains(text.as_str()),
            Check::Fields(fields) => self.structured.as_ref().is_some_and(|value| {
                fields
                    .iter()
                    .all(|(pointer, want)| value.pointer(pointer) == Some(want))
            }),
        }
    }
}

pub type Client = RunningService<RoleClient, ()>;

/// Sends a `tools/call`, waiting at most `limit`.
pub async fn call_tool(
    client: &Client,
    name: String,
    arguments: Map<String, Value>,
    limit: Duration,
) -> Answer {
    let params = CallToolRequestParams::new(name).with_arguments(arguments);
    match tokio::time::timeout(limit, client.peer().call_tool(params)).await {
        Err(_) => Answer::bare(Outcome::Lost),
        Ok(Ok(result)) => tool_answer(result),
        Ok(Err(ServiceError::McpError(error))) => Answer {
            outcome: Outcome::Protocol(error.code.0),
            text: error.message.into_owned(),
            structured: error.data,
        },
        Ok(Err(error)) => Answer::bare(Outcome::Transport(transport_kind(&error))),
    }
}

fn tool_answer(result: CallToolResult) -> Answer {
    let text = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect::<Vec<_>>()
        .join("\n");
    let outcome = if result.is_error == Some(true) {
        Outcome::ToolError(error_kind(&text))
    } else {
        Outcome::Success
    };
    Answer {
        outcome,
        text,
        structured: result.structured_content,
    }
}

/// A transport error, cut to a short stable label for counting.
fn transport_kind(error: &ServiceError) -> String {
    match error {
        ServiceError::TransportSend(e) => {
            let text = e.to_string();
            format!(
                "send failed ({})",
                text.chars().take(80).collect::<String>()
            )
        }
        ServiceError::TransportClosed => "transport closed".to_owned(),
        ServiceError::UnexpectedResponse => "unexpected response".to_owned(),
        ServiceError::Cancelled { .. } => "cancelled".to_owned(),
        ServiceError::Timeout { .. } => "rmcp timeout".to_owned(),
        other => other.to_string().chars().take(80).collect(),
    }
}

/// One hand-written HTTP/1.1 exchange (`Connection: close`): the whole response.
pub async fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    headers: &str,
    body: &[u8],
) -> std::io::Result<String> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n{headers}\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    // The server may answer (413) and close before reading the whole body: what it said
    // still counts.
    let _ = stream.write_all(body).await;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    Ok(String::from_utf8_lossy(&response).into_owned())
}

/// The status of a response [`exchange`] read.
pub fn status(response: &str) -> Option<u16> {
    response
        .strip_prefix("HTTP/1.1 ")
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse().ok())
}

/// A header of a response [`exchange`] read.
pub fn header<'a>(response: &'a str, name: &str) -> Option<&'a str> {
    response.split("\r\n\r\n").next()?.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        key.eq_ignore_ascii_case(name).then(|| value.trim())
    })
}

/// Sends a hand-written POST: JSON cut off, or a body over the size limit.
pub async fn raw_post(addr: &str, path: &str, send: &Send, limit: Duration) -> Answer {
    let body: Vec<u8> = match send {
        Send::Malformed => {
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"docs/f1.txt""#.to_vec()
        }
        Send::Oversize => {
            let mut body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":""#.to_vec();
            body.resize(body.len() + 5 * 1024 * 1024, b'a');
            body.extend_from_slice(br#""}}}"#);
            body
        }
        Send::Tool { .. } => unreachable!("tool calls go through rmcp"),
    };
    match tokio::time::timeout(limit, exchange(addr, "POST", path, "", &body)).await {
        Err(_) => Answer::bare(Outcome::Lost),
        Ok(Err(error)) => Answer::bare(Outcome::Transport(format!("raw POST: {}", error.kind()))),
        Ok(Ok(response)) => match status(&response) {
            Some(status) => Answer {
                outcome: Outcome::Http(status),
                text: response,
                structured: None,
            },
            None => Answer::bare(Outcome::Transport(
                "raw POST: no HTTP status in the answer".to_owned(),
            )),
        },
    }
}
