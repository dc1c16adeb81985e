//! The `tool-examples` binary seen from outside: commands, output, exit codes.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use tool_test_support::stdin;

use serde_json::Value;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The example tools, in the registry's order: the order `tool_examples::TOOLS` gives them.
const TOOLS: [&str; 8] = [
    "csv_summary",
    "exec_command",
    "list_dir",
    "read_file",
    "search_files",
    "search_tools",
    "describe_tool",
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
fn the_readme_demo_command_picks_the_cli() {
    // `cargo run -p tool-examples` refuses to choose between two binaries (this one and the
    // soak test's) unless the package names its default.
    let manifest = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("the manifest reads");
    assert!(
        manifest
            .lines()
            .any(|line| line.trim() == r#"default-run = "tool-examples""#),
        "tool-examples/Cargo.toml must say default-run = \"tool-examples\""
    );
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
        stderr.contains("unknown provider") && stderr.contains("mcp"),
        "{stderr}"
    );
}

#[test]
fn schema_speaks_every_dialect_and_strict_mode() {
    let output = run(None, &["schema", "--dialect", "openai-chat", "--strict"]);
    assert!(output.status.success());
    let tools: Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    for tool in tools.as_array().unwrap() {
        let function = &tool["function"];
        assert_eq!(function["strict"], true, "{tool}");
        let parameters = &function["parameters"];
        let properties = parameters["properties"].as_object().unwrap();
        assert_eq!(
            parameters["required"].as_array().unwrap().len(),
            properties.len()
        );
    }

    let output = run(None, &["schema", "--dialect", "openai-responses"]);
    let tools: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(tools[0]["type"], "function");
    assert_eq!(tools[0]["strict"], false, "strict is always written");

    let output = run(None, &["schema", "--dialect", "anthropic", "--strict"]);
    let tools: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(tools
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["strict"] == true));
    assert!(tools[0]["input_schema"].is_object());

    let output = run(None, &["schema", "--dialect", "gemini", "--strict"]);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("gemini has no strict mode"), "{stderr}");
    let export: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let declarations = export["functionDeclarations"].as_array().unwrap();
    assert_eq!(declarations.len(), TOOLS.len());
    assert_eq!(declarations[0]["parameters"]["type"], "OBJECT");
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

// ---- `run`: model output in, provider-shaped results out -----------------------------------

/// `tool-examples --root DIR run ARGS < input`.
fn run_with_stdin(root: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tool-examples"));
    command.arg("--root").arg(root).arg("run").args(args);
    stdin::output_with_stdin(&mut command, input)
}

/// A provider payload from the runtime's fixtures (sources in their README).
fn provider_fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tool-runtime/tests/fixtures/providers")
        .join(name);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn results_of(output: &Output) -> Vec<Value> {
    let value: Value = serde_json::from_str(&stdout(output)).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\nstderr: {}",
            stdout(output),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    value.as_array().expect("an array of messages").clone()
}

#[test]
fn run_answers_each_providers_calls_in_its_own_shape() {
    let dir = workspace();
    let listing = "hello.txt\n";
    let file = "L1: hello\nL2: world\n";
    for format in ["auto", "anthropic"] {
        let output = run_with_stdin(
            dir.path(),
            &["--format", format],
            &provider_fixture("anthropic/workspace_calls.json"),
        );
        assert_eq!(output.status.code(), Some(0), "{format}");
        assert_eq!(
            results_of(&output),
            [serde_json::json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01ls", "content": listing},
                {"type": "tool_result", "tool_use_id": "toolu_02rd", "content": file},
            ]})]
        );
    }

    let output = run_with_stdin(
        dir.path(),
        &[],
        &provider_fixture("openai_responses/workspace_calls.json"),
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        results_of(&output),
        [
            serde_json::json!({"type": "function_call_output", "call_id": "call_ws01", "output": listing}),
            serde_json::json!({"type": "function_call_output", "call_id": "call_ws02", "output": file}),
        ]
    );

    let output = run_with_stdin(
        dir.path(),
        &["--format", "gemini"],
        &provider_fixture("gemini/workspace_calls.json"),
    );
    assert_eq!(output.status.code(), Some(0));
    let parts = results_of(&output)[0]["parts"].clone();
    assert_eq!(parts[0]["functionResponse"]["name"], "list_dir");
    assert_eq!(parts[1]["functionResponse"]["response"]["output"], file);
}

#[test]
fn run_exits_1_when_a_call_fails_and_still_answers_every_call() {
    let dir = workspace();
    // The third call passes a number as the path.
    let output = run_with_stdin(
        dir.path(),
        &["--format", "openai-chat"],
        &provider_fixture("openai_chat/workspace_calls.json"),
    );
    assert_eq!(output.status.code(), Some(1));
    let results = results_of(&output);
    let ids: Vec<&str> = results
        .iter()
        .map(|m| m["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call_ls01", "call_rd02", "call_bad03"]);
    let bad = results[2]["content"].as_str().unwrap();
    assert!(
        bad.starts_with("Error: Invalid arguments for read_file"),
        "{bad}"
    );

    // Tools the registry doesn't have are answered as errors, flagged where the API can.
    let output = run_with_stdin(
        dir.path(),
        &[],
        &provider_fixture("anthropic/parallel_calls.json"),
    );
    assert_eq!(output.status.code(), Some(1));
    let blocks = results_of(&output)[0]["content"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(blocks.len(), 2);
    assert!(blocks.iter().all(|b| b["is_error"] == true));
}

#[test]
fn run_reads_calls_written_in_text() {
    let dir = workspace();
    let reply = "Let me read it.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"hello.txt\"}}\n</tool_call>\n";
    for args in [&["--format", "text"][..], &[]] {
        let output = run_with_stdin(dir.path(), args, reply.as_bytes());
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert_eq!(
            results_of(&output),
            [
                serde_json::json!({"role": "tool", "tool_call_id": "call_0", "content": "L1: hello\nL2: world\n"})
            ],
            "{args:?}"
        );
    }
    let output = run_with_stdin(
        dir.path(),
        &["--format", "text", "--dialect", "anthropic"],
        reply.as_bytes(),
    );
    assert_eq!(
        results_of(&output)[0]["content"][0]["tool_use_id"],
        "call_0"
    );
}

#[test]
fn run_rejects_input_it_cannot_route() {
    let dir = workspace();
    let output = run_with_stdin(dir.path(), &["--format", "anthropic"], b"not json");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not JSON"));

    let output = run_with_stdin(dir.path(), &[], br#"{"hello": "world"}"#);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no known provider"));

    let output = run_with_stdin(
        dir.path(),
        &["--format", "gemini"],
        &provider_fixture("anthropic/one_call.json"),
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not Gemini output"));

    let output = run_with_stdin(dir.path(), &["--format", "klingon"], b"{}");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("openai-responses") && stderr.contains("text"),
        "{stderr}"
    );

    // No calls: nothing to send back.
    let output = run_with_stdin(dir.path(), &[], &provider_fixture("gemini/no_calls.json"));
    assert_eq!(output.status.code(), Some(0));
    assert!(results_of(&output).is_empty());
}

/// Runs the binary in a new session, with no controlling terminal: what CI and a pipeline
/// give it, so an approval prompt can't be shown and must not hang.
fn run_without_terminal(root: &Path, args: &[&str]) -> Output {
    Command::new("setsid")
        .arg(env!("CARGO_BIN_EXE_tool-examples"))
        .arg("--root")
        .arg(root)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("setsid runs the binary")
}

#[test]
fn destructive_tools_are_denied_without_a_terminal_and_run_with_yes() {
    let root = workspace();
    let args = r#"{"argv": ["echo", "approved"]}"#;
    let denied = run_without_terminal(root.path(), &["call", "exec_command", args]);
    assert_eq!(denied.status.code(), Some(1));
    let output: Value = serde_json::from_str(&stdout(&denied)).unwrap();
    assert_eq!(output["error"]["code"], "denied");
    assert!(
        output["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--yes"),
        "{output}"
    );

    let allowed = run_without_terminal(root.path(), &["--yes", "call", "exec_command", args]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stdout(&allowed));
    assert!(stdout(&allowed).contains("approved"));
}

/// Replies `run --format auto` used to answer with `[]` and exit 0, losing the calls
/// (`tests/attacks/replies/`): a UTF-8 byte order mark before the JSON, a number too big for
/// an `f64` where nobody reads it (`usage`), and a tool input nested past the parser's depth.
/// Auto reads the `ok_` ones as the named format does, and fails on the `fails_` one as the
/// named format does.
#[test]
fn auto_loses_no_call_and_fails_as_the_named_format_does() {
    let dir = workspace();
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/attacks/replies");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .expect("tests/attacks/replies")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 3, "the corpus is there");
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let input = std::fs::read(&file).unwrap();
        for format in ["auto", "anthropic"] {
            let output = run_with_stdin(dir.path(), &["--format", format], &input);
            let stderr = String::from_utf8_lossy(&output.stderr);
            if name.starts_with("ok_") {
                assert_eq!(output.status.code(), Some(0), "{name}, {format}: {stderr}");
                let results = results_of(&output);
                assert_eq!(
                    results[0]["content"][0]["tool_use_id"], "toolu_01",
                    "{name}, {format}"
                );
            } else {
                assert_eq!(output.status.code(), Some(2), "{name}, {format}");
                assert!(
                    stderr.contains("deeper than 128 levels"),
                    "{name}, {format}: {stderr}"
                );
            }
        }
    }
}

// ---- what the user sees at a terminal, and what the exit code says ----------------------

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");

/// What a terminal shows for `text` once it is done printing: each line as the cursor left it,
/// a carriage return sending the cursor back to the start of the line, to overwrite it.
fn rendered(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|line| {
            let mut cells: Vec<char> = Vec::new();
            let mut col = 0;
            for c in line.chars() {
                if c == '\r' {
                    col = 0;
                } else {
                    if col < cells.len() {
                        cells[col] = c;
                    } else {
                        cells.push(c);
                    }
                    col += 1;
                }
            }
            cells.into_iter().collect()
        })
        .collect()
}

/// Runs `command` (a shell command line) on a pseudo-terminal with util-linux's `script`,
/// typing `answer` into it; what the terminal received. Panics without `script`: a test that
/// can't get a terminal has tested nothing, and must not pass.
fn on_a_terminal(command: &str, answer: &str) -> String {
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c", command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs, to give the binary a terminal; install it");
    let mut stdin = child.stdin.take().unwrap();
    let answer = answer.to_owned();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        let _ = stdin.write_all(answer.as_bytes());
        // Keep the pipe open a little: some `script`s stop at end of input.
        std::thread::sleep(Duration::from_secs(2));
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let _ = writer.join();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The approval question shows the model's argument text as it is, and JSON allows a carriage
/// return between any two tokens: a model can write arguments whose `argv` the terminal
/// overwrites, so the user approves a command they never saw.
#[cfg(target_os = "linux")]
#[test]
fn the_approval_prompt_shows_the_command_that_will_run() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // The model's reply: one exec_command call whose arguments hide the argv behind `\r`.
    let arguments = format!(
        "{{\"argv\": [\"touch\", \"pwned\"]\r{}\r, \"workdir\": \".\"}}",
        " ".repeat(70)
    );
    let reply = serde_json::json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "exec_command", "arguments": arguments}}]});
    fs::write(root.join("reply.json"), reply.to_string()).unwrap();
    let command = format!(
        "'{BINARY}' --root '{}' run --format openai-chat < '{}'",
        root.display(),
        root.join("reply.json").display()
    );
    let screen = on_a_terminal(&command, "n\n");
    let Some(start) = screen.find("Allow exec_command") else {
        panic!("no approval question was asked:\n{screen:?}");
    };
    let question = &screen[start..];
    let question = &question[..question.find("[y/N]").map_or(question.len(), |i| i + 5)];
    let shown = rendered(question).join("\n");
    assert!(
        shown.contains("touch") && shown.contains("pwned"),
        "the approval prompt hides the command it asks about: the terminal shows {shown:?} \
         for the question {question:?}"
    );
    assert!(!root.join("pwned").exists(), "declined, yet it ran");
}

/// `tool-examples --yes --root ROOT ARGS < input`.
fn yes_with_stdin(root: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut command = Command::new(BINARY);
    command.arg("--yes").arg("--root").arg(root).args(args);
    stdin::output_with_stdin(&mut command, input)
}

/// The timeout kills the program, but not what the program started: `sh`, `npm`, `cargo test`
/// and `make` run their work in child processes, which keep running after the call has come
/// back `timed_out`.
#[cfg(target_os = "linux")]
#[test]
fn a_timeout_kills_what_the_program_started_too() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // Found by its command line: inside the program's own PID namespace, `$!` is a number
    // that means another process out here.
    let marker = "sleep 30.125";
    let args = serde_json::json!({
        "argv": ["sh", "-c", format!("{marker} & wait")],
        "timeout_ms": 1000,
    })
    .to_string();
    let output = yes_with_stdin(root, &["call", "exec_command", &args], b"");
    let out: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(out["json"]["timed_out"], true, "{out}");
    let running = || {
        fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| fs::read(e.path().join("cmdline")).ok())
            .any(|cmdline| {
                String::from_utf8_lossy(&cmdline)
                    .replace('\0', " ")
                    .contains(marker)
            })
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while running() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let alive = running();
    if alive {
        // Don't leave it behind.
        let _ = Command::new("pkill").args(["-f", marker]).status();
    }
    assert!(
        !alive,
        "exec_command reported timed_out, but the process the program started ({marker}) is still running"
    );
}

/// OpenAI Chat requires a `tool` message for every `tool_call_id` of the assistant turn; a
/// custom tool call is routed to `other_calls` and gets no message, so `run` must not exit 0
/// as if what it printed were the complete next request: it exits 1 and names the call.
#[test]
fn run_does_not_pass_off_an_incomplete_answer_as_complete() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("hello.txt"), "hello\n").unwrap();
    let reply = serde_json::json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_fn", "type": "function",
             "function": {"name": "read_file", "arguments": "{\"path\": \"hello.txt\"}"}},
            {"id": "call_custom", "type": "custom",
             "custom": {"name": "apply_patch", "input": "*** Begin Patch"}}]}}]});
    let output = yes_with_stdin(dir.path(), &["run"], reply.to_string().as_bytes());
    let messages: Vec<serde_json::Value> = serde_json::from_slice(&output.stdout).unwrap();
    let answered: Vec<&str> = messages
        .iter()
        .filter_map(|m| m["tool_call_id"].as_str())
        .collect();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(answered, ["call_fn"], "the function call is still answered");
    assert_eq!(
        output.status.code(),
        Some(1),
        "run answered only {answered:?} of the calls [call_fn, call_custom], yet did not exit 1; \
         the next request would be refused for the missing tool message; stderr: {stderr}"
    );
    assert!(
        stderr.contains("\"call_custom\"") && stderr.contains("no answer"),
        "stderr does not say which call went unanswered: {stderr}"
    );
}

#[cfg(not(feature = "code"))]
#[test]
fn code_mode_without_the_feature_says_how_to_build_it() {
    let out = run(None, &["--code-mode", "list"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--features code"), "{stderr}");
}
