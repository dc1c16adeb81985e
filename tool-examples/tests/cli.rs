//! The `tool-examples` binary seen from outside: commands, output, exit codes.

use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::{Command, Output};

const TOOLS: [&str; 5] = [
    "csv_summary",
    "list_dir",
    "read_file",
    "search_files",
    "update_plan",
];

fn run(root: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tool-examples"));
    if let Some(root) = root {
        command.arg("--root").arg(root);
    }
    command.args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("hello.txt"), "hello\nworld\n").unwrap();
    dir
}

#[test]
fn list_prints_one_line_per_tool() {
    let output = run(None, &["list"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, TOOLS);
    let read_file = text.lines().find(|l| l.starts_with("read_file")).unwrap();
    assert!(read_file.contains("read_only"), "{read_file}");
    assert!(read_file.contains("numbered lines"), "{read_file}");
}

#[test]
fn schema_is_json_with_every_tool() {
    for args in [&["schema"][..], &["schema", "--dialect", "mcp"]] {
        let output = run(None, args);
        assert!(output.status.success());
        let schema: Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
        let tools = schema.as_array().expect("an array of tools");
        let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
        assert_eq!(names, TOOLS);
        for tool in tools {
            assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        }
    }
}

#[test]
fn an_unknown_dialect_is_a_usage_error_naming_the_known_ones() {
    let output = run(None, &["schema", "--dialect", "klingon"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown dialect") && stderr.contains("mcp"),
        "{stderr}"
    );
}

#[test]
fn a_good_call_exits_0_with_its_output() {
    let dir = workspace();
    let output = run(
        Some(dir.path()),
        &["call", "read_file", r#"{"path": "hello.txt"}"#],
    );
    assert_eq!(output.status.code(), Some(0));
    let out: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(out["kind"], "text");
    assert_eq!(out["text"], "L1: hello\nL2: world\n");

    let output = run(
        Some(dir.path()),
        &["call", "search_files", r#"{"query": "WORLD"}"#],
    );
    assert_eq!(output.status.code(), Some(0));
    let out: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(out["json"]["matches"][0]["line"], 2);
}

#[test]
fn args_can_come_from_stdin() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = workspace();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tool-examples"))
        .arg("--root")
        .arg(dir.path())
        .args(["call", "list_dir", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"path": "."}"#)
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let out: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(out["text"], "hello.txt\n");
}

#[test]
fn bad_calls_exit_1_with_an_error_output() {
    let dir = workspace();
    for (args, code) in [
        (&["call", "no_such_tool", "{}"][..], "unknown_tool"),
        (&["call", "read_file", "{"], "malformed_arguments"),
        (&["call", "read_file", "{}"], "invalid_arguments"),
        (&["call", "read_file", r#"{"path": "../x"}"#], "tool_failed"),
        (
            &[
                "call",
                "update_plan",
                r#"{"plan": [{"step": "a", "status": "done"}]}"#,
            ],
            "invalid_arguments",
        ),
    ] {
        let output = run(Some(dir.path()), args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let out: Value = serde_json::from_str(&stdout(&output)).unwrap();
        assert_eq!(out["kind"], "error", "{args:?}");
        assert_eq!(out["error"]["code"], code, "{args:?}");
    }
}

#[test]
fn a_missing_root_is_a_usage_error() {
    let dir = workspace();
    let missing = dir.path().join("missing");
    let output = run(Some(&missing), &["call", "read_file", r#"{"path": "a"}"#]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a directory"));
}

#[test]
fn the_demo_runs_and_is_deterministic() {
    let first = run(None, &[]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let text = stdout(&first);
    for expected in [
        "== The tools",
        "== The schema of read_file",
        "\"inputSchema\"",
        "unknown_tool",
        "malformed_arguments",
        "invalid_arguments",
        "climbs above the workspace root",
    ] {
        assert!(
            text.contains(expected),
            "{expected:?} missing from the demo:\n{text}"
        );
    }
    assert!(!text.contains("!! expected"), "{text}");
    let again = run(None, &["demo"]);
    assert!(again.status.success());
    assert_eq!(stdout(&again), text);
}
