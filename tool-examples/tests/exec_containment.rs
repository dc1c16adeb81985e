//! `exec_command` leaves nothing running and leaks no secret: a program's background child,
//! a child that called `setsid`, and a program killed by its timeout with children all end
//! with the call (the program runs as PID 1 of a namespace of its own, where the system
//! allows it; without the privilege, as `nobody`, what it started is found and killed); the
//! environment holds only the basics and what was allowed.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tool_examples::Workspace;
use tool_runtime::ToolOutput;

/// Processes whose command line holds `marker`.
fn running(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(marker) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// Waits (up to 5 s) for every process with `marker` to be gone; what is left.
fn left_after(marker: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = running(marker);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn run(workspace: Workspace, argv: &[&str], timeout_ms: u64) -> ToolOutput {
    let registry = tool_examples::builder_in(workspace, Default::default())
        .approver(|_: &tool_runtime::pipeline::ApprovalRequest<'_>| {
            tool_runtime::pipeline::Approval::Allow
        })
        .build()
        .unwrap();
    let args = serde_json::json!({"argv": argv, "timeout_ms": timeout_ms}).to_string();
    registry.call_blocking("exec_command", &args)
}

#[test]
fn nothing_a_program_started_outlives_its_call() {
    if !namespaces_allowed() {
        eprintln!("skipped: this system refuses PID namespaces; see exec_command's docs");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str], u64); 3] = [
        // A background child of a program that exits at once.
        (
            "sleep 31.25",
            &["sh", "-c", "sleep 31.25 & echo started"],
            10_000,
        ),
        // A child that leaves the process group with setsid, then the timeout.
        (
            "sleep 32.25",
            &["sh", "-c", "setsid sleep 32.25 & sleep 60"],
            300,
        ),
        // A program killed by its timeout, its children with it.
        (
            "sleep 33.25",
            &["sh", "-c", "sleep 33.25 & sleep 33.25 & wait"],
            300,
        ),
    ];
    for (marker, argv, timeout_ms) in cases {
        let output = run(Workspace::new(dir.path()), argv, timeout_ms);
        assert!(!output.is_error(), "{marker}: {}", output.to_model_text());
        let left = left_after(marker);
        assert!(left.is_empty(), "{marker} outlived its call: {left:?}");
    }
}

#[test]
fn the_environment_holds_no_secret_unless_allowed() {
    // Set before any program starts; the name is this test's own.
    // SAFETY: nothing else in this test binary reads or writes the environment.
    unsafe { std::env::set_var("TOOL_EXAMPLES_TEST_SECRET", "hunter2") };
    let dir = tempfile::tempdir().unwrap();
    let argv = ["sh", "-c", "echo \"[$TOOL_EXAMPLES_TEST_SECRET] [$PATH]\""];
    let output = run(Workspace::new(dir.path()), &argv, 10_000);
    let text = output.to_model_text();
    assert!(text.contains("[]"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    assert!(text.contains("/bin"), "PATH is passed: {text}");
    let allowed = Workspace::new(dir.path()).pass_env(["TOOL_EXAMPLES_TEST_SECRET"]);
    let text = run(allowed, &argv, 10_000).to_model_text();
    assert!(text.contains("[hunter2]"), "{text}");
}

/// The CLI's `call exec_command`, without privileges: as `nobody` through `setpriv` when
/// this test runs as root (changing the user drops every capability, CAP_SYS_ADMIN with it),
/// as it is otherwise. The tool's JSON output.
fn call_unprivileged(root: &Path, argv: &[&str], timeout_ms: u64) -> Value {
    let cli = env!("CARGO_BIN_EXE_tool-examples");
    // SAFETY: geteuid only reads this process's credentials.
    let mut command = if unsafe { libc::geteuid() } == 0 {
        let mut command = Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(cli);
        command
    } else {
        Command::new(cli)
    };
    let args = serde_json::json!({"argv": argv, "timeout_ms": timeout_ms}).to_string();
    let out = command
        .arg("--root")
        .arg(root)
        .args(["--yes", "call", "exec_command", &args])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let printed: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    printed["json"].clone()
}

/// Without the privilege a PID namespace needs, the fallback still ends everything a
/// program started: a background child after the program exits, a child that called
/// `setsid` (after an exit, and past the timeout), a daemon that forked twice, a writer
/// keeping the output pipe open, and the children of a program its timeout killed.
#[test]
fn without_privileges_nothing_a_program_started_outlives_its_call() {
    let dir = tempfile::tempdir().unwrap();
    // `nobody` must be able to enter the workspace.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // The fallback is what runs: the program is not PID 1 of a namespace of its own.
    let output = call_unprivileged(dir.path(), &["sh", "-c", "echo $$"], 10_000);
    let pid = output["stdout"].as_str().unwrap().trim();
    assert!(pid.parse::<u32>().is_ok_and(|pid| pid > 1), "{output}");
    let cases: [(&str, &[&str], u64); 6] = [
        (
            "sleep 41.25",
            &["sh", "-c", "sleep 41.25 & echo started"],
            10_000,
        ),
        (
            "sleep 42.25",
            &["sh", "-c", "setsid sleep 42.25 & echo started"],
            10_000,
        ),
        (
            "sleep 43.25",
            &["sh", "-c", "setsid sleep 43.25 & sleep 60"],
            300,
        ),
        (
            "sleep 44.25",
            &["sh", "-c", "(setsid sleep 44.25 &); echo started"],
            10_000,
        ),
        (
            "tick 45.25",
            &[
                "sh",
                "-c",
                "setsid sh -c 'while :; do echo tick 45.25; sleep 0.05; done' & echo started",
            ],
            10_000,
        ),
        (
            "sleep 46.25",
            &["sh", "-c", "sleep 46.25 & sleep 46.25 & wait"],
            300,
        ),
    ];
    for (marker, argv, timeout_ms) in cases {
        let output = call_unprivileged(dir.path(), argv, timeout_ms);
        assert_eq!(output["timed_out"], timeout_ms < 1000, "{marker}: {output}");
        if timeout_ms > 1000 {
            assert_eq!(output["exit_code"], 0, "{marker}: {output}");
            let stdout = output["stdout"].as_str().unwrap();
            // (The writer's ticks may come before or after.)
            assert!(stdout.lines().any(|l| l == "started"), "{marker}: {output}");
        }
        let left = left_after(marker);
        assert!(left.is_empty(), "{marker} outlived its call: {left:?}");
    }
}

/// Whether this system lets a process make a PID namespace (root, or user namespaces).
fn namespaces_allowed() -> bool {
    std::process::Command::new("unshare")
        .args(["--pid", "--fork", "true"])
        .status()
        .is_ok_and(|s| s.success())
}
