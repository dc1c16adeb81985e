//! What an MCP server's tasks keep in memory: a bench binary for `BENCHMARKS.md` §10.5.
//!
//! Serves one task tool over HTTP on 127.0.0.1, then, as sessionless (2026-07-28) clients
//! spread over `CLIENTS` loopback addresses (127.0.0.2, 127.0.0.3, ...), starts `TASKS`
//! tasks whose arguments are `ARG_BYTES` long and which each wait on a question to their
//! client: what an attacker leaves behind with no connection open. Prints how many tasks
//! the server took, how many it refused, and the process's resident memory before, after
//! and at its peak.
//!
//! ```text
//! cargo run -p tool-runtime --features mcp --example task_memory -- TASKS [CLIENTS] [ARG_BYTES]
//! scripts/task-memory.sh      # TASKS = 8, 16, ..., 256, each in a fresh process
//! ```

fn main() {
    bench::main();
}

mod bench {
    use serde_json::{json, Value};
    use std::net::{IpAddr, Ipv4Addr, SocketAddr};
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tool_runtime::mcp::{HttpOptions, HttpServer, McpServer};
    use tool_runtime::registry::{TaskSupport, ToolFlags};
    use tool_runtime::{DynamicTool, Registry, ToolOutput};

    fn arg(n: usize, default: usize) -> usize {
        std::env::args()
            .nth(n)
            .map_or(default, |a| a.parse().expect("a number"))
    }

    #[tokio::main(flavor = "multi_thread", worker_threads = 2)]
    pub(super) async fn main() {
        let (tasks, clients, arg_bytes) = (arg(1, 64), arg(2, 32), arg(3, (1 << 20) - 1024));
        let asks = DynamicTool::new(
            "ask",
            "Asks its client, then waits.",
            json!({"type": "object", "properties": {"pad": {"type": "string"}}}),
            |_, cx| async move {
                let schema = json!({"type": "object", "properties": {}});
                match cx.ask("go").elicit_json("Go on?", &schema).await {
                    Ok(_) => ToolOutput::text("went on"),
                    Err(error) => ToolOutput::text(error.to_string()),
                }
            },
        )
        .with_flags(ToolFlags {
            parallel: Some(true),
            task: TaskSupport::Optional,
            ..ToolFlags::default()
        });
        let registry = Registry::builder()
            .without_inventory()
            .dynamic(asks)
            .build()
            .expect("one tool");
        let http = HttpServer::bind(
            McpServer::new(registry),
            ([127, 0, 0, 1], 0).into(),
            HttpOptions::default(),
        )
        .await
        .expect("a free port");
        let addr = http.local_addr();
        tokio::spawn(http.run());

        let before = resident_kib();
        let pad = "x".repeat(arg_bytes);
        let (mut taken, mut refused) = (0, 0);
        for n in 0..tasks {
            let from = Ipv4Addr::new(127, 0, 0, 2 + u8::try_from(n % clients).unwrap_or(0));
            let answer = call(addr, from.into(), &pad).await;
            if answer["result"]["resultType"] == "task" {
                taken += 1;
            } else {
                refused += 1;
            }
        }
        // The calls reach their question; no connection is open from here on.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let after = resident_kib();
        println!(
            "tasks {tasks} clients {clients} arg_bytes {arg_bytes}: taken {taken} refused {refused}, \
             resident {before} -> {after} KiB (+{} KiB), peak {} KiB",
            after.saturating_sub(before),
            peak_kib()
        );
    }

    /// One `tools/call` from `from`, as a sessionless client with the tasks extension.
    async fn call(addr: SocketAddr, from: IpAddr, pad: &str) -> Value {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "ask", "arguments": {"pad": pad},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities":
                    {"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}},
                "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
            },
        }})
        .to_string();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: ask\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(SocketAddr::new(from, 0))
            .expect("a loopback address");
        let mut stream = socket.connect(addr).await.expect("the server");
        stream.write_all(request.as_bytes()).await.expect("sent");
        let mut answer = String::new();
        let read = stream.read_to_string(&mut answer);
        tokio::time::timeout(Duration::from_secs(30), read)
            .await
            .expect("an answer within 30 s")
            .expect("read");
        answer
            .lines()
            .find_map(|line| serde_json::from_str(line.strip_prefix("data: ")?).ok())
            .unwrap_or(Value::Null)
    }

    fn resident_kib() -> u64 {
        tool_test_support::memory::resident_kib().unwrap_or(0)
    }

    fn peak_kib() -> u64 {
        tool_test_support::memory::peak_kib().unwrap_or(0)
    }
}
