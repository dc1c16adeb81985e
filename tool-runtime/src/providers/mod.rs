//! Every model API the registry speaks, one folder each.

pub(crate) mod anthropic;
pub(crate) mod gemini;
pub(crate) mod mcp;
pub(crate) mod openai_chat;
pub(crate) mod openai_responses;
mod provider;
pub(crate) mod tensorzero;

pub use provider::{Provider, UnknownProvider};
