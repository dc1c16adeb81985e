//! A sample of the attack corpus (`tests/attacks/*.jsonl`) through the binary: as one model
//! message to `tool-examples run`, and as `tools/call` requests to `tool-examples serve` over
//! stdio. Every call gets exactly one answer, with the outcome the corpus expects, and the
//! process survives bytes that aren't UTF-8 and lines that aren't JSON-RPC.
//! (`tests/integration/attacks.rs` replays the whole corpus in-process.)

use tool_test_support::attacks;
use tool_test_support::stdin;

use attacks::{check, AttackWorkspace, Entry};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use stdin::output_with_stdin;

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");

/// The entries the example registry can answer as the corpus says: every path and
/// `exec_command` attack, unknown tool names, and malformed argument text (which fails the
/// same whatever tool it is sent to, so it goes to `read_file`).
fn sample() -> Vec<(String, Entry)> {
    let examples = ["read_file", "list_dir", "exec_command"];
    attacks::load()
        .into_iter()
        .filter(|(_, e)| e.is_small())
        .filter_map(|(file, mut e)| {
            let expect = e.expect.clone().unwrap_or_default();
            let tool = e.tool.clone().unwrap_or_default();
            let code = expect.code.as_deref();
            let keep = if examples.contains(&tool.as_str()) || code == Some("unknown_tool") {
                true
            } else if matches!(code, Some("malformed_arguments"))
                && expect.message_contains.is_none()
            {
                e.tool = Some("read_file".into());
                true
            } else {
                false
            };
            keep.then_some((file, e))
        })
        .collect()
}

#[test]
fn a_sample_through_run_gets_one_result_per_call() {
    let workspace = AttackWorkspace::new();
    let sample = sample();
    assert!(sample.len() >= 80, "only {} sampled", sample.len());
    let calls: Vec<Value> = sample
        .iter()
        .enumerate()
        .map(|(i, (_, e))| {
            json!({"id": format!("call_{i}"), "type": "function",
                   "function": {"name": e.tool_name(), "arguments": e.argument_text()}})
        })
        .collect();
    let reply = json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": null, "tool_calls": calls}}]});
    let output = run(
        workspace.path(),
        &["--format", "openai-chat"],
        reply.to_string().as_bytes(),
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "some calls fail: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(results.len(), sample.len(), "one result per call");
    let mut failures = Vec::new();
    for (i, ((file, entry), result)) in sample.iter().zip(&results).enumerate() {
        assert_eq!(result["tool_call_id"], format!("call_{i}"));
        let content = result["content"].as_str().unwrap();
        let is_error = content.starts_with("Error: ");
        let text = content.strip_prefix("Error: ").unwrap_or(content);
        let expect = entry.expect.clone().unwrap_or_default();
        if let Err(why) = check(&expect, is_error, None, text, false) {
            failures.push(format!("{file}: {}: {why}", entry.name));
        }
        if let Some(file) = &expect.no_file {
            assert!(!workspace.path().join(file).exists(), "{}", entry.name);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn run_survives_input_that_is_not_utf8_or_not_json() {
    let workspace = AttackWorkspace::new();
    let mut invalid = br#"{"choices": [{"message": {"tool_calls": [{"id": "a", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \""#.to_vec();
    invalid.extend_from_slice(b"\xff\xfe\xc0\x80");
    invalid.extend_from_slice(br#"\"}"}}]}}]}"#);
    let lone = r#"{"choices": [{"message": {"tool_calls": [{"id": "a", "type": "function", "function": {"name": "read_file\ud800", "arguments": "{}"}}]}}]}"#;
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let huge = format!("{{\"choices\": \"{}\"}}", "a".repeat(10 << 20));
    for input in [
        invalid,
        lone.as_bytes().to_vec(),
        deep.into_bytes(),
        huge.into_bytes(),
    ] {
        let output = run(workspace.path(), &["--format", "openai-chat"], &input);
        assert_eq!(
            output.status.code(),
            Some(2),
            "a usage error, not a crash: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.stdout.is_empty());
    }
}

fn run(root: &std::path::Path, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut command = Command::new(BINARY);
    command
        .arg("--root")
        .arg(root)
        .arg("--yes")
        .arg("run")
        .args(args);
    output_with_stdin(&mut command, input)
}

/// `tool-examples serve` over stdio, spoken to line by line.
#[test]
fn a_sample_through_the_mcp_server_gets_one_answer_per_request() {
    let workspace = AttackWorkspace::new();
    // Every input, duplicate keys included: the server refuses those as the registry does,
    // though the JSON-RPC layer reads a request into a map (`mcp/transport/raw_arguments.rs`).
    let sample: Vec<(String, Entry)> = sample();
    let mut child = Command::new(BINARY)
        .arg("--root")
        .arg(workspace.path())
        .arg("--yes")
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(message) = serde_json::from_str(&line) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        }
    });
    let mut send = |message: &[u8]| {
        stdin.write_all(message).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "attacks", "version": "1"}}})
        .to_string()
        .as_bytes(),
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let next = |deadline: Instant| {
        rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the server answers in time")
    };
    let init = next(deadline);
    assert_eq!(init["id"], "init", "{init}");
    send(br#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#);

    // Arguments that aren't JSON can't be an MCP `arguments` object: they go as a string,
    // which the pipeline judges like any other argument text.
    // An object goes as the model wrote it, byte for byte (a repeated key included; line
    // breaks between its tokens made spaces for the line-delimited stream).
    for (i, (_, entry)) in sample.iter().enumerate() {
        let raw = entry.argument_text();
        let arguments = match serde_json::from_str::<Value>(&raw) {
            Ok(value) if value.is_object() => raw.replace(['\n', '\r'], " "),
            Ok(value) => json!({"__raw": value}).to_string(),
            Err(_) => json!({"__raw": raw}).to_string(),
        };
        let message = format!(
            r#"{{"jsonrpc": "2.0", "id": {i}, "method": "tools/call", "params": {{"name": {}, "arguments": {arguments}}}}}"#,
            json!(entry.tool_name())
        );
        send(message.as_bytes());
    }
    let mut answers: Vec<Option<Value>> = vec![None; sample.len()];
    while answers.iter().any(Option::is_none) {
        let message = next(deadline);
        let Some(id) = message["id"].as_u64() else {
            continue; // a notification
        };
        let slot = &mut answers[id as usize];
        assert!(slot.is_none(), "request {id} answered twice");
        *slot = Some(message);
    }
    let mut failures = Vec::new();
    for ((file, entry), answer) in sample.iter().zip(&answers) {
        let answer = answer.as_ref().unwrap();
        let expect = entry.expect.clone().unwrap_or_default();
        let outcome = if let Some(error) = answer.get("error") {
            // Only an unknown tool is a protocol error.
            (expect.code.as_deref() == Some("unknown_tool") && error["code"] == -32602)
                .then_some(())
                .ok_or_else(|| format!("protocol error {error}"))
        } else {
            let result = &answer["result"];
            let is_error = result["isError"] == true;
            let text = result["content"][0]["text"].as_str().unwrap_or_default();
            if expect.code.as_deref() == Some("unknown_tool") {
                Err(format!("an unknown tool answered {result}"))
            } else if !entry.argument_text().trim_start().starts_with('{')
                || serde_json::from_str::<Value>(&entry.argument_text()).is_err()
            {
                // Sent wrapped, so any error will do.
                (is_error != expect.ok)
                    .then_some(())
                    .ok_or_else(|| format!("got {result}"))
            } else {
                check(&expect, is_error, None, text, false)
            }
        };
        if let Err(why) = outcome {
            failures.push(format!("{file}: {}: {why}", entry.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // Bytes that aren't UTF-8, and lines that aren't JSON-RPC: the server survives them and
    // still answers the next call.
    send(b"\xff\xfe{\"jsonrpc\": \"2.0\"}");
    send(b"{\"jsonrpc\": \"2.0\", \"id\": \"x\", \"method\": \"tools/call\", \"params\": {\"name\": \"read_file\", \"arguments\": {\"path\": \"\\ud800\"}}}");
    send(b"not json at all");
    send(
        json!({"jsonrpc": "2.0", "id": "last", "method": "tools/call",
        "params": {"name": "read_file", "arguments": {"path": "notes.txt"}}})
        .to_string()
        .as_bytes(),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let message = next(deadline);
        if message["id"] == "last" {
            assert_eq!(
                message["result"]["content"][0]["text"],
                "L1: one\nL2: two\n"
            );
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}
