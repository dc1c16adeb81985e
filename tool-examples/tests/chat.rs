//! `tool-examples chat` against the scripted upstream (a fixture, not a model) over real
//! HTTP: one-shot runs with calls shown and answered, approval of destructive tools,
//! text-only mode, and exit codes.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use tool_test_support::replies::*;
use tool_test_support::sales::workspace;
use tool_test_support::upstream::{Scripted, Upstream};

fn chat(root: &Path, upstream: &Upstream, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tool-examples"))
        .arg("--root")
        .arg(root)
        .args([
            "chat",
            "--provider",
            "openai-chat",
            "--model",
            "scripted",
            "--url",
        ])
        .arg(format!("{}/v1", upstream.url()))
        .args(extra)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn tool_results(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_one_shot_prompt_runs_the_calls_and_prints_the_answer() {
    let root = workspace();
    let upstream = Upstream::start([
        Scripted::sse(chat_call_chunks(
            "c1",
            "csv_summary",
            r#"{"path": "sales.csv"}"#,
            true,
        )),
        Scripted::sse(chat_text_chunks("Sales total ", "42.")),
    ]);
    let out = chat(root.path(), &upstream, &["--prompt", "Summarize sales.csv"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Let me check. "), "{stdout}");
    assert!(stdout.contains("Sales total 42."), "{stdout}");
    assert!(stderr.contains("→ csv_summary"), "{stderr}");
    assert!(stderr.contains("← csv_summary"), "{stderr}");
    let results = tool_results(&upstream.requests()[1].body);
    assert_eq!(results.len(), 1);
    assert!(
        results[0].contains("south"),
        "the real tool ran: {}",
        results[0]
    );
}

#[test]
fn a_destructive_call_without_a_terminal_or_yes_is_denied_and_the_model_told() {
    let root = workspace();
    let call = || {
        Scripted::json(chat_calls(&[(
            "c1",
            "exec_command",
            r#"{"argv": ["touch", "made-by-the-model"]}"#,
        )]))
    };
    let upstream = Upstream::start([call(), Scripted::json(chat_text("I could not."))]);
    // `setsid` starts it without a controlling terminal, so there is no one to ask even when
    // the tests run in one.
    let out = Command::new("setsid")
        .arg("-w")
        .arg(env!("CARGO_BIN_EXE_tool-examples"))
        .arg("--root")
        .arg(root.path())
        .args([
            "chat",
            "--model",
            "scripted",
            "--no-stream",
            "--prompt",
            "touch it",
            "--url",
        ])
        .arg(format!("{}/v1", upstream.url()))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!root.path().join("made-by-the-model").exists());
    let results = tool_results(&upstream.requests()[1].body);
    assert!(
        results[0].contains("no terminal to confirm"),
        "{}",
        results[0]
    );
    assert!(
        text(&out.stderr).contains("← exec_command (error)"),
        "{}",
        text(&out.stderr)
    );
    // With --yes it runs.
    let upstream = Upstream::start([call(), Scripted::json(chat_text("Done."))]);
    let out = chat(
        root.path(),
        &upstream,
        &["--yes", "--no-stream", "--prompt", "touch it"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(root.path().join("made-by-the-model").exists());
}

#[test]
fn text_tools_mode_reads_calls_from_the_text() {
    let root = workspace();
    let upstream = Upstream::start([
        Scripted::json(chat_text(
            "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"sales.csv\"}}</tool_call>",
        )),
        Scripted::json(chat_text("North sold 10.")),
    ]);
    let out = chat(
        root.path(),
        &upstream,
        &[
            "--text-tools",
            "hermes",
            "--no-stream",
            "--prompt",
            "What did north sell?",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("North sold 10."));
    let requests = upstream.requests();
    assert!(requests[0].body.get("tools").is_none());
    let result = requests[1].body["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        result.starts_with("<tool_response>") && result.contains("north,10"),
        "{result}"
    );
}

#[test]
fn a_failed_run_exits_1_with_the_servers_error() {
    let root = workspace();
    let upstream = Upstream::start([Scripted::status(
        400,
        serde_json::json!({"error": {"message": "model `scripted` not found"}}),
    )]);
    let out = chat(root.path(), &upstream, &["--prompt", "hi"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("model `scripted` not found"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_unknown_text_format_or_provider_is_a_usage_error() {
    let root = workspace();
    let upstream = Upstream::start([]);
    let out = chat(
        root.path(),
        &upstream,
        &["--text-tools", "klingon", "--prompt", "hi"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("hermes"));
    let out = Command::new(env!("CARGO_BIN_EXE_tool-examples"))
        .args([
            "chat",
            "--provider",
            "mcp",
            "--model",
            "m",
            "--prompt",
            "hi",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(upstream.requests().is_empty());
}

#[test]
fn the_agents_bounds_are_flags() {
    let root = workspace();
    let args = r#"{"path": "sales.csv"}"#;
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[
            ("c1", "csv_summary", args),
            ("c2", "csv_summary", args),
        ])),
        Scripted::json(chat_text("One ran.")),
    ]);
    let out = chat(
        root.path(),
        &upstream,
        &[
            "--no-stream",
            "--max-calls-per-turn",
            "1",
            "--prompt",
            "Twice",
        ],
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let results = tool_results(&upstream.requests()[1].body);
    assert!(results[0].contains("south"), "{}", results[0]);
    assert!(
        results[1].contains("not run: 2 calls in one turn, over the limit of 1"),
        "{}",
        results[1]
    );

    let upstream = Upstream::start([]);
    let out = chat(
        root.path(),
        &upstream,
        &["--max-request-bytes", "100", "--prompt", "hi"],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("over the 100-byte limit"), "{stderr}");
    assert!(upstream.requests().is_empty());
}

/// `--provider ollama`: Ollama's native `/api/chat` on the server's own URL, streamed as
/// newline-delimited JSON, each result a `tool` message naming its tool.
#[test]
fn the_ollama_provider_talks_to_api_chat() {
    let root = workspace();
    let upstream = Upstream::start([
        Scripted::ndjson(ollama_call_lines(
            &[(
                "call_k3x9q2ab",
                "csv_summary",
                serde_json::json!({"path": "sales.csv"}),
            )],
            true,
        )),
        Scripted::ndjson(vec![ollama_text("Sales total 42.")]),
    ]);
    let out = Command::new(env!("CARGO_BIN_EXE_tool-examples"))
        .arg("--root")
        .arg(root.path())
        .args(["chat", "--provider", "ollama", "--model", "qwen3", "--url"])
        .arg(upstream.url())
        .args(["--prompt", "Summarize sales.csv"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary runs");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Sales total 42."), "{stdout}");
    let requests = upstream.requests();
    assert_eq!(requests[0].path, "/api/chat");
    let second = &requests[1].body;
    let results = tool_results(second);
    assert!(
        results[0].contains("south"),
        "the real tool ran: {results:?}"
    );
    let tool = second["messages"].as_array().unwrap().last().unwrap();
    assert_eq!(tool["tool_name"], "csv_summary");
    assert_eq!(tool["tool_call_id"], "call_k3x9q2ab");
}

#[test]
fn tool_choice_goes_with_the_first_request_in_the_providers_shape() {
    let root = workspace();
    let upstream = Upstream::start([
        Scripted::sse(chat_call_chunks(
            "c1",
            "csv_summary",
            r#"{"path": "sales.csv"}"#,
            true,
        )),
        Scripted::sse(chat_text_chunks("Sales total ", "42.")),
    ]);
    let out = chat(
        root.path(),
        &upstream,
        &[
            "--prompt",
            "Summarize sales.csv",
            "--tool-choice",
            "csv_summary",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let requests = upstream.requests();
    assert_eq!(
        requests[0].body["tool_choice"],
        serde_json::json!({"type": "function", "function": {"name": "csv_summary"}})
    );
    assert!(requests[1].body.get("tool_choice").is_none());
    // A tool that isn't there, and text-only mode, are refused before any request.
    let none = Upstream::start([]);
    let out = chat(
        root.path(),
        &none,
        &["--prompt", "x", "--tool-choice", "no_such_tool"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no tool of that name"),
        "{}",
        text(&out.stderr)
    );
    let out = chat(
        root.path(),
        &none,
        &[
            "--prompt",
            "x",
            "--tool-choice",
            "required",
            "--text-tools",
            "hermes",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(none.requests().is_empty());
}
