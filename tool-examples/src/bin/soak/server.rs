//! The server under test: a `tool-examples serve --http 127.0.0.1:0` process, and a thread
//! that samples its memory, threads, open files and CPU time from `/proc` while it runs.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::Duration;

/// A running server, killed when dropped.
pub struct Server {
    child: Mutex<Child>,
    pub pid: u32,
    pub url: String,
    /// The last lines it wrote on stderr.
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// How it ended, when it ended before being stopped.
    died: Mutex<Option<ExitStatus>>,
}

impl Server {
    /// Starts `{binary} --yes --root {root} serve --http 127.0.0.1:0` and reads its URL.
    ///
    /// `--yes` lets `exec_command` (the slow calls) run without a terminal to confirm on; the
    /// programs it runs are the soak's own (`sleep`).
    pub fn start(binary: &Path, root: &Path) -> Result<Server, String> {
        let mut child = Command::new(binary)
            .arg("--yes")
            .arg("--root")
            .arg(root)
            .args(["serve", "--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", binary.display()))?;
        let stderr = child.stderr.take().expect("stderr is piped");
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, rx) = mpsc::channel();
        let keep = Arc::clone(&tail);
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("http://") {
                    let _ = tx.send(line[at..].trim().to_owned());
                }
                let mut tail = keep.lock().unwrap();
                if tail.len() == 20 {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let pid = child.id();
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(url) => Ok(Server {
                child: Mutex::new(child),
                pid,
                url,
                stderr: tail,
                died: Mutex::new(None),
            }),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(format!(
                    "the server printed no URL within 30 s; it said:\n{}",
                    tail.lock()
                        .unwrap()
                        .iter()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("\n")
                ))
            }
        }
    }

    /// `127.0.0.1:PORT` and `/mcp`.
    pub fn addr_and_path(&self) -> (String, String) {
        let rest = self.url.trim_start_matches("http://");
        let at = rest.find('/').unwrap_or(rest.len());
        (rest[..at].to_owned(), rest[at..].to_owned())
    }

    /// Whether the process is still running; records how it ended if not.
    pub fn alive(&self) -> bool {
        let mut died = self.died.lock().unwrap();
        if died.is_some() {
            return false;
        }
        match self.child.lock().unwrap().try_wait() {
            Ok(None) => true,
            Ok(Some(status)) => {
                *died = Some(status);
                false
            }
            Err(_) => false,
        }
    }

    /// How the process ended, when it ended on its own.
    pub fn death(&self) -> Option<String> {
        self.died.lock().unwrap().map(|status| {
            format!(
                "{status}; its last words:\n{}",
                self.stderr
                    .lock()
                    .unwrap()
                    .iter()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let child = self.child.get_mut().unwrap();
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// One reading of the server's `/proc` files.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    pub rss_kb: u64,
    /// The peak resident set so far (`VmHWM`).
    pub hwm_kb: u64,
    pub threads: u64,
    pub fds: u64,
    /// User and system CPU time, in seconds.
    pub cpu_s: f64,
}

/// Reads `/proc/{pid}`; `None` once the process is gone.
pub fn sample(pid: u32) -> Option<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|dir| dir.count() as u64)
        .unwrap_or(0);
    // utime and stime are fields 14 and 15, counted after the parenthesized name.
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Sample {
        rss_kb: field("VmRSS:"),
        hwm_kb: field("VmHWM:"),
        threads: field("Threads:"),
        fds,
        cpu_s: ticks as f64 / clock_ticks() as f64,
    })
}

/// `sysconf(_SC_CLK_TCK)`: 100 on every Linux this runs on.
fn clock_ticks() -> u64 {
    100
}

/// Samples the server every `every` until stopped; also notices its death.
pub struct Monitor {
    stop: Arc<AtomicBool>,
    handle: Option<thread::JoinHandle<Vec<Sample>>>,
}

impl Monitor {
    pub fn start(server: Arc<Server>, every: Duration) -> Monitor {
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let handle = thread::spawn(move || {
            let mut samples = Vec::new();
            while !stopping.load(Ordering::Relaxed) {
                if !server.alive() {
                    break;
                }
                if let Some(s) = sample(server.pid) {
                    samples.push(s);
                }
                thread::sleep(every);
            }
            samples
        });
        Monitor {
            stop,
            handle: Some(handle),
        }
    }

    /// Stops sampling and returns the samples.
    pub fn finish(mut self) -> Vec<Sample> {
        self.stop.store(true, Ordering::Relaxed);
        self.handle
            .take()
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default()
    }
}
