//! TensorZero's native streamed chunks: each `{"inference_id", "episode_id", "variant_name",
//! "content": [..], "usage"?, "finish_reason"?}`, its `content` pieces `{"type": "text", "id",
//! "text"}`, `{"type": "tool_call", "id", "raw_name", "raw_arguments"}` (arguments as partial
//! JSON), `{"type": "thought", "id", ..}` (the `tensorzero` Python client, `types.py`:
//! `ChatChunk`, `parse_content_block_chunk`).

use crate::router::routed::Routed;
use crate::router::shape::{self, Reader};
use crate::router::stream::accumulate::{Accumulate, StreamError, StreamEvent};
use crate::Provider;
use crate::ToolCall;
use serde_json::Value;
use std::collections::HashMap;

const READ: Reader = Reader(Provider::TensorZero);

/// Puts a streamed native TensorZero response back together.
///
/// Pieces are joined by their block `id`, in the order each block first appeared: a call's
/// `raw_arguments` pieces are concatenated, its `raw_name` kept once (a name repeated in every
/// piece is not doubled). TensorZero does not say when one call's arguments end, so calls are
/// complete, and returned, at the chunk that carries `finish_reason` (or at
/// [`finish`](Accumulate::finish)).
///
/// ```
/// use serde_json::json;
/// use tool_runtime::router::stream::{Accumulate, StreamEvent, TensorZeroStream};
///
/// let mut stream = TensorZeroStream::new();
/// let chunk = |content: serde_json::Value, finish: Option<&str>| json!({
///     "inference_id": "i", "episode_id": "e", "variant_name": "v",
///     "content": content, "finish_reason": finish});
/// stream.push(&chunk(json!([{"type": "tool_call", "id": "call_1", "raw_name": "get_weather",
///                             "raw_arguments": "{\"city\": "}]), None)).unwrap();
/// stream.push(&chunk(json!([{"type": "tool_call", "id": "call_1", "raw_name": "",
///                             "raw_arguments": "\"Paris\"}"}]), None)).unwrap();
/// let done = stream.push(&chunk(json!([]), Some("tool_call"))).unwrap();
/// let StreamEvent::Call(call) = &done[0] else { panic!() };
/// assert_eq!((call.name.as_str(), call.arguments.as_str()), ("get_weather", r#"{"city": "Paris"}"#));
/// ```
#[derive(Debug, Default)]
pub struct TensorZeroStream {
    /// Blocks in the order they first appeared.
    blocks: Vec<Block>,
    /// Each block's place in `blocks`, by its kind and id (text and calls have ids of their
    /// own, which may coincide).
    places: HashMap<(Kind, String), usize>,
    /// The places of the calls not complete yet, in order. `finish_reason` completes these
    /// alone, so a stream that sends it in every chunk costs its length, not its length times
    /// the number of blocks so far (issue 32).
    open: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Text,
    Call,
}

#[derive(Debug)]
enum Block {
    Text(String),
    Call {
        id: String,
        name: String,
        arguments: String,
        done: bool,
    },
}

/// One `content` piece, read before anything changes.
enum Piece<'a> {
    Text(&'a str, &'a str),
    Call {
        id: &'a str,
        name: &'a str,
        arguments: &'a str,
    },
}

impl TensorZeroStream {
    /// An accumulator with nothing received yet.
    pub fn new() -> TensorZeroStream {
        TensorZeroStream::default()
    }

    fn place(&mut self, kind: Kind, id: &str, open: impl FnOnce() -> Block) -> &mut Block {
        let next = self.blocks.len();
        let at = *self.places.entry((kind, id.to_owned())).or_insert(next);
        if at == next {
            if kind == Kind::Call {
                self.open.push(at);
            }
            self.blocks.push(open());
        }
        &mut self.blocks[at]
    }

    fn complete_all(&mut self) -> Vec<StreamEvent> {
        let blocks = &mut self.blocks;
        self.open
            .drain(..)
            .filter_map(|at| match blocks.get_mut(at) {
                Some(Block::Call {
                    id,
                    name,
                    arguments,
                    done: done @ false,
                }) => {
                    *done = true;
                    Some(StreamEvent::Call(ToolCall::new(
                        id.clone(),
                        name.clone(),
                        arguments.clone(),
                    )))
                }
                _ => None,
            })
            .collect()
    }
}

impl Accumulate for TensorZeroStream {
    fn push(&mut self, chunk: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        if let Some(error) = shape::provider_error(chunk) {
            return Err(error.into());
        }
        let top = READ.object(Some(chunk), "")?;
        // Read the whole chunk first, so that a bad one changes nothing.
        let mut pieces = Vec::new();
        for (i, piece) in READ
            .array(top.get("content"), "/content")?
            .iter()
            .enumerate()
        {
            let piece = READ.object(Some(piece), format_args!("/content/{i}"))?;
            let text = |key: &str| READ.string(piece.get(key), format_args!("/content/{i}/{key}"));
            match text("type")? {
                Some("text") => pieces.push(Piece::Text(
                    text("id")?.unwrap_or_default(),
                    text("text")?.unwrap_or_default(),
                )),
                Some("tool_call") => pieces.push(Piece::Call {
                    id: text("id")?.unwrap_or_default(),
                    name: text("raw_name")?.unwrap_or_default(),
                    arguments: text("raw_arguments")?.unwrap_or_default(),
                }),
                // thought and unknown pieces carry nothing to route.
                _ => {}
            }
        }
        let finished = READ
            .string(top.get("finish_reason"), "/finish_reason")?
            .is_some();

        let mut events = Vec::new();
        for piece in pieces {
            match piece {
                Piece::Text(id, text) => {
                    if let Block::Text(all) =
                        self.place(Kind::Text, id, || Block::Text(String::new()))
                    {
                        all.push_str(text);
                    }
                    if !text.is_empty() {
                        events.push(StreamEvent::Text(text.to_owned()));
                    }
                }
                Piece::Call {
                    id,
                    name: piece_name,
                    arguments: piece_arguments,
                } => {
                    let position = self.blocks.len();
                    let block = self.place(Kind::Call, id, || Block::Call {
                        id: if id.is_empty() {
                            format!("tool_call_{position}")
                        } else {
                            id.to_owned()
                        },
                        name: String::new(),
                        arguments: String::new(),
                        done: false,
                    });
                    if let Block::Call {
                        name,
                        arguments,
                        done: false,
                        ..
                    } = block
                    {
                        if name.is_empty() {
                            piece_name.clone_into(name);
                        } else if name != piece_name {
                            name.push_str(piece_name);
                        }
                        arguments.push_str(piece_arguments);
                    }
                }
            }
        }
        if finished {
            events.extend(self.complete_all());
        }
        Ok(events)
    }

    fn finish(mut self) -> Routed {
        self.complete_all();
        let mut routed = Routed::new(Provider::TensorZero);
        for block in self.blocks {
            match block {
                Block::Text(text) => routed.text.push_str(&text),
                Block::Call {
                    id,
                    name,
                    arguments,
                    ..
                } => routed.calls.push(ToolCall::new(id, name, arguments)),
            }
        }
        routed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn chunk(content: Value) -> Value {
        json!({"inference_id": "i", "episode_id": "e", "variant_name": "v", "content": content})
    }

    #[test]
    fn interleaved_calls_keep_their_first_order_and_a_repeated_name_is_not_doubled() {
        let mut stream = TensorZeroStream::new();
        for content in [
            json!([{"type": "text", "id": "0", "text": "Checking "}]),
            json!([{"type": "tool_call", "id": "a", "raw_name": "f", "raw_arguments": "{\"x\""}]),
            json!([{"type": "tool_call", "id": "b", "raw_name": "g", "raw_arguments": "{}"}]),
            json!([{"type": "tool_call", "id": "a", "raw_name": "f", "raw_arguments": ": 1}"},
                   {"type": "thought", "id": "t", "text": "hmm"},
                   {"type": "text", "id": "0", "text": "both."}]),
        ] {
            stream.push(&chunk(content)).unwrap();
        }
        let routed = stream.finish();
        assert_eq!(routed.text, "Checking both.");
        assert_eq!(
            routed.calls,
            vec![
                ToolCall::new("a", "f", "{\"x\": 1}"),
                ToolCall::new("b", "g", "{}")
            ]
        );
    }

    #[test]
    fn a_bad_chunk_changes_nothing_and_a_call_after_finish_is_not_lost() {
        let mut stream = TensorZeroStream::new();
        stream
            .push(&chunk(
                json!([{"type": "tool_call", "id": "a", "raw_name": "f", "raw_arguments": "{"}]),
            ))
            .unwrap();
        let bad = chunk(json!([{"type": "tool_call", "id": "a", "raw_arguments": "}"}, 7]));
        assert!(stream.push(&bad).is_err());
        let mut done = chunk(json!([]));
        done["finish_reason"] = json!("tool_call");
        let events = stream.push(&done).unwrap();
        assert_eq!(
            events,
            vec![StreamEvent::Call(ToolCall::new("a", "f", "{"))]
        );
        assert!(stream.push(&json!({"error": "boom"})).is_err());
        assert_eq!(stream.finish().calls.len(), 1);
    }
}
