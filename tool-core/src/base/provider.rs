//! The model APIs whose shapes the registry speaks, by name: what every layer may name. What
//! each one does is its folder's (`providers/<name>/`), reached through `providers::api`.

use serde::{Deserialize, Serialize};

/// A model API (or MCP) whose shape matters: the tool list it takes
/// ([`Registry::export`](crate::Registry::export)), the reply it sends
/// ([`router::route`](crate::router::route)), and the results its next request carries
/// ([`results::answer`](crate::results::answer), [`Registry::answer_all`](crate::Registry::answer_all)).
///
/// Strict mode is not part of the provider: it is a knob of an export
/// ([`Export::strict`](crate::export::Export::strict)). Which provider a reply came from is
/// found by [`router::detect`](crate::router::detect), not by a variant of this enum.
///
/// ```
/// use tool_runtime::Provider;
///
/// let provider: Provider = "anthropic".parse().unwrap();
/// assert_eq!(provider, Provider::Anthropic);
/// assert_eq!(provider.as_str(), "anthropic");
/// assert!(provider.has_strict_mode());
/// assert!(!Provider::Gemini.has_strict_mode());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions: `tools: [{"type": "function", "function": {..}}]`, calls in
    /// `choices[0].message.tool_calls`, results as `role: "tool"` messages.
    #[serde(rename = "openai-chat")]
    OpenAiChat,
    /// OpenAI Responses: `tools: [{"type": "function", "name", ..}]`, `function_call` output
    /// items, results as `function_call_output` items.
    #[serde(rename = "openai-responses")]
    OpenAiResponses,
    /// Anthropic Messages: `tools: [{"name", "description", "input_schema"}]`, `tool_use`
    /// blocks, results as `tool_result` blocks in one user message.
    Anthropic,
    /// Gemini `generateContent`: `{"functionDeclarations": [..]}` (schemas in Gemini's OpenAPI
    /// subset), `functionCall` parts, results as `functionResponse` parts.
    Gemini,
    /// Model Context Protocol: `tools/list` entries and `CallToolResult`s.
    Mcp,
    /// TensorZero's native `/inference` API: tools as `[{"name", "description", "parameters",
    /// "strict"}]` (its `additional_tools`, or a `tensorzero.toml` with one schema file per
    /// tool: [`Registry::export_tensorzero`](crate::Registry::export_tensorzero)), calls in
    /// `tool_call` content blocks, results as `tool_result` blocks in one user message. Its
    /// OpenAI-compatible endpoint is [`Provider::OpenAiChat`].
    #[serde(rename = "tensorzero")]
    TensorZero,
    /// Ollama's native chat API (`POST /api/chat`): tools as Chat Completions' `[{"type":
    /// "function", "function": {..}}]` without `strict`, calls in `message.tool_calls` with
    /// their arguments as an object, replies streamed as newline-delimited JSON, results as
    /// `{"role": "tool", "tool_name"}` messages. Its OpenAI-compatible endpoint is
    /// [`Provider::OpenAiChat`].
    Ollama,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 7] = [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Mcp,
        Provider::TensorZero,
        Provider::Ollama,
    ];
}
