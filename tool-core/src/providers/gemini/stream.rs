//! Gemini's stream (`:streamGenerateContent?alt=sse`): each event is a whole
//! `GenerateContentResponse` holding the next parts, and a call comes whole in one part. The
//! parts are joined and read once at the end, so call ids are numbered across the whole reply
//! as they are for a reply read whole.

use super::route::gemini;
use crate::router::error::RouteError;
use serde_json::{json, Value};

/// A Gemini stream put back together: text as it arrives, the whole reply at the end.
#[derive(Debug, Default)]
#[doc(hidden)]
pub struct GeminiStream {
    parts: Vec<Value>,
    /// The latest event, whose `usageMetadata` counts the whole reply.
    last: Value,
}

impl GeminiStream {
    /// Takes one event: its text (thoughts left out), and whether its candidate finished.
    ///
    /// # Errors
    ///
    /// What routing the event alone gives: an error object or a wrong shape ends the stream.
    pub fn push(&mut self, event: Value) -> Result<(Vec<String>, bool), RouteError> {
        gemini(&event)?;
        let candidate = &event["candidates"][0];
        let mut texts = Vec::new();
        for part in candidate["content"]["parts"]
            .as_array()
            .into_iter()
            .flatten()
        {
            if let (Some(text), false) = (part["text"].as_str(), part["thought"] == true) {
                texts.push(text.to_owned());
            }
            self.parts.push(part.clone());
        }
        let finished = candidate.get("finishReason").is_some_and(|r| !r.is_null());
        self.last = event;
        Ok((texts, finished))
    }

    /// The reply the events make up, as a `generateContent` response (every part, and the
    /// last event's usage), and the last event.
    pub fn finish(self) -> (Value, Value) {
        let whole = json!({
            "candidates": [{"content": {"role": "model", "parts": self.parts}}],
            "usageMetadata": self.last.get("usageMetadata").cloned().unwrap_or(Value::Null),
        });
        (whole, self.last)
    }
}
