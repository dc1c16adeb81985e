//! Ollama's native chat API (`POST {base}/api/chat`), written from Ollama's own sources
//! (github.com/ollama/ollama: `api/types.go` for the types, `docs/api.md` "Generate a chat
//! completion", `docs/capabilities/tool-calling.mdx`, `docs/api/streaming.mdx`,
//! `docs/api/errors.mdx`, `docs/api/usage.mdx`, and `server/routes.go` for what the server
//! really sends). Its OpenAI-compatible endpoint (`/v1/chat/completions`) is
//! [`Provider::OpenAiChat`](crate::Provider::OpenAiChat); this is the API Ollama's own
//! clients speak.
//!
//! The rules, each with its source:
//!
//! - **Request** (`ChatRequest`): `{"model", "messages", "tools", "stream", "options",
//!   "think", "format", "keep_alive"}`. `stream` is "true by default" (`Stream *bool`), so a
//!   request that wants one JSON object must say `"stream": false`.
//! - **Tools** (`Tool`, `ToolFunction`): `[{"type": "function", "function": {"name",
//!   "description", "parameters"}}]`, the Chat Completions shape without `strict`: Ollama has
//!   no strict mode. `parameters` is read into `ToolFunctionParameters` (`type`, `$defs`,
//!   `items`, `required`, `properties`), each property into `ToolProperty` (`anyOf`, `type`,
//!   `items`, `description`, `enum`, `properties`, `required`): any other keyword, `$ref`
//!   included, is dropped unseen, so the schema is reduced to these (`schema.rs`). The names follow OpenAI's rule: Ollama checks none itself, but the same
//!   server takes the same tools on its OpenAI-compatible endpoint.
//! - **Messages** (`Message`): `{"role": "system" | "user" | "assistant" | "tool", "content",
//!   "thinking"?, "images"?, "tool_calls"?, "tool_name"?, "tool_call_id"?}`; `content` is a
//!   string, never a list of parts.
//! - **Reply** (`ChatResponse`): `{"model", "created_at", "message", "done", "done_reason",
//!   ...metrics}`; the model's thinking is in `message.thinking`, apart from `content`.
//! - **Calls** (`ToolCall`, `ToolCallFunction`): `message.tool_calls[]`, each `{"id"?,
//!   "function": {"index", "name", "arguments"}}`. `arguments` is a JSON **object**
//!   (`ToolCallFunctionArguments`, an ordered map), not a string as in Chat Completions.
//!   `id` is `call_` and 8 random characters (`server/routes.go` `toolCallId`); servers from
//!   before it send none, so a call without one is given `call_{n}`, `n` its place in the
//!   turn. `index` is the call's place in the turn (the parsers' `callIndex`), not a key:
//!   some parsers leave it 0.
//! - **Streaming** (`streaming.mdx`): newline-delimited JSON (`application/x-ndjson`), one
//!   `ChatResponse` a line; the last has `"done": true` and `done_reason`. A call never comes
//!   in pieces: the server's parser emits each call whole in one line (`routes.go`:
//!   `toolParser.Add` / `builtinParser.Add`), so a call is complete, and handed on, as soon
//!   as its line is read.
//! - **Whole replies** (`routes.go` `writeChatResponse`): the lines' `content` and `thinking`
//!   joined and every call gathered into one object.
//! - **Usage** (`usage.mdx`): `prompt_eval_count` (tokens read) and `eval_count` (tokens
//!   written), at the top level of the last line or of the whole reply.
//! - **Errors** (`errors.mdx`): `{"error": "text"}` with an error status; an error after the
//!   stream began comes as an `{"error": ...}` line under a 200, which is an error here too,
//!   never a turn that silently stops.
//! - **Results** (`docs/api.md` "Chat request (With history, with tools)", `tool-calling.mdx`):
//!   one `{"role": "tool", "content", "tool_name"}` message per call, in the calls' order;
//!   this crate adds the call's `tool_call_id` (`Message.ToolCallID`) so calls of one tool
//!   stay apart. There is no error flag: an error's text starts `Error:`.
//! - **The model's turn sent back**: the reply's `message`, as the docs append it to the
//!   history (`thinking` and ids kept); rebuilt from the calls
//!   ([`call_turn`](crate::results::call_turn)) with each call's arguments as an object.
//!
//! The pieces: `export.rs` (the tool list) and `schema.rs` (each tool's parameters reduced to
//! what Ollama's structs keep), `route.rs` (a whole reply into a
//! [`Routed`](crate::router::routed::Routed), and the shape that tells one apart), `message.rs` (one
//! `message` read, for both), `stream.rs`
//! ([`OllamaStream`](crate::router::stream::OllamaStream)), `results.rs` (the results and the
//! model's turn), and under the `agent` feature `wire.rs`
//! (`tool_runtime::agent::Ollama`). The user's and assistant's own messages are
//! `{"role", "content"}`, as most chat APIs take them.

pub(crate) mod export;
mod message;
#[doc(hidden)]
pub mod results;
pub(crate) mod route;
#[doc(hidden)]
pub mod schema;
#[doc(hidden)]
pub mod stream;

use super::interface::{never, role_content, Api};
use crate::export::names::NameRule;

/// Ollama's row of the table.
pub(crate) const API: Api = Api {
    name: "ollama",
    title: "Ollama",
    otel_name: "ollama",
    // No strict mode: Ollama constrains no call to its schema.
    strict: None,
    // Ollama checks no name, but the same server takes the same tools on its
    // OpenAI-compatible endpoint.
    names: NameRule::OpenAiAnthropic,
    export: export::tools,
    route: route::ollama,
    is_reply: route::is_reply,
    // A bare Ollama message has Chat Completions' keys, and routes the same as one.
    is_message: never,
    results: results::results,
    call_turn: |text, calls| vec![results::call_turn(text, calls)],
    user: |text| role_content("user", text),
    assistant: |text| role_content("assistant", text),
};
