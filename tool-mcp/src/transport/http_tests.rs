use super::*;

#[test]
fn tokens_compare_whole() {
    assert!(same(b"abc", b"abc"));
    assert!(!same(b"abc", b"abd"));
    assert!(!same(b"abc", b"abcd"));
}

#[test]
fn options_normalize_the_path() {
    assert_eq!(HttpOptions::default().path("mcp2").path, "/mcp2");
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
/// A 2026-07-28 request: its protocol version in `_meta`, no session.
const STATELESS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}}}"#;
const STATELESS_HEADERS: &str = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n";

/// One HTTP/1.1 exchange (`Connection: close`) with `headers` (each ending in `\r\n`):
/// the status, the `Mcp-Session-Id`, and the whole response.
fn exchange(
    addr: SocketAddr,
    method: &str,
    body: &str,
    headers: &str,
) -> (u16, Option<String>, String) {
    use std::io::{Read, Write};
    let request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n{headers}\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    let status = response
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let session = response.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_owned())
    });
    (status, session, response)
}

/// A server for `registry` with `options`: its address, what stops it, and its task.
async fn server(
    registry: Registry,
    options: HttpOptions,
) -> (
    SocketAddr,
    CancellationToken,
    tokio::task::JoinHandle<Result<(), McpError>>,
) {
    let http = HttpServer::bind(
        McpServer::new(registry),
        ([127, 0, 0, 1], 0).into(),
        options,
    )
    .await
    .unwrap();
    let (addr, stop) = (http.local_addr(), http.stop_token());
    (addr, stop, tokio::spawn(http.run()))
}

/// A server for `registry` that opens at most one session.
async fn one_session_server(
    registry: Registry,
) -> (
    SocketAddr,
    CancellationToken,
    tokio::task::JoinHandle<Result<(), McpError>>,
) {
    server(registry, HttpOptions::default().max_sessions(1)).await
}

#[tokio::test]
async fn sessions_past_the_cap_wait_until_one_ends() {
    let registry = Registry::builder().without_inventory().build().unwrap();
    let (addr, stop, server) = one_session_server(registry).await;
    let call = |method: &'static str, session: Option<String>| {
        tokio::task::spawn_blocking(move || {
            let headers = session.map_or_else(String::new, |id| {
                format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n")
            });
            let body = if method == "POST" { INITIALIZE } else { "" };
            let (status, session, _) = exchange(addr, method, body, &headers);
            (status, session)
        })
    };

    let (status, first) = call("POST", None).await.unwrap();
    assert_eq!(status, 200);
    let (status, none) = call("POST", None).await.unwrap();
    assert_eq!((status, none), (503, None), "a second session past the cap");
    let (status, _) = call("DELETE", first).await.unwrap();
    // 200, not rmcp's 202: the official clients warn about anything but 200 and 204.
    assert_eq!(status, 200, "DELETE");
    let (status, second) = call("POST", None).await.unwrap();
    assert_eq!(status, 200, "the first session ended: room for another");
    assert!(second.is_some());

    stop.cancel();
    server.await.unwrap().unwrap();
}

/// A 2026-07-28 request opens no session (rmcp serves it statelessly), so the cap must not
/// refuse it; an `initialize` opens one whatever version it names, so the cap still does.
#[tokio::test]
async fn a_sessionless_request_is_not_refused_by_the_session_cap() {
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(crate::DynamicTool::new(
            "a",
            "A.",
            serde_json::json!({"type": "object"}),
            |_, _| async { crate::ToolOutput::text("") },
        ))
        .build()
        .unwrap();
    let (addr, stop, server) = one_session_server(registry).await;
    let post = |body: String, headers: &'static str| {
        tokio::task::spawn_blocking(move || exchange(addr, "POST", &body, headers))
    };
    let (status, _, _) = post(STATELESS_LIST.into(), STATELESS_HEADERS)
        .await
        .unwrap();
    assert_eq!(
        status, 200,
        "a sessionless tools/list with room for sessions"
    );
    let (status, session, _) = post(INITIALIZE.into(), "").await.unwrap();
    assert_eq!(status, 200);
    assert!(session.is_some(), "the one session the cap allows");
    let (status, session, body) = post(STATELESS_LIST.into(), STATELESS_HEADERS)
        .await
        .unwrap();
    assert_eq!(
        (status, session),
        (200, None),
        "a request that opens no session was refused by the session cap: {body}"
    );
    let initialize_2026 = INITIALIZE.replace("2025-11-25", "2026-07-28");
    let (status, session, _) = post(initialize_2026, STATELESS_HEADERS).await.unwrap();
    assert_eq!(
        (status, session),
        (503, None),
        "a second session past the cap"
    );
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// 2026-07-28 has no `initialize` (a request carries its version in `_meta`), so an
/// `initialize` naming it is answered with the newest version that has one, as the
/// lifecycle's negotiation asks (the server answers a version it supports) and as the
/// official SDKs' servers do; `server/discover` lists every version, 2026-07-28 for
/// requests that name it and the older ones for the handshake. Both answers must agree.
#[tokio::test]
async fn initialize_and_discover_agree_on_the_versions() {
    let registry = Registry::builder().without_inventory().build().unwrap();
    let (addr, stop, server) = one_session_server(registry).await;
    let post = |body: String, headers: &'static str| {
        tokio::task::spawn_blocking(move || exchange(addr, "POST", &body, headers))
    };
    let initialize_2026 = INITIALIZE.replace("2025-11-25", "2026-07-28");
    let (status, _, answer) = post(initialize_2026, "").await.unwrap();
    assert_eq!(status, 200, "{answer}");
    assert!(
        answer.contains(r#""protocolVersion":"2025-11-25""#),
        "{answer}"
    );
    let discover = STATELESS_LIST.replace("tools/list", "server/discover");
    let headers = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\n";
    let (status, _, answer) = post(discover, headers).await.unwrap();
    assert_eq!(status, 200, "{answer}");
    let data = answer
        .lines()
        .find_map(|line| line.strip_prefix("data: "))
        .filter(|data| !data.is_empty())
        .unwrap_or_else(|| panic!("no event in {answer}"));
    let result: serde_json::Value = serde_json::from_str(data).unwrap();
    let versions = &result["result"]["supportedVersions"];
    for version in ["2025-11-25", "2026-07-28"] {
        assert!(
            versions.as_array().unwrap().iter().any(|v| v == version),
            "{version} missing from {versions}"
        );
    }
    assert_eq!(result["result"]["resultType"], "complete");
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// A server for an empty registry with `options`.
async fn server_with(
    options: HttpOptions,
) -> (
    SocketAddr,
    CancellationToken,
    tokio::task::JoinHandle<Result<(), McpError>>,
) {
    let registry = Registry::builder().without_inventory().build().unwrap();
    server(registry, options).await
}

/// Writes `head` (and nothing more) and reads what the server answers: the answer, and
/// whether the server closed the connection (rather than the read's own 10 s running out).
fn answer_to(addr: SocketAddr, head: &str) -> (String, bool) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let closed = stream.read_to_end(&mut answer).is_ok();
    (String::from_utf8_lossy(&answer).into_owned(), closed)
}

/// A body trickled in (here: promised and never sent) gets 408 once the body timeout is
/// over, and the connection is closed: it can't hold the connection for ever.
#[tokio::test]
async fn a_body_that_never_arrives_is_timed_out() {
    let options = HttpOptions::default().body_timeout(Duration::from_millis(200));
    let (addr, stop, server) = server_with(options).await;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\""
    );
    let (answer, closed) = tokio::task::spawn_blocking(move || answer_to(addr, &head))
        .await
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 408") && closed, "{answer}");
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// Headers that never end close the connection once the header timeout is over.
#[tokio::test]
async fn headers_that_never_end_are_timed_out() {
    let options = HttpOptions::default().header_timeout(Duration::from_millis(200));
    let (addr, stop, server) = server_with(options).await;
    let head = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nX-Slow: 1");
    let (answer, closed) = tokio::task::spawn_blocking(move || answer_to(addr, &head))
        .await
        .unwrap();
    // Closed by the server (hyper may say 408 first) before the read's own 10 s ran out.
    assert!(closed, "still open: {answer}");
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// A kept-alive connection that has had one request answered (a `DELETE` without a
/// session: rmcp refuses it at once), held open: what a client between calls looks like.
fn served_connection(addr: SocketAddr, token: Option<&str>) -> std::net::TcpStream {
    use std::io::{Read, Write};
    let auth = token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let request = format!("DELETE /mcp HTTP/1.1\r\nHost: {addr}\r\n{auth}\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).unwrap(), 1, "closed early");
        head.push(byte[0]);
    }
    stream
}

/// Past `max_connections`, when every place is held by a connection that has sent a
/// request, a new one is answered 503 at once; once they close, a request is served again.
#[tokio::test]
async fn connections_past_the_cap_are_refused_until_one_closes() {
    let options = HttpOptions::default().max_connections(2);
    let (addr, stop, server) = server_with(options).await;
    let (first, second) = tokio::task::spawn_blocking(move || {
        (served_connection(addr, None), served_connection(addr, None))
    })
    .await
    .unwrap();
    let get = format!("GET /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let third = tokio::task::spawn_blocking(move || answer_to(addr, &get).0)
        .await
        .unwrap();
    assert!(third.starts_with("HTTP/1.1 503"), "{third}");
    assert!(third.contains("Retry-After"), "{third}");
    drop((first, second));
    let mut status = 0;
    for _ in 0..100 {
        let (code, _, _) =
            tokio::task::spawn_blocking(move || exchange(addr, "POST", INITIALIZE, ""))
                .await
                .unwrap();
        status = code;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(status, 200, "the places were given back");
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// Connections that never finish a request without the token (headers sent a byte at a
/// time, here never ended) take every place, and more: a client with the token is still
/// served, in the place of the one that waited longest, and a client that was served
/// keeps its place. Before, every one of them held a place until its header timeout and
/// the client with the token got 503.
#[tokio::test]
async fn connections_without_the_token_do_not_keep_out_one_with_it() {
    use std::io::Write;
    let options = HttpOptions::default()
        .max_connections(4)
        .bearer_token("s3cret");
    let (addr, stop, server) = server_with(options).await;
    let (kept, slow) = tokio::task::spawn_blocking(move || {
        let kept = served_connection(addr, Some("s3cret"));
        let slow: Vec<_> = (0..12)
            .map(|_| {
                let mut stream = std::net::TcpStream::connect(addr).unwrap();
                let head = format!("POST /mcp HTTP/1.1\r\nHost: {addr}\r\nX-Slow: 1");
                stream.write_all(head.as_bytes()).unwrap();
                stream
            })
            .collect();
        (kept, slow)
    })
    .await
    .unwrap();
    let (status, _, answer) = tokio::task::spawn_blocking(move || {
        exchange(addr, "POST", INITIALIZE, "Authorization: Bearer s3cret\r\n")
    })
    .await
    .unwrap();
    assert_eq!(status, 200, "{answer}");
    // The served connection was not the one closed: it is answered again.
    let kept = tokio::task::spawn_blocking(move || {
        use std::io::Read;
        let mut kept = kept;
        let request = format!("DELETE /mcp HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer s3cret\r\nConnection: close\r\n\r\n");
        kept.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = kept.read_to_string(&mut answer);
        answer
    })
    .await
    .unwrap();
    assert!(
        kept.contains("HTTP/1.1 400"),
        "the served connection was closed: {kept:?}"
    );
    drop(slow);
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// Half the file limit, within 1 and 512.
#[cfg(unix)]
#[test]
fn the_connection_cap_comes_from_the_file_limit() {
    assert_eq!(cap_for_file_limit(Some(256)), 128);
    assert_eq!(cap_for_file_limit(Some(1024)), 512);
    assert_eq!(cap_for_file_limit(Some(1 << 20)), 512);
    assert_eq!(cap_for_file_limit(Some(1)), 1);
    assert_eq!(cap_for_file_limit(None), 512);
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    assert_eq!(
        HttpOptions::default_max_connections(),
        cap_for_file_limit(limit)
    );
}

/// Every accepted socket has `TCP_NODELAY`: without it, an answer's second write waited for
/// the client's delayed ACK (40 ms) on a kept-alive connection. Read from the server's own
/// socket, found among this process's descriptors by its two addresses.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn accepted_sockets_have_tcp_nodelay() {
    let (addr, stop, server) = server_with(HttpOptions::default()).await;
    let client = tokio::task::spawn_blocking(move || served_connection(addr, None))
        .await
        .unwrap();
    let client_addr = client.local_addr().unwrap();
    let mut found = None;
    for entry in std::fs::read_dir("/proc/self/fd").unwrap() {
        let Ok(fd) = entry.unwrap().file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        // SAFETY: the descriptor is borrowed for these three calls only (ManuallyDrop
        // never closes it); one that is not a TCP socket only makes them fail.
        #[allow(unsafe_code)]
        let socket = std::mem::ManuallyDrop::new(unsafe {
            <std::net::TcpStream as std::os::fd::FromRawFd>::from_raw_fd(fd)
        });
        if socket.local_addr().ok() == Some(addr) && socket.peer_addr().ok() == Some(client_addr) {
            found = Some(socket.nodelay().unwrap());
        }
    }
    assert_eq!(found, Some(true), "the server's socket (None: not found)");
    drop(client);
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// A repeated key in a call's arguments over HTTP is refused as the registry refuses it,
/// not resolved "last one wins" by the JSON-RPC layer.
#[tokio::test]
async fn repeated_argument_keys_are_refused_over_http() {
    let echo = crate::DynamicTool::new(
        "echo",
        "Echo the text.",
        serde_json::json!({"type": "object", "properties": {"text": {"type": "string"}}}),
        |args, _cx| async move { crate::ToolOutput::json(&args) },
    );
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(echo)
        .build()
        .unwrap();
    let (addr, stop, server) = server(registry, HttpOptions::default()).await;
    let call = STATELESS_LIST
        .replace("\"tools/list\",\"params\":{", "\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a\",\"text\":\"../b\"},");
    let headers =
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: echo\r\n";
    let (status, _, answer) =
        tokio::task::spawn_blocking(move || exchange(addr, "POST", &call, headers))
            .await
            .unwrap();
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains(r#""isError":true"#), "{answer}");
    assert!(answer.contains("appears twice"), "{answer}");
    stop.cancel();
    server.await.unwrap().unwrap();
}

/// A `tools/call` of 2026-07-28 for `tool`, with `arguments`, sessionless.
fn stateless_call(tool: &str, arguments: serde_json::Value) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": tool,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}
        }
    }})
    .to_string()
}

/// A tool whose `region` also travels as the header `Mcp-Param-Region` (protocol
/// 2026-07-28, `x-mcp-header`): a call whose header is missing, disagrees with the body or
/// wraps bad Base64 is refused with 400 and `-32020` before the tool runs; one whose header
/// matches, as it is or Base64-wrapped, is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_headers_are_checked_against_the_body() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let status = crate::DynamicTool::new(
        "region_status",
        "The status of a region's servers.",
        serde_json::json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"}
        }, "required": ["region"]}),
        move |args, _| {
            counted.fetch_add(1, Ordering::SeqCst);
            async move {
                let region = args["region"].as_str().unwrap_or_default().to_owned();
                crate::ToolOutput::text(format!("normal in {region}"))
            }
        },
    );
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(status)
        .build()
        .unwrap();
    let (addr, stop, server) = server(registry, HttpOptions::default()).await;
    let call = |region: &'static str, header: Option<&'static str>| {
        let body = stateless_call("region_status", serde_json::json!({"region": region}));
        let mut headers = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: region_status\r\n".to_owned();
        if let Some(value) = header {
            headers.push_str(&format!("Mcp-Param-Region: {value}\r\n"));
        }
        tokio::task::spawn_blocking(move || {
            let (status, _, answer) = exchange(addr, "POST", &body, &headers);
            (status, answer)
        })
    };

    for (region, header) in [
        ("eu-west", Some("eu-west")),
        // A value that isn't plain ASCII comes Base64-wrapped.
        ("Zürich", Some("=?base64?WsO8cmljaA==?=")),
        // Without the whole wrapper, a value is taken as it is.
        ("=?base64?SGVsbG8=", Some("=?base64?SGVsbG8=")),
    ] {
        let (status, answer) = call(region, header).await.unwrap();
        assert_eq!(status, 200, "{region}: {answer}");
        assert!(answer.contains(&format!("normal in {region}")), "{answer}");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 3);

    for (region, header, why) in [
        ("eu-west", None, "missing Mcp-Param-Region header"),
        ("eu-west", Some("us-east"), "does not match body value"),
        ("Hello", Some("=?base64?SGVsbG8?="), "not valid Base64"),
        ("Hello", Some("=?base64?SGVs!!!bG8=?="), "not valid Base64"),
    ] {
        let (status, answer) = call(region, header).await.unwrap();
        assert_eq!(status, 400, "{header:?}: {answer}");
        assert!(answer.contains(r#""code":-32020"#), "{header:?}: {answer}");
        assert!(answer.contains(why), "{header:?}: {answer}");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 3, "a refused call never runs");
    stop.cancel();
    server.await.unwrap().unwrap();
}
