//! Text from outside the program (tool names and descriptions from imported servers, a
//! model's answer and arguments, tool results, error messages quoting them) on its way to a
//! terminal. One function, [`escape`], decides what may reach the terminal as itself: every
//! print site of the CLI goes through it, so no site can forget a class of character. It
//! writes the rest as escapes, so the text can't clear the screen, set the title, hide a link
//! (OSC 8), return to the start of a line and overwrite it, reorder what is shown (bidi
//! overrides), or carry words no one can see (tag characters, zero-width and other default
//! ignorable characters).

use std::borrow::Cow;
use unicode_general_category::{get_general_category, GeneralCategory};

/// How much of its layout escaped text keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One line: line breaks and tabs are escaped too (names, call lines, error messages).
    Line,
    /// Text that may span lines (a model's answer, a tool's result): `\n` and `\t` print as
    /// themselves, since a person reads them as text; `\r`, which returns to the start of the
    /// line to overwrite it, does not.
    Lines,
    /// JSON text written by serde_json: hidden characters become JSON `\u` escapes, so the text
    /// is the same JSON; the line breaks of pretty printing pass. (serde_json already writes
    /// C0 controls in strings as escapes, and JSON allows no other character between tokens.)
    Json,
}

/// Whether `c` must not reach a terminal as itself: the controls (C0, DEL, C1: ESC, CSI),
/// every format character (Unicode category Cf: bidi marks, embeddings, overrides and
/// isolates, zero-width spaces and joiners, U+2060 word joiner, U+00AD soft hyphen, the tag
/// characters U+E0001 and U+E0020-E007F, interlinear annotations), line and paragraph
/// separators (a second way to break a line), unassigned code points (what a newer Unicode
/// makes of them is unknown here), and every default ignorable code point, which a terminal
/// draws as nothing (Hangul fillers, the combining grapheme joiner, variation selectors
/// without a character to vary).
fn hidden(c: char) -> bool {
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
            | GeneralCategory::Unassigned
    ) || default_ignorable(c)
}

/// Unicode's `Default_Ignorable_Code_Point` (DerivedCoreProperties.txt, 16.0): characters a
/// renderer shows as nothing when it doesn't support them. Most are Cf; these ranges add the
/// ones that aren't (fillers, variation selectors, the reserved parts of the ranges).
fn default_ignorable(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// A variation selector: it picks the look of the character before it (`⚠` + U+FE0F is the
/// emoji), which is how models write emoji, but a run of them, or one with nothing to vary,
/// shows as nothing and can carry a hidden message, a byte a selector.
fn variation_selector(c: char) -> bool {
    matches!(
        u32::from(c),
        0xFE00..=0xFE0F | 0xE0100..=0xE01EF | 0x180B..=0x180D | 0x180F
    )
}

/// `text` as it may reach a terminal under `layout`: every character [`hidden`] says a
/// terminal must not get written as an escape (`\u{e0041}`; in JSON `\udb40\udc41`), but a
/// variation selector right after a visible character. Borrowed when nothing needs escaping.
pub(crate) fn escape(text: &str, layout: Layout) -> Cow<'_, str> {
    let passes = |c: char| match layout {
        Layout::Line => false,
        Layout::Lines => matches!(c, '\n' | '\t'),
        Layout::Json => c == '\n',
    };
    let mut escaped: Option<String> = None;
    // Whether the last character was shown as itself and can take a variation selector.
    let mut after_visible = false;
    for (at, c) in text.char_indices() {
        let shown = if variation_selector(c) {
            after_visible
        } else {
            !hidden(c) || passes(c)
        };
        after_visible = shown && !variation_selector(c) && !c.is_whitespace();
        if shown {
            if let Some(escaped) = &mut escaped {
                escaped.push(c);
            }
            continue;
        }
        let escaped = escaped.get_or_insert_with(|| {
            let mut start = String::with_capacity(text.len() + 16);
            start.push_str(&text[..at]);
            start
        });
        if layout == Layout::Json {
            for unit in c.encode_utf16(&mut [0; 2]) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        }
    }
    escaped.map_or(Cow::Borrowed(text), Cow::Owned)
}

/// One line of text: [`escape`] with [`Layout::Line`].
pub(crate) fn text(text: &str) -> Cow<'_, str> {
    escape(text, Layout::Line)
}

/// Text that may span lines: [`escape`] with [`Layout::Lines`].
pub(super) fn lines(text: &str) -> Cow<'_, str> {
    escape(text, Layout::Lines)
}

/// JSON text serde_json wrote: [`escape`] with [`Layout::Json`].
pub(super) fn json(json: &str) -> Cow<'_, str> {
    escape(json, Layout::Json)
}

/// A call's arguments as a person is shown them, from the model's text: compact JSON when it
/// parses (pretty with `pretty`), escaped text when it doesn't. Never the model's own text as
/// it is: JSON allows `\r` between tokens, which would return to the start of the line and
/// write over the command.
pub(super) fn arguments(raw: &str, pretty: bool) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(raw) else {
        return text(raw).into_owned();
    };
    let written = if pretty {
        serde_json::to_string_pretty(&value)
    } else {
        serde_json::to_string(&value)
    };
    match written {
        Ok(written) => json(&written).into_owned(),
        Err(_) => text(raw).into_owned(),
    }
}

/// Already escaped `text` shortened to at most `max_lines` lines and about `max_chars`
/// characters for a glance (a call line, a result: what the model gets is whole): the middle
/// cut out with a marker saying how much, so both ends stay in sight. Never for what a person
/// must decide on: the approval prompt shows all or nothing.
pub(super) fn glance(text: &str, max_chars: usize, max_lines: usize) -> Cow<'_, str> {
    let mut shown = Cow::Borrowed(text);
    let line_count = text.split('\n').count();
    if line_count > max_lines {
        let keep = max_lines.div_ceil(2);
        let lines: Vec<&str> = text.split('\n').collect();
        shown = Cow::Owned(format!(
            "{}\n[... {} lines cut ...]\n{}",
            lines[..keep].join("\n"),
            line_count - 2 * keep,
            lines[line_count - keep..].join("\n"),
        ));
    }
    let count = shown.chars().count();
    if count <= max_chars {
        return shown;
    }
    let keep = max_chars / 2;
    let head: String = shown.chars().take(keep).collect();
    let tail: String = shown.chars().skip(count - keep).collect();
    Cow::Owned(format!(
        "{head} [... {} characters cut ...] {tail}",
        count - 2 * keep
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character of every layout's output is one the terminal may get.
    fn clean(shown: &str, layout: Layout) -> bool {
        let mut after_visible = false;
        shown.chars().all(|c| {
            let ok = if variation_selector(c) {
                after_visible
            } else {
                !hidden(c)
                    || (layout == Layout::Lines && matches!(c, '\n' | '\t'))
                    || (layout == Layout::Json && c == '\n')
            };
            after_visible = !variation_selector(c) && !c.is_whitespace();
            ok
        })
    }

    #[test]
    fn escapes_reach_no_terminal() {
        let hostile = "read\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\u{202e}gnp.exe\u{200b}\
                       \u{e0041}\u{2060}\u{ad}\u{2028}\r\n\t\u{fe0f}\u{fe0f}\u{e0100}";
        for layout in [Layout::Line, Layout::Lines] {
            let safe = escape(hostile, layout);
            assert!(clean(&safe, layout), "{safe:?}");
        }
        assert_eq!(
            lines("a\u{e0041}\u{2060}\u{ad}\r\n\tb"),
            "a\\u{e0041}\\u{2060}\\u{ad}\\u{d}\n\tb"
        );
        assert_eq!(text("a\n\tb"), "a\\u{a}\\u{9}b");
        // Plain text, an accent and an emoji with its variation selector pass as they are.
        assert!(matches!(text("plain é ⚠\u{fe0f}"), Cow::Borrowed(_)));
        // Selectors with nothing to vary are escaped.
        assert_eq!(text("\u{fe0f}x \u{fe0f}"), "\\u{fe0f}x \\u{fe0f}");
        assert_eq!(text("⚠\u{fe0f}\u{fe0e}"), "⚠\u{fe0f}\\u{fe0e}");
        let json_text = serde_json::json!({"d": hostile}).to_string();
        let safe = json(&json_text);
        assert!(clean(&safe, Layout::Json), "{safe:?}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["d"], hostile);
    }

    #[test]
    fn every_format_character_is_escaped() {
        // Whatever Unicode adds to Cf is escaped: the category decides, not a list.
        for code in 0..=0x10FFFF {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            if get_general_category(c) == GeneralCategory::Format {
                assert!(text(&c.to_string()).starts_with("\\u{"), "U+{code:04X}");
            }
        }
    }

    #[test]
    fn arguments_are_json_never_the_models_text() {
        // Carriage returns between tokens; in the string an escaped ESC (JSON allows no raw
        // C0 control there) and raw CSI, right-to-left override and DEL, which it does allow.
        let raw =
            "{\"argv\": [\"touch\", \"pwned\"]\r \r, \"x\": \"\\u001b[2K\u{9b}\u{202e}\u{7f}\"}";
        let shown = arguments(raw, false);
        assert_eq!(
            shown,
            r#"{"argv":["touch","pwned"],"x":"\u001b[2K\u009b\u202e\u007f"}"#
        );
        let value: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(
            value,
            serde_json::from_str::<serde_json::Value>(raw).unwrap()
        );
        assert_eq!(arguments("{\"a\": 1\r", false), "{\"a\": 1\\u{d}");
        assert!(arguments(raw, true).contains("\n  \"argv\": [\n"));
    }

    #[test]
    fn a_glance_keeps_both_ends_in_sight() {
        assert!(matches!(glance("short\ntext", 100, 4), Cow::Borrowed(_)));
        let long = "x".repeat(1000) + "END";
        let short = glance(&long, 100, 4);
        assert!(
            short.chars().count() < 150 && short.ends_with("END"),
            "{short}"
        );
        assert!(short.contains("characters cut"));
        let many: Vec<String> = (1..=100).map(|i| format!("line {i}")).collect();
        let many = many.join("\n");
        let short = glance(&many, 10_000, 6);
        assert_eq!(
            short,
            "line 1\nline 2\nline 3\n[... 94 lines cut ...]\nline 98\nline 99\nline 100"
        );
    }
}
