//! MCP tasks across processes: two `tool-examples serve --http --conformance --task-store
//! redis://...` processes sharing one real Redis, HAProxy round-robin in front, driven by the
//! official Python SDK (sessionless, with a tasks extension of the SDK's own kind):
//! `tests/mcp_clients/balanced_tasks.py` does the driving, this checks what it saw.
//!
//! - `soak`: tasks created and polled through the balancer: every result arrives, none is
//!   unknown, and results are read on a backend other than the one that ran the task;
//! - `ask`: a task's question, asked on backend 1, answered through backend 2;
//! - `cancel`: a task on backend 1 cancelled through backend 2;
//! - `kill`: backend 1 killed (`SIGKILL`) mid-task: backend 2 reports the task `failed`,
//!   saying its process stopped, within the lease, and never "unknown task".
//!
//! Skipped, saying so, only when HAProxy or Redis isn't installed and can't be (their
//! install scripts need root and apt-get).

#![cfg(feature = "redis")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::process::Command;
use std::time::Duration;
use tool_test_support::mcp_clients::{clients, run_bounded};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");
const TASKS: u64 = 60;
/// Each backend's `--task-lease`: a killed backend's tasks fail within it.
const LEASE_SECONDS: f64 = 2.0;

#[test]
fn tasks_are_answered_by_any_process_and_survive_a_killed_one() {
    let clients = clients();
    let haproxy = ["haproxy", "/usr/sbin/haproxy"].into_iter().find(|c| {
        Command::new(c)
            .arg("-v")
            .output()
            .is_ok_and(|out| out.status.success())
    });
    let haproxy = match haproxy {
        Some(haproxy) => haproxy.to_owned(),
        None => {
            let out = run_bounded(
                Command::new("bash").arg(clients.root.join("scripts/install-balancer.sh")),
                Duration::from_secs(900),
            );
            if !out.status.success() {
                eprintln!("SKIPPED: HAProxy is not installed and can't be");
                return;
            }
            "/usr/sbin/haproxy".to_owned()
        }
    };
    let Some(redis) = tool_test_support::redis::redis_server() else {
        eprintln!("SKIPPED: redis-server is not installed and can't be");
        return;
    };
    let out = run_bounded(
        Command::new(&clients.python)
            .arg(clients.script("balanced_tasks.py"))
            .args(["--binary", BINARY, "--haproxy", &haproxy])
            .arg("--redis-server")
            .arg(redis)
            .args(["--backends", "2", "--tasks", &TASKS.to_string()])
            .args(["--concurrency", "6", "--seconds", "1"])
            .args(["--lease", &LEASE_SECONDS.to_string()])
            .args(["--scenarios", "soak,ask,cancel,kill"]),
        Duration::from_secs(300),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "balanced_tasks.py failed:\n{stdout}\n{stderr}"
    );
    eprintln!("{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    let rows: Vec<Value> =
        serde_json::from_str(last).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
    let row = |scenario: &str| {
        rows.iter()
            .find(|row| row["scenario"] == scenario)
            .unwrap_or_else(|| panic!("no {scenario} row in {last}"))
    };

    let soak = row("soak");
    assert_eq!(soak["made"], TASKS, "{soak}");
    assert_eq!(soak["completed"], TASKS, "{soak}");
    assert_eq!(soak["unknown"], 0, "{soak}");
    assert_eq!(soak["lost"], 0, "{soak}");
    // Round-robin sends polls to the backend that did not run the task: the shared store is
    // what answered them.
    assert!(soak["read_elsewhere"].as_u64().unwrap() > 0, "{soak}");
    for backend in ["backend-1", "backend-2"] {
        assert!(soak["creates"][backend].as_u64().unwrap_or(0) > 0, "{soak}");
    }

    let ask = row("ask");
    assert_eq!(ask["ok"], true, "{ask}");
    let cancel = row("cancel");
    assert_eq!(cancel["ok"], true, "{cancel}");

    let kill = row("kill");
    assert_eq!(kill["status"], "failed", "{kill}");
    assert_eq!(kill["unknown"], 0, "{kill}");
    let message = kill["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("the process running this task stopped"),
        "{kill}"
    );
    // Within the lease, and a little for the last renewal and the polls.
    let seconds = kill["seconds"].as_f64().unwrap();
    assert!(seconds <= LEASE_SECONDS + 2.0, "{kill}");
}

/// `--task-store` with Redis down is a start-up error that says where and why.
#[test]
fn redis_down_at_start_is_a_start_up_error() {
    let port = tool_test_support::gateways::free_port();
    let out = run_bounded(
        Command::new(BINARY)
            .args(["serve", "--http", "127.0.0.1:0", "--task-store"])
            .arg(format!("redis://127.0.0.1:{port}/0")),
        Duration::from_secs(60),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the task store is unavailable: connecting to Redis at redis://127.0.0.1:{port}/0"
        )),
        "{stderr}"
    );
}
