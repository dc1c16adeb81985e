//! The model APIs whose shapes the registry speaks: one name for exporting tools, routing a
//! reply and answering it.

use super::api;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

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

    /// The provider's name as the CLI and serde spell it (`openai-chat`, ...).
    pub fn as_str(self) -> &'static str {
        api(self).name
    }

    /// The API's name, as error messages give it.
    pub(crate) fn title(self) -> &'static str {
        api(self).title
    }

    /// Whether the provider has a strict mode for tool schemas (OpenAI structured outputs,
    /// Anthropic strict tool use, TensorZero's `strict`, which it passes on to OpenAI).
    pub fn has_strict_mode(self) -> bool {
        api(self).strict.is_some()
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`Provider`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown provider `{name}`; expected one of: {}", every_name())]
pub struct UnknownProvider {
    /// The name given.
    pub name: String,
}

/// Every provider's name, for the error.
fn every_name() -> String {
    let names: Vec<&str> = Provider::ALL.into_iter().map(Provider::as_str).collect();
    names.join(", ")
}

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(text: &str) -> Result<Provider, UnknownProvider> {
        Provider::ALL
            .into_iter()
            .find(|p| p.as_str() == text)
            .ok_or_else(|| UnknownProvider {
                name: text.to_owned(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back_and_the_error_lists_them_all() {
        for provider in Provider::ALL {
            assert_eq!(provider.as_str().parse::<Provider>(), Ok(provider));
            let json = serde_json::to_string(&provider).unwrap();
            assert_eq!(json, format!("\"{}\"", provider.as_str()));
        }
        for (i, provider) in Provider::ALL.into_iter().enumerate() {
            assert_eq!(provider as usize, i, "ALL is in declaration order");
        }
        let error = "openai".parse::<Provider>().unwrap_err().to_string();
        for provider in Provider::ALL {
            assert!(error.contains(provider.as_str()), "{error}");
        }
    }
}
