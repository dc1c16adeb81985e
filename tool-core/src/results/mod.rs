//! Results back to the model: each call's [`ToolOutput`] in the shape the provider's next
//! request must carry.
//!
//! | provider | what [`answer()`] gives |
//! |---|---|
//! | OpenAI Chat | one `{"role": "tool", "tool_call_id", "content"}` message per call |
//! | OpenAI Responses | one `{"type": "function_call_output", "call_id", "output"}` item per call |
//! | Anthropic | one user message whose content is every call's `tool_result` block, `is_error` on failures |
//! | Gemini | one user content whose parts are every call's `functionResponse`, `{"output": ..}` or `{"error": ..}` |
//! | MCP | one `CallToolResult` per call: a text block, `structuredContent` for JSON, `isError` |
//! | TensorZero | one user message whose content is every call's `tool_result` block, `{"id", "name", "result"}` |
//!
//! Rich content ([`ToolOutput::Content`]) takes each provider's nearest form: MCP's own
//! blocks; Anthropic text and image blocks; a Responses `output` list (`input_text`,
//! `input_image`, `input_file`); Gemini's `response` text with images and PDFs as inline
//! `parts`; text for Chat Completions. What a provider can't take is named in a short note
//! (`[audio: audio/wav, 44 bytes]`).
//!
//! Append these after the model's own turn (the assistant message, the output items, the
//! model content), which goes back unchanged; [`call_turn`] rebuilds that turn from
//! normalized calls when the original is gone, putting back every
//! [`passthrough`](ToolCall::passthrough) field (Gemini's `thoughtSignature`) on the part it
//! came on.
//!
//! Every call gets exactly one result, in the order of the calls: a call with no output (it
//! crashed, or was cancelled) is answered with an error saying so, and an output whose call id
//! matches no call is not sent. Both are reported in [`FormattedResults::problems`].
//!
//! ```
//! use tool_runtime::{results, Provider, ToolCall, ToolOutput};
//!
//! let calls = [ToolCall::new("toolu_1", "get_weather", r#"{"city": "Paris"}"#),
//!              ToolCall::new("toolu_2", "get_time", "{}")];
//! let outputs = [("toolu_1".to_owned(), ToolOutput::json(&serde_json::json!({"temp_c": 18})))];
//! let formatted = results::answer(Provider::Anthropic, &calls, &outputs);
//! assert_eq!(formatted.messages.len(), 1);
//! let blocks = &formatted.messages[0]["content"];
//! assert_eq!(blocks[0]["content"], r#"{"temp_c":18}"#);
//! assert_eq!(blocks[1]["is_error"], true); // toolu_2 never finished
//! assert_eq!(formatted.problems.len(), 1);
//! ```

/// One content block in MCP's wire shape (prompt messages use it too).
#[cfg(feature = "mcp")]
#[doc(hidden)]
pub use crate::providers::mcp::results::block as mcp_block;

#[doc(hidden)]
pub mod answer;

use crate::providers::api;
use crate::{ErrorCode, Provider, ToolCall, ToolError, ToolOutput};
use answer::Answer;
use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

/// What to add to the next request, and what could not be sent as given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FormattedResults {
    /// The messages (or items, or `CallToolResult`s) to append, in order.
    pub messages: Vec<Value>,
    /// Calls answered with a stand-in error, and outputs left out.
    pub problems: Vec<ResultProblem>,
}

/// A call without an output, or an output without a call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ResultProblem {
    /// The call has no output; it was answered with an error saying it did not finish.
    #[error("call {call_id} ({tool}) has no output; it was answered with an error saying so")]
    MissingOutput {
        /// The call's id.
        call_id: String,
        /// The tool it named.
        tool: String,
    },
    /// An output for a call id that no call (still waiting for one) has; it was not sent.
    #[error("an output for call {call_id}, which no waiting call has; it was not sent")]
    UnmatchedOutput {
        /// The id the output gave.
        call_id: String,
    },
    /// A positional output past the last call; it was not sent.
    #[error("output {index} has no call at its position; it was not sent")]
    ExtraOutput {
        /// Its position.
        index: usize,
    },
}

/// Each call's result in `provider`'s shape for its next request, outputs matched to calls by
/// call id (several calls sharing an id take that id's outputs in order).
pub fn answer(
    provider: Provider,
    calls: &[ToolCall],
    outputs: &[(String, ToolOutput)],
) -> FormattedResults {
    let mut waiting: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (i, call) in calls.iter().enumerate() {
        waiting.entry(call.id.as_str()).or_default().push_back(i);
    }
    let mut slots = vec![None; calls.len()];
    let mut problems = Vec::new();
    for (call_id, output) in outputs {
        match waiting
            .get_mut(call_id.as_str())
            .and_then(VecDeque::pop_front)
        {
            Some(i) => slots[i] = Some(output),
            None => problems.push(ResultProblem::UnmatchedOutput {
                call_id: call_id.clone(),
            }),
        }
    }
    build(provider, calls, slots, problems)
}

/// [`answer`] with `outputs[i]` answering `calls[i]`; `None` (or a slice too short) is a call
/// that did not finish.
pub fn answer_in_order(
    provider: Provider,
    calls: &[ToolCall],
    outputs: &[Option<ToolOutput>],
) -> FormattedResults {
    let slots = (0..calls.len())
        .map(|i| outputs.get(i).and_then(Option::as_ref))
        .collect();
    let problems = (calls.len()..outputs.len())
        .map(|index| ResultProblem::ExtraOutput { index })
        .collect();
    build(provider, calls, slots, problems)
}

/// The model's turn rebuilt from its text and normalized calls, in `provider`'s shape, with
/// each call's passthrough fields back on its item or part: what to put in the history when
/// only the [`ToolCall`]s were kept. Empty for MCP, where the model's turn is not ours to send.
pub fn call_turn(provider: Provider, text: &str, calls: &[ToolCall]) -> Vec<Value> {
    (api(provider).call_turn)(text, calls)
}

fn build(
    provider: Provider,
    calls: &[ToolCall],
    slots: Vec<Option<&ToolOutput>>,
    mut problems: Vec<ResultProblem>,
) -> FormattedResults {
    let answers: Vec<Answer<'_>> = calls
        .iter()
        .zip(slots)
        .map(|(call, output)| Answer {
            call,
            output: match output {
                Some(output) => Cow::Borrowed(output),
                None => {
                    problems.push(ResultProblem::MissingOutput {
                        call_id: call.id.clone(),
                        tool: call.name.clone(),
                    });
                    Cow::Owned(did_not_finish(call))
                }
            },
        })
        .collect();
    let messages = (api(provider).results)(&answers);
    FormattedResults { messages, problems }
}

/// The stand-in answer for a call that has no output.
fn did_not_finish(call: &ToolCall) -> ToolOutput {
    let message = format!(
        "The call to {} did not finish: it stopped before returning a result (it crashed or was cancelled).",
        call.name
    );
    ToolOutput::from(
        ToolError::with_code(ErrorCode::RuntimeError, message)
            .for_tool(&call.name)
            .with_retry_hint("Call it again if you still need its result."),
    )
}

#[cfg(test)]
mod tests {
    use super::answer::{error_text, flagless_text};
    use super::*;
    use crate::error_text::NO_MESSAGE;
    use serde_json::json;

    fn calls() -> Vec<ToolCall> {
        vec![ToolCall::new("a", "f", "{}"), ToolCall::new("b", "g", "{}")]
    }

    #[test]
    fn every_call_gets_one_result_in_call_order() {
        let outputs = [
            ("b".to_owned(), ToolOutput::text("second")),
            ("a".to_owned(), ToolOutput::text("first")),
        ];
        let formatted = answer(Provider::OpenAiChat, &calls(), &outputs);
        let ids: Vec<&Value> = formatted
            .messages
            .iter()
            .map(|m| &m["tool_call_id"])
            .collect();
        assert_eq!(ids, [&json!("a"), &json!("b")]);
        assert_eq!(formatted.messages[0]["content"], "first");
        assert!(formatted.problems.is_empty());
    }

    #[test]
    fn an_unknown_or_second_output_is_reported_not_sent() {
        let outputs = [
            ("a".to_owned(), ToolOutput::text("1")),
            ("a".to_owned(), ToolOutput::text("again")),
            ("zzz".to_owned(), ToolOutput::text("?")),
            ("b".to_owned(), ToolOutput::text("2")),
        ];
        let formatted = answer(Provider::Mcp, &calls(), &outputs);
        assert_eq!(formatted.messages.len(), 2);
        assert_eq!(
            formatted.problems,
            vec![
                ResultProblem::UnmatchedOutput {
                    call_id: "a".into()
                },
                ResultProblem::UnmatchedOutput {
                    call_id: "zzz".into()
                },
            ]
        );
    }

    #[test]
    fn a_missing_output_is_an_error_result_never_silence() {
        let formatted = answer_in_order(
            Provider::OpenAiResponses,
            &calls(),
            &[
                None,
                Some(ToolOutput::text("ok")),
                Some(ToolOutput::text("extra")),
            ],
        );
        assert_eq!(formatted.messages.len(), 2);
        let first = formatted.messages[0]["output"].as_str().unwrap();
        assert!(
            first.starts_with("Error: The call to f did not finish"),
            "{first}"
        );
        assert_eq!(
            formatted.problems,
            vec![
                ResultProblem::ExtraOutput { index: 2 },
                ResultProblem::MissingOutput {
                    call_id: "a".into(),
                    tool: "f".into()
                },
            ]
        );
    }

    #[test]
    fn calls_sharing_an_id_take_its_outputs_in_order() {
        let calls = [ToolCall::new("x", "f", "{}"), ToolCall::new("x", "g", "{}")];
        let outputs = [
            ("x".to_owned(), ToolOutput::text("1")),
            ("x".to_owned(), ToolOutput::text("2")),
        ];
        let formatted = answer(Provider::OpenAiChat, &calls, &outputs);
        assert_eq!(formatted.messages[1]["content"], "2");
        assert!(formatted.problems.is_empty());
    }

    #[test]
    fn rich_content_takes_each_providers_nearest_form() {
        use crate::output::ContentBlock;
        let calls = [ToolCall::new("c1", "chart", "{}")];
        let output = ToolOutput::content([
            ContentBlock::text("The chart:"),
            ContentBlock::image_base64("image/png", "AQID"),
            ContentBlock::audio_base64("audio/wav", "UklGRg=="),
            ContentBlock::resource_text("test://r", "text/plain", "notes"),
        ]);
        let outputs = [("c1".to_owned(), output)];
        let run = |provider| answer(provider, &calls, &outputs).messages;

        let mcp = run(Provider::Mcp);
        assert_eq!(
            mcp[0]["content"],
            json!([
                {"type": "text", "text": "The chart:"},
                {"type": "image", "data": "AQID", "mimeType": "image/png"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "resource", "resource": {"uri": "test://r", "mimeType": "text/plain", "text": "notes"}},
            ])
        );

        let anthropic = run(Provider::Anthropic);
        assert_eq!(
            anthropic[0]["content"][0]["content"],
            json!([
                {"type": "text", "text": "The chart:"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AQID"}},
                {"type": "text", "text": "[audio: audio/wav, 4 bytes]"},
                {"type": "text", "text": "[resource: test://r (text/plain)]\nnotes"},
            ])
        );

        let chat = run(Provider::OpenAiChat);
        assert_eq!(
            chat[0]["content"],
            "The chart:\n[image: image/png, 3 bytes]\n[audio: audio/wav, 4 bytes]\n[resource: test://r (text/plain)]\nnotes"
        );

        let responses = run(Provider::OpenAiResponses);
        assert_eq!(
            responses[0]["output"][1],
            json!({"type": "input_image", "image_url": "data:image/png;base64,AQID"})
        );
        assert_eq!(responses[0]["output"][2]["type"], "input_text");

        let gemini = run(Provider::Gemini);
        let response = &gemini[0]["parts"][0]["functionResponse"];
        assert_eq!(
            response["parts"],
            json!([{"inlineData": {"mimeType": "image/png", "data": "AQID"}}])
        );
        assert_eq!(
            response["response"]["output"],
            "The chart:\n[audio: audio/wav, 4 bytes]\n[resource: test://r (text/plain)]\nnotes"
        );
    }

    #[test]
    fn an_error_without_a_message_still_says_it_failed() {
        for message in ["", " \n"] {
            let error = ToolError::new(message);
            assert_eq!(error_text(&error), NO_MESSAGE);
            let hinted = error.with_retry_hint("Try again.");
            assert_eq!(error_text(&hinted), format!("{NO_MESSAGE}\nTry again."));
        }
    }

    #[test]
    fn error_text_carries_the_retry_hint() {
        let error = ToolError::new("disk full").with_retry_hint("Free some space.");
        assert_eq!(error_text(&error), "disk full\nFree some space.");
        assert_eq!(
            flagless_text(&ToolOutput::from(error)),
            "Error: disk full\nFree some space."
        );
    }
}
