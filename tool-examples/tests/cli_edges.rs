//! Edge cases of the `tool-examples` binary: what the user sees and what the exit code says.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
fn run_with_stdin(root: &Path, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = Command::new(BINARY)
        .arg("--yes")
        .arg("--root")
        .arg(root)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    let _ = writer.join();
    output
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
    let output = run_with_stdin(root, &["call", "exec_command", &args], b"");
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
    let output = run_with_stdin(dir.path(), &["run"], reply.to_string().as_bytes());
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
