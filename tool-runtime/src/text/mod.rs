//! Tool calls written inside plain text, by models without native tool calling.
//!
//! [`parse`] finds every call a model wrote in one of the usual text formats ([`TextFormat`]:
//! Hermes `<tool_call>` tags, Qwen3 XML, Mistral `[TOOL_CALLS]`, Llama 3 JSON, pythonic lists,
//! the `{"tool_calls": [...]}` envelope, fenced JSON blocks, DeepSeek's and Kimi's special
//! tokens, and more) and gives them back as
//! [`ToolCall`](crate::ToolCall)s, with the prose that remains and an error for every call it could not read.
//! [`TextStream`] does the same on text that arrives in pieces, and
//! [`Registry::text_tool_prompt`](crate::Registry::text_tool_prompt) writes the system prompt that tells a model how to call.
//!
//! ```
//! use tool_runtime::text::{self, TextFormat};
//!
//! let reply = "Let me look.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n";
//! let parsed = text::parse(reply, TextFormat::Auto, &());
//! assert_eq!(parsed.text, "Let me look.\n");
//! assert_eq!(parsed.calls[0].name, "get_weather");
//! assert_eq!(parsed.calls[0].arguments, r#"{"city": "Paris"}"#);
//! assert!(parsed.errors.is_empty());
//! ```

mod arguments;
mod coerce;
mod command_r;
mod cursor;
mod deepseek;
mod dots;
mod envelope;
mod error;
mod fenced;
mod format;
mod formats;
mod functionary;
mod gemma;
mod gigachat;
mod glm;
mod harmony;
mod hermes;
mod hermes_variants;
mod inkling;
mod invoke_xml;
// `string_end` is the output cut's too.
pub(crate) mod json;
mod keyed;
mod kimi;
mod kv;
mod llama3;
mod minimax_m3;
mod mistral;
mod models;
mod muse;
mod names;
mod object;
mod parameters;
mod parsed;
mod phi4;
mod plamo;
pub(crate) mod prompt;
mod prompt_templates;
mod pylit;
mod pytags;
mod pythonic;
mod qwen_xml;
mod recipients;
mod scan;
mod schemas;
mod special;
mod stream;
mod suffix;
#[cfg(test)]
mod test_support;
mod triggers;
mod wrapped;
mod write;
mod xlam;

pub use error::{Cut, TextCallError, TextErrorKind};
pub use format::TextFormat;
pub use names::UnknownTextFormat;
pub use parsed::{TextEvent, TextParse};
pub use prompt::write_calls;
pub use schemas::ToolSchemas;
pub use stream::TextStream;

/// Finds the tool calls written in `text` in `format`, typing values with `tools`' schemas
/// where the format needs it (pass `&()` when there are none). Never panics.
pub fn parse<S: ToolSchemas>(text: &str, format: TextFormat, tools: &S) -> TextParse {
    let mut parse = TextParse::default();
    let mut scanner = scan::Scanner::new(format);
    scanner.scan(text, true, tools, &mut parse);
    parse
}

#[cfg(test)]
mod tests;
