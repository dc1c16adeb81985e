//! What bounds the conversation whatever the model replies: the calls run per turn, the bytes
//! of tool results the conversation keeps, and the size of a request.
//!
//! Without them a model server decides what the agent holds: a reply of 40,000 calls (6.6 MB,
//! well under the transport's reply cap) ran every call, kept every result twice (in the
//! history and in the provider-shaped messages) and made the next request 335 MB. Now the
//! calls past [`Agent::max_calls_per_turn`] are answered with a short error each and never
//! run; results past [`Agent::max_history_result_bytes`] are cut, oldest first, to a marker
//! saying so (in both copies); and a request still over [`Agent::max_request_bytes`] (the
//! model's own turns are that large) is not sent: the run ends with
//! [`AgentError::RequestTooLarge`](super::AgentError::RequestTooLarge).

use super::history::Turn;
use super::messages;
use super::Agent;
use crate::results::answer::model_text;
use crate::results::answer_in_order;
use crate::text::TextFormat;
use crate::{ErrorCode, Provider, ToolCall, ToolOutput};
use serde_json::Value;
use std::collections::VecDeque;
use std::ops::Range;

/// [`Agent::max_calls_per_turn`]'s default: more than models make in parallel in practice
/// (a handful), few enough that one reply can't start an unbounded amount of work.
pub(crate) const DEFAULT_MAX_CALLS_PER_TURN: usize = 16;

/// [`Agent::max_history_result_bytes`]'s default: 1 MiB, about 250,000 tokens, more than
/// most context windows hold, so it cuts only what the model could not read anyway.
pub(crate) const DEFAULT_MAX_HISTORY_RESULT_BYTES: usize = 1 << 20;

/// [`Agent::max_request_bytes`]'s default: 8 MiB, twice what a million-token context holds as
/// text.
pub(crate) const DEFAULT_MAX_REQUEST_BYTES: usize = 8 << 20;

/// Results this long or shorter are neither counted nor cut: the marker replacing one would
/// be as long (a surplus call's error is one of them).
const SMALL_RESULT: usize = 160;

/// The conversation in the model's shape, as requests carry it, with what bounds it: the
/// JSON size of each message, and the results that may still be cut.
#[derive(Default)]
pub(crate) struct Conversation {
    messages: Vec<Value>,
    /// The JSON size of each message, in order.
    sizes: Vec<usize>,
    /// Their sum.
    bytes: usize,
    /// The turns whose results may still be cut, oldest first.
    kept: VecDeque<Kept>,
    /// The bytes of the results counted (those over [`SMALL_RESULT`]) and not cut yet.
    result_bytes: usize,
}

/// One turn's results, where the history and the messages hold them.
struct Kept {
    /// Where its result messages are in [`Conversation::messages`].
    messages: Range<usize>,
    /// The history's `Turn::Model` holding the calls.
    model: usize,
    /// The history's `Turn::Results`.
    results: usize,
    /// The history's `Turn::Unreadable` sent in the same message (text-only mode).
    unreadable: Option<usize>,
    /// The format results went back in (text-only mode).
    format: TextFormat,
    /// How many results (in the calls' order) have been looked at for cutting.
    next: usize,
    /// How many results the turn has.
    count: usize,
}

impl Conversation {
    pub(crate) fn messages(&self) -> &[Value] {
        &self.messages
    }

    pub(crate) fn len(&self) -> usize {
        self.messages.len()
    }

    pub(crate) fn push(&mut self, message: Value) {
        let size = json_size(&message);
        self.bytes += size;
        self.sizes.push(size);
        self.messages.push(message);
    }

    pub(crate) fn extend(&mut self, messages: impl IntoIterator<Item = Value>) {
        for message in messages {
            self.push(message);
        }
    }

    /// The size of a request carrying the conversation: its messages as JSON, with a comma
    /// between each.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes + self.messages.len()
    }

    pub(crate) fn clear(&mut self) {
        *self = Conversation::default();
    }

    /// Puts `new` in place of the messages in `range`; returns how many more (or fewer)
    /// messages there are.
    fn replace(&mut self, range: Range<usize>, new: Vec<Value>) -> isize {
        let old: usize = self.sizes[range.clone()].iter().sum();
        let sizes: Vec<usize> = new.iter().map(json_size).collect();
        self.bytes = self.bytes - old + sizes.iter().sum::<usize>();
        let shift = new.len() as isize - range.len() as isize;
        self.sizes.splice(range.clone(), sizes);
        self.messages.splice(range, new);
        shift
    }
}

impl Agent {
    /// How many calls of a reply run (the rest are answered by [`surplus`]).
    pub(crate) fn calls_to_run(&self, calls: usize) -> usize {
        calls.min(self.max_calls_per_turn)
    }

    /// The size of the next request's content: the conversation, the system prompt and the
    /// tool list, as JSON.
    pub(crate) fn request_bytes(&self) -> usize {
        self.conversation.bytes()
            + self.full_system().map_or(0, str::len)
            + self.tools().map_or(0, |tools| tools.get().len())
    }

    /// Appends one turn's results (one per call, in the calls' order) as messages, records
    /// them for cutting, and cuts the oldest results while the kept ones are over
    /// [`max_history_result_bytes`](Agent::max_history_result_bytes).
    ///
    /// `model` is the history's `Turn::Model` holding the calls; the results and any
    /// unreadable calls are pushed to the history here.
    pub(crate) fn append_results(
        &mut self,
        model: usize,
        format: TextFormat,
        results: Vec<super::CallResult>,
        unreadable: &[String],
    ) {
        let provider = self.model.provider();
        let text = self.text_tools.map(|_| format);
        let unreadable_at = (text.is_some() && !unreadable.is_empty()).then(|| {
            self.history.push(Turn::Unreadable(unreadable.to_vec()));
            self.history.len() - 1
        });
        let start = self.conversation.len();
        let calls = match &self.history[model] {
            Turn::Model { calls, .. } => calls.as_slice(),
            _ => &[],
        };
        let outputs: Vec<&ToolOutput> = results.iter().map(|r| &r.output).collect();
        let new = result_messages(provider, text, calls, &outputs, unreadable);
        self.conversation.extend(new);
        if results.is_empty() {
            return;
        }
        let bytes: usize = results
            .iter()
            .map(|r| result_bytes(&r.output))
            .filter(|&b| b > SMALL_RESULT)
            .sum();
        let count = results.len();
        self.history.push(Turn::Results(results));
        self.conversation.result_bytes += bytes;
        self.conversation.kept.push_back(Kept {
            messages: start..self.conversation.len(),
            model,
            results: self.history.len() - 1,
            unreadable: unreadable_at,
            format,
            next: 0,
            count,
        });
        self.cut_results();
    }

    /// Cuts the oldest results to a marker, in the history and in the messages, until the
    /// kept ones fit [`max_history_result_bytes`](Agent::max_history_result_bytes). Each
    /// result is looked at once, and each turn touched is rewritten once per cut.
    fn cut_results(&mut self) {
        let limit = self.max_history_result_bytes;
        if self.conversation.result_bytes <= limit {
            return;
        }
        let mut touched = Vec::new();
        for (at, kept) in self.conversation.kept.iter_mut().enumerate() {
            let Some(Turn::Results(results)) = self.history.get_mut(kept.results) else {
                continue;
            };
            let mut cut = false;
            while kept.next < results.len() && self.conversation.result_bytes > limit {
                let result = &mut results[kept.next];
                let bytes = result_bytes(&result.output);
                if bytes > SMALL_RESULT {
                    result.output = marker(&result.output, bytes, limit);
                    self.conversation.result_bytes -= bytes;
                    cut = true;
                }
                kept.next += 1;
            }
            if cut {
                touched.push(at);
            }
            if self.conversation.result_bytes <= limit {
                break;
            }
        }
        for at in touched {
            self.rewrite(at);
        }
        while self
            .conversation
            .kept
            .front()
            .is_some_and(|kept| kept.next >= kept.count)
        {
            self.conversation.kept.pop_front();
        }
    }

    /// Writes a kept turn's result messages again from the history (where some results are
    /// now markers), in place.
    fn rewrite(&mut self, at: usize) {
        let kept = &self.conversation.kept[at];
        let calls = match &self.history[kept.model] {
            Turn::Model { calls, .. } => calls.as_slice(),
            _ => &[],
        };
        let outputs: Vec<&ToolOutput> = match &self.history[kept.results] {
            Turn::Results(results) => results.iter().map(|r| &r.output).collect(),
            _ => Vec::new(),
        };
        let unreadable = match kept.unreadable.map(|i| &self.history[i]) {
            Some(Turn::Unreadable(errors)) => errors.as_slice(),
            _ => &[],
        };
        let text = self.text_tools.map(|_| kept.format);
        let new = result_messages(self.model.provider(), text, calls, &outputs, unreadable);
        let range = kept.messages.clone();
        let shift = self.conversation.replace(range, new);
        if shift != 0 {
            let kept = &mut self.conversation.kept;
            kept[at].messages.end = kept[at].messages.end.saturating_add_signed(shift);
            for later in kept.iter_mut().skip(at + 1) {
                later.messages.start = later.messages.start.saturating_add_signed(shift);
                later.messages.end = later.messages.end.saturating_add_signed(shift);
            }
        }
    }
}

/// The result of a call past [`Agent::max_calls_per_turn`]: not run, and told why, briefly
/// (one of these goes back for every such call, so it stays under [`SMALL_RESULT`]).
pub(crate) fn surplus(calls: usize, limit: usize) -> ToolOutput {
    ToolOutput::error(
        ErrorCode::LimitExceeded,
        format!("not run: {calls} calls in one turn, over the limit of {limit}; call it again in a later turn"),
    )
}

/// One turn's result messages: in the provider's shape, or in text-only mode one user
/// message of text (with what was wrong with the calls that could not be read).
pub(crate) fn result_messages(
    provider: Provider,
    text: Option<TextFormat>,
    calls: &[ToolCall],
    outputs: &[&ToolOutput],
    unreadable: &[String],
) -> Vec<Value> {
    match text {
        Some(format) => {
            let pairs: Vec<(&ToolCall, &ToolOutput)> =
                calls.iter().zip(outputs.iter().copied()).collect();
            let mut text = messages::results_text(format, &pairs);
            if !unreadable.is_empty() {
                if !text.is_empty() {
                    text.push_str("\n\n");
                }
                text.push_str(&messages::unreadable_text(unreadable));
            }
            vec![messages::user(provider, &text)]
        }
        None => {
            let outputs: Vec<Option<ToolOutput>> =
                outputs.iter().map(|&output| Some(output.clone())).collect();
            answer_in_order(provider, calls, &outputs).messages
        }
    }
}

/// What a cut result becomes: a short note of what was there, an error still an error (its
/// code kept), so the provider's error flag stays right.
fn marker(output: &ToolOutput, bytes: usize, limit: usize) -> ToolOutput {
    let text = format!(
        "[result cut: {bytes} bytes, to keep the conversation's tool results under {limit} bytes]"
    );
    match output.as_error() {
        Some(error) => ToolOutput::error(error.code, text),
        None => ToolOutput::text(text),
    }
}

/// How many bytes a result puts in a request: its text as the model reads it, or rich
/// content as JSON (an image's base64 counts whole).
fn result_bytes(output: &ToolOutput) -> usize {
    match output {
        ToolOutput::Text(text) => text.len(),
        ToolOutput::Json(json) => json.as_str().len(),
        ToolOutput::Error(_) => model_text(output).len(),
        ToolOutput::Content(blocks) => blocks.iter().map(json_size).sum(),
    }
}

/// The length of a value's JSON, written to nowhere.
fn json_size(value: &(impl serde::Serialize + ?Sized)) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Only `Value`s and content blocks: writing can't fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_surplus_error_is_small_enough_never_to_be_counted() {
        let output = surplus(usize::MAX, usize::MAX);
        assert!(
            result_bytes(&output) <= SMALL_RESULT,
            "{}",
            model_text(&output)
        );
    }

    #[test]
    fn sizes_follow_replaced_messages() {
        let mut conversation = Conversation::default();
        conversation.extend([json!("ab"), json!([1, 2]), json!({"k": 1})]);
        assert_eq!(conversation.bytes(), 4 + 5 + 7 + 3);
        let shift = conversation.replace(1..2, vec![json!(1), json!(22)]);
        assert_eq!(shift, 1);
        assert_eq!(conversation.bytes(), 4 + 1 + 2 + 7 + 4);
        assert_eq!(conversation.messages().len(), 4);
    }
}
