//! The scan over the text: jump from trigger byte to trigger byte with `memchr`, ask the
//! formats whether a call starts there, and hand prose and calls to a [`Sink`].
//!
//! Every format answers from the text it has seen so far: a call, not a call, or "can't tell
//! yet" ([`Step::More`]). The whole-text parser is the streaming one told that the text ends
//! (`eof`), which is why both give the same result however the text is split.

use super::cursor::{prefix, Cx, Fence, Item, Need, Prefix, Step};
use super::error::TextCallError;
use super::format::TextFormat;
use super::parsed::{TextEvent, TextParse};
use super::schemas::ToolSchemas;
use super::suffix::{self, Suffix};
use super::triggers::Triggers;
use super::{command_r, hermes_variants, minimax_m3, muse, wrapped, xlam};
use super::{
    dots, envelope, fenced, functionary, gemma, gigachat, glm, harmony, hermes, invoke_xml, keyed,
};
use super::{inkling, llama3, mistral, phi4, plamo, pytags, pythonic, recipients, special};
use crate::ToolCall;
use std::ops::Range;

/// Where the scan's results go: a [`TextParse`] or a list of [`TextEvent`]s.
pub(crate) trait Sink {
    fn text(&mut self, text: &str);
    fn call(&mut self, call: ToolCall, span: Range<usize>, format: TextFormat);
    fn error(&mut self, error: TextCallError);
}

impl Sink for TextParse {
    fn text(&mut self, text: &str) {
        self.text.push_str(text);
    }
    fn call(&mut self, call: ToolCall, span: Range<usize>, format: TextFormat) {
        self.push(TextEvent::Call { call, span, format });
    }
    fn error(&mut self, error: TextCallError) {
        self.errors.push(error);
    }
}

impl Sink for Vec<TextEvent> {
    fn text(&mut self, text: &str) {
        match self.last_mut() {
            Some(TextEvent::Text(last)) => last.push_str(text),
            _ => self.push(TextEvent::Text(text.to_owned())),
        }
    }
    fn call(&mut self, call: ToolCall, span: Range<usize>, format: TextFormat) {
        self.push(TextEvent::Call { call, span, format });
    }
    fn error(&mut self, error: TextCallError) {
        self.push(TextEvent::Error(error));
    }
}

/// The scan's state between pieces of text.
#[derive(Debug)]
pub(crate) struct Scanner {
    format: TextFormat,
    /// The number the next call's id gets.
    next_id: usize,
    /// Where the next buffer starts in the whole text.
    offset: usize,
    /// Whether prose other than whitespace has been given out.
    prose_seen: bool,
    /// A call region just ended: a line break right after it goes with it.
    absorb: bool,
    /// Whether the scan is in a code block.
    fence: Fence,
}

impl Scanner {
    /// A scanner at the start of a message.
    pub(super) fn new(format: TextFormat) -> Scanner {
        Scanner {
            format,
            next_id: 0,
            offset: 0,
            prose_seen: false,
            absorb: false,
            fence: Fence::None,
        }
    }

    /// Scans `buf`, the text from where the last scan stopped, and returns how many bytes it
    /// used (all of them when `eof`) and, when it stopped early, what it waits for.
    pub(super) fn scan(
        &mut self,
        buf: &str,
        eof: bool,
        tools: &dyn ToolSchemas,
        sink: &mut dyn Sink,
    ) -> (usize, Option<Need>) {
        let mut triggers = Triggers::new(
            self.format.triggers(),
            self.format.trigger_words(),
            buf.as_bytes(),
        );
        let mut pos = 0;
        let mut prose_start = 0;
        let (used, need) = loop {
            if self.absorb {
                match line_end(buf, pos, eof) {
                    Some(end) => {
                        pos = end;
                        prose_start = end;
                        self.absorb = false;
                    }
                    None => break (pos, Some(Need::Any)),
                }
            }
            if let Some(close) = self.fence.closer() {
                let rest = &buf.as_bytes()[pos..];
                match memchr::memmem::find(rest, close.as_bytes()) {
                    Some(n) if self.fence == Fence::SuffixedReasoning => {
                        let closer = pos + n;
                        match suffix::at(buf, closer, "</think:", eof) {
                            Suffix::Yes(tail) => pos = closer + "</think".len() + tail.len() + 1,
                            Suffix::Partial => {
                                self.prose(&buf[prose_start..closer], sink);
                                break (closer, Some(Need::Any));
                            }
                            // Not a token: the block goes on after it.
                            Suffix::No => {
                                pos = closer + close.len();
                                continue;
                            }
                        }
                    }
                    Some(n) => pos += n + close.len(),
                    None if eof => pos = buf.len(),
                    None => {
                        // The end may begin the closing marker.
                        let keep = (1..close.len())
                            .rev()
                            .find(|&k| rest.ends_with(&close.as_bytes()[..k]))
                            .unwrap_or(0);
                        let safe = buf.len() - keep;
                        self.prose(&buf[prose_start..safe], sink);
                        break (safe, Some(Need::Any));
                    }
                }
                self.fence = Fence::None;
            }
            // Functionary v3.2's first recipient and Muse's first header are at the start of
            // the message, unmarked.
            let first = self.offset + pos == 0
                && matches!(self.format, TextFormat::FunctionaryV32 | TextFormat::Muse)
                && !buf.is_empty();
            let Some(at) = (if first { Some(0) } else { triggers.next(pos) }) else {
                self.prose(&buf[prose_start..], sink);
                break (buf.len(), None);
            };
            let cx = Cx {
                tools,
                format: self.format,
                eof,
                at_start: !self.prose_seen && is_blank(&buf[prose_start..at]),
                in_fence: self.fence == Fence::Open,
                bounded: false,
            };
            let step = match (first, self.format) {
                (true, TextFormat::Muse) => muse::first_at(&cx, buf, at),
                (true, _) => recipients::first_at(&cx, buf, at),
                (false, _) => dispatch(&cx, buf, at),
            };
            match step {
                Step::Prose(n) => pos = at + n.max(1),
                Step::Region { len, items, format } => {
                    self.prose(&buf[prose_start..at], sink);
                    let span = at..(at + len).min(buf.len());
                    self.items(buf, items, span, format.unwrap_or(self.format), sink);
                    pos = (at + len).min(buf.len());
                    prose_start = pos;
                    self.absorb = true;
                }
                Step::Fence { len, fence } => {
                    pos = (at + len.max(1)).min(buf.len());
                    self.fence = fence;
                }
                Step::Markup(len) => {
                    self.prose(&buf[prose_start..at], sink);
                    pos = (at + len.max(1)).min(buf.len());
                    prose_start = pos;
                }
                Step::More(_) if eof => pos = at + 1,
                Step::More(need) => {
                    self.prose(&buf[prose_start..at], sink);
                    break (at, Some(need));
                }
            }
        };
        self.offset += used;
        (used, need)
    }

    fn prose(&mut self, text: &str, sink: &mut dyn Sink) {
        if text.is_empty() {
            return;
        }
        if !self.prose_seen && !is_blank(text) {
            self.prose_seen = true;
        }
        sink.text(text);
    }

    /// Gives out what a region (`span` of `buf`, written in `format`) holds; its calls take
    /// the region's place in the whole text.
    fn items(
        &mut self,
        buf: &str,
        items: Vec<Item>,
        span: Range<usize>,
        format: TextFormat,
        sink: &mut dyn Sink,
    ) {
        let place = self.offset + span.start..self.offset + span.end;
        for item in items {
            match item {
                Item::Call { name, arguments } => {
                    let id = format!("call_{}", self.next_id);
                    self.next_id += 1;
                    sink.call(ToolCall::new(id, name, arguments), place.clone(), format);
                }
                Item::Error { span, kind } => sink.error(TextCallError {
                    raw: buf.get(span.clone()).unwrap_or_default().to_owned(),
                    span: self.offset + span.start..self.offset + span.end,
                    kind,
                }),
                Item::Text(text) => self.prose(&text, sink),
            }
        }
    }
}

/// A format's look at a trigger byte.
type Matcher = fn(&Cx, &str, usize) -> Step;

/// Asks each format that can start with the byte at `at`, in a fixed order; the first that
/// doesn't say "prose" decides.
fn dispatch(cx: &Cx, text: &str, at: usize) -> Step {
    use TextFormat::*;
    let f = cx.format;
    // Reasoning first: what a model writes while it thinks is never a call.
    let lt: [(bool, Matcher, TextFormat); 19];
    let candidates: &[(bool, Matcher, TextFormat)] = match text.as_bytes()[at] {
        b'<' => {
            // Most `<` in prose (`x < y`, HTML) start no marker: one look at the next byte
            // spares asking nineteen matchers.
            match text.as_bytes().get(at + 1) {
                None if !cx.eof => return Step::More(Need::Any),
                None => return Step::Prose(1),
                Some(&next) if !AFTER_LT[usize::from(next)] => return Step::Prose(1),
                Some(_) => {}
            }
            lt = [
                (true, reasoning_at, f),
                // GLM's bodies too: the tag is Hermes's.
                // xLAM's list in the tag too.
                (
                    f.includes(Hermes)
                        || f == QwenXml
                        || f == Glm
                        || f == Xlam
                        || f == HermesVariants,
                    hermes::at,
                    Hermes,
                ),
                // `<function=`: Qwen3's XML or Functionary's JSON, told apart in one place.
                (
                    f.includes(QwenXml) || f.includes(Functionary),
                    functionary::at,
                    QwenXml,
                ),
                (f.includes(Llama3), llama3::tag_at, Llama3),
                (f.includes(Pythonic), pythonic::tag_at, Pythonic),
                // Before Jamba's: Hy's `<tool_calls>` holding tagged calls is Hy's.
                (glm::looks_for(f), glm::at, f),
                // dots.llm's tag holds JSON (`wrapped.rs`) or XML (`invoke_xml.rs`).
                (f.includes(Dots), dots::at, Dots),
                (f == Auto || wrapped::wrap(f).is_some(), wrapped::at, f),
                (invoke_xml::looks_for(f), invoke_xml::at, f),
                (f.includes(Plamo3), plamo::at, Plamo3),
                (f.includes(Harmony), harmony::at, Harmony),
                // After harmony's, whose headers name a channel.
                (f.includes(Muse), muse::at, Muse),
                (
                    f.includes(Gemma4) || f.includes(FunctionGemma),
                    gemma::at,
                    f,
                ),
                (f.includes(Lfm2) || f.includes(Olmo3), pytags::at, f),
                (f.includes(Apertus) || f.includes(CommandR), keyed::at, f),
                (f.includes(GigaChat), gigachat::at, GigaChat),
                (f.includes(Inkling), inkling::at, Inkling),
                // Only when chosen: their tags are ordinary words (`hermes_variants.rs`).
                (f == HermesVariants, hermes_variants::at, HermesVariants),
                // DeepSeek's `<｜` and Kimi's `<|` special tokens.
                (special::handles(f), special::at, f),
            ];
            &lt
        }
        b'[' => &[
            (true, reasoning_at, f),
            // xLAM's list after the marker too.
            (f.includes(Mistral) || f == Xlam, mistral::at, Mistral),
            // A bare list: anywhere when chosen, only at the start under Auto.
            (f.includes(Xlam), xlam::at, Xlam),
            (f.includes(Pythonic), pythonic::at, Pythonic),
        ],
        b'{' => &[
            (f.includes(Envelope), envelope::at, Envelope),
            (
                f == Llama3 || (f == Auto && cx.at_start),
                llama3::bare_at,
                Llama3,
            ),
            // llama.cpp's old Hermes 2 Pro parser read a bare call object anywhere.
            (f == HermesVariants, llama3::bare_at, HermesVariants),
        ],
        b'`' => &[(true, fenced::at, Fenced)],
        // `functools[` and `>>>`, found as words (`TextFormat::trigger_words`).
        b'f' => &[(f.includes(Phi4Mini), phi4::at, Phi4Mini)],
        b'>' => &[(f.includes(FunctionaryV32), recipients::at, FunctionaryV32)],
        // MiniMax-M3's namespaced `<tool_call>`, found as a word.
        b']' => &[(f.includes(MinimaxM3), minimax_m3::at, MinimaxM3)],
        // Command R+'s `Action:`, found as a word.
        b'A' => &[(f.includes(CommandRPlus), command_r::at, CommandRPlus)],
        _ => &[],
    };
    let mut prose = usize::MAX;
    for &(enabled, matcher, format) in candidates {
        if !enabled {
            continue;
        }
        match matcher(cx, text, at) {
            Step::Prose(n) => prose = prose.min(n),
            Step::Region {
                len,
                items,
                format: found,
            } => {
                return Step::Region {
                    len,
                    items,
                    format: found.or(Some(format)),
                }
            }
            decided => return decided,
        }
    }
    Step::Prose(if prose == usize::MAX { 1 } else { prose })
}

/// The bytes that follow `<` in some marker: `<t`ool_call, `<T`OOLCALL, `<f`unction,
/// `<|`special|>, `<l`ongcat, `<r`esponse / `<j`son / `<x`ml / `<J`SON, `<s`tart_function_call / `<s`eed:, `<m`inimax:, `<i`fm|, `<d`ots, `<a`tem:, and
/// DeepSeek's and Step's full-width `<｜` (0xEF starts it in UTF-8). A format whose marker
/// starts otherwise must add its byte here: `written_calls_parse_back` fails until it does.
const AFTER_LT: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"tTf|lsmidarjxJ\xEF";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};

/// The reasoning blocks models write before they answer: the opening marker and the one that
/// closes it (Qwen3, DeepSeek-R1 and others; Magistral and Ministral's special tokens;
/// Gemma 4's thought channel; Command R7B's and Command A's thinking; Seed-OSS; PLaMo 3;
/// MiniMax-M3; K2 Horizon's three reasoning efforts).
/// gpt-oss's `analysis` channel is found by `harmony.rs`, which reads its header.
const REASONING: [(&str, &str); 10] = [
    ("<think>", "</think>"),
    ("[THINK]", "[/THINK]"),
    ("<|channel>", "<channel|>"),
    ("<|START_THINKING|>", "<|END_THINKING|>"),
    ("<seed:think>", "</seed:think>"),
    ("<|plamo:begin_think:plamo|>", "<|plamo:end_think:plamo|>"),
    ("<mm:think>", "</mm:think>"),
    ("<ifm|think>", "</ifm|think>"),
    ("<ifm|think_fast>", "</ifm|think_fast>"),
    ("<ifm|think_faster>", "</ifm|think_faster>"),
];

/// A reasoning block opening at `pos`: prose up to its end.
fn reasoning_at(cx: &Cx, text: &str, pos: usize) -> Step {
    // Asked at every trigger byte: the openers that start with another byte cost one compare.
    let first = text.as_bytes()[pos];
    if first == b'<' {
        match suffix::at(text, pos, "<think:", cx.eof) {
            Suffix::Yes(tail) => {
                return Step::Fence {
                    len: "<think".len() + tail.len() + 1,
                    fence: Fence::SuffixedReasoning,
                }
            }
            Suffix::Partial => return Step::More(Need::Any),
            Suffix::No => {}
        }
    }
    for (open, close) in REASONING {
        if open.as_bytes()[0] != first {
            continue;
        }
        match prefix(text, pos, open, cx.eof) {
            Prefix::Yes => {
                return Step::Fence {
                    len: open.len(),
                    fence: Fence::Reasoning(close),
                }
            }
            Prefix::Partial => return Step::More(Need::Any),
            Prefix::No => {}
        }
    }
    Step::Prose(1)
}

/// After a call: the spaces and the one line break that follow it, if nothing else comes
/// before the line break. `None` when the text seen so far can't tell.
fn line_end(text: &str, pos: usize, eof: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut end = pos;
    while end < bytes.len() && matches!(bytes[end], b' ' | b'\t') {
        end += 1;
    }
    match bytes.get(end) {
        None if eof => Some(end),
        None => None,
        Some(b'\n') => Some(end + 1),
        Some(b'\r') => match bytes.get(end + 1) {
            Some(b'\n') => Some(end + 2),
            None if !eof => None,
            _ => Some(pos),
        },
        Some(_) => Some(pos),
    }
}

fn is_blank(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_whitespace())
}
