//! Gemini `generateContent`: `functionCall` parts in `candidates[0].content.parts`, each
//! `{"functionCall": {"id"?, "name", "args": {..}}, "thoughtSignature"?: ".."}` (python-genai
//! `types.py`: `Part`, `FunctionCall`).

use crate::router::error::RouteError;
use crate::router::routed::Routed;
use crate::router::shape::{self, Reader};
use crate::Provider;
use crate::ToolCall;
use serde_json::Value;

const READ: Reader = Reader(Provider::Gemini);

/// What the ids this router makes up start with. Gemini often sends calls without an id and
/// then pairs results with calls by name and order, so the results formatter leaves these ids
/// out of `functionResponse` parts.
pub(crate) const GENERATED_ID_PREFIX: &str = "gemini_call_";

/// Routes a `generateContent` response (or one `Content` with `parts`): its `functionCall`
/// parts, `args` serialized to text in the model's key order, and its text parts (thoughts
/// left out). Only the first candidate is read.
///
/// A call without an id gets `gemini_call_{n}_{name}`, `n` counting calls from 0, so reading
/// the same response twice gives the same ids. Everything else on the call's part
/// (`thoughtSignature`, which Gemini 3 requires back on that exact part) is kept in
/// [`ToolCall::passthrough`].
///
/// # Errors
///
/// A [`RouteError`] naming the JSON pointer where the output stops being a `generateContent`
/// response, or [`RouteError::Provider`] for the provider's error reply.
#[doc(hidden)]
pub fn gemini(output: &Value) -> Result<Routed, RouteError> {
    if let Some(error) = shape::provider_error(output) {
        return Err(error);
    }
    let top = READ.object(Some(output), "")?;
    let mut routed = Routed::new(Provider::Gemini);
    let (content, at) = if top.contains_key("parts") {
        (Some(top), "")
    } else {
        let candidates = READ.array(top.get("candidates"), "/candidates")?;
        let Some(first) = candidates.first() else {
            return Err(blocked(top).unwrap_or_else(|| {
                RouteError::shape(
                    Provider::Gemini,
                    "/candidates",
                    "at least one candidate",
                    top.get("candidates"),
                )
            }));
        };
        let candidate = READ.object(Some(first), "/candidates/0")?;
        match candidate.get("content") {
            // A candidate stopped for safety or length may have no content at all.
            None | Some(Value::Null) => (None, ""),
            content => (
                Some(READ.object(content, "/candidates/0/content")?),
                "/candidates/0/content",
            ),
        }
    };
    let Some(content) = content else {
        return Ok(routed);
    };
    let pointer = format!("{at}/parts");
    for (i, part) in READ
        .array(content.get("parts"), &pointer)?
        .iter()
        .enumerate()
    {
        let at = format!("{pointer}/{i}");
        let part = READ.object(Some(part), &at)?;
        if let Some(call) = part.get("functionCall") {
            let at = format!("{at}/functionCall");
            let call = READ.object(Some(call), &at)?;
            let name = READ
                .string(call.get("name"), format_args!("{at}/name"))?
                .unwrap_or_default();
            // An empty id is no id: the result could not quote it (found by fuzzing).
            let id = READ
                .string(call.get("id"), format_args!("{at}/id"))?
                .filter(|id| !id.is_empty());
            let n = routed.calls.len();
            routed.calls.push(ToolCall {
                id: id.map_or_else(|| format!("{GENERATED_ID_PREFIX}{n}_{name}"), str::to_owned),
                name: name.to_owned(),
                arguments: shape::object_arguments(call.get("args")),
                passthrough: shape::passthrough(part, &["functionCall"]),
            });
        } else if part.get("thought").and_then(Value::as_bool) != Some(true) {
            if let Some(text) = READ.string(part.get("text"), format_args!("{at}/text"))? {
                routed.text.push_str(text);
            }
        }
    }
    Ok(routed)
}

/// A response with no candidates because the prompt was blocked, as a provider error.
fn blocked(top: &serde_json::Map<String, Value>) -> Option<RouteError> {
    let reason = top.get("promptFeedback")?.get("blockReason")?.as_str()?;
    Some(RouteError::Provider {
        message: format!("the prompt was blocked ({reason})"),
    })
}

/// A `generateContent` response (`candidates`, or `promptFeedback` for a blocked prompt), or
/// one `Content` with `parts`.
pub(crate) fn is_reply(reply: &Value) -> bool {
    reply.get("candidates").is_some()
        || reply.get("promptFeedback").is_some()
        || reply.get("parts").is_some_and(Value::is_array)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn calls_without_ids_get_stable_ones_from_position_and_name() {
        let content = json!({"role": "model", "parts": [
            {"functionCall": {"name": "f", "args": {"a": 1}}},
            {"text": "and"},
            {"functionCall": {"name": "g", "args": {}}}]});
        let first = gemini(&content).unwrap();
        let ids: Vec<&str> = first.calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["gemini_call_0_f", "gemini_call_1_g"]);
        assert_eq!(gemini(&content).unwrap(), first);
        assert_eq!(first.text, "and");
    }

    #[test]
    fn the_thought_signature_stays_with_its_call() {
        let content = json!({"parts": [
            {"functionCall": {"id": "x1", "name": "f", "args": {}}, "thoughtSignature": "c2ln"},
            {"functionCall": {"id": "x2", "name": "f", "args": {}}}]});
        let calls = gemini(&content).unwrap().calls;
        assert_eq!(calls[0].passthrough["thoughtSignature"], "c2ln");
        assert!(calls[1].passthrough.is_empty());
        assert_eq!(calls[0].id, "x1");
    }

    #[test]
    fn thoughts_are_not_text() {
        let content = json!({"parts": [{"text": "thinking...", "thought": true}, {"text": "Hi"}]});
        assert_eq!(gemini(&content).unwrap().text, "Hi");
    }

    #[test]
    fn a_blocked_prompt_is_a_provider_error_and_an_empty_candidate_no_calls() {
        let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}});
        assert!(matches!(gemini(&blocked), Err(RouteError::Provider { .. })));
        let stopped = json!({"candidates": [{"finishReason": "MAX_TOKENS", "index": 0}]});
        assert!(gemini(&stopped).unwrap().calls.is_empty());
        assert!(
            gemini(&json!({"candidates": [{"content": {"parts": [{"functionCall": []}]}}]}))
                .is_err()
        );
    }
}
