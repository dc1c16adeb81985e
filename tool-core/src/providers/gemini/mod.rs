//! Gemini `generateContent`: `{"functionDeclarations": [..]}` (schemas in Gemini's OpenAPI
//! subset), `functionCall` parts, results as `functionResponse` parts, streamed as whole
//! `GenerateContentResponse` chunks.

pub(crate) mod export;
#[doc(hidden)]
pub mod results;
#[doc(hidden)]
pub mod route;
#[cfg(feature = "agent")]
#[doc(hidden)]
pub mod stream;

use super::interface::{never, Api};
use crate::export::names::NameRule;
use serde_json::{json, Value};

/// Gemini's row of the table.
pub(crate) const API: Api = Api {
    name: "gemini",
    title: "Gemini",
    otel_name: "gcp.gemini",
    strict: None,
    names: NameRule::Gemini,
    export: export::declarations,
    route: route::gemini,
    is_reply: route::is_reply,
    is_message: never,
    results: results::results,
    call_turn: |text, calls| vec![results::call_turn(text, calls)],
    user: |text| content("user", text),
    assistant: |text| content("model", text),
};

/// A `Content` holding one text part.
fn content(role: &str, text: &str) -> Value {
    json!({"role": role, "parts": [{"text": text}]})
}
