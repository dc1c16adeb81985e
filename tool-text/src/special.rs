//! Formats written in a model's own special tokens: DeepSeek's `<｜tool▁calls▁begin｜>` and
//! DSML `<｜DSML｜..>` tags (`deepseek.rs`), Kimi's `<|tool_calls_section_begin|>` and K3's
//! `<|open|>..<|sep|>` channels (`kimi.rs`). Every one starts with `<｜` or `<|`, so one matcher
//! for `<` looks at them all; what they share is here.
//!
//! Each format writes its calls in a block that opens with a marker of its own: a marker alone
//! (a closing tag quoted in prose, a call marker with no block around it) is prose. Inside the
//! block, as in the other formats: one bad call costs one error, a call cut off is an error
//! and never a guess (unless it was cut between whole values, as JSON cut between values is
//! closed), and a marker inside a JSON string is not the end.

use super::coerce::coerce;
use super::cursor::{prefix, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::json::{self, Extent};
use super::object::normalize_arguments;
use super::{deepseek, kimi};
use memchr::memmem;
use serde_json::Value;
use std::ops::Range;

/// DeepSeek's `<｜` and Kimi's `<|` special tokens.
pub(crate) const READER: Reader = Reader::new(b'<', 180, at, None);

/// Whether the matcher reads calls when parsing in `format`.
#[cfg(test)]
pub(crate) fn handles(format: TextFormat) -> bool {
    format == TextFormat::Auto || deepseek::handles(format) || kimi::handles(format)
}

/// A block of calls in special tokens opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    match text.as_bytes().get(pos + 1) {
        // `<|`: Kimi.
        Some(b'|') => kimi::at(cx, text, pos),
        // `<｜` (U+FF5C, `EF BD 9C`): DeepSeek.
        Some(0xEF) => deepseek::at(cx, text, pos),
        Some(_) => Step::Prose(1),
        None => cx.more(Need::Any),
    }
}

/// One call read from a block: where it ends, what it is, and the format it is written in
/// when the block's markers leave that open (DeepSeek V3 and V3.1 share theirs).
pub(crate) struct Read {
    pub end: usize,
    pub item: Item,
    pub format: Option<TextFormat>,
}

impl Read {
    pub(crate) fn new(end: usize, item: Item) -> Read {
        Read {
            end,
            item,
            format: None,
        }
    }
}

/// A block's markers: what closes it, what opens each call in it, and what its calls are
/// expected to start with (for the error when something else is there).
pub(crate) struct Block {
    pub format: TextFormat,
    pub close: &'static str,
    pub call: &'static str,
    pub expected: &'static str,
}

/// The calls in a block whose opening marker runs from `pos` to `body`: each call (read by
/// `read_call` at its marker), whitespace around them, then the closing marker. The block ends
/// where it closes; left open, after its last call (what follows is prose), or where the text
/// ends. A block with no call in it is one error, up to its closing marker.
pub(crate) fn block(
    cx: &Cx,
    text: &str,
    pos: usize,
    body: usize,
    block: &Block,
    read_call: &dyn Fn(&Cx, &str, usize) -> Result<Read, Need>,
) -> Step {
    let mut items = Vec::new();
    let mut format = None;
    let mut last = body;
    loop {
        let at = skip_ws(text, last);
        if at == text.len() {
            if !cx.eof {
                return Step::More(Need::Any);
            }
            if items.is_empty() {
                return region(
                    pos,
                    text.len(),
                    vec![error(
                        pos..text.len(),
                        TextErrorKind::Truncated(Cut::InMarkup),
                    )],
                    block.format,
                );
            }
            return region(pos, last, items, format.unwrap_or(block.format));
        }
        match prefix(text, at, block.close, cx.eof) {
            Prefix::Yes => {
                let end = at + block.close.len();
                if items.is_empty() {
                    items.push(error(pos..end, TextErrorKind::Empty));
                }
                return region(pos, end, items, format.unwrap_or(block.format));
            }
            Prefix::Partial => return Step::More(Need::Any),
            Prefix::No => {}
        }
        match prefix(text, at, block.call, cx.eof) {
            Prefix::Yes => match read_call(cx, text, at) {
                Ok(read) => {
                    if matches!(read.item, Item::Call { .. }) {
                        format = format.or(read.format);
                    }
                    items.push(read.item);
                    last = read.end.max(at + 1);
                    continue;
                }
                Err(need) => return cx.more(need),
            },
            Prefix::Partial => return Step::More(Need::Any),
            Prefix::No => {}
        }
        // Something else: after calls, the block ends with them (left open); before any, it is
        // all one error, up to the block's close.
        if !items.is_empty() {
            return region(pos, last, items, format.unwrap_or(block.format));
        }
        let kind = TextErrorKind::Syntax {
            expected: block.expected,
        };
        return match memmem::find(&text.as_bytes()[at..], block.close.as_bytes()) {
            Some(n) => {
                let end = at + n + block.close.len();
                region(pos, end, vec![error(pos..end, kind)], block.format)
            }
            None if !cx.eof => Step::More(last_byte(block.close)),
            None => region(
                pos,
                text.len(),
                vec![error(pos..text.len(), kind)],
                block.format,
            ),
        };
    }
}

/// A call's head, from `head` up to the first `<`, which must open `sep`: where `sep` starts.
/// A head running to the end of the text is a call cut off; one followed by another marker is
/// an error, up to `call_end` when that is the marker.
pub(crate) fn head(
    cx: &Cx,
    text: &str,
    at: usize,
    head: usize,
    sep: &str,
    call_end: &str,
    expected: &'static str,
) -> Result<Result<usize, Read>, Need> {
    let Some(lt) = memchr::memchr(b'<', &text.as_bytes()[head..]).map(|n| head + n) else {
        if !cx.eof {
            return Err(Need::Byte(b'<', b'<'));
        }
        return Ok(Err(cut(at, text.len())));
    };
    match prefix(text, lt, sep, cx.eof) {
        Prefix::Yes => Ok(Ok(lt)),
        Prefix::Partial => Err(Need::Any),
        Prefix::No => {
            let end = match prefix(text, lt, call_end, cx.eof) {
                Prefix::Yes => lt + call_end.len(),
                Prefix::Partial => return Err(Need::Any),
                Prefix::No => lt,
            };
            let kind = TextErrorKind::Syntax { expected };
            Ok(Err(Read::new(end, error(at..end, kind))))
        }
    }
}

/// A call cut off in its markup, from `at` to `end`.
pub(crate) fn cut(at: usize, end: usize) -> Read {
    Read::new(end, error(at..end, TextErrorKind::Truncated(Cut::InMarkup)))
}

/// A call region from `start` to `end`, in `format`; a lone error in it covers all of it.
fn region(start: usize, end: usize, items: Vec<Item>, format: TextFormat) -> Step {
    super::cursor::region(start, end, items).in_format(format)
}

/// The JSON arguments of a call, from `start` (after the call's name and separator, any
/// whitespace and opening code fence skipped) to the call's end marker `close`: a `{..}` object
/// (repaired as in the other JSON formats, a string holding one decoded), or nothing before
/// the marker (no arguments). Text between the object and the marker (a closing code fence, a
/// brace too many) is left out with the call. Returns where the call ends and its arguments.
pub(crate) fn json_arguments(
    cx: &Cx,
    text: &str,
    start: usize,
    close: &'static str,
) -> Result<(usize, Result<String, TextErrorKind>), Need> {
    let bytes = text.as_bytes();
    let at = skip_ws(text, start);
    let (json_end, arguments) = match bytes.get(at) {
        None if !cx.eof => return Err(Need::Any),
        None => return Ok((text.len(), Err(TextErrorKind::Truncated(Cut::InMarkup)))),
        Some(b'{') => {
            // The object ends at the call's end marker at the latest (one outside its
            // strings): a brace left out costs this call, never the calls after it.
            let (upto, extent, bounded) = match json::extent_before(text, at, close) {
                Some((upto, extent)) => (upto, extent, true),
                None => (text.len(), json::extent_or_wait(cx.eof, text, at)?, false),
            };
            match extent {
                Extent::Closed(end) => (end, arguments_object(&text[at..end])),
                // No end marker: the end of the message cut the object, after which anything
                // may have come.
                Extent::Open(open) if !bounded => (
                    upto,
                    Err(TextErrorKind::Truncated(
                        open.close(&text[..upto], at).err().unwrap_or(Cut::InMarkup),
                    )),
                ),
                Extent::Open(open) => (
                    upto,
                    open.close(&text[..upto], at)
                        .map_err(TextErrorKind::Truncated)
                        .and_then(|closed| arguments_object(&closed)),
                ),
                Extent::TooDeep => (upto, Err(TextErrorKind::TooDeep)),
            }
        }
        Some(b'<') => match prefix(text, at, close, cx.eof) {
            // The call closes with no arguments written: it has none.
            Prefix::Yes => return Ok((at + close.len(), Ok("{}".to_owned()))),
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => {
                return Ok((
                    at,
                    Err(TextErrorKind::Syntax {
                        expected: "a JSON object of arguments",
                    }),
                ))
            }
        },
        Some(_) => {
            // Not an object: the call is an error, to its end marker.
            let end = match memmem::find(&bytes[at..], close.as_bytes()) {
                Some(n) => at + n + close.len(),
                None if !cx.eof => return Err(last_byte(close)),
                None => text.len(),
            };
            return Ok((
                end,
                Err(TextErrorKind::Syntax {
                    expected: "a JSON object of arguments",
                }),
            ));
        }
    };
    // The end marker, after whatever the model wrote between (no tag).
    let end = match memchr::memchr(b'<', &bytes[json_end..]) {
        None if !cx.eof => return Err(Need::Byte(b'<', b'<')),
        None => json_end,
        Some(n) => match prefix(text, json_end + n, close, cx.eof) {
            Prefix::Yes => json_end + n + close.len(),
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => json_end,
        },
    };
    Ok((end, arguments))
}

/// Arguments written as a JSON object, repaired if need be.
fn arguments_object(text: &str) -> Result<String, TextErrorKind> {
    let valid = json::to_valid(text)?;
    normalize_arguments(&valid)
}

/// A value written as JSON (DSML's `string="false"`, K3's typed arguments); when it is not
/// valid JSON, typed with the tool's schema as raw text is (Qwen3 XML values).
pub(crate) fn json_value(raw: &str, schema: Option<&Value>, key: &str) -> Value {
    json::to_valid(raw.trim())
        .ok()
        .and_then(|valid| serde_json::from_str(&valid).ok())
        .unwrap_or_else(|| coerce(raw, schema, key))
}

/// A tag's `key="value"` attributes (single quotes too), as written; `None` when `text` is
/// not a list of them.
pub(crate) fn attributes(text: &str) -> Option<Vec<(&str, &str)>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == bytes.len() {
            return Some(found);
        }
        let key = i;
        while i < bytes.len()
            && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-'))
        {
            i += 1;
        }
        if i == key {
            return None;
        }
        let name = &text[key..i];
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes.get(i) != Some(&b'=') {
            return None;
        }
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let quote = *bytes.get(i).filter(|q| matches!(q, b'"' | b'\''))?;
        let close = i + 1 + memchr::memchr(quote, &bytes[i + 1..])?;
        found.push((name, &text[i + 1..close]));
        i = close + 1;
    }
}

/// A tag read up to its end: its attributes and where it ends; or, broken, where the error
/// ends and why.
pub(crate) type Tag<'t> = Result<(Vec<(&'t str, &'t str)>, usize), (usize, TextErrorKind)>;

/// One argument read (a DSML parameter, a K3 argument): where it ends, and its key and value
/// or what is wrong with it.
pub(crate) type Argument = (usize, Result<(String, Value), TextErrorKind>);

/// The value of attribute `key`.
pub(crate) fn attribute<'a>(attributes: &[(&str, &'a str)], key: &str) -> Option<&'a str> {
    attributes
        .iter()
        .rev()
        .find(|(name, _)| *name == key)
        .map(|(_, value)| *value)
}

/// Where a broken call that goes on from `from` ends: after its own closing `marker`, or
/// before its block's `close`, whichever comes first. `None` when neither has come yet.
pub(crate) fn skip_to(text: &str, from: usize, marker: &str, close: &str) -> Option<usize> {
    let rest = &text.as_bytes()[from..];
    let own = memmem::find(rest, marker.as_bytes());
    let outer = memmem::find(rest, close.as_bytes());
    match (own, outer) {
        (Some(own), Some(outer)) if outer < own => Some(from + outer),
        (Some(own), _) => Some(from + own + marker.len()),
        (None, Some(outer)) => Some(from + outer),
        (None, None) => None,
    }
}

/// What to wait for when only the closing `marker` (ending in `>`) decides.
pub(crate) fn last_byte(marker: &str) -> Need {
    let last = marker.as_bytes()[marker.len() - 1];
    Need::Byte(last, last)
}

pub(crate) fn error(span: Range<usize>, kind: TextErrorKind) -> Item {
    Item::Error { span, kind }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_read_or_refused() {
        assert_eq!(
            attributes(r#" name="get_weather"  string='true' "#),
            Some(vec![("name", "get_weather"), ("string", "true")])
        );
        assert_eq!(attributes(""), Some(vec![]));
        assert_eq!(attributes(r#"name="cut"#), None);
        assert_eq!(attributes("name"), None);
        assert_eq!(attributes(r#"="x""#), None);
    }
}
