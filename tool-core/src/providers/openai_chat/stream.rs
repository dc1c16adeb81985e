//! Chat Completions chunks: `choices[0].delta` carries text in `content` and calls in
//! `tool_calls[]` pieces `{"index", "id"?, "type"?, "function": {"name"?, "arguments"?}}`
//! (openai-python `types/chat/chat_completion_chunk.py`: `ChoiceDeltaToolCall`).

use crate::router::routed::{OtherCall, Routed};
use crate::router::shape::{self, Reader};
use crate::router::stream::accumulate::{index, Accumulate, StreamError, StreamEvent};
use crate::Provider;
use crate::ToolCall;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

const READ: Reader = Reader(Provider::OpenAiChat);

/// Puts a streamed Chat Completions response back together (the first choice only).
///
/// Pieces of a call are joined by their `index`: the id and name come once (a repeated name
/// is not doubled), the arguments are concatenated. Calls are complete, and returned, when the
/// choice's `finish_reason` arrives (or at [`finish`](Accumulate::finish)), because OpenAI does
/// not say when one call's arguments end and pieces of several calls may interleave.
#[derive(Debug, Default)]
pub struct OpenAiChatStream {
    calls: BTreeMap<u64, Partial>,
    /// Each call's index by its id, for pieces that come without an index: looked up, not
    /// searched for, so such a stream costs its length however many calls it holds.
    ids: HashMap<String, u64>,
    /// The indexes of the calls not complete yet. `finish_reason` completes these alone, so
    /// a stream that sends it in every chunk costs its length, not its length times the
    /// number of calls so far (issue 32: 40,000 such chunks took 2 s walking every call).
    open: BTreeSet<u64>,
    text: String,
    last_index: Option<u64>,
}

#[derive(Debug, Default)]
struct Partial {
    id: String,
    name: String,
    arguments: String,
    /// `None` for a function call; the tool type otherwise (`"custom"`).
    kind: Option<String>,
    passthrough: Map<String, Value>,
    done: bool,
}

/// One `tool_calls[]` piece, read before anything changes.
struct Piece<'a> {
    index: Option<u64>,
    id: Option<&'a str>,
    kind: Option<&'a str>,
    name: Option<&'a str>,
    arguments: Option<String>,
}

impl OpenAiChatStream {
    /// An accumulator with nothing received yet.
    pub fn new() -> OpenAiChatStream {
        OpenAiChatStream::default()
    }

    fn apply(&mut self, piece: Piece<'_>) {
        // Servers that omit indexes: a known id continues its call, no id continues the last
        // call, a new id opens the next one.
        let index = piece.index.unwrap_or_else(|| {
            let known = piece.id.and_then(|id| self.ids.get(id).copied());
            match (known, piece.id, self.last_index) {
                (Some(index), _, _) => index,
                (None, None, Some(last)) => last,
                _ => self.calls.keys().next_back().map_or(0, |last| last + 1),
            }
        });
        self.last_index = Some(index);
        let call = self.calls.entry(index).or_insert_with(|| {
            self.open.insert(index);
            Partial::default()
        });
        if call.done {
            return;
        }
        if let Some(id) = piece.id.filter(|id| !id.is_empty()) {
            if call.id.is_empty() {
                call.id = id.to_owned();
                self.ids.entry(id.to_owned()).or_insert(index);
            }
        }
        if let Some(kind) = piece.kind.filter(|kind| *kind != "function") {
            call.kind = Some(kind.to_owned());
        }
        if let Some(name) = piece.name.filter(|name| !name.is_empty()) {
            // Some servers repeat the whole name in every piece; OpenAI sends it once.
            if call.name.is_empty() {
                call.name = name.to_owned();
            } else if call.name != name {
                call.name.push_str(name);
            }
        }
        if let Some(arguments) = piece.arguments {
            call.arguments.push_str(&arguments);
        }
    }

    fn complete_all(&mut self) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        // In index order, as the set keeps them.
        for index in std::mem::take(&mut self.open) {
            let Some(call) = self.calls.get_mut(&index) else {
                continue;
            };
            call.done = true;
            if call.kind.is_none() {
                events.push(StreamEvent::Call(to_call(index, call)));
            }
        }
        events
    }
}

fn to_call(index: u64, call: &Partial) -> ToolCall {
    ToolCall {
        id: call_id(index, call),
        name: call.name.clone(),
        arguments: call.arguments.clone(),
        passthrough: call.passthrough.clone(),
    }
}

fn call_id(index: u64, call: &Partial) -> String {
    if call.id.is_empty() {
        format!("call_{index}")
    } else {
        call.id.clone()
    }
}

impl Accumulate for OpenAiChatStream {
    fn push(&mut self, chunk: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        if let Some(error) = shape::provider_error(chunk) {
            return Err(error.into());
        }
        let top = READ.object(Some(chunk), "")?;
        // Read the whole chunk first, so that a bad one changes nothing.
        let mut text = String::new();
        let mut pieces = Vec::new();
        let mut finished = false;
        for (c, choice) in READ
            .array(top.get("choices"), "/choices")?
            .iter()
            .enumerate()
        {
            let at = format!("/choices/{c}");
            let choice = READ.object(Some(choice), &at)?;
            if index(choice.get("index")).unwrap_or(0) != 0 {
                continue;
            }
            if let Some(delta) = choice.get("delta").filter(|d| !d.is_null()) {
                let at = format!("{at}/delta");
                let delta = READ.object(Some(delta), &at)?;
                for key in ["content", "refusal"] {
                    if let Some(part) = READ.string(delta.get(key), format_args!("{at}/{key}"))? {
                        text.push_str(part);
                    }
                }
                let pointer = format!("{at}/tool_calls");
                for (i, item) in READ
                    .array(delta.get("tool_calls"), &pointer)?
                    .iter()
                    .enumerate()
                {
                    pieces.push(piece(item, &format!("{pointer}/{i}"))?);
                }
            }
            finished |= READ
                .string(
                    choice.get("finish_reason"),
                    format_args!("{at}/finish_reason"),
                )?
                .is_some();
        }

        let mut events = Vec::new();
        if !text.is_empty() {
            self.text.push_str(&text);
            events.push(StreamEvent::Text(text));
        }
        for piece in pieces {
            self.apply(piece);
        }
        if finished {
            events.extend(self.complete_all());
        }
        Ok(events)
    }

    fn finish(mut self) -> Routed {
        self.complete_all();
        let mut routed = Routed::new(Provider::OpenAiChat);
        routed.text = self.text;
        for (index, call) in &self.calls {
            match &call.kind {
                None => routed.calls.push(to_call(*index, call)),
                Some(kind) => routed.other_calls.push(OtherCall {
                    id: call_id(*index, call),
                    name: call.name.clone(),
                    kind: kind.clone(),
                }),
            }
        }
        routed
    }
}

fn piece<'a>(item: &'a Value, at: &str) -> Result<Piece<'a>, StreamError> {
    let item = READ.object(Some(item), at)?;
    let index = match item.get("index") {
        None | Some(Value::Null) => None,
        Some(value) => Some(value.as_u64().ok_or_else(|| {
            crate::router::error::RouteError::shape(
                Provider::OpenAiChat,
                &format!("{at}/index"),
                "a non-negative integer",
                Some(value),
            )
        })?),
    };
    let id = READ.string(item.get("id"), format_args!("{at}/id"))?;
    let kind = READ.string(item.get("type"), format_args!("{at}/type"))?;
    // A function piece has `function: {name, arguments}`; a custom tool's, `custom: {name, input}`.
    let (inner, text_key) = match (item.get("function"), item.get("custom")) {
        (Some(function), _) if !function.is_null() => (Some(("function", function)), "arguments"),
        (_, Some(custom)) if !custom.is_null() => (Some(("custom", custom)), "input"),
        _ => (None, "arguments"),
    };
    let (mut name, mut arguments) = (None, None);
    if let Some((key, inner)) = inner {
        let at = format!("{at}/{key}");
        let inner = READ.object(Some(inner), &at)?;
        name = READ.string(inner.get("name"), format_args!("{at}/name"))?;
        arguments = match inner.get(text_key) {
            None | Some(Value::Null) => None,
            Some(value) => Some(shape::string_arguments(Some(value))),
        };
    }
    let kind = kind.or(match inner {
        Some(("custom", _)) => Some("custom"),
        _ => None,
    });
    Ok(Piece {
        index,
        id,
        kind,
        name,
        arguments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chunk(delta: Value, finish: Option<&str>) -> Value {
        json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    }

    /// Pieces without `index`: a new id opens a call, a known id (however many calls later)
    /// continues its own, no id continues the last.
    #[test]
    fn pieces_without_index_join_by_id() {
        let mut stream = OpenAiChatStream::new();
        let piece = |id: Option<&str>, arguments: &str| {
            chunk(
                json!({"tool_calls": [{"id": id, "function": {"name": "f", "arguments": arguments}}]}),
                None,
            )
        };
        for i in 0..1000 {
            stream
                .push(&piece(Some(&format!("call_{i}")), "{"))
                .unwrap();
        }
        stream.push(&piece(None, "}")).unwrap();
        stream.push(&piece(Some("call_3"), "}")).unwrap();
        let routed = stream.finish();
        assert_eq!(routed.calls.len(), 1000);
        assert_eq!(routed.calls[999].arguments, "{}");
        assert_eq!(routed.calls[3].arguments, "{}");
        assert_eq!(routed.calls[4].arguments, "{");
    }

    #[test]
    fn pieces_join_by_index_and_complete_at_finish_reason() {
        let mut stream = OpenAiChatStream::new();
        let pieces = [
            json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0, "id": "call_a", "type": "function", "function": {"name": "f", "arguments": ""}}]}),
            json!({"tool_calls": [{"index": 1, "id": "call_b", "type": "function", "function": {"name": "g", "arguments": "{\"x\""}}]}),
            json!({"tool_calls": [{"index": 0, "id": null, "type": null, "function": {"name": null, "arguments": "{}"}}]}),
            json!({"tool_calls": [{"index": 1, "function": {"arguments": ": 1}"}}]}),
        ];
        for delta in pieces {
            assert!(stream.push(&chunk(delta, None)).unwrap().is_empty());
        }
        let events = stream.push(&chunk(json!({}), Some("tool_calls"))).unwrap();
        assert_eq!(
            events,
            vec![
                StreamEvent::Call(ToolCall::new("call_a", "f", "{}")),
                StreamEvent::Call(ToolCall::new("call_b", "g", "{\"x\": 1}")),
            ]
        );
        assert_eq!(stream.finish().calls.len(), 2);
    }

    #[test]
    fn a_repeated_name_is_not_doubled_and_missing_indexes_are_inferred() {
        let mut stream = OpenAiChatStream::new();
        for delta in [
            json!({"tool_calls": [{"id": "c1", "function": {"name": "f", "arguments": "{\"a\":"}}]}),
            json!({"tool_calls": [{"function": {"name": "f", "arguments": "1}"}}]}),
            json!({"tool_calls": [{"id": "c2", "function": {"name": "g", "arguments": "{"}}]}),
            json!({"tool_calls": [{"id": "c2", "function": {"arguments": "}"}}]}),
        ] {
            stream.push(&chunk(delta, None)).unwrap();
        }
        assert_eq!(
            stream.finish().calls,
            vec![
                ToolCall::new("c1", "f", "{\"a\":1}"),
                ToolCall::new("c2", "g", "{}")
            ]
        );
    }

    #[test]
    fn a_bad_chunk_changes_nothing() {
        let mut stream = OpenAiChatStream::new();
        stream
            .push(&chunk(json!({"content": "Hi", "tool_calls": [{"index": 0, "id": "c", "function": {"name": "f", "arguments": "{"}}]}), None))
            .unwrap();
        let bad = chunk(
            json!({"content": " there", "tool_calls": [{"index": 0, "function": {"arguments": "}"}}, {"index": -1}]}),
            None,
        );
        assert!(stream.push(&bad).is_err());
        let routed = stream.finish();
        assert_eq!(routed.text, "Hi");
        assert_eq!(routed.calls[0].arguments, "{");
    }

    #[test]
    fn sse_lines_and_the_done_marker_are_understood() {
        let mut stream = OpenAiChatStream::new();
        let line = format!("data: {}", chunk(json!({"content": "Hello"}), None));
        assert_eq!(
            stream.push_line(&line).unwrap(),
            vec![StreamEvent::Text("Hello".into())]
        );
        assert!(stream.push_line("data: [DONE]").unwrap().is_empty());
        assert!(stream.push_line("").unwrap().is_empty());
        assert!(stream.push_line("data: {not json").is_err());
    }
}
