//! One `message` of a reply or of a stream line read: its text and its calls
//! (`api/types.go` `Message`, `ToolCall`, `ToolCallFunction`).

use crate::router::error::RouteError;
use crate::router::shape::{self, Reader};
use crate::{Provider, ToolCall};
use serde_json::{Map, Value};

pub(super) const READ: Reader = Reader(Provider::Ollama);

/// What one message holds, read before anything is changed, so that a bad line changes
/// nothing.
pub(super) struct Read<'a> {
    /// `content`: the answer's text (`thinking` is left out, as other providers' thoughts are).
    pub text: &'a str,
    pub calls: Vec<ToolCall>,
}

/// Reads `message` (at the JSON pointer `at`), numbering calls without an id from `first`:
/// the number of calls the turn had before this message.
pub(super) fn read<'a>(
    message: &'a Map<String, Value>,
    at: &str,
    first: usize,
) -> Result<Read<'a>, RouteError> {
    let text = READ
        .string(message.get("content"), format_args!("{at}/content"))?
        .unwrap_or_default();
    let pointer = format!("{at}/tool_calls");
    let items = READ.array(message.get("tool_calls"), &pointer)?;
    let mut calls = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        calls.push(call(item, &format!("{pointer}/{i}"), first + i)?);
    }
    Ok(Read { text, calls })
}

/// One `tool_calls[]` item, `n` its place in the turn.
fn call(item: &Value, at: &str, n: usize) -> Result<ToolCall, RouteError> {
    let item = READ.object(Some(item), at)?;
    let id = READ
        .string(item.get("id"), format_args!("{at}/id"))?
        // An empty id is no id: the result could not quote it.
        .filter(|id| !id.is_empty())
        .map_or_else(|| format!("call_{n}"), str::to_owned);
    let function = READ.object(item.get("function"), format_args!("{at}/function"))?;
    let name = READ
        .string(function.get("name"), format_args!("{at}/function/name"))?
        .unwrap_or_default();
    // An object, but a server relaying another model's string is read too: the pipeline
    // then says what is wrong with it, as it does for any call.
    let arguments = match function.get("arguments") {
        Some(Value::String(text)) => text.clone(),
        other => shape::object_arguments(other),
    };
    Ok(ToolCall {
        id,
        name: name.to_owned(),
        arguments,
        passthrough: shape::passthrough(item, &["id", "function"]),
    })
}
