//! Cutting text to a byte budget: the middle goes, the head and the tail stay (the tail is
//! where a command's errors and a log's last lines are), cut on UTF-8 boundaries and, when
//! one is near, on line boundaries, with a marker in between that says what went.
//!
//! The marker is one line, `[... truncated 91234 of 100000 bytes, 1203 lines ...]`: bytes and
//! line breaks removed, of the original size. Like codex-rs's `truncate_middle`, the result
//! including the marker fits the budget; unlike it, the marker's size is bounded up front
//! (every count is at most the original size), so one pass is enough.

use super::Truncation;
use std::ops::Range;

const OPEN: &str = "[... truncated ";
const CLOSE: &str = " lines ...]";

/// A cut text and what was cut.
pub(crate) struct MiddleCut {
    pub text: String,
    pub truncation: Truncation,
    /// Where the marker, with the line breaks that set it apart, lies in `text`.
    pub inserted: Range<usize>,
}

/// The marker line for a truncation.
pub(crate) fn marker(t: &Truncation) -> String {
    format!(
        "{OPEN}{} of {} bytes, {}{CLOSE}",
        t.removed_bytes, t.original_bytes, t.removed_lines
    )
}

/// The longest a marker for a text of `original` bytes can be, with the two line breaks that
/// set it apart: each count has at most as many digits as the size.
pub(crate) fn longest_marker(original: usize) -> usize {
    let digits = original.to_string().len();
    OPEN.len() + " of ".len() + " bytes, ".len() + CLOSE.len() + 3 * digits + 2
}

/// Cuts `text` to at most `max` bytes (or to the marker alone, if the marker doesn't fit);
/// `None` when it already fits.
pub(crate) fn truncate_middle(text: &str, max: usize) -> Option<MiddleCut> {
    if text.len() <= max {
        return None;
    }
    Some(cut(
        &Seen {
            head: text,
            tail: text,
            len: text.len(),
            lines: None,
        },
        max,
    ))
}

/// A text known by its head and its tail: the whole text, or, for a text streamed through a
/// [`Window`], the first and the last bytes of it with its length and line count.
struct Seen<'a> {
    /// The text's first bytes: all of it, or at least `max / 2 + 4` (whole chars).
    head: &'a str,
    /// The text's last bytes: all of it, or at least `max + 1` (starting on a char).
    tail: &'a str,
    len: usize,
    /// The text's line breaks, when `head` and `tail` aren't the whole text.
    lines: Option<usize>,
}

/// [`truncate_middle`] of a text over `max`, from what is seen of it.
fn cut(seen: &Seen<'_>, max: usize) -> MiddleCut {
    let original = seen.len;
    let longest = longest_marker(original);
    let keep = max.saturating_sub(longest);
    let head_budget = keep / 2;
    let head_end = head_end(seen.head, head_budget);
    let tail_offset = original - seen.tail.len();
    let tail_start = (tail_offset + tail_start(seen.tail, keep - head_budget)).max(head_end);
    let (head, tail) = (
        &seen.head[..head_end],
        &seen.tail[tail_start - tail_offset..],
    );

    let count = |text: &str| memchr::memchr_iter(b'\n', text.as_bytes()).count();
    let removed_lines = match seen.lines {
        // The whole text is here: count what goes.
        None => count(&seen.head[head_end..tail_start]),
        Some(lines) => lines - count(head) - count(tail),
    };
    let truncation = Truncation {
        original_bytes: original,
        removed_bytes: tail_start - head_end,
        removed_lines,
    };
    let mut out = String::with_capacity(max.max(longest));
    out.push_str(head);
    let start = out.len();
    if !head.is_empty() && !head.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&marker(&truncation));
    if !tail.is_empty() {
        out.push('\n');
    }
    let inserted = start..out.len();
    out.push_str(tail);
    MiddleCut {
        text: out,
        truncation,
        inserted,
    }
}

/// A text read piece by piece and cut as [`truncate_middle`] would cut it whole, holding only
/// its first and last bytes: memory bounded by the budget, however long the text.
#[derive(Default)]
pub(crate) struct Window {
    /// The most of each end kept: enough for any cut to `max` bytes.
    keep: usize,
    head: String,
    tail: String,
    len: usize,
    lines: usize,
    /// Whether bytes between `head` and `tail` were let go.
    gapped: bool,
}

impl Window {
    /// A window for cuts to at most `max` bytes.
    pub(crate) fn new(max: usize) -> Window {
        let mut window = Window::default();
        window.reset(max);
        window
    }

    /// Forgets the text read so far (keeping the buffers) for a cut to at most `max` bytes.
    pub(crate) fn reset(&mut self, max: usize) {
        self.keep = max + 8;
        self.head.clear();
        self.tail.clear();
        self.len = 0;
        self.lines = 0;
        self.gapped = false;
    }

    /// Reads the next piece of the text.
    pub(crate) fn push(&mut self, piece: &str) {
        self.len += piece.len();
        self.lines += memchr::memchr_iter(b'\n', piece.as_bytes()).count();
        let mut rest = piece;
        if self.tail.is_empty() && self.head.len() < self.keep {
            let mut room = (self.keep - self.head.len()).min(rest.len());
            while !rest.is_char_boundary(room) {
                room -= 1;
            }
            self.head.push_str(&rest[..room]);
            rest = &rest[room..];
        }
        self.tail.push_str(rest);
        if self.tail.len() > 2 * self.keep {
            // Let go of all but the last `keep` bytes (from a char's start).
            let mut from = self.tail.len() - self.keep;
            while !self.tail.is_char_boundary(from) {
                from -= 1;
            }
            self.tail.drain(..from);
            self.gapped = true;
        }
    }

    /// The text read, cut to at most `max` bytes (at most what [`Window::new`] was given);
    /// `None` when it fits.
    pub(crate) fn cut(&self, max: usize) -> Option<MiddleCut> {
        if self.len <= max {
            return None;
        }
        if !self.gapped {
            let whole = format!("{}{}", self.head, self.tail);
            return truncate_middle(&whole, max);
        }
        Some(cut(
            &Seen {
                head: &self.head,
                tail: &self.tail,
                len: self.len,
                lines: Some(self.lines),
            },
            max,
        ))
    }
}

/// Where the head ends: at most `budget` bytes, on a char boundary, after the last line break
/// in the budget's final quarter if there is one.
fn head_end(text: &str, budget: usize) -> usize {
    let mut end = budget.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let window = end - (budget / 4).min(end);
    match memchr::memrchr(b'\n', &text.as_bytes()[window..end]) {
        Some(i) => window + i + 1,
        None => end,
    }
}

/// Where the tail starts: at most `budget` bytes before the end, on a char boundary, at the
/// start of the first whole line in the budget's first quarter if there is one.
fn tail_start(text: &str, budget: usize) -> usize {
    let len = text.len();
    let mut start = len - budget.min(len);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    if start == len {
        return len;
    }
    // From the byte before, so a tail that already starts a line stays where it is.
    let from = start.saturating_sub(1);
    let to = (start + budget / 4).min(len);
    match memchr::memchr(b'\n', &text.as_bytes()[from..to]) {
        Some(i) => (from + i + 1).max(start),
        None => start,
    }
}

/// Finds the marker [`truncate_middle`] left in `text` and reads it back.
///
/// Only a marker whose counts agree with the text's length is taken, so a text that merely
/// quotes a marker isn't mistaken for a truncated one.
pub(crate) fn find(text: &str) -> Option<Truncation> {
    for at in memchr::memmem::find_iter(text.as_bytes(), OPEN) {
        let Some((truncation, len)) = parse(&text[at + OPEN.len()..]) else {
            continue;
        };
        let marker = OPEN.len() + len;
        let kept = truncation.original_bytes - truncation.removed_bytes;
        // Checked: a text may quote a marker with any counts.
        let Some(expected) = kept.checked_add(marker) else {
            continue;
        };
        if (expected..=expected.saturating_add(2)).contains(&text.len()) {
            return Some(truncation);
        }
    }
    None
}

/// `"{removed} of {original} bytes, {lines} lines ...]"` → the counts and the length read.
fn parse(rest: &str) -> Option<(Truncation, usize)> {
    let (removed, rest_1) = number(rest)?;
    let rest_1 = rest_1.strip_prefix(" of ")?;
    let (original, rest_2) = number(rest_1)?;
    let rest_2 = rest_2.strip_prefix(" bytes, ")?;
    let (lines, rest_3) = number(rest_2)?;
    let rest_3 = rest_3.strip_prefix(CLOSE)?;
    if removed > original || lines > removed {
        return None;
    }
    let truncation = Truncation {
        original_bytes: original,
        removed_bytes: removed,
        removed_lines: lines,
    };
    Some((truncation, rest.len() - rest_3.len()))
}

fn number(text: &str) -> Option<(usize, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    Some((text[..digits].parse().ok()?, &text[digits..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, max: usize) -> MiddleCut {
        truncate_middle(text, max).expect("over the budget")
    }

    /// The cut text is the head, the marker and the tail, and the counts add up.
    fn check(text: &str, max: usize) -> MiddleCut {
        let cut = cut(text, max);
        let head = &cut.text[..cut.inserted.start];
        let tail = &cut.text[cut.inserted.end..];
        let marker_only = head.is_empty() && tail.is_empty();
        assert!(
            cut.text.len() <= max || marker_only,
            "{} > {max}",
            cut.text.len()
        );
        assert!(text.starts_with(head));
        assert!(text.ends_with(tail));
        let t = cut.truncation;
        assert_eq!(t.original_bytes, text.len());
        assert_eq!(head.len() + t.removed_bytes + tail.len(), text.len());
        let removed = &text[head.len()..text.len() - tail.len()];
        assert_eq!(t.removed_lines, removed.matches('\n').count());
        assert_eq!(cut.text[cut.inserted.clone()].trim(), marker(&t));
        assert_eq!(find(&cut.text), Some(t));
        cut
    }

    #[test]
    fn text_that_fits_is_left_alone() {
        assert!(truncate_middle("short", 5).is_none());
        assert!(truncate_middle("", 0).is_none());
    }

    #[test]
    fn multi_byte_text_is_cut_on_char_boundaries() {
        for unit in ["é", "🦀", "aé🦀"] {
            let text = unit.repeat(100_000 / unit.len());
            let cut = check(&text, 8192);
            assert!(cut.text.len() > 8000, "kept too little: {}", cut.text.len());
            let t = cut.truncation;
            assert_eq!(t.removed_lines, 0);
            assert!(cut.text.starts_with(unit) && cut.text.ends_with(unit));
        }
    }

    #[test]
    fn lines_are_cut_whole_when_a_break_is_near() {
        let text: String = (0..10_000).map(|i| format!("line {i} 🦀\n")).collect();
        let cut = check(&text, 4096);
        let head = &cut.text[..cut.inserted.start];
        let tail = &cut.text[cut.inserted.end..];
        assert!(head.ends_with('\n'), "{head:?}");
        assert!(tail.starts_with("line "), "{tail:?}");
        assert!(tail.ends_with("line 9999 🦀\n"));
        // Whole lines went: their count is exact.
        let kept = head.lines().count() + tail.lines().count();
        assert_eq!(cut.truncation.removed_lines, 10_000 - kept);
        assert!(cut.text.contains(&format!(
            "\n[... truncated {} of {} bytes, {} lines ...]\n",
            cut.truncation.removed_bytes,
            text.len(),
            cut.truncation.removed_lines
        )));
    }

    #[test]
    fn one_long_line_is_cut_mid_line() {
        let text = "x".repeat(50_000);
        let cut = check(&text, 1000);
        assert!(cut.text.starts_with("xxx") && cut.text.ends_with("xxx"));
    }

    #[test]
    fn a_budget_smaller_than_the_marker_keeps_only_the_marker() {
        let cut = check(&"abc\n".repeat(100), 10);
        assert_eq!(cut.text, marker(&cut.truncation));
        assert_eq!(cut.truncation.removed_bytes, 400);
        assert_eq!(cut.truncation.removed_lines, 100);
    }

    #[test]
    fn every_budget_holds() {
        let text = "ab\ncdé🦀\n\nxyz".repeat(40);
        for max in 0..text.len() {
            check(&text, max);
        }
    }

    #[test]
    fn a_quoted_marker_is_not_a_truncation() {
        assert_eq!(find("[... truncated 5 of 10 bytes, 0 lines ...]"), None);
        assert_eq!(
            find("see [... truncated 5 of 100 bytes, 1 lines ...]"),
            None
        );
        assert_eq!(find("[... truncated x of 10 bytes, 0 lines ...]"), None);
    }

    /// A text streamed through a window in pieces of any size is cut exactly as it is whole.
    #[test]
    fn a_window_cuts_as_the_whole_text_does() {
        let texts = [
            "ab\ncdé🦀\n\nxyz".repeat(400),
            (0..3000).map(|i| format!("line {i} 🦀\n")).collect(),
            "x".repeat(20_000),
        ];
        for text in &texts {
            for max in [0, 10, 100, 257, 1000, 4096] {
                for piece in [1, 3, 7, 64, 1000, text.len()] {
                    let mut window = Window::new(max);
                    let mut at = 0;
                    while at < text.len() {
                        let mut end = (at + piece).min(text.len());
                        while !text.is_char_boundary(end) {
                            end += 1;
                        }
                        window.push(&text[at..end]);
                        at = end;
                    }
                    let streamed = window.cut(max).expect("over the budget");
                    let whole = truncate_middle(text, max).expect("over the budget");
                    assert_eq!(streamed.text, whole.text, "max {max}, pieces of {piece}");
                    assert_eq!(streamed.truncation, whole.truncation);
                    assert_eq!(streamed.inserted, whole.inserted);
                }
            }
        }
    }
}
