//! Each provider's HTTP wire: its path, headers, key and request body, one file a provider.
//!
//! Everything else about a provider (its tool list, replies, streams, results and the
//! messages of a turn) lives in its folder of the core crate, `providers/<name>/`; the wire
//! is here because it needs an HTTP client, and the core has none.

pub(crate) mod anthropic;
pub(crate) mod gemini;
pub(crate) mod ollama;
pub(crate) mod openai_chat;
pub(crate) mod openai_responses;
pub(crate) mod tensorzero;
