//! Call floods (`tests/attacks/agent/call_floods.jsonl`): a model server's replies holding
//! thousands of calls, whole or streamed, for the tests and the bench of the agent's bounds.

use crate::upstream::Scripted;
use serde_json::{json, Value};

/// One entry of the corpus.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct Flood {
    pub name: String,
    /// Calls in each reply.
    pub calls: usize,
    /// Replies holding them, one a turn.
    pub turns: usize,
    /// Sent as server-sent events (one chunk a call) rather than one body.
    pub stream: bool,
    /// The tool each call names, and its arguments as JSON text.
    pub tool: String,
    pub arguments: String,
}

impl Flood {
    /// The entry named `name`.
    pub fn load(name: &str) -> Flood {
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../attacks/agent/call_floods.jsonl"
        );
        let corpus = std::fs::read_to_string(file).expect("the attack corpus");
        corpus
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| serde_json::from_str::<Flood>(line).expect("a corpus entry"))
            .find(|flood| flood.name == name)
            .unwrap_or_else(|| panic!("no flood named {name}"))
    }

    /// The same flood with `calls` calls a reply.
    pub fn with_calls(mut self, calls: usize) -> Flood {
        self.calls = calls;
        self
    }

    /// The reply of turn `turn` (ids `call_t{turn}_{i}`, unique in the conversation), in
    /// Chat Completions' shape.
    pub fn reply(&self, turn: usize) -> Scripted {
        let ids: Vec<String> = (0..self.calls)
            .map(|i| format!("call_t{turn}_{i}"))
            .collect();
        if !self.stream {
            let calls: Vec<(&str, &str, &str)> = ids
                .iter()
                .map(|id| (id.as_str(), self.tool.as_str(), self.arguments.as_str()))
                .collect();
            return Scripted::json(crate::replies::chat_calls(&calls));
        }
        let chunk = |delta: Value, finish: Value| {
            json!({"id": "chatcmpl-flood", "object": "chat.completion.chunk", "created": 1_700_000_010,
                   "model": "scripted", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        };
        let mut events = vec![chunk(
            json!({"role": "assistant", "content": ""}),
            Value::Null,
        )];
        events.extend(ids.iter().enumerate().map(|(i, id)| {
            chunk(
                json!({"tool_calls": [{"index": i, "id": id, "type": "function",
                    "function": {"name": self.tool, "arguments": self.arguments}}]}),
                Value::Null,
            )
        }));
        events.push(chunk(json!({}), json!("tool_calls")));
        events.push(Value::String("[DONE]".into()));
        Scripted::sse(events)
    }

    /// Every reply of the flood, then a text answer.
    pub fn script(&self) -> Vec<Scripted> {
        let mut script: Vec<Scripted> = (1..=self.turns).map(|turn| self.reply(turn)).collect();
        script.push(Scripted::json(crate::replies::chat_text("Done.")));
        script
    }
}
