//! Tool calls written inside plain text, by models without native tool calling.
//!
//! [`parse`] finds every call a model wrote in one of the usual text formats ([`TextFormat`]:
//! Hermes `<tool_call>` tags, Qwen3 XML, Mistral `[TOOL_CALLS]`, Llama 3 JSON, pythonic lists,
//! the `{"tool_calls": [...]}` envelope, fenced JSON blocks, DeepSeek's and Kimi's special
//! tokens, and more) and gives them back as
//! [`ToolCall`]s, with the prose that remains and an error for every call it could not read.
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
pub use prompt::write_calls;
pub use schemas::ToolSchemas;
pub use stream::TextStream;

use crate::ToolCall;
use std::ops::Range;

/// What [`parse`] found in a model's text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextParse {
    /// The calls, in the order the model wrote them, with ids `call_0`, `call_1`, ...
    pub calls: Vec<ToolCall>,
    /// Where each call is in the text, in bytes: `spans[i]` is `calls[i]`'s, the markup that
    /// holds it (its `<tool_call>` tag, its `[TOOL_CALLS]` marker and what follows). Calls
    /// written together in one list share the list's span.
    pub spans: Vec<Range<usize>>,
    /// The format the first call was written in: under [`TextFormat::Auto`], which format
    /// matched. `None` when there was no call.
    pub format: Option<TextFormat>,
    /// The text with every call (and the line break right after it) cut out.
    pub text: String,
    /// One entry per call that could not be read, with its raw text and place.
    pub errors: Vec<TextCallError>,
}

/// One thing [`TextStream`] found: prose to show, a finished call, or a call it could not read.
#[derive(Clone, Debug, PartialEq)]
pub enum TextEvent {
    /// Prose, ready to show.
    Text(String),
    /// A complete call, where it is in the whole text, and the format it is written in.
    Call {
        /// The call.
        call: ToolCall,
        /// Where it is, in bytes (see [`TextParse::spans`]).
        span: Range<usize>,
        /// The format it is written in.
        format: TextFormat,
    },
    /// A call that could not be read.
    Error(TextCallError),
}

impl TextParse {
    /// Adds one event, as [`TextStream`] gives them, to the result.
    pub fn push(&mut self, event: TextEvent) {
        match event {
            TextEvent::Text(text) => self.text.push_str(&text),
            TextEvent::Call { call, span, format } => {
                self.calls.push(call);
                self.spans.push(span);
                self.format.get_or_insert(format);
            }
            TextEvent::Error(error) => self.errors.push(error),
        }
    }
}

impl FromIterator<TextEvent> for TextParse {
    fn from_iter<I: IntoIterator<Item = TextEvent>>(events: I) -> Self {
        let mut parse = TextParse::default();
        events.into_iter().for_each(|event| parse.push(event));
        parse
    }
}

impl Extend<TextEvent> for TextParse {
    fn extend<I: IntoIterator<Item = TextEvent>>(&mut self, events: I) {
        events.into_iter().for_each(|event| self.push(event));
    }
}

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
