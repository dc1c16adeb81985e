//! A streamed `/api/chat` reply: newline-delimited `ChatResponse`s (`docs/api/streaming.mdx`),
//! each call whole in one line, the last line `"done": true`.

use super::message::{self, READ};
use crate::router::routed::Routed;
use crate::router::shape;
use crate::router::stream::accumulate::{Accumulate, StreamError, StreamEvent};
use crate::{Provider, ToolCall};
use serde_json::Value;

/// Puts a streamed Ollama chat reply back together.
///
/// Ollama's server parses each call out of the model's text before it sends it, so a call
/// arrives whole in one line: it is returned by the [`push`](Accumulate::push) that read it,
/// ready to run. Text comes as it is written. Each line costs its own length, however many
/// came before it. Lines after the one with `"done": true` are not read.
///
/// ```
/// use serde_json::json;
/// use tool_runtime::router::stream::{Accumulate, OllamaStream, StreamEvent};
///
/// let mut stream = OllamaStream::new();
/// let line = r#"{"model":"qwen3","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","function":{"index":0,"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}"#;
/// let events = stream.push_line(line).unwrap();
/// let StreamEvent::Call(call) = &events[0] else { panic!() };
/// assert_eq!(call.arguments, r#"{"city":"Paris"}"#);
/// stream.push(&json!({"message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "stop"})).unwrap();
/// assert!(stream.is_done());
/// assert_eq!(stream.finish().calls.len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct OllamaStream {
    calls: Vec<ToolCall>,
    text: String,
    done: bool,
}

impl OllamaStream {
    /// An accumulator with nothing received yet.
    pub fn new() -> OllamaStream {
        OllamaStream::default()
    }

    /// Whether the line with `"done": true` has come: a stream that closes before it was cut.
    pub fn is_done(&self) -> bool {
        self.done
    }
}

impl Accumulate for OllamaStream {
    fn push(&mut self, line: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        // A mid-stream failure is an `{"error": "..."}` line under a 200 (`errors.mdx`).
        if let Some(error) = shape::provider_error(line) {
            return Err(error.into());
        }
        if self.done {
            return Ok(Vec::new());
        }
        let top = READ.object(Some(line), "")?;
        let done = match top.get("done") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(done)) => *done,
            Some(other) => {
                return Err(crate::router::error::RouteError::shape(
                    Provider::Ollama,
                    "/done",
                    "a boolean",
                    Some(other),
                )
                .into())
            }
        };
        let read = match top.get("message").filter(|m| !m.is_null()) {
            Some(value) => {
                let object = READ.object(Some(value), "/message")?;
                Some(message::read(object, "/message", self.calls.len())?)
            }
            None => None,
        };
        // Read whole: from here on nothing fails.
        let mut events = Vec::new();
        if let Some(read) = read {
            if !read.text.is_empty() {
                self.text.push_str(read.text);
                events.push(StreamEvent::Text(read.text.to_owned()));
            }
            for call in read.calls {
                events.push(StreamEvent::Call(call.clone()));
                self.calls.push(call);
            }
        }
        self.done = done;
        Ok(events)
    }

    fn finish(self) -> Routed {
        let mut routed = Routed::new(Provider::Ollama);
        routed.text = self.text;
        routed.calls = self.calls;
        routed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(message: Value, done: bool) -> String {
        json!({"model": "qwen3", "created_at": "2025-07-07T20:22:19.184789Z", "message": message, "done": done})
            .to_string()
    }

    #[test]
    fn text_comes_as_written_and_each_call_as_soon_as_its_line_is_read() {
        let mut stream = OllamaStream::new();
        assert_eq!(
            stream
                .push_line(&line(
                    json!({"role": "assistant", "content": "Let me "}),
                    false
                ))
                .unwrap(),
            vec![StreamEvent::Text("Let me ".into())]
        );
        stream
            .push_line(&line(
                json!({"role": "assistant", "content": "check."}),
                false,
            ))
            .unwrap();
        let calls = json!({"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_a", "function": {"index": 0, "name": "f", "arguments": {"x": 1}}},
            {"function": {"index": 1, "name": "g", "arguments": {}}}]});
        assert_eq!(
            stream.push_line(&line(calls, false)).unwrap(),
            vec![
                StreamEvent::Call(ToolCall::new("call_a", "f", r#"{"x":1}"#)),
                StreamEvent::Call(ToolCall::new("call_1", "g", "{}")),
            ]
        );
        // Numbering goes on across lines.
        let third = json!({"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "h", "arguments": {}}}]});
        stream.push_line(&line(third, false)).unwrap();
        assert!(!stream.is_done());
        stream
            .push_line(&line(json!({"role": "assistant", "content": ""}), true))
            .unwrap();
        assert!(stream.is_done());
        assert!(stream
            .push_line(&line(json!({"content": "late"}), false))
            .unwrap()
            .is_empty());
        let routed = stream.finish();
        assert_eq!(routed.text, "Let me check.");
        let ids: Vec<&str> = routed.calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["call_a", "call_1", "call_2"]);
    }

    #[test]
    fn a_bad_line_changes_nothing_and_an_error_line_is_an_error() {
        let mut stream = OllamaStream::new();
        stream
            .push_line(&line(json!({"role": "assistant", "content": "Hi"}), false))
            .unwrap();
        let bad = line(
            json!({"content": " there", "tool_calls": [{"function": {"name": "f", "arguments": {}}}, 7]}),
            false,
        );
        assert!(stream.push_line(&bad).is_err());
        assert!(stream
            .push_line(r#"{"message": {}, "done": "yes"}"#)
            .is_err());
        assert!(stream.push_line("{not json").is_err());
        let error = stream
            .push_line(r#"{"error":"an error was encountered while running the model"}"#)
            .unwrap_err();
        assert!(error.to_string().contains("running the model"), "{error}");
        assert!(!stream.is_done());
        let routed = stream.finish();
        assert_eq!(routed.text, "Hi");
        assert!(routed.calls.is_empty());
    }
}
