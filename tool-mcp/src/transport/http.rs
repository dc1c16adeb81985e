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
use crate::Registry;
use crate::{McpError, McpServer};
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
                    let peer = crate::tasks::owner::PeerAddress(peer.ip());
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
#[path = "http_tests.rs"]
mod tests;
