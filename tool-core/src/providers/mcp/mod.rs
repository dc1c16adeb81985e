//! Model Context Protocol: `tools/list` entries and `CallToolResult`s. MCP carries no model
//! replies, so it routes none and has no turn to rebuild.

pub(crate) mod export;
pub(crate) mod results;

use super::interface::{never, role_content, Api};
use crate::export::names::NameRule;
use crate::router::error::RouteError;
use crate::Provider;

/// MCP's row of the table.
pub(crate) const API: Api = Api {
    name: "mcp",
    title: "MCP",
    otel_name: "mcp",
    strict: None,
    names: NameRule::Mcp,
    export: export::tools,
    route: |_| {
        Err(RouteError::NoReply {
            provider: Provider::Mcp,
        })
    },
    is_reply: never,
    is_message: never,
    results: results::results,
    call_turn: |_, _| Vec::new(),
    user: |text| role_content("user", text),
    assistant: |text| role_content("assistant", text),
};
