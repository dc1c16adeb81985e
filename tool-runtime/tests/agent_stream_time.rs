//! Whose time ran out: a streamed reply whose request timeout runs out while this side is
//! handling its events is [`ModelError::HandlingTimeout`], and only a server that stops
//! sending is [`ModelError::Timeout`] (issue 32: a stream read in quadratic time was reported
//! as "the model server did not answer within 120s").
//!
//! The server is a few lines of `std::net` here rather than the scripted upstream, because it
//! must send part of a stream and then hold the connection open (for at most 3 s).
#![cfg(feature = "agent")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;
use tool_runtime::agent::{Model, ModelDelta, ModelError, ModelRequest, OpenAiChat};

/// A server on 127.0.0.1 that answers one request with these Chat Completions chunks as
/// server-sent events, then holds the connection open, never finishing the reply, for 3 s.
fn stalling_server(contents: &[&str]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let mut events = String::new();
    for content in contents {
        let chunk = json!({"object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": null}]});
        events.push_str(&format!("data: {chunk}\n\n"));
    }
    std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(3)))
            .unwrap();
        // The request: its head, then as many body bytes as it says.
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        let body_at = loop {
            let n = socket.read(&mut buf).unwrap();
            assert!(n > 0, "the client closed before its request was whole");
            request.extend_from_slice(&buf[..n]);
            if let Some(at) = request.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = String::from_utf8_lossy(&request[..body_at]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .map_or(0, |v| v.trim().parse().unwrap());
        while request.len() < body_at + length {
            let n = socket.read(&mut buf).unwrap();
            assert!(n > 0, "the client closed before its request was whole");
            request.extend_from_slice(&buf[..n]);
        }
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n{events}"
        );
        socket.write_all(reply.as_bytes()).unwrap();
        socket.flush().unwrap();
        // No final chunk, no `[DONE]`: the reply never ends while the client waits.
        std::thread::sleep(Duration::from_secs(3));
    });
    url
}

async fn stream(url: &str, handle_each: Duration) -> ModelError {
    let model = OpenAiChat::new(url, "m")
        .timeout(Duration::from_millis(600))
        .max_retries(0);
    let messages = [json!({"role": "user", "content": "hi"})];
    let request = ModelRequest {
        system: None,
        messages: &messages,
        tools: None,
        grammar: None,
        tool_choice: None,
        prefill: None,
    };
    let mut on_delta = |delta: ModelDelta| {
        if matches!(delta, ModelDelta::Text(_)) {
            // A caller slow with each piece of text (or a reader slow with each event): time
            // spent here, not at the server.
            std::thread::sleep(handle_each);
        }
    };
    model
        .send_streaming(&request, &mut on_delta)
        .await
        .expect_err("the reply never finishes")
}

#[tokio::test]
async fn a_timeout_spent_handling_the_reply_is_not_blamed_on_the_server() {
    let url = stalling_server(&["a", "b"]);
    let error = stream(&url, Duration::from_millis(400)).await;
    let ModelError::HandlingTimeout { timeout, handling } = &error else {
        panic!("{error:?}: {error}");
    };
    assert_eq!(*timeout, Duration::from_millis(600));
    assert!(*handling >= Duration::from_millis(400), "{handling:?}");
    assert!(
        error
            .to_string()
            .contains("not into waiting for the model server"),
        "{error}"
    );
    assert!(!error.is_retryable());
}

#[tokio::test]
async fn a_server_that_stops_sending_is_the_timeout() {
    let url = stalling_server(&["a"]);
    let error = stream(&url, Duration::ZERO).await;
    assert!(
        matches!(error, ModelError::Timeout(t) if t == Duration::from_millis(600)),
        "{error:?}"
    );
    assert!(error.is_retryable());
}
