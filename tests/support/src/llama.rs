//! A real model server: llama.cpp's `llama-server` with SmolLM2-135M-Instruct, built and
//! fetched by `scripts/install-llama-server.sh` into a cache folder outside the clone (the
//! first test that needs it runs the script; a build takes minutes, a reuse nothing).

use crate::gateways::{drain_stderr, free_port};
use crate::mcp_clients::run_bounded;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Where the install script put everything.
pub struct Llama {
    /// `bin/llama-server`.
    pub server: PathBuf,
    /// The model file (GGUF).
    pub model: PathBuf,
    /// llama.cpp's chat templates (`models/templates/*.jinja`).
    pub templates: PathBuf,
}

/// The model the tests run, by the name the server reports.
pub const MODEL: &str = "SmolLM2-135M-Instruct";

/// The installed server and model; installs them first (once per test binary).
pub fn llama() -> &'static Llama {
    static LLAMA: OnceLock<Llama> = OnceLock::new();
    LLAMA.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let script = root.join("scripts/install-llama-server.sh");
        // A cold build of the server takes about 4 minutes on 2 cores; a reuse is instant.
        let out = run_bounded(Command::new("bash").arg(&script), Duration::from_secs(3000));
        assert!(
            out.status.success(),
            "{} failed:\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let cache = String::from_utf8_lossy(&out.stdout);
        let cache = PathBuf::from(cache.lines().last().expect("the script names its folder"));
        Llama {
            server: cache.join("bin/llama-server"),
            model: cache.join(format!("models/{MODEL}.Q4_1.gguf")),
            templates: cache.join("templates"),
        }
    })
}

/// A running `llama-server`, killed when dropped. One runs at a time in a test binary:
/// `start` waits for the one before to be dropped.
pub struct LlamaServer {
    child: Child,
    _slot: Slot,
    /// The OpenAI-compatible base URL, `http://127.0.0.1:N/v1`.
    pub url: String,
    /// The server's own root, `http://127.0.0.1:N`.
    pub root: String,
    stderr: Arc<Mutex<String>>,
}

impl LlamaServer {
    /// Starts the server on a free port of 127.0.0.1 with the model's own chat template
    /// (`--jinja`), a fixed seed, greedy sampling and a small context, plus `args`; returns
    /// once it answers `/health` (at most 120 s).
    pub fn start(args: &[&str]) -> LlamaServer {
        let llama = llama();
        // Each server spins two threads on two cores: tests that ran theirs side by side
        // starved each other (CI saw a token a second, against 26) past the turn timeout.
        let slot = Slot::take();
        let port = free_port();
        let mut child = Command::new(&llama.server)
            .arg("--model")
            .arg(&llama.model)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--jinja",
                "--seed",
                "42",
                "--temp",
                "0",
                "--ctx-size",
                "4096",
            ])
            .args(["--threads", "2", "--parallel", "1", "--no-webui"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", llama.server.display()));
        let stderr = drain_stderr(&mut child);
        let mut server = LlamaServer {
            child,
            _slot: slot,
            url: format!("http://127.0.0.1:{port}/v1"),
            root: format!("http://127.0.0.1:{port}"),
            stderr,
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if health(port) == Some(200) {
                return server;
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("llama-server exited ({status}): {}", server.stderr());
            }
            assert!(
                Instant::now() < deadline,
                "llama-server was not healthy within 120 s: {}",
                server.stderr()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// What the server wrote on stderr so far (its log).
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The right to run a server in this process, handed back when dropped. A flag and a
/// condition variable rather than a `MutexGuard`, which could not cross the threads a test
/// starts its server on.
struct Slot;

static BUSY: Mutex<bool> = Mutex::new(false);
static FREED: Condvar = Condvar::new();

impl Slot {
    /// Waits (unbounded: each holder's server and turns are bounded) until no other server of
    /// this process runs.
    fn take() -> Slot {
        let mut busy = BUSY.lock().unwrap_or_else(|e| e.into_inner());
        while *busy {
            busy = FREED.wait(busy).unwrap_or_else(|e| e.into_inner());
        }
        *busy = true;
        Slot
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        *BUSY.lock().unwrap_or_else(|e| e.into_inner()) = false;
        FREED.notify_one();
    }
}

/// The status of `GET /health`, or `None` when nothing answers (yet).
fn health(port: u16) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    stream
        .write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}
