//! A call's arguments written as a bare JSON object after a marker that names the tool
//! (harmony's `to=functions.NAME`, Functionary's `<function=NAME>`), and the closing marker
//! that may follow it.

use super::cursor::{prefix, skip_ws, Cx, Need, Prefix};
use super::error::{Cut, TextErrorKind};
use super::json::{self, Extent};
use super::object::normalize_arguments;

/// The arguments object at `start` (a `{`): where it ends and its JSON text, or why it can't
/// be read. An object the text cuts off is an error even where closing it would be possible:
/// the arguments after the cut are unknown.
pub(crate) fn read(
    cx: &Cx,
    text: &str,
    start: usize,
) -> Result<(usize, Result<String, TextErrorKind>), Need> {
    match json::extent_or_wait(cx.eof, text, start)? {
        Extent::Closed(end) => Ok((end, from_json(&text[start..end]))),
        Extent::Open(open) => {
            let cut = open.close(text, start).err().unwrap_or(Cut::InMarkup);
            Ok((text.len(), Err(TextErrorKind::Truncated(cut))))
        }
        Extent::TooDeep => Ok((text.len(), Err(TextErrorKind::TooDeep))),
    }
}

/// JSON text of an arguments object (or of a string holding one) as the arguments.
pub(crate) fn from_json(raw: &str) -> Result<String, TextErrorKind> {
    let valid = json::to_valid(raw.trim())?;
    normalize_arguments(&valid)
}

/// Where a call that ends at `end` really ends: after one of `closers` when it comes next
/// (after whitespace), else at `end`. `Err` when the text seen so far can't tell.
pub(crate) fn closed_by(cx: &Cx, text: &str, end: usize, closers: &[&str]) -> Result<usize, Need> {
    let after = skip_ws(text, end);
    if after == text.len() {
        return if cx.eof { Ok(end) } else { Err(Need::Any) };
    }
    let mut partial = false;
    for closer in closers {
        match prefix(text, after, closer, cx.eof) {
            Prefix::Yes => return Ok(after + closer.len()),
            Prefix::Partial => partial = true,
            Prefix::No => {}
        }
    }
    if partial {
        Err(Need::Any)
    } else {
        Ok(end)
    }
}

/// The first of `markers` at or after `from`: where it starts and where it ends.
///
/// The text is walked from one byte a marker starts with to the next, so the search costs the
/// distance to the nearest marker: searching the whole rest of the text for each marker, once
/// per call, made a text of many calls cost its square when one marker was never there.
pub(crate) fn find_first(text: &str, from: usize, markers: &[&str]) -> Option<(usize, usize)> {
    let hay = text.as_bytes();
    let mut firsts: Vec<u8> = markers.iter().filter_map(|m| m.bytes().next()).collect();
    firsts.sort_unstable();
    firsts.dedup();
    let next = |at: usize| -> Option<usize> {
        let rest = hay.get(at..)?;
        let n = match *firsts.as_slice() {
            [a] => memchr::memchr(a, rest),
            [a, b] => memchr::memchr2(a, b, rest),
            [a, b, c] => memchr::memchr3(a, b, c, rest),
            _ => rest.iter().position(|b| firsts.contains(b)),
        };
        n.map(|n| at + n)
    };
    let mut at = from;
    while let Some(start) = next(at) {
        let found = markers
            .iter()
            .filter(|m| hay[start..].starts_with(m.as_bytes()))
            .map(|m| start + m.len())
            .min();
        if let Some(end) = found {
            return Some((start, end));
        }
        at = start + 1;
    }
    None
}
