//! A real Redis: Debian's `redis-server` (installed by `scripts/install-redis.sh` on first
//! use), started on a free 127.0.0.1 port with its data in a scratch folder, an append-only
//! file written at every change (so that a restart keeps what was stored), and stopped
//! when dropped.

use crate::gateways::free_port;
use crate::mcp_clients::run_bounded;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The path of `redis-server`, installing it first (once per test binary); `None`, said on
/// stderr, when it isn't installed and can't be.
pub fn redis_server() -> Option<&'static Path> {
    static SERVER: OnceLock<Option<PathBuf>> = OnceLock::new();
    SERVER
        .get_or_init(|| {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
            let script = root.join("scripts/install-redis.sh");
            let out = run_bounded(Command::new("bash").arg(&script), Duration::from_secs(900));
            if !out.status.success() {
                eprintln!(
                    "redis-server is not installed and {} could not install it:\n{}",
                    script.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
                return None;
            }
            let stdout = String::from_utf8_lossy(&out.stdout);
            stdout.lines().last().map(PathBuf::from)
        })
        .as_deref()
}

/// A running Redis, stopped when dropped.
pub struct RedisServer {
    binary: PathBuf,
    child: Option<Child>,
    port: u16,
    dir: tempfile::TempDir,
}

impl RedisServer {
    /// Starts one; `None` when `redis-server` can't be had (see [`redis_server`]).
    pub fn start() -> Option<RedisServer> {
        let binary = redis_server()?.to_path_buf();
        let mut server = RedisServer {
            binary,
            child: None,
            port: free_port(),
            dir: tempfile::tempdir().unwrap(),
        };
        server.run();
        Some(server)
    }

    /// `redis://127.0.0.1:PORT/0`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops it (SIGTERM: it writes its data and exits), waiting at most 10 s, then kills.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let _ = Command::new("kill")
            .arg("-TERM")
            .arg(child.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Starts it again on the same port with the same data.
    pub fn restart(&mut self) {
        self.stop();
        self.run();
    }

    /// One command over RESP (`redis-cli` may not be installed): the raw reply.
    pub fn command(&self, args: &[&str]) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut request = format!("*{}\r\n", args.len());
        for arg in args {
            request.push_str(&format!("${}\r\n{arg}\r\n", arg.len()));
        }
        stream.write_all(request.as_bytes()).unwrap();
        let mut reply = vec![0u8; 64 * 1024];
        let n = stream.read(&mut reply).unwrap_or(0);
        String::from_utf8_lossy(&reply[..n]).into_owned()
    }

    fn run(&mut self) {
        let child = Command::new(&self.binary)
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(self.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} does not start: {e}", self.binary.display()));
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if ping(self.port) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("redis-server did not answer PING within 20 s");
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn ping(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    if stream.write_all(b"*1\r\n$4\r\nPING\r\n").is_err() {
        return false;
    }
    let mut reply = [0u8; 7];
    stream.read_exact(&mut reply).is_ok() && &reply == b"+PONG\r\n"
}
