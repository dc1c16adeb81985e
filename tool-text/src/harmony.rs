//! gpt-oss's harmony messages (vLLM `openai`, SGLang `gpt-oss`, llama.cpp's GPT-OSS parser).
//!
//! A reply is a run of messages, each a header, `<|message|>`, a body, and an end token:
//!
//! ```text
//! <|channel|>analysis<|message|>The user wants the weather.<|end|>
//! <|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>
//! ```
//!
//! The header may open with `<|start|>assistant` (every message after the first does) and
//! names a channel (`analysis`, `commentary` or `final`); a message to a tool names its
//! recipient, `to=functions.NAME`, either after the role (`<|start|>assistant
//! to=functions.NAME<|channel|>commentary`) or after the channel (`<|channel|>commentary
//! to=functions.NAME`), and may give its content type (` <|constrain|>json`, or ` json`). These
//! are the orders llama.cpp's parser and tests accept (`test-chat.cpp`, GPT-OSS), in the
//! `analysis` channel too. vLLM's `gptoss_tool_parser.py` is a stub: vLLM parses harmony with
//! the `openai_harmony` library, token by token.
//!
//! What is kept as text, following llama.cpp with `reasoning_format = none`:
//! - a message to `functions.NAME` is a call, its body the JSON arguments; the header, the
//!   arguments and the `<|call|>` (or `<|end|>`) after them are cut from the text;
//! - `analysis` without a recipient is reasoning: kept as prose, verbatim with its markers,
//!   up to its `<|end|>`, exactly like a `<think>` block, so no call is read inside it (and a
//!   caller that hides reasoning finds it whole);
//! - `final` and `commentary` without a recipient (the answer and the preambles the user
//!   sees): the header is cut and the body is prose;
//! - the end tokens `<|end|>`, `<|return|>` and `<|call|>` met on their own are cut.
//!
//! Where peers differ: a message to a recipient that is not `functions.*` (the built-in
//! `python`, `browser.*`, `container.exec`) is dropped with an empty content by llama.cpp;
//! here it is an error, as any call that can't be read. llama.cpp also reads a call whose
//! header has no `<|start|>`, ` to=functions.NAME<|channel|>..` at the very start of the
//! reply (its prompt ends with `<|start|>assistant`): that form opens with a space, no
//! trigger byte, and is left as prose here. Arguments cut off are an error, never closed.

use super::arguments;
use super::cursor::{prefix, region, skip_ws, Cx, Fence, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;

/// gpt-oss's harmony messages.
pub(crate) const READER: Reader = Reader::new(b'<', 100, at, Some(TextFormat::Harmony));

const START: &str = "<|start|>";
const CHANNEL: &str = "<|channel|>";
const CONSTRAIN: &str = "<|constrain|>";
const MESSAGE: &str = "<|message|>";
const RECIPIENT: &str = " to=";
const FUNCTIONS: &str = "functions.";
/// The end of a message: `<|end|>`, and the stop tokens of a call and of the answer.
const ENDS: [&str; 3] = ["<|end|>", "<|call|>", "<|return|>"];
const CHANNELS: [&str; 3] = ["analysis", "commentary", "final"];
/// A header longer than this is not one.
const HEADER_MAX: usize = 512;

/// A harmony token at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let bytes = text.as_bytes();
    match bytes.get(pos + 1) {
        Some(b'|') => {}
        None if !cx.eof => return Step::More(Need::Any),
        _ => return Step::Prose(1),
    }
    let mut partial = false;
    for end in ENDS {
        match prefix(text, pos, end, cx.eof) {
            Prefix::Yes => return region(pos, pos + end.len(), Vec::new()),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    let opens = [START, CHANNEL]
        .iter()
        .map(|open| prefix(text, pos, open, cx.eof))
        .collect::<Vec<_>>();
    if !opens.contains(&Prefix::Yes) {
        return if partial || opens.contains(&Prefix::Partial) {
            cx.more(Need::Any)
        } else {
            Step::Prose(1)
        };
    }
    let header = match header(text, pos, cx.eof) {
        Ok(header) => header,
        Err(Bad::Not) => return Step::Prose(1),
        Err(Bad::More) => return Step::More(Need::Any),
        Err(Bad::Cut) => {
            let kind = TextErrorKind::Truncated(Cut::InMarkup);
            return region(pos, text.len(), vec![error(pos..text.len(), kind)]);
        }
    };
    match header.recipient {
        Some(recipient) => call(cx, text, pos, header.end, recipient),
        None if header.channel == "analysis" => Step::Fence {
            len: header.end - pos,
            fence: Fence::Reasoning(ENDS[0]),
        },
        None => region(pos, header.end, Vec::new()),
    }
}

/// A message header, read up to its `<|message|>`.
struct Header<'a> {
    /// Just after `<|message|>`.
    end: usize,
    channel: &'a str,
    recipient: Option<&'a str>,
}

enum Bad {
    /// Not a harmony header.
    Not,
    /// The text seen so far ends inside it.
    More,
    /// The text ends inside the header of a message to a tool.
    Cut,
}

fn header(text: &str, pos: usize, eof: bool) -> Result<Header<'_>, Bad> {
    let bytes = text.as_bytes();
    let mut channel = None;
    let mut recipient = None;
    let mut i = pos;
    let out = |recipient: Option<&str>| match (eof, recipient) {
        (false, _) => Bad::More,
        (true, Some(_)) => Bad::Cut,
        (true, None) => Bad::Not,
    };
    // A run of name bytes from `i`, and whether the text ends inside it.
    let word = |i: usize, stop: fn(u8) -> bool| {
        let end = bytes[i..]
            .iter()
            .position(|&b| stop(b))
            .map_or(bytes.len(), |n| i + n);
        (end, end == bytes.len())
    };
    if prefix(text, i, START, eof) == Prefix::Yes {
        i += START.len();
        let (end, open) = word(i, |b| !b.is_ascii_alphanumeric() && b != b'_');
        if open {
            return Err(out(None));
        }
        if &text[i..end] != "assistant" {
            return Err(Bad::Not);
        }
        i = end;
    }
    loop {
        if i - pos > HEADER_MAX {
            return Err(Bad::Not);
        }
        if i == bytes.len() {
            return Err(out(recipient));
        }
        let mut partial = false;
        let mut step = |tag: &str| match prefix(text, i, tag, eof) {
            Prefix::Yes => true,
            Prefix::Partial => {
                partial = true;
                false
            }
            Prefix::No => false,
        };
        if step(MESSAGE) {
            i += MESSAGE.len();
            break;
        }
        if step(RECIPIENT) {
            let start = i + RECIPIENT.len();
            let (end, open) = word(start, |b| b.is_ascii_whitespace() || b == b'<');
            if open {
                return Err(out(Some("")));
            }
            recipient = Some(&text[start..end]);
            i = end;
        } else if step(CHANNEL) {
            let start = i + CHANNEL.len();
            let (end, open) = word(start, |b| !b.is_ascii_lowercase());
            if open {
                return Err(out(recipient));
            }
            channel = Some(&text[start..end]);
            i = end;
        } else if step(CONSTRAIN) {
            let (end, open) = word(i + CONSTRAIN.len(), content_type_end);
            if open {
                return Err(out(recipient));
            }
            i = end;
        } else if partial {
            return Err(out(recipient));
        } else if bytes[i] == b' ' {
            i += 1;
        } else if channel.is_some() && !content_type_end(bytes[i]) {
            // The content type without `<|constrain|>`: ` json`.
            let (end, open) = word(i, content_type_end);
            if open {
                return Err(out(recipient));
            }
            i = end;
        } else {
            return Err(Bad::Not);
        }
    }
    match channel {
        Some(channel) if CHANNELS.contains(&channel) => Ok(Header {
            end: i,
            channel,
            recipient,
        }),
        _ => Err(Bad::Not),
    }
}

fn content_type_end(b: u8) -> bool {
    !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'/' | b'.'))
}

/// A message to `recipient` whose header spans `pos..body`.
fn call(cx: &Cx, text: &str, pos: usize, body: usize, recipient: &str) -> Step {
    let name = recipient.strip_prefix(FUNCTIONS);
    let first = skip_ws(text, body);
    if first == text.len() {
        if !cx.eof {
            return Step::More(Need::Any);
        }
        let kind = TextErrorKind::Truncated(Cut::InMarkup);
        return region(pos, text.len(), vec![error(pos..text.len(), kind)]);
    }
    let wrong = match name {
        None => Some(TextErrorKind::Syntax {
            expected: "a `functions.` recipient",
        }),
        Some("") => Some(TextErrorKind::MissingName),
        Some(_) if text.as_bytes()[first] != b'{' => Some(TextErrorKind::Syntax {
            expected: "JSON arguments",
        }),
        Some(_) => None,
    };
    if let Some(kind) = wrong {
        // The message runs to its end token, or to the next message.
        let mut markers = ENDS.to_vec();
        markers.push(START);
        let end = match arguments::find_first(text, first, &markers) {
            Some((at, _)) if text[at..].starts_with(START) => at,
            Some((_, end)) => end,
            None if !cx.eof => return Step::More(Need::Byte(b'>', b'>')),
            None => text.len(),
        };
        return region(pos, end, vec![error(pos..end, kind)]);
    }
    let (json_end, read) = match arguments::read(cx, text, first) {
        Ok(read) => read,
        Err(need) => return Step::More(need),
    };
    let end = match read {
        Ok(_) => match arguments::closed_by(cx, text, json_end, &ENDS[..2]) {
            Ok(end) => end,
            Err(need) => return Step::More(need),
        },
        Err(_) => json_end,
    };
    let item = match read {
        Ok(arguments) => Item::Call {
            name: name.unwrap_or_default().to_owned(),
            arguments,
        },
        Err(kind) => error(pos..end, kind),
    };
    region(pos, end, vec![item])
}

fn error(span: std::ops::Range<usize>, kind: TextErrorKind) -> Item {
    Item::Error { span, kind }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextErrorKind, TextFormat};

    #[test]
    fn both_recipient_places_are_read_and_analysis_is_prose() {
        for text in [
            "<|channel|>analysis<|message|>Call <|channel|>commentary to=functions.no<|message|>{}<|end|><|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": 1}<|call|>",
            "<|channel|>analysis<|message|>Call <|channel|>commentary to=functions.no<|message|>{}<|end|><|start|>assistant to=functions.f<|channel|>analysis<|message|>{\"a\": 1}",
        ] {
            for format in [TextFormat::Harmony, TextFormat::Auto] {
                let parsed = parse(text, format, &());
                let calls: Vec<_> = parsed.calls.iter().map(|c| (c.name.as_str(), c.arguments.as_str())).collect();
                assert_eq!(calls, [("f", "{\"a\": 1}")], "{text}");
                assert_eq!(
                    parsed.text,
                    "<|channel|>analysis<|message|>Call <|channel|>commentary to=functions.no<|message|>{}<|end|>"
                );
            }
        }
    }

    #[test]
    fn headers_and_end_tokens_leave_the_answer() {
        let text = "<|start|>assistant<|channel|>commentary<|message|>Let me look.<|end|><|start|>assistant<|channel|>final<|message|>It is 12:00.<|return|>";
        let parsed = parse(text, TextFormat::Harmony, &());
        assert_eq!(parsed.text, "Let me look.It is 12:00.");
        assert!(parsed.calls.is_empty() && parsed.errors.is_empty());
    }

    #[test]
    fn cut_arguments_and_builtin_recipients_are_errors() {
        let parsed = parse(
            "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": 1,",
            TextFormat::Harmony,
            &(),
        );
        assert!(matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)));
        let parsed = parse(
            "<|start|>assistant<|channel|>commentary to=python<|message|>print(1)<|call|>",
            TextFormat::Harmony,
            &(),
        );
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.text, "");
    }
}
