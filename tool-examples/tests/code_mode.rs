//! `tool-examples --code-mode`: `list`, `schema`, `call`, `chat` and `serve` with the code tool,
//! the last through the official MCP Python SDK; and `--code-workers`, the snippets in Monty's
//! worker processes. Built with `--features code-workers`
//! (`cargo test -p tool-examples --features code-workers --test code_mode`; `.ci/run` runs it).

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use std::fs;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;
use tool_test_support::mcp_clients::{clients, run_bounded};
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");
const LIMIT: Duration = Duration::from_secs(120);

/// What the snippets read: a file of two lines and a folder.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("hello.txt"), "hello\nworld\n").unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    dir
}

fn run(root: &Path, args: &[&str]) -> Output {
    run_bounded(
        Command::new(BINARY).arg("--root").arg(root).args(args),
        LIMIT,
    )
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const CODE: &str = "text = read_file(path=\"hello.txt\")\nnames = list_dir(path=\".\")\nprint(\"lines:\", len(text.splitlines()))\nsorted(names.splitlines())";

#[test]
fn list_shows_the_code_tool_alone_or_beside() {
    let root = workspace();
    let out = run(root.path(), &["--code-mode", "list"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("run_python "), "{text}");
    let out = run(root.path(), &["--code-mode=beside", "list"]);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("run_python "),
        "{text}"
    );
}

#[test]
fn schema_exports_one_tool_with_the_tools_as_python() {
    let root = workspace();
    let out = run(
        root.path(),
        &["--code-mode", "schema", "--provider", "openai-chat"],
    );
    assert!(out.status.success());
    let tools: Value = serde_json::from_slice(&out.stdout).unwrap();
    let tools = tools.as_array().unwrap();
    assert_eq!(tools.len(), 1);
    let function = &tools[0]["function"];
    assert_eq!(function["name"], "run_python");
    assert_eq!(function["parameters"]["required"], json!(["code"]));
    let description = function["description"].as_str().unwrap();
    assert!(
        description.contains("def read_file(path: str"),
        "{description}"
    );
    assert!(description.contains("def list_dir("), "{description}");
}

#[test]
fn the_tensorzero_config_holds_the_code_tool() {
    let root = workspace();
    let out_dir = tempfile::tempdir().unwrap();
    let out = Command::new(BINARY)
        .arg("--root")
        .arg(root.path())
        .args(["--code-mode", "schema", "--provider", "tensorzero", "--out"])
        .arg(out_dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let config = fs::read_to_string(out_dir.path().join("tensorzero.toml")).unwrap();
    assert!(config.contains("[tools.run_python]"), "{config}");
    let schema: Value = serde_json::from_str(
        &fs::read_to_string(out_dir.path().join("tools/run_python.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(schema["required"], json!(["code"]));
}

#[test]
fn call_runs_a_snippet_against_the_real_tools() {
    let root = workspace();
    let args = json!({ "code": CODE }).to_string();
    let out = run(root.path(), &["--code-mode", "call", "run_python", &args]);
    assert!(out.status.success(), "{}", stdout(&out));
    let output: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(output["text"], "lines: 2\n['hello.txt', 'sub/']");
    // The tools are functions inside, not tools of their own.
    let direct = run(
        root.path(),
        &[
            "--code-mode",
            "call",
            "read_file",
            r#"{"path": "hello.txt"}"#,
        ],
    );
    assert!(!direct.status.success());
    assert!(
        stdout(&direct).contains("unknown_tool"),
        "{}",
        stdout(&direct)
    );
}

#[test]
fn search_tools_and_describe_tool_work_inside_the_code() {
    let root = workspace();
    fs::write(
        root.path().join("sales.csv"),
        "region,amount\nnorth,3\nsouth,4\n",
    )
    .unwrap();
    // Found, described, then called: the example tools' own search over the registry the
    // code reaches.
    let code = r#"
found = search_tools(query="summarize a CSV file", limit=1)
name = found[0]["name"]
info = describe_tool(name=name)
print(name, sorted(info["parameters"]["properties"]))
summary = csv_summary(path="sales.csv") if "path" in info["parameters"]["required"] else None
summary["rows"]
"#;
    let args = json!({ "code": code }).to_string();
    let out = run(root.path(), &["--code-mode", "call", "run_python", &args]);
    assert!(out.status.success(), "{}", stdout(&out));
    let output: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        output["text"],
        "csv_summary ['columns', 'delimiter', 'path']\n2"
    );
}

#[cfg(feature = "code-workers")]
#[test]
fn code_workers_run_the_snippet_in_a_worker_process() {
    let root = workspace();
    let monty = clients().monty.display().to_string();
    let args = json!({ "code": CODE }).to_string();
    // `--code-workers` alone implies `--code-mode`.
    let out = run(
        root.path(),
        &["--code-workers", &monty, "call", "run_python", &args],
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let output: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(output["text"], "lines: 2\n['hello.txt', 'sub/']");
    // A binary that isn't there: a setup error naming it, exit code 2.
    let out = run(
        root.path(),
        &[
            "--code-workers",
            "/nonexistent/monty",
            "call",
            "run_python",
            &args,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent/monty"), "{stderr}");
}

#[test]
fn chat_sends_one_tool_and_answers_a_snippet_in_one_turn() {
    let root = workspace();
    let args = json!({ "code": CODE }).to_string();
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[("c1", "run_python", &args)])),
        Scripted::json(chat_text("Two lines.")),
    ]);
    let out = run_bounded(
        Command::new(BINARY)
            .arg("--root")
            .arg(root.path())
            .args(["--code-mode", "chat", "--provider", "openai-chat"])
            .args(["--model", "scripted", "--url"])
            .arg(format!("{}/v1", upstream.url()))
            .args(["--prompt", "How many lines has hello.txt?"])
            .stdin(std::process::Stdio::null()),
        LIMIT,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("Two lines."), "{}", stdout(&out));
    let requests = upstream.requests();
    assert_eq!(requests.len(), 2);
    let tools = requests[0].body["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    let messages = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(
        messages.last().unwrap()["content"],
        "lines: 2\n['hello.txt', 'sub/']"
    );
}

#[test]
fn the_mcp_python_sdk_calls_the_code_tool() {
    let root = workspace();
    let clients = clients();
    let out = run_bounded(
        Command::new(&clients.python)
            .arg(clients.script("python_code_client.py"))
            .arg(BINARY)
            .arg("--root")
            .arg(root.path())
            .args(["--code-mode", "serve"]),
        LIMIT,
    );
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let tools = seen["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["name"], "run_python");
    assert_eq!(seen["good"]["isError"], false, "{seen}");
    assert_eq!(
        seen["good"]["content"][0]["text"],
        "lines: 2\n['hello.txt', 'sub/']"
    );
    assert_eq!(seen["bad"]["isError"], true, "{seen}");
    let bad = seen["bad"]["content"][0]["text"].as_str().unwrap();
    assert!(bad.contains("ValueError"), "{bad}");
    assert!(bad.contains("line 1"), "{bad}");
}

#[test]
fn chat_runs_code_mode_through_the_tensorzero_gateway() {
    let root = workspace();
    let args = json!({ "code": CODE }).to_string();
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[("c1", "run_python", &args)])),
        Scripted::json(chat_text("Two lines.")),
    ]);
    let gateway = tool_test_support::gateways::tensorzero(&format!("{}/v1", upstream.url()));
    let out = run_bounded(
        Command::new(BINARY)
            .arg("--root")
            .arg(root.path())
            .args([
                "--code-mode",
                "chat",
                "--provider",
                "openai-chat",
                "--no-stream",
            ])
            .args(["--model", "tensorzero::model_name::scripted", "--url"])
            .arg(&gateway.url)
            .args(["--prompt", "How many lines has hello.txt?"])
            .stdin(std::process::Stdio::null()),
        LIMIT,
    );
    assert!(
        out.status.success(),
        "{}\ngateway:\n{}",
        String::from_utf8_lossy(&out.stderr),
        gateway.stderr()
    );
    assert!(stdout(&out).contains("Two lines."), "{}", stdout(&out));
    let requests = upstream.requests();
    assert_eq!(requests.len(), 2, "two model requests reached the upstream");
    let tools = requests[0].body["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0]["function"]["name"], "run_python");
    let messages = requests[1].body["messages"].as_array().unwrap();
    let result = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert!(
        result["content"].to_string().contains("lines: 2"),
        "the snippet's answer went through the gateway: {result}"
    );
}

#[test]
fn a_snippet_waits_for_the_client_where_it_is_in_both_protocols() {
    let clients = clients();
    let out = run_bounded(
        Command::new(&clients.python)
            .arg(clients.script("python_code_ask_client.py"))
            .arg(BINARY)
            .args(["--code-mode", "serve", "--conformance"]),
        LIMIT,
    );
    let text = stdout(&out);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    for session in ["requests", "rounds"] {
        let seen = &seen[session];
        assert_eq!(seen["result"]["isError"], false, "{session}: {seen}");
        let answer = seen["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            answer.contains("LLM response: hi from the client's model"),
            "{session}: {answer}"
        );
        assert!(answer.contains("ada"), "{session}: {answer}");
        // Each question asked once: the code went on from where it waited, never from its start.
        assert_eq!(seen["sampled"], 1, "{session}: {seen}");
        assert_eq!(seen["elicited"], 1, "{session}: {seen}");
    }
    assert_eq!(seen["rounds"]["protocol"], "2026-07-28", "{seen}");
}
