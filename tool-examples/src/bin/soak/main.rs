//! `soak`: the MCP HTTP server under concurrent clients for a bounded time.
//!
//! Starts `tool-examples serve --http 127.0.0.1:0` over a scratch workspace, then runs
//! `--clients` rmcp clients over streamable HTTP for `--seconds`, each making one call after
//! another: good calls (read_file, list_dir, search_files, csv_summary, update_plan,
//! search_tools), bad calls (an unknown tool, wrong types, a missing or unknown argument, a
//! value out of range, path traversal, a missing file, JSON cut off, a body over the size
//! limit) and slow calls (`exec_command` running `sleep`, or killed by its timeout, and a
//! search through `--big-files` files). Each client opens a new session every
//! `--reconnect-every` calls.
//!
//! Every call has an id; at the end each id must have exactly one answer, the answer it
//! expects (a success, a tool error of the right kind, a JSON-RPC error, an HTTP 4xx) and
//! carry what shows it answers that call. It prints calls per second, answers by kind,
//! latency percentiles, and the server's peak memory (VmHWM from `/proc`), and exits with 1
//! when a call was lost, answered twice or wrongly, when the server died, or when its peak
//! memory passed `--max-rss-mb`.
//!
//! Built only with `--features soak`; `scripts/soak.sh` builds and runs it in release mode.
//! All traffic stays on 127.0.0.1.

mod calls;
mod fixture;
mod flood;
mod report;
mod server;

use calls::{Answer, Client, Outcome, Rng, Send};
use clap::Parser;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use server::{Monitor, Server};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Soak test of `tool-examples serve --http`.
#[derive(Debug, Parser)]
#[command(name = "soak")]
struct Args {
    /// Concurrent MCP clients, each with its own session.
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// How long the clients keep calling.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Each client ends its session and opens a new one after this many calls (0: never).
    #[arg(long, default_value_t = 500)]
    reconnect_every: u64,
    /// A call with no answer after this many seconds is lost.
    #[arg(long, default_value_t = 30)]
    call_timeout: u64,
    /// Files under `big/`, read by each slow search.
    #[arg(long, default_value_t = 2000)]
    big_files: usize,
    /// Fail when the server's peak resident memory passes this many MiB.
    #[arg(long, default_value_t = 512)]
    max_rss_mb: u64,
    /// Leave out the `exec_command` calls (they hold the registry's gate alone while they
    /// run); their share goes to the big searches.
    #[arg(long)]
    no_exec: bool,
    /// After the load, open this many sessions that are never used nor ended, to check the
    /// server's cap on open sessions [default: the cap + 256; 0: no flood].
    #[arg(long, value_name = "SESSIONS")]
    flood: Option<usize>,
    /// Worker threads of the clients' runtime.
    #[arg(long, default_value_t = 2)]
    client_threads: usize,
    /// The `tool-examples` binary [default: the one beside this binary].
    #[arg(long, value_name = "PATH")]
    server: Option<PathBuf>,
}

/// What one client did.
#[derive(Default)]
pub struct ClientLog {
    /// One entry per call: id, kind, latency in µs, and the outcome.
    pub calls: Vec<Record>,
    /// Sessions opened, and how long each `initialize` took (µs).
    pub connects: Vec<u64>,
    /// Sessions that could not be opened, with why.
    pub connect_failures: Vec<String>,
}

pub struct Record {
    pub id: u64,
    pub kind: usize,
    pub micros: u64,
    pub outcome: Outcome,
    /// The answer was not the expected kind.
    pub unexpected: bool,
    /// The answer did not carry what shows it belongs to this call.
    pub crossed: bool,
    /// For the report when `unexpected` or `crossed`: what came back.
    pub detail: Option<String>,
}

/// What every client shares.
struct Shared {
    url: String,
    addr: String,
    path: String,
    next_id: AtomicU64,
    call_timeout: Duration,
    big_files: usize,
    reconnect_every: u64,
    exec: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("soak: {error}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<bool, String> {
    let binary = match &args.server {
        Some(path) => path.clone(),
        None => std::env::current_exe()
            .map_err(|e| e.to_string())?
            .with_file_name("tool-examples"),
    };
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    fixture::write(dir.path(), args.big_files).map_err(|e| format!("workspace: {e}"))?;
    let server = Arc::new(Server::start(&binary, dir.path())?);
    let (addr, path) = server.addr_and_path();
    eprintln!(
        "soak: server pid {} at {}; {} clients for {} s",
        server.pid, server.url, args.clients, args.seconds
    );
    let idle = server::sample(server.pid).unwrap_or_default();
    let load_before = load_average();
    let monitor = Monitor::start(Arc::clone(&server), Duration::from_millis(250));

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.client_threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let shared = Arc::new(Shared {
        url: server.url.clone(),
        addr,
        path,
        next_id: AtomicU64::new(0),
        call_timeout: Duration::from_secs(args.call_timeout),
        big_files: args.big_files,
        reconnect_every: args.reconnect_every,
        exec: !args.no_exec,
    });
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let logs: Vec<ClientLog> = runtime.block_on(async {
        let tasks: Vec<_> = (0..args.clients)
            .map(|n| tokio::spawn(client(Arc::clone(&shared), n as u64, deadline)))
            .collect();
        let mut logs = Vec::new();
        for task in tasks {
            // A client task that panicked leaves its calls unanswered: the ledger says so.
            logs.push(task.await.unwrap_or_default());
        }
        logs
    });
    let elapsed = started.elapsed();
    let alive_after_load = server.alive();
    let loaded = server::sample(server.pid).unwrap_or_default();
    // Sessions are closed: give the server a moment to let go of them.
    std::thread::sleep(Duration::from_secs(2));
    let after = server::sample(server.pid).unwrap_or_default();
    let samples = monitor.finish();
    let flood_tries = args
        .flood
        .unwrap_or(tool_runtime::mcp::HttpOptions::DEFAULT_MAX_SESSIONS + 256);
    let flood = (alive_after_load && flood_tries > 0)
        .then(|| runtime.block_on(flood::run(&server, flood_tries)));
    drop(runtime);
    let alive = alive_after_load && server.alive();

    let figures = report::Figures {
        clients: args.clients,
        seconds: elapsed.as_secs_f64(),
        issued: shared.next_id.load(Ordering::Relaxed),
        logs,
        idle,
        loaded,
        after,
        samples,
        max_rss_mb: args.max_rss_mb,
        died: if alive { None } else { server.death() },
        reconnect_every: args.reconnect_every,
        big_files: args.big_files,
        exec: !args.no_exec,
        flood,
        machine: format!(
            "{} cores, load average {load_before} before and {} after",
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            load_average()
        ),
    };
    Ok(figures.print())
}

/// The 1-minute load average, from `/proc/loadavg`.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// One client: sessions one after another, calls one after another, until the deadline.
async fn client(shared: Arc<Shared>, n: u64, deadline: Instant) -> ClientLog {
    let mut log = ClientLog::default();
    let mut rng = Rng::new(n + 1);
    let mut session: Option<Client> = None;
    let mut in_session = 0;
    let mut failed_since: Option<Instant> = None;
    while Instant::now() < deadline {
        if session.is_none() {
            let opening = Instant::now();
            let transport = StreamableHttpClientTransport::from_uri(shared.url.as_str());
            match tokio::time::timeout(shared.call_timeout, ().serve(transport)).await {
                Ok(Ok(client)) => {
                    log.connects.push(opening.elapsed().as_micros() as u64);
                    session = Some(client);
                    in_session = 0;
                    failed_since = None;
                }
                Ok(Err(error)) => log.connect_failures.push(error.to_string()),
                Err(_) => log.connect_failures.push("initialize timed out".to_owned()),
            }
            if session.is_none() {
                // A server that refuses sessions for 10 s on end is down: stop this client.
                let since = *failed_since.get_or_insert(opening);
                if since.elapsed() > Duration::from_secs(10) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        }
        let Some(client) = session.as_ref() else {
            continue;
        };
        let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
        let plan = calls::plan(&mut rng, id, shared.big_files, shared.exec);
        let sent = Instant::now();
        let answer: Answer = match plan.send {
            Send::Tool { name, arguments } => {
                calls::call_tool(client, name, arguments, shared.call_timeout).await
            }
            raw => calls::raw_post(&shared.addr, &shared.path, &raw, shared.call_timeout).await,
        };
        let micros = sent.elapsed().as_micros() as u64;
        // The session's transport failed: open a new one for the next call.
        let broken = matches!(answer.outcome, Outcome::Transport(_));
        let answered = answer.outcome.answered();
        let unexpected = answered && !answer.expected(&plan.expect);
        let crossed = answered && !unexpected && !answer.matches(&plan.check);
        let detail = (unexpected || crossed).then(|| {
            format!(
                "{} (expected {:?}): {} {}",
                calls::KINDS[plan.kind].0,
                plan.expect,
                answer.text.chars().take(300).collect::<String>(),
                answer
                    .structured
                    .as_ref()
                    .map(|v| v.to_string().chars().take(300).collect::<String>())
                    .unwrap_or_default()
            )
        });
        log.calls.push(Record {
            id,
            kind: plan.kind,
            micros,
            outcome: answer.outcome,
            unexpected,
            crossed,
            detail,
        });
        in_session += 1;
        if broken || (shared.reconnect_every > 0 && in_session >= shared.reconnect_every) {
            if let Some(client) = session.take() {
                let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
            }
        }
    }
    if let Some(client) = session.take() {
        let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
    }
    log
}
