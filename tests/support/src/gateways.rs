//! The real gateways the agent tests run between the transports and the scripted upstream:
//! TensorZero's embedded HTTP gateway and LiteLLM's proxy (`.venv-gateways/`).
//! `scripts/install-gateways.sh` installs them; the first test that needs them runs it when
//! something is missing.

use crate::mcp_clients::run_bounded;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::Duration;

/// Where everything is.
pub struct Gateways {
    pub root: PathBuf,
    /// `.venv-gateways/bin/python`, with `tensorzero` and `litellm` installed.
    pub python: PathBuf,
    /// `.venv-gateways/bin/litellm`.
    pub litellm: PathBuf,
}

/// The installed gateways; installs them first when one is missing (once per test binary).
pub fn gateways() -> &'static Gateways {
    static GATEWAYS: OnceLock<Gateways> = OnceLock::new();
    GATEWAYS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .canonicalize()
            .expect("the crate is in the workspace");
        let gateways = Gateways {
            python: root.join(".venv-gateways/bin/python"),
            litellm: root.join(".venv-gateways/bin/litellm"),
            root,
        };
        let installed = [&gateways.python, &gateways.litellm]
            .iter()
            .all(|path| path.exists());
        if !installed {
            let script = gateways.root.join("scripts/install-gateways.sh");
            let out = run_bounded(Command::new("bash").arg(&script), Duration::from_secs(1200));
            assert!(
                out.status.success(),
                "{} failed:\n{}\n{}",
                script.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        gateways
    })
}

/// A gateway process, killed when dropped.
pub struct Gateway {
    child: Child,
    /// Held open: the TensorZero script serves until its stdin closes.
    _stdin: Option<ChildStdin>,
    /// The folder holding the gateway's config, removed when the gateway is dropped.
    _config: Option<tempfile::TempDir>,
    /// Where clients send requests.
    pub url: String,
    /// What it printed on stderr so far is read on a thread; kept for failure messages.
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
    /// Where the gateway writes each request body it receives, when it does.
    log: Option<PathBuf>,
}

impl Gateway {
    /// What the gateway wrote on stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The request bodies the gateway received, in order (for a gateway that logs them).
    pub fn requests(&self) -> Vec<serde_json::Value> {
        let Some(log) = &self.log else {
            return Vec::new();
        };
        std::fs::read_to_string(log)
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).expect("the log holds JSON lines"))
            .collect()
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts TensorZero's gateway with one model, `scripted`, routed to `upstream_v1` (an
/// OpenAI-compatible base URL). Its URL is the gateway's OpenAI-compatible base URL.
pub fn tensorzero(upstream_v1: &str) -> Gateway {
    marked("tensorzero_gateway.py", &[upstream_v1.as_ref()], None)
}

/// TensorZero's native `/inference` endpoint on the config at `config` (a `tensorzero.toml`),
/// served by `tests/gateways/tensorzero_native.py` with the package's embedded gateway (the
/// package's own HTTP gateway serves only the OpenAI-compatible routes). Its URL is the base
/// URL (`http://127.0.0.1:N`); every request body it receives is appended to
/// the log [`Gateway::requests`] reads, one JSON a line.
pub fn tensorzero_native(config: &Path) -> Gateway {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log = dir.path().join("requests.jsonl");
    let mut gateway = marked(
        "tensorzero_native.py",
        &[config.as_os_str(), log.as_os_str()],
        Some(dir),
    );
    gateway.log = Some(log);
    gateway
}

/// What `tests/gateways/tensorzero_config.py` says of the config at `config`: `Ok` when the
/// real gateway loads it, else TensorZero's message.
pub fn tensorzero_config(config: &Path) -> Result<(), String> {
    let gateways = gateways();
    let out = run_bounded(
        Command::new(&gateways.python)
            .arg(gateways.root.join("tests/gateways/tensorzero_config.py"))
            .arg(config)
            .env("TENSORZERO_DISABLE_PSEUDONYMOUS_USAGE_ANALYTICS", "1"),
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    match stdout.lines().find(|l| l.starts_with("CONFIG_")) {
        Some("CONFIG_OK") if out.status.success() => Ok(()),
        Some(line) => Err(line.trim_start_matches("CONFIG_ERROR ").to_owned()),
        None => panic!(
            "tensorzero_config.py said nothing ({:?}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// Starts one of the TensorZero scripts, which prints `GATEWAY_URL <url>` when it serves and
/// serves until its stdin closes.
fn marked(script: &str, args: &[&std::ffi::OsStr], folder: Option<tempfile::TempDir>) -> Gateway {
    let gateways = gateways();
    let mut child = Command::new(&gateways.python)
        .arg(gateways.root.join("tests/gateways").join(script))
        .args(args)
        .env("TENSORZERO_DISABLE_PSEUDONYMOUS_USAGE_ANALYTICS", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the TensorZero script starts");
    let stdin = child.stdin.take();
    let stderr = drain_stderr(&mut child);
    let stdout = child.stdout.take().expect("stdout is piped");
    let (sender, receiver) = mpsc::channel();
    // The gateway logs on stdout too: the URL is the line with the script's marker, and
    // the rest is read to the end, so the gateway never writes into a closed pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(url) = line.strip_prefix("GATEWAY_URL ") {
                let _ = sender.send(url.to_owned());
            }
        }
    });
    let url = receiver
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_default()
        .trim()
        .to_owned();
    let mut gateway = Gateway {
        child,
        _stdin: stdin,
        _config: folder,
        url,
        stderr,
        log: None,
    };
    if !gateway.url.starts_with("http://") {
        // Give the stderr thread the rest of what it said.
        std::thread::sleep(Duration::from_millis(500));
        let status = gateway.child.try_wait();
        panic!(
            "TensorZero's {script} did not start ({status:?}): {}",
            gateway.stderr()
        );
    }
    gateway
}

/// LiteLLM's proxy config: one model, `scripted`, sent to the upstream as an OpenAI-compatible
/// model (`openai/` prefix), so the proxy translates between the protocols.
const LITELLM_CONFIG: &str = "model_list:
  - model_name: scripted
    litellm_params:
      model: openai/scripted
      api_base: {upstream}
      api_key: not-used
";

/// Starts LiteLLM's proxy with one model, `scripted`, routed to `upstream_v1` (an
/// OpenAI-compatible base URL). Its URL is `http://127.0.0.1:N/v1`, where the proxy serves
/// Anthropic's Messages API (`/v1/messages`) next to OpenAI's.
///
/// It runs offline: `LITELLM_LOCAL_MODEL_COST_MAP` makes it read the model price list it
/// ships instead of downloading it, and telemetry is off.
pub fn litellm(upstream_v1: &str) -> Gateway {
    let gateways = gateways();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let config = dir.path().join("config.yaml");
    std::fs::write(&config, LITELLM_CONFIG.replace("{upstream}", upstream_v1))
        .expect("the config is written");
    let port = free_port();
    let mut child = Command::new(&gateways.litellm)
        .arg("--config")
        .arg(&config)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--telemetry", "False"])
        .env("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        .env("LITELLM_LOG", "ERROR")
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("LiteLLM's proxy starts");
    let stderr = drain_stderr(&mut child);
    let mut gateway = Gateway {
        child,
        _stdin: None,
        _config: Some(dir),
        url: format!("http://127.0.0.1:{port}/v1"),
        stderr,
        log: None,
    };
    // Uvicorn listens once the proxy has loaded its config.
    if !wait_for_port(port, Duration::from_secs(120)) {
        let status = gateway.child.try_wait();
        panic!(
            "LiteLLM's proxy did not listen on {port} within 120 s ({status:?}): {}",
            gateway.stderr()
        );
    }
    gateway
}

/// Reads the child's stderr on a thread, so it never blocks on a full pipe.
pub(crate) fn drain_stderr(child: &mut Child) -> std::sync::Arc<std::sync::Mutex<String>> {
    let kept = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    if let Some(stderr) = child.stderr.take() {
        let kept = std::sync::Arc::clone(&kept);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Ok(mut kept) = kept.lock() {
                    // The last 64 KiB are enough to say why it failed.
                    if kept.len() > 64 << 10 {
                        let cut = kept.len() - (32 << 10);
                        let cut = (cut..kept.len())
                            .find(|&i| kept.is_char_boundary(i))
                            .unwrap_or(0);
                        kept.drain(..cut);
                    }
                    kept.push_str(&line);
                    kept.push('\n');
                }
            }
        });
    }
    kept
}

/// Waits until something accepts connections on `127.0.0.1:port`, at most `limit`.
pub fn wait_for_port(port: u16, limit: Duration) -> bool {
    let deadline = std::time::Instant::now() + limit;
    while std::time::Instant::now() < deadline {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// A free port on 127.0.0.1 (free when asked; a process should bind it soon after).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}
