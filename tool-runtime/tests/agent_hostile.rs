//! The agent under a hostile model server, over real HTTP against the scripted upstream (a
//! fixture, not a model): replies of thousands of calls (`tests/attacks/agent/`), results
//! that pile up, redirects to another origin with the key, and error statuses that must say
//! what the server said.
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tool_runtime::agent::{
    Agent, AgentError, Anthropic, Gemini, Model, ModelError, Ollama, OpenAiChat, OpenAiResponses,
    TensorZero, Turn,
};
use tool_runtime::text::TextFormat;
use tool_runtime::{tool, Registry};
use tool_test_support::floods::Flood;
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

/// How many times `page` ran, per test (each test uses its own count).
static PAGES: [AtomicUsize; 4] = [const { AtomicUsize::new(0) }; 4];

/// A page of `bytes` bytes (at most 8,000, under the default output cap).
#[tool(read_only)]
fn page(
    /// How long.
    bytes: usize,
    /// Which test counts the call.
    counter: Option<usize>,
) -> String {
    PAGES[counter.unwrap_or(0).min(3)].fetch_add(1, Ordering::SeqCst);
    "x".repeat(bytes.min(8000))
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(page::TOOL)
        .build()
        .unwrap()
}

fn chat(upstream: &Upstream) -> OpenAiChat {
    OpenAiChat::new(format!("{}/v1", upstream.url()), "scripted")
        .max_retry_wait(Duration::from_secs(2))
}

fn tool_contents(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

// Item 1: a model server can exhaust the agent's memory.

#[tokio::test]
async fn a_thousand_calls_a_turn_run_sixteen_and_answer_every_other_one() {
    let mut flood = Flood::load("thousand_calls_a_turn");
    flood.arguments = r#"{"bytes": 8000, "counter": 0}"#.into();
    let upstream = Upstream::start(flood.script());
    let mut agent = Agent::new(chat(&upstream), registry()).max_turns(flood.turns + 1);
    let reply = agent.run("Read every page.").await.unwrap();
    assert_eq!(reply.text, "Done.");
    assert_eq!(reply.calls, 16 * flood.turns, "16 calls run a turn");
    assert_eq!(PAGES[0].load(Ordering::SeqCst), 16 * flood.turns);

    let requests = upstream.requests();
    let last = &requests.last().unwrap().body;
    let results = tool_contents(last);
    assert_eq!(
        results.len(),
        flood.calls * flood.turns,
        "every call answered"
    );
    let refused = results
        .iter()
        .filter(|r| r.contains("not run: 1000 calls in one turn, over the limit of 16"))
        .count();
    assert_eq!(refused, (flood.calls - 16) * flood.turns);
    // The sixteen that ran, first of each turn, are whole: 128 × 8,000 bytes fit the
    // history's cap (1 MiB).
    for turn in 0..flood.turns {
        let ran = &results[turn * flood.calls..][..16];
        assert!(ran.iter().all(|r| r.len() == 8000), "turn {turn}");
    }
    // The largest request is what was kept, not 8 MB a turn.
    let largest = requests
        .iter()
        .map(|r| r.body.to_string().len())
        .max()
        .unwrap();
    assert!(largest < 4 << 20, "{largest} bytes");
}

#[tokio::test]
async fn results_over_the_history_cap_are_cut_oldest_first_in_messages_and_history() {
    let call = |turn: usize| {
        Scripted::json(chat_calls(&[(
            &format!("c{turn}"),
            "page",
            r#"{"bytes": 8000, "counter": 1}"#,
        )]))
    };
    let mut script: Vec<Scripted> = (1..=5).map(call).collect();
    script.push(Scripted::json(chat_text("Read.")));
    let upstream = Upstream::start(script);
    let mut agent = Agent::new(chat(&upstream), registry()).max_history_result_bytes(20_000);
    agent.run("Read five pages.").await.unwrap();
    // 8,000 bytes each: two fit under 20,000, the three before them are cut.
    let last = &upstream.requests()[5].body;
    let results = tool_contents(last);
    assert_eq!(results.len(), 5);
    for cut in &results[..3] {
        assert_eq!(
            cut,
            "[result cut: 8000 bytes, to keep the conversation's tool results under 20000 bytes]"
        );
    }
    assert!(results[3..].iter().all(|r| r.len() == 8000));
    let history: Vec<usize> = agent
        .history()
        .iter()
        .filter_map(|turn| match turn {
            Turn::Results(results) => Some(results[0].output.to_model_text().len()),
            _ => None,
        })
        .collect();
    assert_eq!(history[3..], [8000, 8000]);
    assert!(history[..3].iter().all(|&len| len < 100), "{history:?}");
    // What the agent will send next is what the history says.
    let sent = tool_contents(&json!({"messages": agent.messages()}));
    assert_eq!(sent, results);
}

#[tokio::test]
async fn text_only_results_are_cut_in_their_one_message() {
    let call =
        r#"<tool_call>{"name": "page", "arguments": {"bytes": 8000, "counter": 2}}</tool_call>"#;
    let upstream = Upstream::start([
        Scripted::json(chat_text(&format!("{call}{call}"))),
        Scripted::json(chat_text(call)),
        Scripted::json(chat_text("Read.")),
    ]);
    let mut agent = Agent::new(chat(&upstream), registry())
        .text_tools(TextFormat::Hermes)
        .max_history_result_bytes(10_000);
    agent.run("Read three pages.").await.unwrap();
    let last = &upstream.requests()[2].body;
    let messages = last["messages"].as_array().unwrap();
    let first_results = messages[3]["content"].as_str().unwrap();
    assert_eq!(first_results.matches("[result cut: 8000 bytes").count(), 2);
    assert!(first_results.contains("t1_call_1"), "{first_results}");
    let second_results = messages[5]["content"].as_str().unwrap();
    assert!(second_results.contains(&"x".repeat(8000)));
}

#[tokio::test]
async fn forty_thousand_streamed_calls_never_make_a_request_over_the_cap() {
    let mut flood = Flood::load("forty_thousand_streamed");
    flood.arguments = r#"{"bytes": 8000, "counter": 3}"#.into();
    let upstream = Upstream::start(flood.script());
    let mut agent = Agent::new(chat(&upstream), registry());
    let mut events = agent.stream("Read every page.");
    let mut failure = None;
    while let Some(event) = events.next().await {
        if let Err(error) = event {
            failure = Some(error);
        }
    }
    drop(events);
    let Some(AgentError::RequestTooLarge { bytes, limit }) = failure else {
        panic!("{failure:?}")
    };
    assert_eq!(limit, 8 << 20);
    assert!(bytes > limit);
    assert_eq!(
        upstream.requests().len(),
        1,
        "the large request was not sent"
    );
    assert_eq!(PAGES[3].load(Ordering::SeqCst), 16);
    // Every call has its one result all the same.
    let results = agent
        .messages()
        .iter()
        .filter(|m| m["role"] == "tool")
        .count();
    assert_eq!(results, flood.calls);
}

// Item 2: API keys follow redirects to other hosts.

const KEY: &str = "sk-hostile-test-key-0123456789";

/// Each transport, at `url`, with the key set.
fn transports(url: &str) -> Vec<(&'static str, Box<dyn Model>)> {
    vec![
        (
            "openai-chat",
            Box::new(OpenAiChat::new(format!("{url}/v1"), "m").api_key(KEY)),
        ),
        (
            "openai-responses",
            Box::new(OpenAiResponses::new(format!("{url}/v1"), "m").api_key(KEY)),
        ),
        (
            "anthropic",
            Box::new(Anthropic::new(format!("{url}/v1"), "m").api_key(KEY)),
        ),
        (
            "gemini",
            Box::new(Gemini::new(format!("{url}/v1beta"), "m").api_key(KEY)),
        ),
        (
            "tensorzero",
            Box::new(TensorZero::function(url.to_owned(), "f").api_key(KEY)),
        ),
        ("ollama", Box::new(Ollama::new(url, "m").api_key(KEY))),
    ]
}

#[tokio::test]
async fn no_transport_follows_a_redirect_to_another_origin() {
    // The thief listens on another port of the same host: another origin.
    let thief = Upstream::start([]);
    let redirect =
        || Scripted::status(307, json!({})).header("location", &format!("{}/steal", thief.url()));
    for streamed in [false, true] {
        let origin = Upstream::start([]);
        let transports = transports(&origin.url());
        origin.push(transports.iter().map(|_| redirect()));
        let count = transports.len();
        for (name, model) in transports {
            let mut agent = Agent::new(model, registry());
            let error = if streamed {
                let mut events = agent.stream("a secret prompt");
                let mut last = None;
                while let Some(event) = events.next().await {
                    if let Err(error) = event {
                        last = Some(error);
                    }
                }
                last.unwrap()
            } else {
                agent.run("a secret prompt").await.unwrap_err()
            };
            let AgentError::Model(ModelError::CrossOriginRedirect {
                origin: from,
                location,
            }) = &error
            else {
                panic!("{name}: {error:?}")
            };
            assert_eq!(from, &origin.url(), "{name}");
            assert_eq!(location, &format!("{}/steal", thief.url()), "{name}");
            assert!(!error.to_string().contains(KEY), "{name}: {error}");
        }
        assert_eq!(origin.requests().len(), count);
        let key_headers = ["authorization", "x-api-key", "x-goog-api-key"];
        assert!(origin.requests().iter().all(|r| {
            key_headers
                .iter()
                .any(|h| r.header(h).is_some_and(|v| v.contains(KEY)))
        }));
    }
    assert!(
        thief.requests().is_empty(),
        "the other origin got {:?}",
        thief.requests()
    );
}

#[tokio::test]
async fn a_redirect_within_the_origin_is_followed_with_its_key() {
    let upstream = Upstream::start([]);
    let moved = |path: &str| {
        Scripted::status(308, json!({})).header("location", &format!("{}{path}", upstream.url()))
    };
    upstream.push([
        moved("/moved/v1/messages"),
        Scripted::json(anthropic_text("Here.")),
        moved("/moved/v1/chat/completions"),
        Scripted::json(chat_text("Here too.")),
    ]);
    let anthropic = Anthropic::new(format!("{}/v1", upstream.url()), "m").api_key(KEY);
    let reply = Agent::new(anthropic, registry()).run("hi").await.unwrap();
    assert_eq!(reply.text, "Here.");
    let chat = OpenAiChat::new(format!("{}/v1", upstream.url()), "m").api_key(KEY);
    let reply = Agent::new(chat, registry()).run("hi").await.unwrap();
    assert_eq!(reply.text, "Here too.");
    let requests = upstream.requests();
    assert_eq!(requests[1].path, "/moved/v1/messages");
    assert_eq!(requests[1].header("x-api-key"), Some(KEY));
    assert_eq!(requests[1].body["messages"][0]["content"], "hi");
    assert_eq!(requests[3].path, "/moved/v1/chat/completions");
    let bearer = format!("Bearer {KEY}");
    assert_eq!(requests[3].header("authorization"), Some(bearer.as_str()));
}

// Item 13: a model error's message says the status and what the server said.

#[tokio::test]
async fn an_error_status_shows_the_servers_message_and_never_the_key() {
    let cases = [
        (
            Scripted::status(
                401,
                json!({"error": {"message": format!("Incorrect API key provided: {KEY}. Find yours at the dashboard."),
                    "type": "invalid_request_error", "code": "invalid_api_key"}}),
            ),
            "the model server answered HTTP 401: Incorrect API key provided: ***. Find yours at the dashboard.",
        ),
        (
            Scripted::status(
                403,
                json!({"type": "error", "error": {"type": "permission_error", "message": "Your key can't use this model."}}),
            ),
            "the model server answered HTTP 403: Your key can't use this model.",
        ),
        (
            Scripted::status(
                400,
                json!({"error": "Invalid inference request: unknown function `f`"}),
            ),
            "the model server answered HTTP 400: Invalid inference request: unknown function `f`",
        ),
    ];
    for (reply, expected) in cases {
        let upstream = Upstream::start([reply]);
        let model = chat(&upstream).api_key(KEY);
        let error = Agent::new(model, registry()).run("hi").await.unwrap_err();
        assert_eq!(error.to_string(), expected);
        let AgentError::Model(ModelError::Http { body, .. }) = &error else {
            panic!("{error:?}")
        };
        assert!(!body.contains(KEY), "{body}");
    }
}

/// Answers one request on 127.0.0.1 with `reply` (a whole HTTP response), for a body the
/// scripted upstream (JSON only) can't send; returns the base URL.
async fn serve_once(reply: &'static str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        // The head, then as many body bytes as it announces.
        let wait = Duration::from_secs(10);
        loop {
            let n = tokio::time::timeout(wait, socket.read(&mut buf))
                .await
                .unwrap()
                .unwrap();
            request.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&request);
            if let Some(head) = text.find("\r\n\r\n") {
                let length: usize = text[..head]
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse().unwrap())
                    })
                    .unwrap_or(0);
                if request.len() >= head + 4 + length || n == 0 {
                    break;
                }
            }
        }
        socket.write_all(reply.as_bytes()).await.unwrap();
        socket.shutdown().await.unwrap();
    });
    url
}

#[tokio::test]
async fn an_error_page_shows_its_first_line_only() {
    // A proxy's HTML page: its first line that says something, not the page.
    let url = serve_once(
        "HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/html\r\ncontent-length: 79\r\nconnection: close\r\n\r\n\
         \n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n",
    )
    .await;
    let model = OpenAiChat::new(format!("{url}/v1"), "m").max_retries(0);
    let error = Agent::new(model, registry()).run("hi").await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the model server answered HTTP 502: <html>"
    );
}
