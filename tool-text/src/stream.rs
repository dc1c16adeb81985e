//! Finding calls in text that arrives in pieces, as a model streams it.

use super::cursor::Need;
use super::format::TextFormat;
use super::json::Closing;
use super::parsed::TextEvent;
use super::scan::Scanner;
use super::schemas::ToolSchemas;

/// Finds tool calls in text that arrives in chunks: prose comes out as soon as it can't be the
/// start of a call, calls as soon as they are complete.
///
/// Only text that may begin a call is held back (a `<` that may open `<tool_call>`, a call
/// being written). However the text is split, the events add up (see
/// [`TextParse::from_iter`](super::TextParse)) to what [`parse`](super::parse) gives for the
/// whole text.
///
/// ```
/// use tool_runtime::text::{TextEvent, TextFormat, TextParse, TextStream};
///
/// let mut stream = TextStream::new(TextFormat::Hermes, &());
/// let mut events = stream.push("Checking. <tool_");
/// assert_eq!(events, [TextEvent::Text("Checking. ".into())]);
/// events.extend(stream.push("call>{\"name\": \"f\", \"arguments\": {}}</tool_call>"));
/// events.extend(stream.finish());
/// let parsed: TextParse = events.into_iter().collect();
/// assert_eq!(parsed.calls[0].name, "f");
/// ```
pub struct TextStream<'a> {
    scanner: Scanner,
    /// `Sync`, so that a stream can be held across an await in a task that moves threads.
    tools: &'a (dyn ToolSchemas + Sync),
    /// The text not given out yet.
    buf: String,
    /// What the last scan waited for.
    need: Option<Need>,
    /// How much of `buf` the last scan saw.
    seen: usize,
    /// The walk of the value the last scan waits to close (`Need::Close`).
    closing: Option<Closing>,
    /// How long `buf` was after the last scan.
    scanned: usize,
    /// What the last scan waited for has arrived, and the rescan is put off (see `push`).
    due: bool,
    /// How many bytes the scans have been given, for the tests that this stays a few times
    /// the text's length.
    #[cfg(test)]
    given: usize,
}

/// A held region up to this long is rescanned whenever what it waits for arrives.
const RESCAN_FREE: usize = 16 * 1024;

impl<'a> TextStream<'a> {
    /// A stream for one message in `format`, typing values with `tools` (`&()` for none).
    pub fn new<S: ToolSchemas + Sync>(format: TextFormat, tools: &'a S) -> Self {
        TextStream {
            scanner: Scanner::new(format),
            tools,
            buf: String::new(),
            need: None,
            seen: 0,
            closing: None,
            scanned: 0,
            due: false,
            #[cfg(test)]
            given: 0,
        }
    }

    /// Takes the next chunk of text and returns what can be given out now.
    pub fn push(&mut self, chunk: &str) -> Vec<TextEvent> {
        self.buf.push_str(chunk);
        let fresh = &self.buf.as_bytes()[self.seen..];
        let rescan = match self.need {
            None | Some(Need::Any) => true,
            Some(Need::Byte(a, b)) => memchr::memchr2(a, b, fresh).is_some(),
            // The walk knows the moment the value closes: that rescan is never put off.
            Some(Need::Close(start)) => {
                return match self
                    .closing
                    .get_or_insert_with(|| Closing::new(start))
                    .advance(&self.buf)
                {
                    true => self.scan(false),
                    false => {
                        self.seen = self.buf.len();
                        Vec::new()
                    }
                };
            }
            Some(Need::Eof) => false,
        };
        self.due |= rescan;
        // Each rescan reads the held text again from its start. Past RESCAN_FREE bytes (a call
        // that never closes, or a very long one), it waits until the text has grown by an
        // eighth since the last: the rescans then add up to a few times the text's length,
        // not its square, and a call that closes comes out at most an eighth of its length
        // later (and at `finish` at the latest).
        let put_off =
            self.scanned > RESCAN_FREE && self.buf.len() - self.scanned < self.scanned / 8;
        if !self.due || put_off {
            self.seen = self.buf.len();
            return Vec::new();
        }
        self.scan(false)
    }

    /// Ends the message: gives out everything left, with a call the end cuts off as an error
    /// (`Truncated`), in every format: what came after the cut is unknown.
    pub fn finish(mut self) -> Vec<TextEvent> {
        self.scan(true)
    }

    /// The text held back, waiting to see whether it is a call.
    pub fn pending(&self) -> &str {
        &self.buf
    }

    fn scan(&mut self, eof: bool) -> Vec<TextEvent> {
        let mut events = Vec::new();
        #[cfg(test)]
        {
            self.given += self.buf.len();
        }
        let (used, need) = self.scanner.scan(&self.buf, eof, self.tools, &mut events);
        self.buf.drain(..used);
        // Positions the scan gave are in the text before the drain.
        self.need = need.map(|need| match need {
            Need::Close(start) => Need::Close(start - used),
            need => need,
        });
        self.closing = None;
        self.seen = self.buf.len();
        self.scanned = self.buf.len();
        self.due = false;
        events
    }
}

impl std::fmt::Debug for TextStream<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextStream")
            .field("scanner", &self.scanner)
            .field("pending", &self.buf)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TextEvent::{Call, Text};

    #[test]
    fn prose_comes_out_at_once_and_only_a_possible_tag_waits() {
        let mut stream = TextStream::new(TextFormat::Auto, &());
        assert_eq!(
            stream.push("Hello, world. "),
            [Text("Hello, world. ".into())]
        );
        assert_eq!(stream.push("Now <tool_"), [Text("Now ".into())]);
        assert_eq!(stream.pending(), "<tool_");
        assert_eq!(
            stream.push("tip> is not a tag."),
            [Text("<tool_tip> is not a tag.".into())]
        );
        assert_eq!(stream.pending(), "");
    }

    #[test]
    fn a_call_comes_out_as_soon_as_it_is_complete() {
        let mut stream = TextStream::new(TextFormat::Hermes, &());
        assert!(stream.push("<tool_call>{\"name\": \"f\", ").is_empty());
        assert!(stream.push("\"arguments\": {\"a\": \"}\"}}").is_empty());
        let events = stream.push("</tool_call>");
        assert!(
            matches!(&events[..], [Call { call, .. }] if call.name == "f" && call.arguments == r#"{"a": "}"}"#)
        );
        assert_eq!(stream.push("\nThen prose."), [Text("Then prose.".into())]);
        assert!(stream.finish().is_empty());
    }

    #[test]
    fn code_streams_out_while_it_is_written() {
        let mut stream = TextStream::new(TextFormat::Auto, &());
        assert_eq!(
            stream.push("```rust\nlet a = [1];\n"),
            [Text("```rust\nlet a = [1];\n".into())]
        );
        assert_eq!(
            stream.push("let t = \"<tool_call>\";\n`"),
            [Text("let t = \"<tool_call>\";\n".into())]
        );
        assert_eq!(stream.push("``\n"), [Text("```\n".into())]);
    }

    /// A call list cut inside an element, then runs of `]`, pushed 7 bytes at a time: the
    /// first `]` closes the list (its element cut there), and the rest is prose. Each `]` once
    /// made the stream read everything held again, as the list's element was read on past the
    /// list's close and waited for a `}` (issue 32: 128 KiB took 4.7 s).
    #[test]
    fn bracket_runs_after_a_cut_call_list_are_read_once() {
        use crate::{parse, TextErrorKind, TextParse};
        for (format, cut) in [
            (TextFormat::Mistral, "[TOOL_CALLS][{\"name\": \"f\""),
            (
                TextFormat::Xlam,
                "[{\"name\": \"f\", \"arguments\": {\"a\": 1}",
            ),
            (
                TextFormat::Phi4Mini,
                "functools[{\"name\": \"f\", \"arguments\": {",
            ),
        ] {
            let text = format!("{cut}{}", "]".repeat(64 << 10));
            for parse_as in [format, TextFormat::Auto] {
                let mut stream = TextStream::new(parse_as, &());
                let mut events = Vec::new();
                for piece in text.as_bytes().chunks(7) {
                    events.extend(stream.push(std::str::from_utf8(piece).unwrap()));
                }
                let given = stream.given;
                events.extend(stream.finish());
                assert!(
                    given <= 4 * text.len(),
                    "{format:?} as {parse_as:?}: the scans were given {given} bytes of a {}-byte text",
                    text.len()
                );
                let streamed: TextParse = events.into_iter().collect();
                let whole = parse(&text, parse_as, &());
                assert_eq!(streamed, whole, "{format:?} as {parse_as:?}");
                assert!(
                    whole.calls.is_empty(),
                    "{format:?} as {parse_as:?}: {whole:?}"
                );
                // Under `Auto` a bare list is not taken for xLAM's: that text is prose.
                let read_as_list = parse_as == format || format != TextFormat::Xlam;
                assert_eq!(
                    whole.errors.len(),
                    usize::from(read_as_list),
                    "{format:?} as {parse_as:?}"
                );
                for error in &whole.errors {
                    assert_eq!(error.kind, TextErrorKind::InvalidJson);
                    assert!(
                        error.span.end <= cut.len() + 1,
                        "{format:?} as {parse_as:?}: the error runs past the list's close: {error:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn finish_reports_a_call_cut_off() {
        let mut stream = TextStream::new(TextFormat::Mistral, &());
        assert_eq!(
            stream.push("Ok[TOOL_CALLS]f{\"a\": \"b"),
            [Text("Ok".into())]
        );
        let events = stream.finish();
        assert!(
            matches!(&events[..], [TextEvent::Error(e)] if e.span == (2..23)),
            "{events:?}"
        );
    }
}
