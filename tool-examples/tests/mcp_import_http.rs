//! The import against a server nobody here wrote, over streamable HTTP: the official
//! `server-everything` started in its `streamableHttp` mode on a free 127.0.0.1 port, its
//! tools listed and called through `tool-examples --mcp-url`.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tool_test_support::gateways::free_port;
use tool_test_support::mcp_clients::{clients, run_bounded};

const BINARY: &str = env!("CARGO_BIN_EXE_tool-examples");

/// `server-everything` over HTTP, stopped when dropped.
struct Everything(Child);

impl Drop for Everything {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn server_everythings_tools_are_imported_and_called_over_http() {
    let clients = clients();
    let port = free_port();
    let child = Command::new(&clients.node)
        .arg(&clients.everything)
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _everything = Everything(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "server-everything did not listen within 30 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("http://127.0.0.1:{port}/mcp");

    let listed = run_bounded(
        Command::new(BINARY).args(["--mcp-url", &url, "list"]),
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let echo = stdout
        .lines()
        .find_map(|line| {
            line.split_whitespace()
                .next()
                .filter(|name| name.ends_with("__echo"))
        })
        .unwrap_or_else(|| panic!("no echo tool listed: {stdout}"))
        .to_owned();

    let called = run_bounded(
        Command::new(BINARY).args([
            "--mcp-url",
            &url,
            "call",
            &echo,
            r#"{"message": "over http"}"#,
        ]),
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&called.stdout);
    assert!(
        called.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&called.stderr)
    );
    assert!(stdout.contains("over http"), "{stdout}");
}
