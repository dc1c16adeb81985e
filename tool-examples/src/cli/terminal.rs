//! Text from outside the program (tool names and descriptions from imported servers, a
//! model's arguments) on its way to a terminal: escaped, so it can't clear the screen, set the
//! title, hide a link (OSC 8) or reorder what is shown (bidi overrides), and kept short where
//! a person must read all of it.

use std::borrow::Cow;

/// Whether a character must not reach a terminal as it is: C0 and C1 controls (ESC, CSI),
/// DEL, and the invisible format characters that reorder or hide text.
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200b}'..='\u{200f}'   // zero-width spaces and joiners, LRM, RLM
            | '\u{202a}'..='\u{202e}' // bidi embeddings and overrides
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{061c}'              // Arabic letter mark
            | '\u{feff}')
}

/// `text` with every unsafe character written as `\u{..}`; borrowed when there is none.
pub(super) fn text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            safe.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            safe.push(c);
        }
    }
    Cow::Owned(safe)
}

/// [`text`] for prose that may span lines: line breaks and tabs pass, every other unsafe
/// character is escaped.
pub(super) fn text_keeping_lines(prose: &str) -> Cow<'_, str> {
    if !prose
        .chars()
        .any(|c| unsafe_char(c) && c != '\n' && c != '\t')
    {
        return Cow::Borrowed(prose);
    }
    let mut safe = String::with_capacity(prose.len() + 8);
    for (i, line) in prose.split('\n').enumerate() {
        if i > 0 {
            safe.push('\n');
        }
        let mut cells = line.split('\t');
        if let Some(first) = cells.next() {
            safe.push_str(&text(first));
        }
        for cell in cells {
            safe.push('\t');
            safe.push_str(&text(cell));
        }
    }
    Cow::Owned(safe)
}

/// JSON text with every unsafe character inside its strings written as a JSON `\u` escape:
/// the same JSON, safe to print. (Outside strings JSON holds only structure and whitespace,
/// and serde_json already escapes C0 controls in strings.)
pub(super) fn json(json: &str) -> Cow<'_, str> {
    if !json
        .chars()
        .any(|c| unsafe_char(c) && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Cow::Borrowed(json);
    }
    let mut safe = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if unsafe_char(c) && !matches!(c, '\n' | '\r' | '\t') {
            for unit in c.encode_utf16(&mut [0; 2]) {
                safe.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            safe.push(c);
        }
    }
    Cow::Owned(safe)
}

/// `text` shortened for a person to read whole: each run of whitespace longer than a few
/// characters collapsed to a marker saying how long it was, then, past `max` characters, the
/// middle cut out with a marker, so both ends stay in sight.
pub(super) fn summary(text: &str, max: usize) -> String {
    const RUN: usize = 4;
    let mut collapsed = String::with_capacity(text.len().min(max * 2));
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_whitespace() {
            collapsed.push(c);
            continue;
        }
        let mut run = 1;
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
            run += 1;
        }
        if run > RUN {
            collapsed.push_str(&format!(" [{run} spaces] "));
        } else {
            collapsed.extend(std::iter::repeat_n(' ', run));
        }
    }
    let count = collapsed.chars().count();
    if count <= max {
        return collapsed;
    }
    let keep = max / 2;
    let head: String = collapsed.chars().take(keep).collect();
    let tail: String = collapsed.chars().skip(count - keep).collect();
    format!(
        "{head} [... {} characters cut ...] {tail}",
        count - 2 * keep
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_reach_no_terminal() {
        let hostile = "read\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\u{202e}gnp.exe\u{200b}";
        let safe = text(hostile);
        assert!(!safe.chars().any(unsafe_char), "{safe}");
        assert_eq!(text("plain é"), "plain é");
        let json_text = serde_json::json!({"d": hostile}).to_string();
        let safe = json(&json_text);
        assert!(!safe.chars().any(unsafe_char), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["d"], hostile);
    }

    #[test]
    fn summaries_keep_both_ends_in_sight() {
        let padded = format!("rm -rf ~{}# harmless", " ".repeat(5000));
        assert_eq!(summary(&padded, 200), "rm -rf ~ [5000 spaces] # harmless");
        let long = "x".repeat(1000) + "END";
        let short = summary(&long, 100);
        assert!(
            short.chars().count() < 150 && short.ends_with("END"),
            "{short}"
        );
        assert!(short.contains("characters cut"));
    }
}
