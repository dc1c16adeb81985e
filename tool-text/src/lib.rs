//! Tool calls written inside plain text, by models without native tool calling.
//!
//! Four doors make the whole loop: [`tool_prompt`] tells a model which tools there are and how
//! to call them in its [`TextFormat`] (the one its family was trained on:
//! [`TextFormat::for_model`]); [`parse`] finds the calls it wrote in its reply, with the prose
//! that remains and an error for every call it could not read ([`TextStream`] does the same on
//! text that arrives in pieces); and [`write_calls`] writes calls back the way the model writes
//! them, for the conversation's history. The tools are given as specs to the prompt and as
//! schemas to the parser (a [`Registry`] is both).
//!
//! ```
//! use tool_runtime::text::{self, TextFormat};
//! use tool_runtime::{tool, Registry};
//!
//! /// Get the current weather in a city.
//! #[tool]
//! fn get_weather(city: String) -> String {
//!     format!("18°C in {city}")
//! }
//!
//! # fn main() {
//! let registry = Registry::builder().without_inventory().register(get_weather::TOOL).build().unwrap();
//! let format = TextFormat::for_model("Qwen/Qwen2.5-7B-Instruct");
//! assert_eq!(format, TextFormat::Hermes);
//!
//! // The system prompt: every tool, and how to call it in `format`.
//! let prompt = text::tool_prompt(format, registry.specs());
//! assert!(prompt.contains("get_weather"));
//!
//! // The reply: prose, then a call. `Auto` reads every format.
//! let reply = "Let me look.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n";
//! let parsed = text::parse(reply, TextFormat::Auto, &registry);
//! assert_eq!(parsed.text, "Let me look.\n");
//! assert_eq!(parsed.calls[0].name, "get_weather");
//! assert_eq!(parsed.calls[0].arguments, r#"{"city": "Paris"}"#);
//! assert!(parsed.errors.is_empty());
//!
//! // The call back into the history, as the model wrote it.
//! assert!(text::write_calls(format, &parsed.calls).starts_with("<tool_call>"));
//! # }
//! ```
//!
//! Each format is declared whole (names, triggers, prompt, writer, readers, model names) in
//! one file of `formats/`, listed once in its `FORMATS`.

// What the readers name from the core, under the paths they used inside tool-runtime.
use tool_core::{output, Registry, ToolCall, ToolSpec};
#[cfg(test)]
use tool_core::{DynamicTool, ToolOutput};

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
mod grammar;
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
mod prose;
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
pub use grammar::call_grammar;
pub use names::UnknownTextFormat;
pub use parsed::{TextEvent, TextParse};
pub use prompt::{tool_prompt, write_calls};
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
