//! The text formats models write tool calls in.

use serde::{Deserialize, Serialize};

/// How a model writes tool calls in its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum TextFormat {
    /// Any of the formats below, recognized where they appear. Bare JSON objects count as calls
    /// only at the start of the message, `{"response": ..}` is left alone, and formats without a
    /// marker of their own (bare JSON, pythonic lists, fenced blocks) need a known tool's name
    /// when the tool list is known.
    #[default]
    Auto,
    /// Hermes, Qwen2.5, QwQ, Granite 4: `<tool_call>{"name": .., "arguments": {..}}</tool_call>`.
    Hermes,
    /// Qwen3-Coder, Qwen3.5: `<tool_call><function=f><parameter=x>value</parameter></function></tool_call>`,
    /// values typed with the tool's input schema.
    QwenXml,
    /// Mistral: `[TOOL_CALLS][{"name": .., "arguments": {..}}]` or `[TOOL_CALLS]f[ARGS]{..}`.
    Mistral,
    /// Llama 3.x and 4: `<|python_tag|>` and/or bare `{"name": .., "parameters": {..}}` objects,
    /// several separated by `;`. Bare objects count anywhere in the text.
    Llama3,
    /// Llama 3.2, Llama 4, ToolACE: `[get_weather(city="Paris"), get_time(tz="CET")]`.
    Pythonic,
    /// llama.cpp's generic format: `{"tool_call": {..}}`, `{"tool_calls": [..]}`, or a reply as
    /// `{"response": ".."}` (taken as the text when it is the whole message).
    Envelope,
    /// A fenced ```` ```json ```` block holding `{"name": .., "arguments": {..}}` or an array of them.
    Fenced,
}

impl TextFormat {
    /// Every format that is not [`Auto`](TextFormat::Auto).
    pub const ALL: [TextFormat; 7] = [
        TextFormat::Hermes,
        TextFormat::QwenXml,
        TextFormat::Mistral,
        TextFormat::Llama3,
        TextFormat::Pythonic,
        TextFormat::Envelope,
        TextFormat::Fenced,
    ];

    /// The bytes a call in this format can start with, and the backtick that starts code (whose
    /// content is prose in every format); the scanner looks at nothing else.
    pub(crate) fn triggers(self) -> &'static [u8] {
        match self {
            TextFormat::Auto => b"<[`{",
            TextFormat::Hermes | TextFormat::QwenXml => b"<`",
            TextFormat::Mistral => b"[`",
            TextFormat::Llama3 => b"<{`",
            TextFormat::Pythonic => b"[<`",
            TextFormat::Envelope => b"{`",
            TextFormat::Fenced => b"`",
        }
    }

    /// Whether calls of `other`'s kind are looked for when parsing in this format.
    pub(crate) fn includes(self, other: TextFormat) -> bool {
        self == TextFormat::Auto || self == other
    }
}
