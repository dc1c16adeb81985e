//! rmcp: the tool in a `#[tool_router]` impl, dispatched in process through its `ToolRouter`
//! (no transport): the lowest-overhead public way to call an rmcp tool by name.

use crate::{run_search, Found, SearchArgs};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{CallToolRequestParams, JsonObject, NumberOrString, ServerResult};
use rmcp::service::{serve_directly, Peer, RequestContext, RunningService};
use rmcp::{tool, tool_handler, tool_router, RoleServer, ServerHandler};

/// The server the tool belongs to; the router is built once and kept, as rmcp's docs do.
#[derive(Clone)]
pub struct Server {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Server {
    /// Search the index.
    #[tool(annotations(read_only_hint = true))]
    async fn search(&self, Parameters(a): Parameters<SearchArgs>) -> Json<Found> {
        Json(run_search(a.query, a.limit, a.exact, a.mode))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {}

/// A server, its router and a `Peer`. `RequestContext` needs a `Peer`, and rmcp makes one
/// only for a running service: `serve_directly` over a `tokio::io::duplex` nobody writes to
/// gives one, and the measured path never touches that pipe.
pub struct Harness {
    server: Server,
    peer: Peer<RoleServer>,
    _running: RunningService<RoleServer, Server>,
    _client_end: tokio::io::DuplexStream,
}

impl Harness {
    /// Must be called inside a tokio runtime (the service spawns its loop).
    pub fn new() -> Harness {
        let server = Server {
            tool_router: Server::tool_router(),
        };
        let (ours, theirs) = tokio::io::duplex(4096);
        let running = serve_directly(server.clone(), ours, None);
        let peer = running.peer().clone();
        Harness {
            server,
            peer,
            _running: running,
            _client_end: theirs,
        }
    }

    /// One call, from `(name, args)` to the serialized `tools/call` result.
    pub async fn call(&self, name: &str, args: &str) -> Result<String, String> {
        let arguments: JsonObject = serde_json::from_str(args).map_err(|e| e.to_string())?;
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        let context = RequestContext::new(NumberOrString::Number(1), self.peer.clone());
        let call = ToolCallContext::new(&self.server, params, context);
        let response = self
            .server
            .tool_router
            .call(call)
            .await
            .map_err(|e| e.to_string())?;
        serde_json::to_string(&ServerResult::from(response)).map_err(|e| e.to_string())
    }
}

impl Default for Harness {
    fn default() -> Harness {
        Harness::new()
    }
}
