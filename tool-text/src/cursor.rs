//! What a format's reader works with at a trigger byte: what it knows there ([`Cx`]), what
//! it answers ([`Step`]), and the small tools for reading markup (`prefix`, [`Openers`],
//! `skip_ws`). The bottom of `text`: every reader imports it, and it imports no reader.

use super::error::TextErrorKind;
use super::format::TextFormat;
use super::schemas::{self, ToolSchemas};
use std::ops::Range;

/// What a format says about the text at a trigger byte.
#[derive(Debug)]
pub(crate) enum Step {
    /// No call starts here: the next `n` bytes are prose.
    Prose(usize),
    /// A call region `len` bytes long, cut from the prose, with what it holds and the format
    /// it is written in (`None`: the format of the matcher that found it).
    Region {
        len: usize,
        items: Vec<Item>,
        format: Option<TextFormat>,
    },
    /// The text seen so far can't tell; wait for more.
    More(Need),
    /// The next `len` bytes are prose and open (or close) a code block.
    Fence { len: usize, fence: Fence },
    /// The next `len` bytes are a format's markup that is neither prose nor a call (Kimi K3's
    /// `response` channel markers): cut from the text, with nothing in their place.
    Markup(usize),
}

impl Step {
    /// This step's region, as written in `format` (other steps as they are).
    pub(crate) fn in_format(self, format: TextFormat) -> Step {
        match self {
            Step::Region { len, items, .. } => Step::Region {
                len,
                items,
                format: Some(format),
            },
            step => step,
        }
    }

    /// This step's region, as written in `format` unless it says otherwise.
    pub(crate) fn in_format_if_none(self, format: TextFormat) -> Step {
        match self {
            Step::Region {
                len,
                items,
                format: found,
            } => Step::Region {
                len,
                items,
                format: found.or(Some(format)),
            },
            step => step,
        }
    }
}

/// Where the scan is with respect to code blocks and reasoning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fence {
    /// Outside any.
    None,
    /// Inside a code block: prose up to its closing fence.
    Code,
    /// Inside a code block that holds calls, read through.
    Open,
    /// Inside a reasoning block (`<think>`, `[THINK]`): prose up to this closing marker. A
    /// call the model considers while it thinks is not a call it makes (llama.cpp's
    /// Ministral "marker in reasoning" case): only the one after the block is.
    Reasoning(&'static str),
    /// Inside Hunyuan's `<think:SUFFIX>` block (`suffix.rs`): prose up to `</think:`, and on
    /// to the `>` that ends its suffix.
    SuffixedReasoning,
}

impl Fence {
    /// The marker that ends a block whose content is prose.
    pub(crate) fn closer(self) -> Option<&'static str> {
        match self {
            Fence::Code => Some("```"),
            Fence::Reasoning(close) => Some(close),
            Fence::SuffixedReasoning => Some("</think:"),
            Fence::None | Fence::Open => None,
        }
    }
}

/// One thing a call region holds.
#[derive(Debug)]
pub(crate) enum Item {
    /// A call that was read.
    Call { name: String, arguments: String },
    /// A call that could not be read; `span` is in the scanned buffer.
    Error {
        span: Range<usize>,
        kind: TextErrorKind,
    },
    /// Prose the region stands for (the envelope's `{"response": ..}`).
    Text(String),
}

/// What more text a [`Step::More`] waits for, so a stream need not rescan a long call on every
/// chunk that can't end it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Need {
    /// Anything may decide it.
    Any,
    /// Nothing decides it before one of these bytes arrives.
    Byte(u8, u8),
    /// Nothing decides it before the bracketed value that opens at this byte of the scanned
    /// text closes: a stream walks the value as it arrives (`json::Closing`) and reads it
    /// again only then, so a long value in small pieces costs its length.
    Close(usize),
    /// Only the end of the text decides it.
    Eof,
}

/// What a format knows when it looks at a trigger.
pub(crate) struct Cx<'a> {
    pub tools: &'a dyn ToolSchemas,
    pub format: TextFormat,
    /// The text ends where the buffer does.
    pub eof: bool,
    /// Only whitespace comes before this point in the message.
    pub at_start: bool,
    /// Inside a code block that is read through, whose closing fence comes next.
    pub in_fence: bool,
    /// The text given ends at a marker that ends the call (its closing tag, the next call's
    /// opening tag, the envelope's own close), not where the message stopped. Only then is a
    /// JSON object left open closed (when that needs no guess): an object the end of the
    /// message cuts is an error, since what came after the cut is unknown (`{"a": 1` may
    /// have gone on `, "b": 2}`).
    pub bounded: bool,
}

impl Cx<'_> {
    /// Wait for more text; at the end of the text there is none, so this is prose.
    pub(super) fn more(&self, need: Need) -> Step {
        if self.eof {
            Step::Prose(1)
        } else {
            Step::More(need)
        }
    }

    /// Whether `name` may be a tool, for formats without a marker of their own.
    pub(super) fn accepts(&self, name: &str) -> bool {
        schemas::accepts(self.tools, name)
    }
}

/// A call region from `start` to `end`; a lone error in it covers all of it.
pub(crate) fn region(start: usize, end: usize, mut items: Vec<Item>) -> Step {
    if let [Item::Error { span, .. }] = items.as_mut_slice() {
        *span = start..end;
    }
    Step::Region {
        len: end - start,
        items,
        format: None,
    }
}

/// Whether the text at some point starts with a fixed tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prefix {
    /// It does.
    Yes,
    /// It doesn't.
    No,
    /// The text ends inside the tag (never at the end of the text).
    Partial,
}

/// Whether `text[pos..]` starts with `tag`.
pub(crate) fn prefix(text: &str, pos: usize, tag: &str, eof: bool) -> Prefix {
    let rest = text.as_bytes().get(pos..).unwrap_or_default();
    let tag = tag.as_bytes();
    if rest.starts_with(tag) {
        Prefix::Yes
    } else if !eof && rest.len() < tag.len() && tag.starts_with(rest) {
        Prefix::Partial
    } else {
        Prefix::No
    }
}

/// The openers a matcher tries at one position, in order: the first the text starts with
/// decides the step. When none does, the step is prose, or a wait when the text ends inside
/// one of them (so a stream never takes half an opener for prose).
pub(crate) struct Openers<'c, 'a> {
    cx: &'c Cx<'a>,
    text: &'c str,
    pos: usize,
    partial: bool,
}

impl<'c, 'a> Openers<'c, 'a> {
    pub(crate) fn new(cx: &'c Cx<'a>, text: &'c str, pos: usize) -> Self {
        Openers {
            cx,
            text,
            pos,
            partial: false,
        }
    }

    /// Whether the parse looks for `format` and the text starts with its `open`.
    pub(crate) fn opens(&mut self, format: TextFormat, open: &str) -> bool {
        self.cx.format.includes(format) && self.starts(open)
    }

    /// Whether the text starts with `open`.
    pub(crate) fn starts(&mut self, open: &str) -> bool {
        match prefix(self.text, self.pos, open, self.cx.eof) {
            Prefix::Yes => true,
            Prefix::Partial => {
                self.partial = true;
                false
            }
            Prefix::No => false,
        }
    }

    /// The step when no opener was there.
    pub(crate) fn none(self) -> Step {
        if self.partial {
            self.cx.more(Need::Any)
        } else {
            Step::Prose(1)
        }
    }
}

/// The first byte at or after `pos` that is not ASCII whitespace.
pub(crate) fn skip_ws(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

/// A reader's look at a trigger byte.
pub(crate) type Matcher = fn(&Cx, &str, usize) -> Step;

/// When the scan asks a [`Reader`] a format lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ask {
    /// When the text is parsed in the format, and under [`Auto`](TextFormat::Auto).
    Always,
    /// Only when the text is parsed in the format: its markup is too common in prose.
    Chosen,
    /// Only under [`Auto`](TextFormat::Auto), and only where nothing but whitespace comes
    /// before (a bare JSON object is a call only at the start of the message).
    AutoAtStart,
}

/// One reader of calls: the byte its calls start at, its place among the readers of that
/// byte (lower is asked first), the matcher, and the format its calls are written in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reader {
    /// The byte a call it reads starts at.
    pub byte: u8,
    /// Its place among the readers of the same byte: the first that doesn't say "prose"
    /// decides, so a reader whose markup begins another's goes first.
    pub priority: u8,
    /// The matcher.
    pub at: Matcher,
    /// The format its calls are written in; `None`: the one the text is parsed in (unless
    /// the matcher says).
    pub format: Option<TextFormat>,
    /// When it is asked.
    pub ask: Ask,
}

impl Reader {
    /// A reader asked [`Always`](Ask::Always).
    pub(crate) const fn new(
        byte: u8,
        priority: u8,
        at: Matcher,
        format: Option<TextFormat>,
    ) -> Reader {
        Reader {
            byte,
            priority,
            at,
            format,
            ask: Ask::Always,
        }
    }

    /// The same reader, asked as `ask` says.
    pub(crate) const fn asked(self, ask: Ask) -> Reader {
        Reader { ask, ..self }
    }
}
