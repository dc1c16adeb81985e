//! Serving over streamable HTTP: rmcp's `StreamableHttpService` behind a small hyper server
//! that adds the bearer-token check and serves one path.
//!
//! A local server is a target for DNS rebinding (a web page whose host name resolves to
//! 127.0.0.1): rmcp refuses a request whose `Host` isn't an allowed host, and one whose
//! `Origin` (sent by browsers) isn't an allowed origin, with 403. By default the allowed hosts
//! are the loopback names and the bound address, and the allowed origins are `http` and
//! `https` on the loopback names, any port; a request without `Origin` (any non-browser
//! client) passes.
//!
//! Each session holds memory on the server until the client ends it (`DELETE`) or it has been
//! idle for 5 minutes, and opening one takes a single request: so at most
//! [`HttpOptions::max_sessions`] are open at once, and a request for another gets
//! 503 Service Unavailable until one closes.
//!
//! Connections are capped too ([`HttpOptions::max_connections`], by default half the file
//! limit): a connection holds its place for good once it has sent a whole request that passed
//! the token check, and until then a newcomer can take it, so connections that never finish a
//! request can't keep out a client with the token. Every accepted socket has `TCP_NODELAY`, so
//! an answer written in several pieces is not held back by Nagle's algorithm.

use super::sessions::Sessions;
use crate::mcp::{McpError, McpServer};
use crate::Registry;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

/// Serves `registry` over streamable HTTP at `http://{addr}/mcp` until the process ends, with
/// the default [`HttpOptions`]. Give a loopback address (`127.0.0.1:PORT`) unless the server
/// must be reached from elsewhere, and then add that host name with
/// [`HttpOptions::allow_host`] and a token with [`HttpOptions::bearer_token`].
pub async fn serve_http(
    registry: impl Into<Arc<Registry>>,
    addr: SocketAddr,
) -> Result<(), McpError> {
    HttpServer::bind(McpServer::new(registry), addr, HttpOptions::default())
        .await?
        .run()
        .await
}

/// How [`HttpServer`] accepts requests.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    path: String,
    token: Option<String>,
    hosts: Vec<String>,
    origins: Vec<String>,
    max_sessions: usize,
    /// `None`: [`HttpOptions::default_max_connections`], read when the server runs.
    max_connections: Option<usize>,
    header_timeout: Duration,
    body_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            path: "/mcp".to_owned(),
            token: None,
            hosts: Vec::new(),
            origins: Vec::new(),
            max_sessions: HttpOptions::DEFAULT_MAX_SESSIONS,
            max_connections: None,
            header_timeout: HttpOptions::DEFAULT_HEADER_TIMEOUT,
            body_timeout: HttpOptions::DEFAULT_BODY_TIMEOUT,
        }
    }
}

impl HttpOptions {
    /// The default of [`max_sessions`](Self::max_sessions). A session that only said
    /// `initialize` takes about 60 KiB, so this caps them near 60 MiB.
    pub const DEFAULT_MAX_SESSIONS: usize = 1024;

    /// The most sessions open at once (default [`DEFAULT_MAX_SESSIONS`](Self::DEFAULT_MAX_SESSIONS),
    /// at least 1). A request that would open another (a `POST` without `Mcp-Session-Id`) gets
    /// 503 with `Retry-After` until a client ends its session or one has been idle 5 minutes.
    /// A request in protocol 2026-07-28 or later (no sessions) is served past the cap, unless
    /// it is an `initialize`, which opens a session whatever version it names.
    #[must_use]
    pub fn max_sessions(mut self, sessions: usize) -> HttpOptions {
        self.max_sessions = sessions.max(1);
        self
    }

    /// The most [`default_max_connections`](Self::default_max_connections) gives, however
    /// high the process's file limit.
    pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
    /// The default of [`header_timeout`](Self::header_timeout).
    pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default of [`body_timeout`](Self::body_timeout).
    pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

    /// The connection cap used when none is given: half the process's soft file limit
    /// (`RLIMIT_NOFILE`, what `ulimit -n` says), at most
    /// [`DEFAULT_MAX_CONNECTIONS`](Self::DEFAULT_MAX_CONNECTIONS), at least 1.
    ///
    /// Each connection holds a file descriptor: a cap above the limit is no cap, since the
    /// server runs out of descriptors first and then can't accept anyone, not even to say
    /// 503. The other half is left for what a server also opens: sessions, the files and
    /// processes its tools use, imported servers, and the connections answered 503.
    /// Where the limit can't be read (not Unix), it is [`DEFAULT_MAX_CONNECTIONS`](Self::DEFAULT_MAX_CONNECTIONS).
    pub fn default_max_connections() -> usize {
        cap_for_file_limit(file_limit())
    }

    /// The most connections open at once (default
    /// [`default_max_connections`](Self::default_max_connections), from the process's file
    /// limit; at least 1).
    ///
    /// A connection holds its place for good once it has sent one whole request that passed
    /// the token check ([`bearer_token`](Self::bearer_token); any whole request when there is
    /// none). Until then it is waiting, and when every place is taken a new connection takes
    /// the place of the one that has waited longest, which is closed: clients that open
    /// connections and never finish a request (headers or body sent a byte at a time, or
    /// without the token) can't keep a client with the token out, however many they open. A
    /// connection that finds every place held by a client that has sent a request is
    /// answered 503 with `Retry-After` and closed at once; with the two timeouts below, a
    /// held connection is closed after at most the header and body time of a request.
    #[must_use]
    pub fn max_connections(mut self, connections: usize) -> HttpOptions {
        self.max_connections = Some(connections.max(1));
        self
    }

    /// How long a client may take to send a request's headers, from the connection's start
    /// or the end of its last request (default 10 s); the connection is closed after it.
    #[must_use]
    pub fn header_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.header_timeout = timeout;
        self
    }

    /// How long a client may take to send a request's whole body once its headers are in
    /// (default 30 s); after it the request gets 408 and the connection is closed. A body
    /// trickled a byte at a time can't hold a connection longer.
    #[must_use]
    pub fn body_timeout(mut self, timeout: Duration) -> HttpOptions {
        self.body_timeout = timeout;
        self
    }

    /// The path the endpoint is served at (default `/mcp`); other paths get 404.
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> HttpOptions {
        let path = path.into();
        self.path = if path.starts_with('/') {
            path
        } else {
            format!("/{path}")
        };
        self
    }

    /// Requires `Authorization: Bearer {token}` on every request (401 otherwise).
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> HttpOptions {
        self.token = Some(token.into());
        self
    }

    /// Also accepts requests whose `Host` is `host` (`example.com`, or `example.com:8080` for
    /// one port only), beside the loopback names and the bound address.
    #[must_use]
    pub fn allow_host(mut self, host: impl Into<String>) -> HttpOptions {
        self.hosts.push(host.into());
        self
    }

    /// Also accepts browser requests from `origin` (`https://app.example.com:443`, or
    /// `https://app.example.com:*` for any port), beside the loopback origins.
    #[must_use]
    pub fn allow_origin(mut self, origin: impl Into<String>) -> HttpOptions {
        self.origins.push(origin.into());
        self
    }
}

/// A streamable-HTTP MCP server, bound and ready to [`run`](HttpServer::run).
///
/// ```no_run
/// use std::net::SocketAddr;
/// use tool_runtime::mcp::{HttpOptions, HttpServer, McpServer};
/// use tool_runtime::Registry;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let server = McpServer::new(Registry::builder().build()?);
/// let addr: SocketAddr = "127.0.0.1:0".parse()?; // any free port
/// let http = HttpServer::bind(server, addr, HttpOptions::default().bearer_token("s3cret")).await?;
/// eprintln!("serving at {}", http.url()); // http://127.0.0.1:PORT/mcp
/// http.run().await?;
/// # Ok(())
/// # }
/// ```
pub struct HttpServer {
    listener: TcpListener,
    local_addr: SocketAddr,
    service: StreamableHttpService<McpServer, Sessions>,
    /// The service's sessions, counted against [`HttpOptions::max_sessions`]; a session's
    /// end drops its tasks.
    sessions: Arc<Sessions>,
    options: Arc<HttpOptions>,
    stop: CancellationToken,
}

impl HttpServer {
    /// Binds `addr` (port 0 picks a free port; [`local_addr`](Self::local_addr) says which).
    pub async fn bind(
        server: McpServer,
        addr: SocketAddr,
        options: HttpOptions,
    ) -> Result<HttpServer, McpError> {
        let listener = TcpListener::bind(addr).await.map_err(|e| McpError::Serve {
            doing: format!("binding {addr}"),
            source: Box::new(e),
        })?;
        let local_addr = listener.local_addr().map_err(|e| McpError::Serve {
            doing: "reading the bound address".to_owned(),
            source: Box::new(e),
        })?;
        let stop = CancellationToken::new();
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).into();
        if !local_addr.ip().is_unspecified() && !local_addr.ip().is_loopback() {
            hosts.push(host_name(local_addr.ip()));
        }
        hosts.extend(options.hosts.iter().cloned());
        let mut origins: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
            .into_iter()
            .flat_map(|host| [format!("http://{host}:*"), format!("https://{host}:*")])
            .collect();
        origins.extend(options.origins.iter().cloned());
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(hosts)
            .with_allowed_origins(origins)
            .enforce_origin_validation()
            .with_cancellation_token(stop.child_token());
        let sessions = Arc::new(Sessions::new(Arc::clone(&server.tasks)));
        let service = StreamableHttpService::new(
            move || Ok(server.for_session()),
            Arc::clone(&sessions),
            config,
        );
        Ok(HttpServer {
            listener,
            local_addr,
            service,
            sessions,
            options: Arc::new(options),
            stop,
        })
    }

    /// The address bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The endpoint's URL: `http://127.0.0.1:PORT/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.local_addr, self.options.path)
    }

    /// A token that stops the server when cancelled: [`run`](Self::run) returns, sessions end.
    pub fn stop_token(&self) -> CancellationToken {
        self.stop.clone()
    }

    /// Accepts connections until [`stop_token`](Self::stop_token) is cancelled.
    ///
    /// # Errors
    ///
    /// An [`McpError`] when accepting connections fails (the listener itself, not one client).
    pub async fn run(self) -> Result<(), McpError> {
        let mut connections = tokio::task::JoinSet::new();
        let places = Places::new(
            self.options
                .max_connections
                .unwrap_or_else(HttpOptions::default_max_connections),
        );
        loop {
            let accepted = tokio::select! {
                () = self.stop.cancelled() => break,
                accepted = self.listener.accept() => accepted,
            };
            let (mut stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait a little, keep serving.
                    tracing::warn!(%error, "MCP HTTP server: accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            // An answer goes out in more than one write (the head and SSE priming event as
            // soon as rmcp has them, then the result when the tool is done). With Nagle's
            // algorithm on, the second write of an answer on a kept-alive connection waits for
            // the ACK of the first, which the client delays by up to 40 ms: every call after a
            // connection's first took 44 ms. Failing to set it only costs that time.
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!(%error, "MCP HTTP server: could not set TCP_NODELAY");
            }
            // Reap finished connections so the set doesn't grow with every client.
            while connections.try_join_next().is_some() {}
            let Some(place) = places.admit() else {
                // Every place is held by a client that sent a request: say so and close,
                // without waiting on what this one sends.
                connections.spawn(async move {
                    use tokio::io::AsyncWriteExt;
                    let _ = tokio::time::timeout(
                        Duration::from_secs(1),
                        stream.write_all(TOO_MANY_CONNECTIONS),
                    )
                    .await;
                });
                continue;
            };
            let service = self.service.clone();
            let sessions = Arc::clone(&self.sessions);
            let options = Arc::clone(&self.options);
            let header_timeout = options.header_timeout;
            connections.spawn(async move {
                let evicted = place.evicted.clone();
                let handler = hyper::service::service_fn(move |mut request: Request<Incoming>| {
                    // Who sent it: a sessionless client's share of the tasks.
                    let peer = crate::mcp::tasks::store::PeerAddress(peer.ip());
                    request.extensions_mut().insert(peer);
                    let service = service.clone();
                    let sessions = Arc::clone(&sessions);
                    let options = Arc::clone(&options);
                    let place = Arc::clone(&place);
                    async move {
                        let response = handle(request, &service, &sessions, &options, &place);
                        Ok::<_, Infallible>(response.await)
                    }
                });
                let served = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(header_timeout)
                    .serve_connection(TokioIo::new(stream), handler);
                // Dropping the connection closes it; its place goes with the handler.
                let served = tokio::select! {
                    served = served => served,
                    () = evicted.cancelled() => Ok(()),
                };
                if let Err(error) = served {
                    tracing::debug!(%error, "MCP HTTP connection ended with an error");
                }
            });
        }
        connections.shutdown().await;
        Ok(())
    }
}

/// The places of [`HttpOptions::max_connections`]: which connections hold one, and which of
/// them are still waiting to send a whole request (those can lose theirs to a newcomer).
struct Places {
    cap: usize,
    state: std::sync::Mutex<PlacesState>,
}

#[derive(Default)]
struct PlacesState {
    /// Connections holding a place, evicted ones included until they have closed.
    open: usize,
    /// The waiting connections by age (ids rise), each with what closes it.
    waiting: std::collections::BTreeMap<u64, CancellationToken>,
    next: u64,
}

/// One connection's place: given back when the connection (and its handler) is dropped.
struct Place {
    id: u64,
    places: Arc<Places>,
    /// Cancelled when a newcomer takes the place of this waiting connection.
    evicted: CancellationToken,
    /// Set once the connection has sent a whole request that passed the token check.
    proven: std::sync::atomic::AtomicBool,
}

impl Places {
    fn new(cap: usize) -> Arc<Places> {
        Arc::new(Places {
            cap: cap.max(1),
            state: std::sync::Mutex::default(),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, PlacesState> {
        // The state is counts and tokens, whole after every statement: poisoning can't leave
        // it half-changed.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A place for a new connection: a free one, or the one of the connection that has waited
    /// longest (closed now). `None` when every place is held by a proven connection.
    fn admit(self: &Arc<Places>) -> Option<Arc<Place>> {
        let mut state = self.state();
        if state.open >= self.cap {
            let (_, oldest) = state.waiting.pop_first()?;
            oldest.cancel();
        }
        state.open += 1;
        let id = state.next;
        state.next += 1;
        let evicted = CancellationToken::new();
        state.waiting.insert(id, evicted.clone());
        Some(Arc::new(Place {
            id,
            places: Arc::clone(self),
            evicted,
            proven: std::sync::atomic::AtomicBool::new(false),
        }))
    }
}

impl Place {
    /// The connection sent a whole request that passed the token check: its place is its own.
    fn prove(&self) {
        if !self.proven.swap(true, std::sync::atomic::Ordering::Relaxed) {
            self.places.state().waiting.remove(&self.id);
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut state = self.places.state();
        state.waiting.remove(&self.id);
        state.open = state.open.saturating_sub(1);
    }
}

/// Half the file limit, at most [`HttpOptions::DEFAULT_MAX_CONNECTIONS`], at least 1 (see
/// [`HttpOptions::default_max_connections`]). `None`: the limit is unknown or unlimited.
fn cap_for_file_limit(limit: Option<u64>) -> usize {
    let half = limit.map_or(u64::MAX, |limit| limit / 2);
    usize::try_from(half)
        .unwrap_or(usize::MAX)
        .clamp(1, HttpOptions::DEFAULT_MAX_CONNECTIONS)
}

/// The process's soft limit on open files, when there is one.
#[cfg(unix)]
fn file_limit() -> Option<u64> {
    rustix::process::getrlimit(rustix::process::Resource::Nofile).current
}

/// The process's soft limit on open files: unknown here.
#[cfg(not(unix))]
fn file_limit() -> Option<u64> {
    None
}

impl std::fmt::Debug for HttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("url", &self.url())
            .finish_non_exhaustive()
    }
}

type Body = BoxBody<Bytes, Infallible>;

/// One request: the path, then the token, then the body (after which the connection holds
/// its place, [`Place::prove`]), then the session count, then rmcp (which checks
/// `Host` and `Origin`).
async fn handle(
    request: Request<Incoming>,
    service: &StreamableHttpService<McpServer, Sessions>,
    sessions: &Sessions,
    options: &HttpOptions,
    place: &Place,
) -> Response<Body> {
    if request.uri().path() != options.path {
        return plain(StatusCode::NOT_FOUND, "Not Found");
    }
    if let Some(token) = &options.token {
        let given = request
            .headers()
            .get(hyper::header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, credential)| credential.trim());
        if !given.is_some_and(|given| same(given.as_bytes(), token.as_bytes())) {
            let mut response = plain(StatusCode::UNAUTHORIZED, "Unauthorized");
            response.headers_mut().insert(
                hyper::header::WWW_AUTHENTICATE,
                hyper::header::HeaderValue::from_static("Bearer"),
            );
            return response;
        }
    }
    // A body is read whole, within the body timeout and rmcp's own size limit, before rmcp
    // sees it: a body trickled in a byte at a time can't hold the connection longer.
    let (parts, body) = request.into_parts();
    let body = if parts.method == hyper::Method::POST {
        let limited = http_body_util::Limited::new(body, MAX_PEEKED_BODY).collect();
        match tokio::time::timeout(options.body_timeout, limited).await {
            Ok(Ok(body)) => body.to_bytes(),
            Ok(Err(_)) => return plain(StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large"),
            Err(_) => {
                let mut response = plain(StatusCode::REQUEST_TIMEOUT, "Request Timeout");
                response.headers_mut().insert(
                    hyper::header::CONNECTION,
                    hyper::header::HeaderValue::from_static("close"),
                );
                return response;
            }
        }
    } else {
        Bytes::new()
    };
    // A whole request, with the token if one is asked for: the connection keeps its place.
    place.prove();
    // A POST without a session id asks for a new session (rmcp refuses anything but
    // `initialize` there), unless it speaks 2026-07-28 or later, which has no sessions: rmcp
    // serves such a request statelessly, an `initialize` excepted. Checked before rmcp opens
    // the session, so concurrent requests may pass together: the cap is exceeded by at most
    // the requests in flight.
    if parts.method == hyper::Method::POST
        && !parts.headers.contains_key("mcp-session-id")
        && sessions.sessions.read().await.len() >= options.max_sessions
        && (!sessionless_version(&parts.headers) || is_initialize(&body))
    {
        return too_many_sessions();
    }
    let body = super::raw_arguments::shield(&body).map_or(body, Bytes::from);
    let request = Request::from_parts(parts, Full::new(body));
    let ends_session = request.method() == hyper::Method::DELETE;
    let mut response = service.handle(request).await;
    if ends_session && response.status() == StatusCode::ACCEPTED {
        // The spec names no status for a session ended by DELETE; rmcp says 202, but the
        // official SDKs' servers answer 200 and their clients take only 200 or 204 as done
        // (the Python SDK warns "Session termination failed: 202"). The session is closed
        // by now, so 200 is the truth.
        *response.status_mut() = StatusCode::OK;
    }
    response
}

/// The most of a request's body read: rmcp's own limit (a larger body gets 413 from rmcp too).
const MAX_PEEKED_BODY: usize = 4 << 20;

/// The answer to a connection past [`HttpOptions::max_connections`].
const TOO_MANY_CONNECTIONS: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 38\r\n\r\nService Unavailable: too many requests";

/// Whether the request names a protocol version without sessions (2026-07-28 or later; the
/// versions are dates, so they compare as text).
fn sessionless_version(headers: &hyper::HeaderMap) -> bool {
    headers
        .get("mcp-protocol-version")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|version| version >= "2026-07-28")
}

/// Whether a JSON-RPC body is (or, in a batch, holds) an `initialize` request, which opens a
/// session whatever version it names.
fn is_initialize(body: &[u8]) -> bool {
    let is_init = |message: &serde_json::Value| message["method"] == "initialize";
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Array(batch)) => batch.iter().any(is_init),
        Ok(message) => is_init(&message),
        Err(_) => false,
    }
}

fn too_many_sessions() -> Response<Body> {
    let mut response = plain(
        StatusCode::SERVICE_UNAVAILABLE,
        "Service Unavailable: too many MCP sessions are open; end one with DELETE, or retry later",
    );
    response.headers_mut().insert(
        hyper::header::RETRY_AFTER,
        hyper::header::HeaderValue::from_static("5"),
    );
    response
}

/// Compares in time that depends only on the lengths, so a token can't be guessed byte by
/// byte from response times.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

/// An address as the `Host` header names it.
fn host_name(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    }
}

/// Serves `registry` on 127.0.0.1 (a free port) with the default options, for tests that
/// drive a server with raw requests: its address, and what stops it.
#[cfg(test)]
pub(crate) async fn serve_loopback(registry: Registry) -> (SocketAddr, CancellationToken) {
    let http = HttpServer::bind(
        McpServer::new(registry),
        ([127, 0, 0, 1], 0).into(),
        HttpOptions::default(),
    )
    .await
    .expect("a free port on 127.0.0.1");
    let (addr, stop) = (http.local_addr(), http.stop_token());
    tokio::spawn(http.run());
    (addr, stop)
}

#[cfg(test)]
mod tests {
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
    const STATELESS_HEADERS: &str =
        "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n";

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
            if socket.local_addr().ok() == Some(addr)
                && socket.peer_addr().ok() == Some(client_addr)
            {
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
}
