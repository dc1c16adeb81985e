//! What the markups that write a call as a name and key/value pairs share (`glm.rs`,
//! `invoke_xml.rs`, `plamo.rs`): a group of calls between two markers, read one call at a time;
//! attribute values; and the arguments object, its values typed with the tool's input schema
//! (`coerce.rs`). The markers themselves are data in each family's table.
//!
//! A group's rules are those of the other formats: one bad call costs one error, the calls
//! after it are still read; a group cut off at the end of the text keeps the calls it had
//! completed, and a call cut off is an error, never a guess; text inside a group that is no
//! call is an error, not prose.

use super::coerce::{coerce, coerce_hinted};
use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use memchr::memmem;
use serde_json::{Map, Value};
use std::ops::Range;

/// Calls written one after another between an opening and a closing marker.
#[derive(Debug)]
pub(crate) struct Group<'a> {
    pub format: TextFormat,
    pub open: &'a str,
    pub close: &'a str,
    /// Markers that may stand between the calls and hold nothing (Step-3's per-call tokens).
    pub filler: &'static [&'static str],
}

/// What a family's reader finds at a point inside a group.
pub(crate) enum Read {
    /// A call, or the error it is, and where it ends.
    Done(usize, Item),
    /// Several calls written in one call's markup (K2 Horizon's JSON list), and where it ends.
    Calls(usize, Vec<Item>),
    /// No call starts here.
    NotACall,
    /// The text seen so far can't tell.
    Wait(Need),
}

/// A call reader: the call (if any) at a byte of the text.
pub(crate) type Reader<'r> = &'r dyn Fn(&Cx, &str, usize) -> Read;

/// What a group waits for: every marker of these markups opens with `<` and closes with `>`,
/// so nothing inside a group is decided before one of them arrives.
pub(crate) const NEXT_TAG: Need = Need::Byte(b'<', b'>');

/// The calls of `group`, whose opening marker is at `pos`, each read by `read`.
///
/// A new opening marker before this group closed means the model started over: the group
/// ends there and the new one is read on its own, and a call still open at that point is
/// read as cut there (an error where a value was cut), never as finished.
pub(crate) fn read_group(cx: &Cx, text: &str, pos: usize, group: &Group, read: Reader) -> Step {
    let mut items = Vec::new();
    // Where the calls read so far end, and where text that is no call began.
    let mut last_end = pos + group.open.len();
    let mut junk: Option<usize> = None;
    let mut i = last_end;
    // Where the next group opens (the end of the text when none does yet): found once, since
    // this group ends there, so it costs one pass however many calls it holds.
    let reopen = find(text, i..text.len(), group.open).unwrap_or(text.len());
    loop {
        i = skip_ws(text, i);
        if i == reopen && reopen < text.len() {
            flush(text, &mut junk, i, &mut items);
            if items.is_empty() {
                let kind = TextErrorKind::Truncated(Cut::InMarkup);
                return region(pos, i, vec![error(pos..i, kind)]);
            }
            return region(pos, i, items);
        }
        if i >= text.len() {
            if !cx.eof {
                return Step::More(NEXT_TAG);
            }
            // Never closed: the calls end with the last one, and what follows is prose.
            if items.is_empty() {
                let kind = TextErrorKind::Truncated(Cut::InMarkup);
                return region(pos, text.len(), vec![error(pos..text.len(), kind)]);
            }
            return region(pos, last_end, items);
        }
        match prefix(text, i, group.close, cx.eof) {
            Prefix::Yes => {
                flush(text, &mut junk, i, &mut items);
                let end = i + group.close.len();
                if items.is_empty() {
                    items.push(error(pos..end, TextErrorKind::Empty));
                }
                return region(pos, end, items);
            }
            Prefix::Partial => return Step::More(NEXT_TAG),
            Prefix::No => {}
        }
        match prefix_any(text, i, group.filler, cx.eof) {
            Any::Yes(filler) => {
                flush(text, &mut junk, i, &mut items);
                i += filler.len();
                last_end = i;
                continue;
            }
            Any::Partial => return Step::More(NEXT_TAG),
            Any::No => {}
        }
        // The call may not run into the next group: there, its text ends.
        let (upto, cut) = if reopen < text.len() {
            (&text[..reopen], &Cx { eof: true, ..*cx })
        } else {
            (text, cx)
        };
        match read(cut, upto, i) {
            Read::Done(end, item) => {
                flush(text, &mut junk, i, &mut items);
                items.push(item);
                i = end.max(i + 1);
                last_end = i;
            }
            Read::Calls(end, calls) => {
                flush(text, &mut junk, i, &mut items);
                items.extend(calls);
                i = end.max(i + 1);
                last_end = i;
            }
            Read::Wait(need) => return Step::More(need),
            Read::NotACall => {
                junk.get_or_insert(i);
                i = memchr::memchr(b'<', &text.as_bytes()[i + 1..])
                    .map_or(text.len(), |n| i + 1 + n)
                    .min(reopen);
            }
        }
    }
}

/// Reports the text that was no call, from where it began to `at`.
fn flush(text: &str, junk: &mut Option<usize>, at: usize, items: &mut Vec<Item>) {
    if let Some(start) = junk.take() {
        let end = start + text[start..at].trim_end().len();
        let kind = TextErrorKind::Syntax {
            expected: "a tool call",
        };
        items.push(error(start..end, kind));
    }
}

pub(crate) fn error(span: Range<usize>, kind: TextErrorKind) -> Item {
    Item::Error { span, kind }
}

/// Which of several markers the text starts with somewhere.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Any {
    Yes(&'static str),
    /// The text ends inside one of them.
    Partial,
    No,
}

/// Which of `tags` `text[pos..]` starts with.
pub(crate) fn prefix_any(text: &str, pos: usize, tags: &[&'static str], eof: bool) -> Any {
    let mut partial = false;
    for tag in tags {
        match prefix(text, pos, tag, eof) {
            Prefix::Yes => return Any::Yes(tag),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    if partial {
        Any::Partial
    } else {
        Any::No
    }
}

/// The first `needle` in `text[range]`.
pub(crate) fn find(text: &str, range: Range<usize>, needle: &str) -> Option<usize> {
    let hay = text.as_bytes().get(range.clone())?;
    memmem::find(hay, needle.as_bytes()).map(|n| range.start + n)
}

/// The first of `needles` (markers that open with `<`) in `text[from..end]`: where, and which.
pub(crate) fn first_of(
    text: &str,
    from: usize,
    end: usize,
    needles: &[&'static str],
) -> Option<(usize, &'static str)> {
    first_of_in(text, from, end, needles, false)
}

/// [`first_of`], where `cdata` says the text is XML whose CDATA sections (`<![CDATA[..]]>`)
/// hold text, never markup: a needle inside one is passed over. An unclosed section runs to
/// the end.
pub(crate) fn first_of_in(
    text: &str,
    from: usize,
    end: usize,
    needles: &[&'static str],
    cdata: bool,
) -> Option<(usize, &'static str)> {
    const CDATA_OPEN: &[u8] = b"<![CDATA[";
    let hay = text.as_bytes().get(..end)?;
    let mut at = from;
    while let Some(n) = memchr::memchr(b'<', hay.get(at..)?) {
        let lt = at + n;
        if let Some(needle) = needles.iter().find(|n| hay[lt..].starts_with(n.as_bytes())) {
            return Some((lt, needle));
        }
        at = match cdata && hay[lt..].starts_with(CDATA_OPEN) {
            true => lt + memmem::find(&hay[lt..], b"]]>")? + 3,
            false => lt + 1,
        };
    }
    None
}

/// An attribute's value at `at` (just after `name=`), before `end`: quoted with `"` or `'`, or
/// bare up to a space or `>`. The value's place and where the attribute ends; `None` when it
/// doesn't end before `end`.
pub(crate) fn attribute(text: &str, at: usize, end: usize) -> Option<(Range<usize>, usize)> {
    let bytes = text.as_bytes().get(..end)?;
    let at = skip_ws(text, at).min(end);
    match *bytes.get(at)? {
        quote @ (b'"' | b'\'') => {
            let close = at + 1 + memchr::memchr(quote, &bytes[at + 1..])?;
            Some((at + 1..close, close + 1))
        }
        _ => {
            let stop = at
                + bytes[at..]
                    .iter()
                    .position(|&b| b == b'>' || b.is_ascii_whitespace())?;
            Some((at..stop, stop))
        }
    }
}

/// A call's arguments, each value typed with the tool's input schema as it is added.
pub(crate) struct Args<'a> {
    schema: Option<&'a Value>,
    map: Map<String, Value>,
}

impl<'a> Args<'a> {
    /// The arguments of a call to `name`.
    pub(crate) fn new(cx: &Cx<'a>, name: &str) -> Args<'a> {
        Args {
            schema: cx.tools.input_schema(name),
            map: Map::new(),
        }
    }

    /// Adds `key`, written as `raw`; a key written twice keeps its last value, as the peers'
    /// dictionaries do.
    pub(crate) fn insert(&mut self, key: &str, raw: &str) {
        let value = coerce(raw, self.schema, key);
        self.map.insert(key.to_owned(), value);
    }

    /// Adds `key`, written as `raw` with its type beside it.
    pub(crate) fn insert_hinted(&mut self, key: &str, raw: &str, hint: &str) {
        let value = coerce_hinted(raw, self.schema, key, hint);
        self.map.insert(key.to_owned(), value);
    }

    /// The arguments as JSON object text.
    pub(crate) fn json(self) -> String {
        Value::Object(self.map).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_quoted_or_bare() {
        let text = r#"name="a b">x name='c'> name=d> name="open"#;
        assert_eq!(attribute(text, 5, text.len()), Some((6..9, 10)));
        let at = text.find("'c'").unwrap();
        assert_eq!(
            attribute(text, at, text.len()),
            Some((at + 1..at + 2, at + 3))
        );
        let at = text.find("d>").unwrap();
        assert_eq!(attribute(text, at, text.len()), Some((at..at + 1, at + 1)));
        let at = text.rfind('"').unwrap();
        assert_eq!(attribute(text, at, text.len()), None);
        assert_eq!(attribute(text, 5, 8), None);
    }

    #[test]
    fn the_first_of_several_markers_is_found() {
        let text = "a < b <x> <y>";
        assert_eq!(
            first_of(text, 0, text.len(), &["<y>", "<x>"]),
            Some((6, "<x>"))
        );
        assert_eq!(
            first_of(text, 7, text.len(), &["<y>", "<x>"]),
            Some((10, "<y>"))
        );
        assert_eq!(first_of(text, 0, 8, &["<y>", "<x>"]), None);
    }
}
