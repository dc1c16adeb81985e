//! Which provider's output a router reads.

use crate::Dialect;
use std::fmt;
use std::str::FromStr;

/// A provider API whose responses [`route`](super::route) reads, or [`Auto`](Format::Auto) to
/// tell by the JSON's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// Whichever provider's shape the JSON has (see [`detect`](super::detect)).
    #[default]
    Auto,
    /// OpenAI Chat Completions: `choices[0].message.tool_calls`.
    OpenAiChat,
    /// OpenAI Responses: `function_call` items in `output`.
    OpenAiResponses,
    /// Anthropic Messages: `tool_use` content blocks.
    Anthropic,
    /// Gemini `generateContent`: `functionCall` parts.
    Gemini,
}

impl Format {
    /// Every format, [`Auto`](Format::Auto) first.
    pub const ALL: [Format; 5] = [
        Format::Auto,
        Format::OpenAiChat,
        Format::OpenAiResponses,
        Format::Anthropic,
        Format::Gemini,
    ];

    /// The format's name as the CLI spells it (`openai-chat`, ...), matching [`Dialect::as_str`].
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::OpenAiChat => "openai-chat",
            Format::OpenAiResponses => "openai-responses",
            Format::Anthropic => "anthropic",
            Format::Gemini => "gemini",
        }
    }

    /// The API's name, as error messages give it.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Format::Auto => "any provider's",
            Format::OpenAiChat => "OpenAI Chat Completions",
            Format::OpenAiResponses => "OpenAI Responses",
            Format::Anthropic => "Anthropic Messages",
            Format::Gemini => "Gemini",
        }
    }

    /// The dialect the results of these calls go back in (`None` for [`Auto`](Format::Auto)).
    /// Strict mode only matters for exporting tools, so it is off.
    pub fn dialect(self) -> Option<Dialect> {
        match self {
            Format::Auto => None,
            Format::OpenAiChat => Some(Dialect::OpenAiChat { strict: false }),
            Format::OpenAiResponses => Some(Dialect::OpenAiResponses { strict: false }),
            Format::Anthropic => Some(Dialect::Anthropic { strict: false }),
            Format::Gemini => Some(Dialect::Gemini),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                format!(
                    "unknown format `{text}`; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}
