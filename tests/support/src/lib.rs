//! What the workspace's tests share, in one crate instead of files included by path:
//!
//! - [`attacks`]: the attack corpus (`tests/attacks/`), loaded and checked;
//! - [`rules`]: each provider's documented rules for tool definitions, as checkers;
//! - [`mcp_clients`]: the MCP clients and servers nobody here wrote, installed on first use;
//! - [`sessionless`]: one raw protocol 2026-07-28 request, for tests of its wire shapes;
//! - [`gateways`]: TensorZero's gateway and LiteLLM's proxy, installed on first use;
//! - [`llama`]: llama.cpp's server with a small model, built on first use;
//! - [`redis`]: a real Redis on a free port, installed on first use;
//! - [`stdin`]: running a program with input on its stdin;
//! - [`big_json`]: a large JSON output built as text;
//! - [`floods`]: replies of thousands of calls, for the agent's bounds;
//! - [`memory`]: this process's peak and resident memory (Linux);
//! - [`openapi`]: OpenAI's official OpenAPI spec, checking OpenAI request bodies;
//! - [`spans`]: a tracing subscriber keeping every span, for tests of the spans a run makes;
//! - [`upstream`] and [`replies`]: the scripted upstream, the fixture at the far end of the
//!   agent tests, and the provider-shaped replies it sends.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]
#![allow(missing_docs)]
// The rules cite their sources as `[TP]`, `[DT]`, ...: markers, not links.
#![allow(rustdoc::broken_intra_doc_links)]

pub mod attacks;
pub mod big_json;
pub mod floods;
pub mod gateways;
pub mod llama;
pub mod mcp_clients;
pub mod memory;
pub mod openapi;
pub mod redis;
pub mod replies;
pub mod rules;
pub mod sales;
pub mod sessionless;
pub mod spans;
pub mod stdin;
pub mod upstream;
