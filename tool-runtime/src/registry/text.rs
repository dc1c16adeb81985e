//! Tool calls written in plain text, for models without native tool calling: the prompt that
//! tells such a model how to call, and reading its calls back. The work is `text`'s.

use super::Registry;
use crate::text::{parse, prompt, TextFormat, TextParse, TextStream};

impl Registry {
    /// A system prompt for a model without native tool calling: every tool's name, description
    /// and input schema, and exactly how to write calls in `format` (Hermes tags for
    /// [`TextFormat::Auto`]), with an example. What the model writes as told,
    /// [`parse_text`](Registry::parse_text) reads back.
    pub fn text_tool_prompt(&self, format: TextFormat) -> String {
        prompt::tool_prompt(self, format)
    }

    /// [`text::parse`](crate::text::parse) with this registry's tools: the tool calls
    /// written in `text`.
    pub fn parse_text(&self, text: &str, format: TextFormat) -> TextParse {
        parse(text, format, self)
    }

    /// A [`TextStream`] with this registry's tools, for text that arrives in pieces.
    pub fn text_stream(&self, format: TextFormat) -> TextStream<'_> {
        TextStream::new(format, self)
    }
}
