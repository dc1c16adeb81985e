//! `tool-examples chat` against a real model server: llama.cpp's `llama-server` with
//! SmolLM2-135M-Instruct (`tests/support/src/llama.rs`), text-only in Hermes markup, the first
//! reply held to a call by `--grammar auto`. Asserted: the protocol (the call shown, run, its
//! result shown, the prompt answered), not what a 135M model says.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::process::Command;
use std::time::Duration;
use tool_test_support::llama::{LlamaServer, MODEL};
use tool_test_support::mcp_clients::run_bounded;

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");

#[test]
fn chat_with_text_tools_and_a_grammar_shows_the_call_and_answers() {
    let server = LlamaServer::start(&[]);
    let root = tempfile::tempdir().unwrap();
    fs::write(root.path().join("notes.txt"), "buy milk\n").unwrap();
    let out = run_bounded(
        Command::new(BINARY).arg("--root").arg(root.path()).args([
            "chat",
            "--provider",
            "openai-chat",
            "--url",
            &server.url,
            "--model",
            MODEL,
            "--prompt",
            "What files are in the workspace?",
            "--text-tools",
            "hermes",
            "--grammar",
            "auto",
            "--max-turns",
            "4",
        ]),
        Duration::from_secs(300),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{stderr}\n{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The call, as the CLI shows it, and its result.
    assert!(stderr.contains("\n→ "), "{stderr}");
    assert!(stderr.contains("\n← "), "{stderr}");
    assert!(stderr.contains(" calls, "), "{stderr}");
}

#[test]
fn grammar_needs_a_format_with_one_and_the_openai_chat_api() {
    let root = tempfile::tempdir().unwrap();
    let chat = |extra: &[&str]| {
        run_bounded(
            Command::new(BINARY)
                .arg("--root")
                .arg(root.path())
                .args([
                    "chat",
                    "--url",
                    "http://127.0.0.1:9/v1",
                    "--model",
                    "m",
                    "--prompt",
                    "hi",
                ])
                .args(extra),
            Duration::from_secs(60),
        )
    };
    let out = chat(&["--text-tools", "mistral", "--grammar", "auto"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no grammar yet"));
    let out = chat(&["--grammar", "auto"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--text-tools"));
    let out = chat(&[
        "--text-tools",
        "hermes",
        "--grammar",
        "auto",
        "--provider",
        "anthropic",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("openai-chat"));
}
