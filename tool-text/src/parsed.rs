//! What parsing a model's text gives: [`TextParse`], whole, or [`TextEvent`]s, one at a time.

use super::error::TextCallError;
use super::format::TextFormat;
use crate::ToolCall;
use std::ops::Range;

/// What [`parse`](super::parse) found in a model's text.
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

/// One thing [`TextStream`](super::TextStream) found: prose to show, a finished call, or a call it could not read.
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
    /// Adds one event, as [`TextStream`](super::TextStream) gives them, to the result.
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
