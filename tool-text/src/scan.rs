//! The scan over the text: jump from trigger to trigger with one search over them all
//! (`triggers.rs`), ask the formats whether a call starts there, and hand prose and calls to
//! a [`Sink`].
//!
//! Every format answers from the text it has seen so far: a call, not a call, or "can't tell
//! yet" ([`Step::More`]). The whole-text parser is the streaming one told that the text ends
//! (`eof`), which is why both give the same result however the text is split.

use super::cursor::{prefix, Ask, Cx, Fence, Item, Need, Prefix, Reader, Step};
use super::error::TextCallError;
use super::format::TextFormat;
use super::formats::FORMATS;
use super::parsed::{TextEvent, TextParse};
use super::prose::AFTER_LT;
use super::schemas::ToolSchemas;
use super::suffix::{self, Suffix};
use super::triggers::Triggers;
use super::{fenced, muse, recipients};
use crate::ToolCall;
use std::ops::Range;
use std::sync::OnceLock;

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
    /// The readers asked in `format`.
    table: &'static Table,
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
            table: Table::of(format),
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
        let mut triggers = Triggers::new(self.format.automaton(), buf.as_bytes());
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
                (false, _) => dispatch(self.table, &cx, buf, at),
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

/// The readers asked when parsing in one format, by the byte they start at, each byte's in
/// priority order: built once per format from [`FORMATS`], so the order is data (each
/// reader's `priority`), not the order of match arms.
#[derive(Debug)]
pub(crate) struct Table {
    rows: Vec<(u8, Vec<Reader>)>,
}

impl Table {
    /// The table for `format`: its own readers, or under [`Auto`](TextFormat::Auto) every
    /// format's but those asked only when chosen.
    fn build(format: TextFormat) -> Table {
        let mut readers: Vec<Reader> = match format {
            TextFormat::Auto => FORMATS
                .iter()
                .flat_map(|f| f.readers)
                .filter(|r| r.ask != Ask::Chosen)
                .copied()
                .collect(),
            _ => format
                .declared()
                .readers
                .iter()
                .filter(|r| r.ask != Ask::AutoAtStart)
                .copied()
                .collect(),
        };
        readers.sort_by_key(|r| (r.byte, r.priority));
        // Formats share readers (Hermes's tag is GLM's and xLAM's too): each is asked once.
        readers.dedup_by_key(|r| (r.byte, r.priority));
        let mut rows: Vec<(u8, Vec<Reader>)> = Vec::new();
        for reader in readers {
            match rows.last_mut() {
                Some((byte, list)) if *byte == reader.byte => list.push(reader),
                _ => rows.push((reader.byte, vec![reader])),
            }
        }
        Table { rows }
    }

    /// The table for `format`, built the first time it is needed.
    pub(crate) fn of(format: TextFormat) -> &'static Table {
        static TABLES: OnceLock<Vec<Table>> = OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            std::iter::once(TextFormat::Auto)
                .chain(TextFormat::ALL)
                .map(Table::build)
                .collect()
        });
        static EMPTY: Table = Table { rows: Vec::new() };
        tables.get(format as usize).unwrap_or(&EMPTY)
    }

    /// The readers of calls starting with `byte`, in the order they are asked.
    fn readers(&self, byte: u8) -> &[Reader] {
        self.rows
            .iter()
            .find(|(b, _)| *b == byte)
            .map_or(&[], |(_, list)| list.as_slice())
    }
}

/// Asks the readers of the byte at `at`, in priority order, after the ones every format has
/// (reasoning blocks, code fences); the first that doesn't say "prose" decides.
fn dispatch(table: &Table, cx: &Cx, text: &str, at: usize) -> Step {
    let byte = text.as_bytes()[at];
    let mut prose = usize::MAX;
    match byte {
        b'<' => {
            // Most `<` in prose (`x < y`, HTML) start no marker: one look at the next byte
            // spares asking nineteen readers.
            match text.as_bytes().get(at + 1) {
                None if !cx.eof => return Step::More(Need::Any),
                None => return Step::Prose(1),
                Some(&next) if !AFTER_LT[usize::from(next)] => return Step::Prose(1),
                Some(_) => {}
            }
        }
        // Code is prose in every format; a fenced block may hold calls (`fenced.rs`).
        b'`' => return fenced::at(cx, text, at).in_format_if_none(TextFormat::Fenced),
        _ => {}
    }
    // Reasoning first: what a model writes while it thinks is never a call.
    if matches!(byte, b'<' | b'[') {
        match reasoning_at(cx, text, at) {
            Step::Prose(n) => prose = n,
            decided => return decided,
        }
    }
    for reader in table.readers(byte) {
        if reader.ask == Ask::AutoAtStart && !cx.at_start {
            continue;
        }
        match (reader.at)(cx, text, at) {
            Step::Prose(n) => prose = prose.min(n),
            Step::Region {
                len,
                items,
                format: found,
            } => {
                return Step::Region {
                    len,
                    items,
                    format: found.or(reader.format).or(Some(cx.format)),
                }
            }
            decided => return decided,
        }
    }
    Step::Prose(if prose == usize::MAX { 1 } else { prose })
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prose::surely_prose;

    /// Where `surely_prose` says so, every format's readers, in every scan state and at every
    /// length the text may have reached in a stream, read one byte of prose.
    #[test]
    fn surely_prose_agrees_with_every_reader() {
        let texts = [
            "See [the docs](https://example.com/a_(b)) and `code`, compare {a, b} with x < y. \n",
            "[get_weather(city=\"Paris\")] [ get_time (tz='CET')] [a.b_c1 ()] [f(x=1)]",
            "[x \n\t(y=1)] [x\\\n(y=1)] [x #c\n(y=1)] [x# [_ ( [T] [TOOL_CALLS] [THINK]x[/THINK]",
            "[{\"name\": \"f\", \"arguments\": {}}] [ {\"name\": \"f\"}] [1] [] [( [[a]] [\u{e9}]",
            "{\"name\": \"f\", \"arguments\": {}} { 'name': 1} {\n\"tool_calls\": []} {a} {} { } {{",
            "{\"type\": \"function\", \"function\": {\"name\": \"f\"}} {\"response\": \"hi\"} {1: 2}",
            "x < y <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call> <think>a</think> <",
            "<|python_start|>[f(a=1)]<|python_end|> <function=f>{}</function> <a> <\u{ff5c}",
            "`code` ``a`b`` `x\ny` `` ` ``` ```json\n{\"name\": \"f\"}\n``` `a``b` `<tool_call>`",
        ];
        let mut formats = vec![TextFormat::Auto];
        formats.extend(TextFormat::ALL);
        let tables: Vec<_> = formats.iter().map(|&f| (f, Table::of(f))).collect();
        let mut passed = 0;
        for text in texts {
            for end in (1..=text.len()).filter(|&end| text.is_char_boundary(end)) {
                let text = &text[..end];
                for pos in 0..text.len() {
                    let Some(n) = surely_prose(text.as_bytes(), pos) else {
                        continue;
                    };
                    passed += 1;
                    for &(format, table) in &tables {
                        for state in 0..8 {
                            let cx = Cx {
                                tools: &(),
                                format,
                                eof: state & 1 != 0,
                                at_start: state & 2 != 0,
                                in_fence: state & 4 != 0,
                                bounded: false,
                            };
                            let step = dispatch(table, &cx, text, pos);
                            assert!(
                                matches!(step, Step::Prose(m) if m == n),
                                "{format:?}, state {state}, at {pos} of {text:?}: {step:?}"
                            );
                        }
                    }
                }
            }
        }
        // The test would pass with nothing passed: it must see some.
        assert!(passed > 300, "{passed}");
    }
}
