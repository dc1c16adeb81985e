//! Responses API events: `response.output_item.added` opens a `function_call` item,
//! `response.function_call_arguments.delta` / `.done` carry its arguments,
//! `response.output_item.done` gives the finished item; text comes in
//! `response.output_text.delta` (openai-python `types/responses/response_output_item_added_event.py`,
//! `response_function_call_arguments_delta_event.py`, `response_function_call_arguments_done_event.py`).

use super::route::{function_call, read_item};
use crate::router::error::RouteError;
use crate::router::routed::Routed;
use crate::router::shape::Reader;
use crate::router::stream::accumulate::{index, Accumulate, StreamError, StreamEvent};
use crate::Provider;
use crate::ToolCall;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

const READ: Reader = Reader(Provider::OpenAiResponses);

/// Puts a streamed Responses API response back together.
///
/// Output items are keyed by `output_index`. A function call is returned at its
/// `response.output_item.done`, whose item is taken as final; the deltas before it only
/// matter when the stream ends without it.
#[derive(Debug, Default)]
pub struct OpenAiResponsesStream {
    items: BTreeMap<u64, Item>,
    /// Each function call's `output_index` by its item `id`, for argument events that give
    /// only `item_id`: looked up, not searched for, so such a stream costs its length
    /// however many items it holds (issue 32: 20,000 items took 38 s scanning every item for
    /// each delta). Where two calls share an id, the lower index wins, as a scan in index
    /// order would find.
    call_ids: HashMap<String, u64>,
    /// Text by `(output_index, content_index)`.
    text: BTreeMap<(u64, u64), String>,
    /// The index given to each item id that came without an `output_index`: llama.cpp's
    /// server names its items by `item.id` and `item_id` only.
    unindexed: HashMap<String, u64>,
}

#[derive(Debug)]
enum Item {
    Call {
        /// The item as last seen whole (`output_item.added`, then `.done`).
        item: Map<String, Value>,
        arguments: String,
        done: Option<ToolCall>,
    },
    /// A finished item of another kind, kept for [`Routed::other_calls`].
    Other(Map<String, Value>),
}

impl OpenAiResponsesStream {
    /// An accumulator with nothing received yet.
    pub fn new() -> OpenAiResponsesStream {
        OpenAiResponsesStream::default()
    }

    /// The index of the item an event is about: its `output_index`; where the event has none,
    /// the index its item id was given before, else the next one after every index in use.
    /// `None` for an `output_index` that isn't a non-negative integer, or neither.
    fn index_of(&self, top: &Map<String, Value>, id: Option<&str>) -> Option<u64> {
        match top.get("output_index") {
            Some(given) => index(Some(given)),
            None => {
                let id = id?;
                Some(self.unindexed.get(id).copied().unwrap_or_else(|| {
                    let items = self.items.last_key_value().map_or(0, |(at, _)| at + 1);
                    let text = self.text.last_key_value().map_or(0, |((at, _), _)| at + 1);
                    items.max(text)
                }))
            }
        }
    }

    /// Keeps the index given to an item id that came without an `output_index`.
    fn remember(&mut self, top: &Map<String, Value>, id: Option<&str>, at: u64) {
        if let (None, Some(id)) = (top.get("output_index"), id) {
            self.unindexed.entry(id.to_owned()).or_insert(at);
        }
    }

    /// The item an argument event is about: by `output_index`, or by `item_id`.
    fn call_item(&mut self, kind: &str, top: &Map<String, Value>) -> Result<u64, StreamError> {
        let by_index = index(top.get("output_index")).filter(|i| self.items.contains_key(i));
        let item_id = top.get("item_id").and_then(Value::as_str);
        let found = by_index.or_else(|| item_id.and_then(|id| self.call_ids.get(id).copied()));
        found.ok_or_else(|| StreamError::Unopened {
            event: kind.to_owned(),
            what: "output item",
            key: item_id.map_or_else(
                || {
                    top.get("output_index")
                        .map(Value::to_string)
                        .unwrap_or_default()
                },
                str::to_owned,
            ),
        })
    }
}

fn finish_call(at: u64, item: &Map<String, Value>, arguments: &str) -> ToolCall {
    let mut item = item.clone();
    if item
        .get("arguments")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        item.insert("arguments".into(), Value::String(arguments.to_owned()));
    }
    let position = usize::try_from(at).unwrap_or(usize::MAX);
    // Items are checked when they arrive, so this does not fail; fall back rather than panic.
    function_call(&item, "/item", position)
        .unwrap_or_else(|_| ToolCall::new(format!("call_{at}"), "", arguments))
}

impl Accumulate for OpenAiResponsesStream {
    fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        let top = READ.object(Some(event), "")?;
        let kind = READ.string(top.get("type"), "/type")?.unwrap_or_default();
        let shape_error = || {
            StreamError::from(RouteError::shape(
                Provider::OpenAiResponses,
                "/output_index",
                "a non-negative integer",
                top.get("output_index"),
            ))
        };
        match kind {
            "response.output_item.added" | "response.output_item.done" => {
                let item = READ.object(top.get("item"), "/item")?;
                let id = item.get("id").and_then(Value::as_str);
                let at = self.index_of(top, id).ok_or_else(shape_error)?;
                let is_call = READ.string(item.get("type"), "/item/type")? == Some("function_call");
                // Another item at an index already in use would overwrite that item, or be
                // dropped for it, losing a call (found by fuzzing): refuse it, leaving the
                // stream as it was. The same item again (`.added`, then `.done`) is fine.
                if let Some(existing) = self.items.get(&at) {
                    let (seen, was_call) = match existing {
                        Item::Call { item, .. } => (item, true),
                        Item::Other(item) => (item, false),
                    };
                    let same = |key: &str| seen.get(key) == item.get(key);
                    if was_call != is_call || !same("id") || !same("call_id") {
                        return Err(RouteError::shape(
                            Provider::OpenAiResponses,
                            "/output_index",
                            "the index of no other output item",
                            top.get("output_index"),
                        )
                        .into());
                    }
                }
                if !is_call {
                    self.remember(top, id, at);
                    if kind.ends_with(".done") {
                        self.items.insert(at, Item::Other(item.clone()));
                    }
                    return Ok(Vec::new());
                }
                function_call(item, "/item", 0)?;
                self.remember(top, id, at);
                if let Some(id) = item.get("id").and_then(Value::as_str) {
                    // The same id at every event of an index (checked above), so this is
                    // the item's id for good.
                    let known = self.call_ids.entry(id.to_owned()).or_insert(at);
                    *known = (*known).min(at);
                }
                let done = kind.ends_with(".done");
                let entry = self.items.entry(at).or_insert_with(|| Item::Call {
                    item: item.clone(),
                    arguments: String::new(),
                    done: None,
                });
                match entry {
                    Item::Call {
                        item: seen,
                        arguments,
                        done: finished @ None,
                    } => {
                        *seen = item.clone();
                        if done {
                            let call = finish_call(at, seen, arguments);
                            *finished = Some(call.clone());
                            return Ok(vec![StreamEvent::Call(call)]);
                        }
                        Ok(Vec::new())
                    }
                    _ => Ok(Vec::new()),
                }
            }
            "response.function_call_arguments.delta" | "response.function_call_arguments.done" => {
                let key = if kind.ends_with(".delta") {
                    "delta"
                } else {
                    "arguments"
                };
                let piece = READ
                    .string(top.get(key), format_args!("/{key}"))?
                    .unwrap_or_default();
                let at = self.call_item(kind, top)?;
                if let Some(Item::Call {
                    arguments,
                    done: None,
                    ..
                }) = self.items.get_mut(&at)
                {
                    if key == "delta" {
                        arguments.push_str(piece);
                    } else {
                        *arguments = piece.to_owned();
                    }
                }
                Ok(Vec::new())
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                let piece = READ.string(top.get("delta"), "/delta")?.unwrap_or_default();
                let id = top.get("item_id").and_then(Value::as_str);
                let item = self.index_of(top, id).ok_or_else(shape_error)?;
                self.remember(top, id, item);
                let at = (item, index(top.get("content_index")).unwrap_or(0));
                self.text.entry(at).or_default().push_str(piece);
                Ok(if piece.is_empty() {
                    Vec::new()
                } else {
                    vec![StreamEvent::Text(piece.to_owned())]
                })
            }
            "error" | "response.failed" => {
                let error = top
                    .get("response")
                    .and_then(|r| r.get("error"))
                    .unwrap_or(event);
                let message = error
                    .get("message")
                    .and_then(Value::as_str)
                    .map_or_else(|| error.to_string(), str::to_owned);
                Err(RouteError::Provider { message }.into())
            }
            // response.created, .in_progress, .completed, content_part events, ...: nothing new.
            _ => Ok(Vec::new()),
        }
    }

    fn finish(self) -> Routed {
        let mut routed = Routed::new(Provider::OpenAiResponses);
        for text in self.text.into_values() {
            routed.text.push_str(&text);
        }
        for (at, item) in self.items {
            match item {
                Item::Call {
                    done: Some(call), ..
                } => routed.calls.push(call),
                Item::Call {
                    item, arguments, ..
                } => routed.calls.push(finish_call(at, &item, &arguments)),
                Item::Other(item) => {
                    let position = usize::try_from(at).unwrap_or(usize::MAX);
                    // Only other client-side calls are kept from these; text came as deltas.
                    let mut other = Routed::new(Provider::OpenAiResponses);
                    if read_item(&item, "/item", position, &mut other).is_ok() {
                        routed.other_calls.append(&mut other.other_calls);
                    }
                }
            }
        }
        routed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// llama.cpp's server streams without `output_index`: items by `item.id`, deltas by
    /// `item_id` (as its `/v1/responses` sent them to `tests/llama_native.rs`).
    #[test]
    fn items_without_an_output_index_are_keyed_by_their_ids() {
        let mut stream = OpenAiResponsesStream::new();
        let text = json!({"type": "message", "id": "msg_1", "role": "assistant", "content": []});
        stream
            .push(&json!({"type": "response.output_item.added", "item": text}))
            .unwrap();
        stream.push(&json!({"type": "response.output_text.delta", "item_id": "msg_1", "delta": "Let me "})).unwrap();
        stream.push(&json!({"type": "response.output_text.delta", "item_id": "msg_1", "delta": "look."})).unwrap();
        for id in ["fc_1", "fc_2"] {
            let item = json!({"type": "function_call", "id": id, "call_id": format!("call_{id}"), "name": "f", "arguments": "", "status": "in_progress"});
            stream
                .push(&json!({"type": "response.output_item.added", "item": item}))
                .unwrap();
            stream.push(&json!({"type": "response.function_call_arguments.delta", "item_id": id, "delta": "{\"a\": 1}"})).unwrap();
        }
        let done = json!({"type": "function_call", "id": "fc_1", "call_id": "call_fc_1", "name": "f", "arguments": "{\"a\": 1}", "status": "completed"});
        let events = stream
            .push(&json!({"type": "response.output_item.done", "item": done}))
            .unwrap();
        assert!(
            matches!(&events[..], [StreamEvent::Call(c)] if c.id == "call_fc_1"),
            "{events:?}"
        );
        // An output_index that is there but not a number is still refused.
        let bad = json!({"type": "response.output_item.added", "output_index": "x", "item": text});
        assert!(stream.push(&bad).is_err());
        let routed = stream.finish();
        assert_eq!(routed.text, "Let me look.");
        let calls: Vec<_> = routed
            .calls
            .iter()
            .map(|c| (c.id.as_str(), c.arguments.as_str()))
            .collect();
        assert_eq!(
            calls,
            [("call_fc_1", "{\"a\": 1}"), ("call_fc_2", "{\"a\": 1}")]
        );
    }

    #[test]
    fn arguments_done_replaces_the_deltas_and_the_done_item_wins() {
        let mut stream = OpenAiResponsesStream::new();
        let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""});
        stream
            .push(&json!({"type": "response.output_item.added", "output_index": 0, "item": item}))
            .unwrap();
        stream.push(&json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"a\""})).unwrap();
        stream.push(&json!({"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": "{\"a\":1}"})).unwrap();
        let mut done_item = item.clone();
        done_item["arguments"] = json!("{\"a\":1}");
        let events = stream
            .push(
                &json!({"type": "response.output_item.done", "output_index": 0, "item": done_item}),
            )
            .unwrap();
        let StreamEvent::Call(call) = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!(
            (call.id.as_str(), call.arguments.as_str()),
            ("call_1", "{\"a\":1}")
        );
        assert_eq!(call.passthrough["id"], "fc_1");
    }

    #[test]
    fn a_delta_for_an_unknown_item_is_an_error() {
        let mut stream = OpenAiResponsesStream::new();
        let event = json!({"type": "response.function_call_arguments.delta", "item_id": "fc_9", "output_index": 4, "delta": "{"});
        assert!(matches!(
            stream.push(&event),
            Err(StreamError::Unopened { .. })
        ));
    }

    #[test]
    fn a_failed_response_is_a_provider_error() {
        let mut stream = OpenAiResponsesStream::new();
        let event = json!({"type": "response.failed", "response": {"error": {"code": "server_error", "message": "boom"}}});
        assert_eq!(
            stream.push(&event),
            Err(StreamError::Route(RouteError::Provider {
                message: "boom".into()
            }))
        );
    }
}
