//! `tool-examples serve`: the registry as an MCP server, over stdio or streamable HTTP.

use super::CliError;
use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use tool_runtime::mcp::{HttpOptions, HttpServer, McpServer, TaskStore};
use tool_runtime::Registry;

/// The arguments of `serve`.
#[derive(Debug, Args)]
pub(super) struct ServeArgs {
    /// Serve over streamable HTTP at ADDR (`127.0.0.1:8080`; a port alone means 127.0.0.1;
    /// port 0 picks a free one) instead of stdio. The URL is printed on stderr.
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    http: Option<SocketAddr>,
    /// Require `Authorization: Bearer TOKEN` on every HTTP request.
    #[arg(long, value_name = "TOKEN", requires = "http")]
    token: Option<String>,
    /// Also accept requests whose Host header is HOST (for an address other than loopback).
    #[arg(long = "allow-host", value_name = "HOST", requires = "http")]
    allow_hosts: Vec<String>,
    /// The most HTTP sessions open at once; a request for another gets 503.
    #[arg(long = "max-sessions", value_name = "N", requires = "http",
          default_value_t = HttpOptions::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,
    /// The most HTTP connections open at once [default: half of `ulimit -n`, at most 512].
    /// A connection that has not yet sent a whole request (with the token, under --token)
    /// loses its place to a newcomer when all are taken; when every place is held by a client
    /// that has sent one, one more is answered 503 and closed. Each connection holds a file
    /// descriptor, so the default leaves the other half of the limit to the tools.
    #[arg(long = "max-connections", value_name = "N", requires = "http")]
    max_connections: Option<usize>,
    /// Seconds a client may take to send a request's headers before its connection is closed.
    #[arg(long = "header-timeout", value_name = "SECONDS", requires = "http",
          default_value_t = HttpOptions::DEFAULT_HEADER_TIMEOUT.as_secs_f64())]
    header_timeout: f64,
    /// Seconds a client may take to send a request's body (408 after it).
    #[arg(long = "body-timeout", value_name = "SECONDS", requires = "http",
          default_value_t = HttpOptions::DEFAULT_BODY_TIMEOUT.as_secs_f64())]
    body_timeout: f64,
    /// Where tasks are kept: `memory` (the default: each process its own), or a Redis URL
    /// (`redis://HOST:PORT/DB`) shared by every process started with it, so that any of
    /// them answers for any task behind a load balancer. Redis down at start is an error.
    #[arg(long = "task-store", value_name = "URL", default_value = "memory")]
    task_store: String,
    /// Seconds a process's lease on its running tasks lasts (with a Redis `--task-store`):
    /// when the process dies, the others report its tasks failed within this time.
    #[arg(long = "task-lease", value_name = "SECONDS", default_value_t = 10.0)]
    task_lease: f64,
    /// Serve the MCP conformance suite's test tools (`test_simple_text`, ...) instead of the
    /// example tools.
    #[arg(long)]
    pub conformance: bool,
}

/// `8080` → `127.0.0.1:8080`; anything else must be a socket address.
fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    text.parse()
        .map_err(|_| format!("`{text}` is not an address such as 127.0.0.1:8080, nor a port"))
}

/// The store `--task-store` names: memory, or Redis (connected now: down is an error here,
/// not at the first task).
async fn task_store(url: &str, lease: f64) -> Result<TaskStore, CliError> {
    if url == "memory" {
        return Ok(TaskStore::memory());
    }
    if !url.starts_with("redis://") {
        return Err(CliError::Setup(format!(
            "--task-store takes `memory` or a URL such as redis://127.0.0.1:6379/0, not `{url}`"
        )));
    }
    redis_store(url, lease).await
}

#[cfg(feature = "redis")]
async fn redis_store(url: &str, lease: f64) -> Result<TaskStore, CliError> {
    let lease = std::time::Duration::try_from_secs_f64(lease).map_err(|_| {
        CliError::Setup(format!(
            "--task-lease takes a number of seconds, not {lease}"
        ))
    })?;
    let config = tool_runtime::mcp::RedisConfig::new(url).lease(lease);
    let store = TaskStore::redis(config)
        .await
        .map_err(|e| CliError::Setup(format!("--task-store: {}", super::said(&e))))?;
    eprintln!(
        "tool-examples: tasks are kept in Redis at {}",
        store.location()
    );
    Ok(store)
}

#[cfg(not(feature = "redis"))]
async fn redis_store(_: &str, _: f64) -> Result<TaskStore, CliError> {
    Err(CliError::Setup(
        "--task-store redis://...: this build has no Redis support (tool-examples' `redis` feature)"
            .to_owned(),
    ))
}

/// Serves until the client disconnects (stdio) or the process is stopped (HTTP).
pub(super) async fn run(registry: Registry, args: &ServeArgs) -> Result<ExitCode, CliError> {
    let tools = registry.len();
    let store = task_store(&args.task_store, args.task_lease).await?;
    let server = McpServer::new(registry)
        .named("tool-examples", env!("CARGO_PKG_VERSION"))
        .task_store(store);
    let failed = |e: tool_runtime::mcp::McpError| CliError::Setup(e.to_string());
    match args.http {
        None => {
            eprintln!("tool-examples: serving {tools} tools over MCP on stdio");
            server.serve_stdio().await.map_err(failed)?;
        }
        Some(addr) => {
            let seconds = |s: f64, flag: &str| {
                std::time::Duration::try_from_secs_f64(s).map_err(|_| {
                    CliError::Setup(format!("{flag} takes a number of seconds, not {s}"))
                })
            };
            let mut options = HttpOptions::default()
                .max_sessions(args.max_sessions)
                .header_timeout(seconds(args.header_timeout, "--header-timeout")?)
                .body_timeout(seconds(args.body_timeout, "--body-timeout")?);
            if let Some(connections) = args.max_connections {
                options = options.max_connections(connections);
            }
            if let Some(token) = &args.token {
                options = options.bearer_token(token);
            }
            for host in &args.allow_hosts {
                options = options.allow_host(host);
            }
            let http = HttpServer::bind(server, addr, options)
                .await
                .map_err(failed)?;
            // Tests and scripts read the URL from this line.
            eprintln!(
                "tool-examples: serving {tools} tools over MCP at {}",
                http.url()
            );
            http.run().await.map_err(failed)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_alone_is_loopback() {
        assert_eq!(parse_addr("8080").unwrap().to_string(), "127.0.0.1:8080");
        assert_eq!(parse_addr("0.0.0.0:1").unwrap().to_string(), "0.0.0.0:1");
        assert!(parse_addr("localhost").is_err());
    }
}
