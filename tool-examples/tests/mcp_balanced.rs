//! `tool-examples serve --http` on more than one process, behind a real load balancer
//! (HAProxy, round-robin, started on 127.0.0.1 ports with a generated config), driven by the
//! official Python SDK: `tests/mcp_clients/balanced.py` does the driving, this checks what it
//! saw. A smaller run of `scripts/soak-balanced.sh`.
//!
//! - sessionless (2026-07-28, the SDK's default): every call answered, both backends used;
//! - the classic `initialize` handshake behind plain round-robin: calls are lost, because a
//!   session's requests reach a backend that never saw the session (it answers 404);
//! - the same handshake with sticky sessions (HAProxy's stick table on `Mcp-Session-Id`):
//!   every call answered.
//!
//! Skipped, saying so, only when HAProxy isn't installed and can't be
//! (`scripts/install-balancer.sh` needs root and apt-get).

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use tool_test_support::mcp_clients::{clients, run_bounded};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");
const CALLS: &str = "300";
const CONCURRENCY: &str = "6";

/// HAProxy's path, installing it first when missing; `None` when it can't be installed.
fn haproxy(root: &Path) -> Option<String> {
    let found = |candidate: &str| {
        Command::new(candidate)
            .arg("-v")
            .output()
            .is_ok_and(|out| out.status.success())
    };
    let candidates = ["haproxy", "/usr/sbin/haproxy"];
    if let Some(path) = candidates.into_iter().find(|c| found(c)) {
        return Some(path.to_owned());
    }
    let out = run_bounded(
        Command::new("bash").arg(root.join("scripts/install-balancer.sh")),
        Duration::from_secs(900),
    );
    if !out.status.success() {
        eprintln!(
            "SKIPPED: HAProxy is not installed and scripts/install-balancer.sh could not install it:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    candidates.into_iter().find(|c| found(c)).map(str::to_owned)
}

#[test]
fn sessionless_calls_spread_over_backends_and_sessions_need_stickiness() {
    let clients = clients();
    let Some(haproxy) = haproxy(&clients.root) else {
        return;
    };
    let out = run_bounded(
        Command::new(&clients.python)
            .arg(clients.script("balanced.py"))
            .args(["--binary", BINARY, "--haproxy", &haproxy])
            .args([
                "--backends",
                "2",
                "--calls",
                CALLS,
                "--concurrency",
                CONCURRENCY,
            ])
            .args(["--modes", "sessionless,classic,sticky"]),
        Duration::from_secs(300),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "balanced.py failed:\n{stdout}\n{stderr}"
    );
    eprintln!("{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    let rows: Vec<Value> =
        serde_json::from_str(last).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
    let row = |mode: &str| {
        rows.iter()
            .find(|row| row["mode"] == mode)
            .unwrap_or_else(|| panic!("no {mode} row in {last}"))
    };
    let calls: u64 = CALLS.parse().unwrap();

    let sessionless = row("sessionless");
    assert_eq!(sessionless["made"], calls, "{sessionless}");
    assert_eq!(
        sessionless["lost"], 0,
        "sessionless calls were lost: {sessionless}"
    );
    for backend in ["backend-1", "backend-2"] {
        // Round-robin: each backend takes about half; a third at least, whatever the timing.
        let served = sessionless["backends"][backend].as_u64().unwrap_or(0);
        assert!(
            served >= calls / 3,
            "{backend} served {served}: {sessionless}"
        );
    }

    let classic = row("classic");
    assert!(
        classic["lost"].as_u64().unwrap() > 0,
        "the classic handshake behind round-robin lost nothing, so this test shows nothing: {classic}"
    );
    let four_hundreds: u64 = classic["haproxy"]
        .as_object()
        .unwrap()
        .values()
        .map(|statuses| statuses["hrsp_4xx"].as_u64().unwrap())
        .sum();
    assert!(
        four_hundreds > 0,
        "the backends that didn't know a session said nothing: {classic}"
    );

    let sticky = row("sticky");
    assert_eq!(sticky["made"], calls, "{sticky}");
    assert_eq!(sticky["lost"], 0, "sticky sessions lost calls: {sticky}");
    // Each client's session lives on one backend; with several clients both get some.
    let used = sticky["backends"].as_object().unwrap().len();
    assert_eq!(used, 2, "{sticky}");
}

/// The HAProxy config `docs/mcp.md` shows is one HAProxy accepts (`haproxy -c`).
#[test]
fn the_guides_haproxy_config_is_valid() {
    let clients = clients();
    let Some(haproxy) = haproxy(&clients.root) else {
        return;
    };
    let guide = std::fs::read_to_string(clients.root.join("docs/mcp.md")).unwrap();
    let configs: Vec<&str> = guide
        .split("```haproxy\n")
        .skip(1)
        .filter_map(|rest| rest.split_once("```").map(|(config, _)| config))
        .collect();
    assert!(!configs.is_empty(), "no ```haproxy block in docs/mcp.md");
    let dir = tempfile::tempdir().unwrap();
    for config in configs {
        let path = dir.path().join("haproxy.cfg");
        std::fs::write(&path, config).unwrap();
        let out = run_bounded(
            Command::new(&haproxy).arg("-c").arg("-f").arg(&path),
            Duration::from_secs(30),
        );
        assert!(
            out.status.success(),
            "haproxy refuses the guide's config:\n{}\n{config}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
