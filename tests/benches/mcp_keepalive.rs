//! MCP `tools/call` over streamable HTTP on kept-alive connections: ours (`HttpServer`, what
//! `tool-examples serve --http` runs) against rmcp's `StreamableHttpService` on hyper's
//! defaults (what `axum::serve` gives it: no `TCP_NODELAY`), both serving the same registry
//! through the same `McpServer`, so only the HTTP layer differs.
//!
//! `cargo bench -p tool-tests --features bench --bench mcp_keepalive`
//!
//! - `sequential`: one connection, one session, N calls one after another (N = 50, 100, 200,
//!   400): p50 and p99 of a call, and the whole run. Before `TCP_NODELAY` every call after
//!   the first waited for the client's delayed ACK (about 44 ms).
//! - `connections`: C connections at once (C = 1, 2, 4, 8, 16, 32), each with its own
//!   session making 50 calls in a row: calls per second over the run, and the p50 of a call.
//!
//! The client is a plain blocking HTTP/1.1 client on `std::net::TcpStream`, as the tester's
//! (Python's `http.client`, wrk) were: Nagle on, delayed ACK as the system has it. The
//! servers run in this process on a 2-thread runtime. Not a criterion bench: the figures
//! wanted are percentiles of single calls, which criterion does not report.

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tool_runtime::mcp::{HttpOptions, HttpServer, McpServer};
use tool_runtime::{DynamicTool, Registry, ToolOutput};

/// The registry both serve: the conformance suite's `test_simple_text`.
fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .dynamic(DynamicTool::new(
            "test_simple_text",
            "Returns a simple text.",
            serde_json::json!({"type": "object"}),
            |_, _| async { ToolOutput::text("This is a simple text response for testing.") },
        ))
        .build()
        .unwrap()
}

/// Ours, on a free loopback port.
async fn ours() -> SocketAddr {
    let http = HttpServer::bind(
        McpServer::new(registry()),
        ([127, 0, 0, 1], 0).into(),
        HttpOptions::default().max_sessions(4096),
    )
    .await
    .unwrap();
    let addr = http.local_addr();
    tokio::spawn(http.run());
    addr
}

/// rmcp's `StreamableHttpService` on hyper's HTTP/1.1 defaults, on a free loopback port.
async fn rmcp_default() -> SocketAddr {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    let server = McpServer::new(registry());
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = service.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request| {
                    let service = service.clone();
                    async move { Ok::<_, std::convert::Infallible>(service.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                    .await;
            });
        }
    });
    addr
}

/// One kept-alive connection with its session.
struct Client {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    session: Option<String>,
}

impl Client {
    fn open(addr: SocketAddr) -> Client {
        let writer = TcpStream::connect(addr).unwrap();
        writer
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let reader = BufReader::new(writer.try_clone().unwrap());
        let mut client = Client {
            addr,
            reader,
            writer,
            session: None,
        };
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#;
        client.post(init);
        client.post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        client
    }

    /// One call; the time it took.
    fn call(&mut self, id: usize) -> Duration {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"test_simple_text","arguments":{{}}}}}}"#
        );
        let start = Instant::now();
        let answer = self.post(&body);
        let took = start.elapsed();
        assert!(answer.contains("simple text response"), "{answer}");
        took
    }

    /// POSTs `body` (head and body in one write, as HTTP libraries do) and reads the whole
    /// answer: its body.
    fn post(&mut self, body: &str) -> String {
        let session = self.session.as_ref().map_or_else(String::new, |id| {
            format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n")
        });
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.writer.write_all(request.as_bytes()).unwrap();
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 2"), "{line}");
        let (mut length, mut chunked) = (None, false);
        loop {
            line.clear();
            self.reader.read_line(&mut line).unwrap();
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap();
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = Some(value.parse::<usize>().unwrap()),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "mcp-session-id" => self.session = Some(value.to_owned()),
                _ => {}
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                self.reader.read_line(&mut line).unwrap();
                let size = usize::from_str_radix(line.trim_end(), 16).unwrap();
                let mut chunk = vec![0; size + 2];
                self.reader.read_exact(&mut chunk).unwrap();
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else {
            let mut rest = vec![0; length.unwrap_or(0)];
            self.reader.read_exact(&mut rest).unwrap();
            body = rest;
        }
        String::from_utf8(body).unwrap()
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn sequential(name: &str, addr: SocketAddr) {
    for calls in [50usize, 100, 200, 400] {
        let mut client = Client::open(addr);
        let start = Instant::now();
        let mut times: Vec<Duration> = (1..=calls).map(|id| client.call(id)).collect();
        let total = start.elapsed();
        times.sort();
        println!(
            "sequential/{name}/{calls}: p50 {:.3} ms, p99 {:.3} ms, {calls} calls in {:.1} ms",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99)),
            ms(total)
        );
    }
}

fn connections(name: &str, addr: SocketAddr) {
    const CALLS: usize = 50;
    for count in [1usize, 2, 4, 8, 16, 32] {
        let clients: Vec<Client> = (0..count).map(|_| Client::open(addr)).collect();
        let start = Instant::now();
        let threads: Vec<_> = clients
            .into_iter()
            .map(|mut client| {
                std::thread::spawn(move || {
                    (1..=CALLS).map(|id| client.call(id)).collect::<Vec<_>>()
                })
            })
            .collect();
        let mut times: Vec<Duration> = threads
            .into_iter()
            .flat_map(|thread| thread.join().unwrap())
            .collect();
        let total = start.elapsed();
        times.sort();
        println!(
            "connections/{name}/{count}: {:.0} calls/s, p50 {:.3} ms, p99 {:.3} ms",
            (count * CALLS) as f64 / total.as_secs_f64(),
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99)),
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter word picks `sequential` or `connections`.
    let filter = std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with("--"))
        .unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (ours, rmcp) = runtime.block_on(async { (ours().await, rmcp_default().await) });
    for (name, addr) in [("ours", ours), ("rmcp_default", rmcp)] {
        if "sequential".contains(filter.as_str()) {
            sequential(name, addr);
        }
        if "connections".contains(filter.as_str()) {
            connections(name, addr);
        }
    }
}
