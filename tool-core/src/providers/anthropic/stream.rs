//! Messages API events: `content_block_start` opens a block (`tool_use` with `input: {}`),
//! `content_block_delta` adds `text_delta` text or `input_json_delta` JSON, `content_block_stop`
//! closes it (anthropic-sdk-python `types/raw_content_block_start_event.py`,
//! `raw_content_block_delta_event.py`, `input_json_delta.py`).

use super::route as anthropic;
use crate::router::routed::Routed;
use crate::router::shape::{self, Reader};
use crate::router::stream::accumulate::{index, Accumulate, StreamError, StreamEvent};
use crate::Provider;
use crate::ToolCall;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

const READ: Reader = Reader(Provider::Anthropic);

/// Puts a streamed Messages response back together.
///
/// A `tool_use` block's `partial_json` pieces are joined and the call returned at its
/// `content_block_stop`, so a call can run while the model is still writing the next one.
/// Blocks are keyed by `index`; thinking and server-side tool blocks are skipped.
#[derive(Debug, Default)]
pub struct AnthropicStream {
    blocks: BTreeMap<u64, Block>,
}

#[derive(Debug)]
enum Block {
    Text(String),
    ToolUse {
        /// The block as `content_block_start` gave it (`input` is `{}` there).
        start: Map<String, Value>,
        json: String,
        /// The finished call, boxed to keep blocks small while most are still open.
        call: Option<Box<ToolCall>>,
    },
    Other,
}

impl AnthropicStream {
    /// An accumulator with nothing received yet.
    pub fn new() -> AnthropicStream {
        AnthropicStream::default()
    }

    fn block(&mut self, event: &str, at: u64) -> Result<&mut Block, StreamError> {
        self.blocks
            .get_mut(&at)
            .ok_or_else(|| StreamError::Unopened {
                event: event.to_owned(),
                what: "content block",
                key: at.to_string(),
            })
    }
}

/// Closes a `tool_use` block: its call, arguments as streamed (or the start's `input` when no
/// piece came, as for a tool without parameters).
fn close(at: u64, start: &Map<String, Value>, json: &str) -> ToolCall {
    let arguments = if json.trim().is_empty() {
        shape::object_arguments(start.get("input"))
    } else {
        json.to_owned()
    };
    let position = usize::try_from(at).unwrap_or(usize::MAX);
    // The start block was checked when it arrived, so this cannot fail; fall back to a bare
    // call rather than panic.
    anthropic::tool_use(start, "/content_block", arguments.clone(), position)
        .unwrap_or_else(|_| ToolCall::new(format!("toolu_{at}"), "", arguments))
}

impl Accumulate for AnthropicStream {
    fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        if let Some(error) = shape::provider_error(event) {
            return Err(error.into());
        }
        let top = READ.object(Some(event), "")?;
        let kind = READ.string(top.get("type"), "/type")?.unwrap_or_default();
        let at = || {
            index(top.get("index")).ok_or_else(|| {
                StreamError::from(crate::router::error::RouteError::shape(
                    Provider::Anthropic,
                    "/index",
                    "a non-negative integer",
                    top.get("index"),
                ))
            })
        };
        match kind {
            "content_block_start" => {
                let at = at()?;
                // A second start at an index already open would replace that block, losing
                // its text or a call `push` already returned (found by fuzzing): refuse it,
                // leaving the stream as it was.
                if self.blocks.contains_key(&at) {
                    return Err(crate::router::error::RouteError::shape(
                        Provider::Anthropic,
                        "/index",
                        "the index of a content block not yet opened",
                        top.get("index"),
                    )
                    .into());
                }
                let block = READ.object(top.get("content_block"), "/content_block")?;
                let block = match READ.string(block.get("type"), "/content_block/type")? {
                    Some("text") => {
                        let text = READ.string(block.get("text"), "/content_block/text")?;
                        let text = text.unwrap_or_default().to_owned();
                        let events = if text.is_empty() {
                            Vec::new()
                        } else {
                            vec![StreamEvent::Text(text.clone())]
                        };
                        self.blocks.insert(at, Block::Text(text));
                        return Ok(events);
                    }
                    Some("tool_use") => {
                        // Check the block now, so that closing it cannot fail later.
                        anthropic::tool_use(block, "/content_block", String::new(), 0)?;
                        Block::ToolUse {
                            start: block.clone(),
                            json: String::new(),
                            call: None,
                        }
                    }
                    _ => Block::Other,
                };
                self.blocks.insert(at, block);
                Ok(Vec::new())
            }
            "content_block_delta" => {
                let at = at()?;
                let delta = READ.object(top.get("delta"), "/delta")?;
                let piece = match READ.string(delta.get("type"), "/delta/type")? {
                    Some("text_delta") => READ.string(delta.get("text"), "/delta/text")?,
                    Some("input_json_delta") => {
                        READ.string(delta.get("partial_json"), "/delta/partial_json")?
                    }
                    // thinking, signature and citation deltas carry nothing to route.
                    _ => None,
                };
                let block = self.block(kind, at)?;
                match (block, piece) {
                    (Block::Text(text), Some(piece)) => {
                        text.push_str(piece);
                        Ok(vec![StreamEvent::Text(piece.to_owned())])
                    }
                    (
                        Block::ToolUse {
                            json, call: None, ..
                        },
                        Some(piece),
                    ) => {
                        json.push_str(piece);
                        Ok(Vec::new())
                    }
                    _ => Ok(Vec::new()),
                }
            }
            "content_block_stop" => {
                let at = at()?;
                match self.block(kind, at)? {
                    Block::ToolUse {
                        start,
                        json,
                        call: call @ None,
                    } => {
                        let done = close(at, start, json);
                        *call = Some(Box::new(done.clone()));
                        Ok(vec![StreamEvent::Call(done)])
                    }
                    _ => Ok(Vec::new()),
                }
            }
            // message_start, message_delta, message_stop, ping: nothing to route.
            _ => Ok(Vec::new()),
        }
    }

    fn finish(self) -> Routed {
        let mut routed = Routed::new(Provider::Anthropic);
        for (at, block) in self.blocks {
            match block {
                Block::Text(text) => routed.text.push_str(&text),
                Block::ToolUse {
                    call: Some(call), ..
                } => routed.calls.push(*call),
                Block::ToolUse {
                    start,
                    json,
                    call: None,
                } => routed.calls.push(close(at, &start, &json)),
                Block::Other => {}
            }
        }
        routed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn start_tool(at: u64, id: &str) -> Value {
        json!({"type": "content_block_start", "index": at,
               "content_block": {"type": "tool_use", "id": id, "name": "f", "input": {}}})
    }

    fn json_piece(at: u64, piece: &str) -> Value {
        json!({"type": "content_block_delta", "index": at, "delta": {"type": "input_json_delta", "partial_json": piece}})
    }

    #[test]
    fn a_tool_without_input_pieces_gets_its_start_input() {
        let mut stream = AnthropicStream::new();
        stream.push(&start_tool(0, "toolu_1")).unwrap();
        stream.push(&json_piece(0, "")).unwrap();
        let events = stream
            .push(&json!({"type": "content_block_stop", "index": 0}))
            .unwrap();
        assert_eq!(
            events,
            vec![StreamEvent::Call(ToolCall::new("toolu_1", "f", "{}"))]
        );
    }

    #[test]
    fn a_delta_for_an_unopened_block_is_an_error() {
        let mut stream = AnthropicStream::new();
        let err = stream.push(&json_piece(3, "{")).unwrap_err();
        assert!(matches!(err, StreamError::Unopened { .. }), "{err}");
        assert!(err.to_string().contains("content block 3"), "{err}");
    }

    #[test]
    fn an_unclosed_call_is_still_returned_at_the_end() {
        let mut stream = AnthropicStream::new();
        stream.push(&start_tool(1, "toolu_2")).unwrap();
        stream.push(&json_piece(1, "{\"a\": ")).unwrap();
        let routed = stream.finish();
        assert_eq!(
            routed.calls,
            vec![ToolCall::new("toolu_2", "f", "{\"a\": ")]
        );
    }

    #[test]
    fn an_error_event_is_an_error() {
        let mut stream = AnthropicStream::new();
        let event = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
        assert!(matches!(stream.push(&event), Err(StreamError::Route(_))));
    }
}
