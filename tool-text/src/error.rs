//! A call found in the text that could not be read, and why.

use std::ops::Range;

/// A tool call the text held but that could not be turned into a [`ToolCall`](crate::ToolCall).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the tool call at bytes {}..{} could not be read: {kind}", span.start, span.end)]
pub struct TextCallError {
    /// The call's text, exactly as the model wrote it.
    pub raw: String,
    /// Where the call is in the whole text, in bytes.
    pub span: Range<usize>,
    /// What is wrong with it.
    pub kind: TextErrorKind,
}

/// Why a call in the text could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextErrorKind {
    /// The text ends before the call does, at a point where guessing the rest would be unsafe.
    #[error("the text ends {0}")]
    Truncated(Cut),
    /// The call is not JSON, even after repair.
    #[error("the call is not valid JSON, even after repair")]
    InvalidJson,
    /// The call is JSON but not an object.
    #[error("the call is not a JSON object")]
    NotAnObject,
    /// The call gives no tool name.
    #[error("the call names no tool")]
    MissingName,
    /// The arguments are neither an object nor a string holding one.
    #[error("the arguments are not a JSON object")]
    ArgumentsNotObject,
    /// The call's markup or Python syntax is wrong.
    #[error("expected {expected}")]
    Syntax {
        /// What should have been there.
        expected: &'static str,
    },
    /// A call marker with nothing after it.
    #[error("the call is empty")]
    Empty,
    /// Brackets nested deeper than the parser follows.
    #[error("the call is nested too deeply")]
    TooDeep,
}

/// Where a cut-off call stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Cut {
    /// Inside a string.
    #[error("inside a string")]
    InString,
    /// After a key, before its value.
    #[error("before a value")]
    BeforeValue,
    /// Inside a number or a literal, which might have gone on.
    #[error("inside a number or literal")]
    InToken,
    /// Inside the call's markup (a tag, a name, a parameter).
    #[error("inside the call's markup")]
    InMarkup,
}
