//! `tool-examples --mcp-url URL --oauth` against a server that needs sign-in: the official
//! conformance suite's `auth/metadata-default` scenario in its interactive mode (its MCP
//! server behind a 401, its authorization server approving at once), this test standing in
//! for the user's browser: it reads the authorization URL the CLI prints, fetches it, and
//! follows the redirect to the CLI's loopback listener. Then a second run signs in from the
//! kept token, with nobody asked.
#![cfg(feature = "mcp-oauth")]
// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use tool_test_support::mcp_clients::{clients, wait_bounded};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");

/// The scenario's servers, stopped when dropped.
struct Scenario(Child);

impl Drop for Scenario {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Lines of `reader`, each sent as it comes (so a wait for one is bounded).
fn lines(reader: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// The first line holding `needle`, within 30 s.
fn first_with(lines: &mpsc::Receiver<String>, needle: &str, seen: &mut Vec<String>) -> String {
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no line with {needle:?} within 30 s: {seen:#?}"));
        seen.push(line.clone());
        if line.contains(needle) {
            return line;
        }
    }
}

/// A browser's GET of `url` (plain HTTP): the status line and the `Location` header.
fn get(url: &str) -> (String, Option<String>) {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut stream = TcpStream::connect(host.replace("localhost", "127.0.0.1")).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.lines().next().unwrap_or_default().to_owned();
    let location = answer
        .lines()
        .find_map(|line| {
            line.strip_prefix("Location: ")
                .or(line.strip_prefix("location: "))
        })
        .map(str::to_owned);
    (status, location)
}

/// How `child` exited, waiting at most `limit` (then it is killed and the test fails).
fn exit_within(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the CLI did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn cli(url: &str, state: &std::path::Path) -> Child {
    Command::new(BINARY)
        .args(["--mcp-url", url, "--oauth", "list"])
        .env("XDG_STATE_HOME", state)
        // No browser is opened here: there is none to open.
        .env("PATH", "/nonexistent")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// `suite`'s `scenario` in its interactive mode (its servers up until stopped), the lines it
/// prints, and its MCP server's URL.
fn interactive(
    suite: &std::path::Path,
    scenario: &str,
) -> (Scenario, mpsc::Receiver<String>, String) {
    let mut child = Command::new(&clients().node)
        .arg(suite)
        .args(["client", "--scenario", scenario])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let scenario_lines = lines(child.stdout.take().unwrap());
    let scenario = Scenario(child);
    let line = first_with(&scenario_lines, "Server URL: ", &mut Vec::new());
    let url = line.split("Server URL: ").nth(1).unwrap().trim().to_owned();
    (scenario, scenario_lines, url)
}

#[test]
fn the_cli_signs_in_through_its_loopback_listener_then_from_the_kept_token() {
    let clients = clients();
    // The lines are read to the end, or the scenario could block on a full pipe.
    let (_scenario, _lines, url) = interactive(&clients.conformance, "auth/metadata-default");
    let state = tempfile::tempdir().unwrap();

    // First run: the user signs in.
    let mut first = cli(&url, state.path());
    let stderr = lines(first.stderr.take().unwrap());
    let mut said = Vec::new();
    let authorize = first_with(&stderr, "/authorize?", &mut said)
        .trim()
        .to_owned();
    let (status, location) = get(&authorize);
    assert!(status.contains("302"), "{status}");
    let callback = location.unwrap();
    assert!(callback.starts_with("http://127.0.0.1:"), "{callback}");
    let (status, _) = get(&callback);
    assert!(status.contains("200"), "{status}");
    let stdout = first.stdout.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = BufReader::new(stdout).read_to_string(&mut text);
        text
    });
    let status = exit_within(&mut first, Duration::from_secs(60));
    let stdout = stdout.join().unwrap();
    assert!(status.success(), "{said:#?}\n{stdout}");
    assert!(stdout.contains("__test-tool"), "{stdout}");
    // The fake authorization server's tokens are `test-token-...`: never printed.
    assert!(!stdout.contains("test-token"), "{stdout}");
    while let Ok(line) = stderr.recv_timeout(Duration::from_millis(100)) {
        said.push(line);
    }
    assert!(
        said.iter().all(|line| !line.contains("test-token")),
        "{said:#?}"
    );

    // The token is kept, for its owner alone.
    let folder = state.path().join("tool-examples/oauth");
    let files: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = files[0].metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // Second run: signed in from the kept token, nobody asked.
    let second = cli(&url, state.path());
    let out = wait_bounded(second, Duration::from_secs(60), "the CLI");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}\n{stdout}");
    assert!(stdout.contains("__test-tool"), "{stdout}");
    assert!(!stderr.contains("/authorize?"), "asked again: {stderr}");
}

/// A workload's JWT the authorization server refuses (here one it didn't sign: the pre-release
/// suite's `auth/wif-jwt-bearer` scenario verifies with a key of its own) ends the import with
/// the server's own error, after one token request: the suite warns `wif-no-retry` or
/// `wif-grant-fallback` of a second, and neither is among its checks.
#[test]
fn a_refused_workload_jwt_is_the_imports_error_and_is_not_sent_again() {
    let clients = clients();
    let (scenario, scenario_lines, url) =
        interactive(&clients.conformance_alpha, "auth/wif-jwt-bearer");
    let pid = scenario.0.id();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let jwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzb21lb25lIn0.c2lnbmF0dXJl";
    let imported = runtime.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(60),
            tool_runtime::mcp::McpImport::http(&url)
                .oauth(tool_runtime::mcp::McpOAuth::workload_identity(
                    "conformance-wif-workload",
                    jwt,
                ))
                .connect(),
        )
        .await
        .expect("the import ends within 60 s")
    });
    let error = imported
        .expect_err("a refused JWT is no sign-in")
        .to_string();
    assert!(error.contains("invalid_grant"), "{error}");
    assert!(!error.contains(jwt), "the JWT is never shown: {error}");

    // The scenario says what it saw when it stops (SIGINT, as Ctrl-C).
    let stopped = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    let mut checks = Vec::new();
    while let Ok(line) = scenario_lines.recv_timeout(Duration::from_secs(10)) {
        checks.push(line);
    }
    let checks = checks.join("\n");
    assert!(checks.contains("wif-assertion-malformed"), "{checks}");
    for second_try in ["wif-no-retry", "wif-grant-fallback"] {
        assert!(!checks.contains(second_try), "{checks}");
    }
}
