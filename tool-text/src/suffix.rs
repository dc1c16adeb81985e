//! Tencent Hunyuan's structural tokens carry a suffix that names the checkpoint:
//! `<tool_calls:opensource>` in Hy3's chat template (llama.cpp's `tencent-Hy3.jinja` sets
//! `HYTK = ':opensource'` on every token), `<tool_calls:6124c78e>` in a Hy4 vocabulary
//! (vLLM's `hy_v4` parser reads it from the tokenizer with `<(?:think|tool_calls|...)(:[^\s>]+)?>`).
//! A text parser has no tokenizer, so the suffix is read from the token that opens a block,
//! and every token of that block must carry the same one.

use super::cursor::{prefix, Prefix};

/// The longest suffix read, colon included: a bound, so that a stray `<tool_calls:` in prose
/// never holds a stream. vLLM's suffixes are a word (`:opensource`, `:6124c78e`).
const MAX_SUFFIX: usize = 64;

/// What the text at a position says about a suffixed token.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Suffix<'t> {
    /// The token is there: its suffix, from the colon on (`:opensource`).
    Yes(&'t str),
    /// The text ends before the token could be told.
    Partial,
    /// No suffixed token starts here.
    No,
}

/// The suffix of the token at `pos` whose head is `head` (`<tool_calls:`, colon included):
/// the bytes up to the `>` that closes it, none of them whitespace, `<` or `>`.
pub(crate) fn at<'t>(text: &'t str, pos: usize, head: &str, eof: bool) -> Suffix<'t> {
    match prefix(text, pos, head, eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Suffix::Partial,
        Prefix::No => return Suffix::No,
    }
    let colon = pos + head.len() - 1;
    let start = colon + 1;
    let window = &text.as_bytes()[start..text.len().min(start + MAX_SUFFIX)];
    match window
        .iter()
        .position(|&b| b == b'>' || b == b'<' || b.is_ascii_whitespace())
    {
        // `>` and the colon are ASCII: both ends are character boundaries.
        Some(n) if n > 0 && window[n] == b'>' => Suffix::Yes(&text[colon..start + n]),
        Some(_) => Suffix::No,
        None if !eof && window.len() < MAX_SUFFIX && start + window.len() == text.len() => {
            Suffix::Partial
        }
        None => Suffix::No,
    }
}

/// The token `<name{suffix}>`, or `</name{suffix}>` with `close`.
pub(crate) fn token(name: &str, suffix: &str, close: bool) -> String {
    let slash = if close { "/" } else { "" };
    format!("<{slash}{name}{suffix}>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_suffix_up_to_the_closing_bracket() {
        let text = "x<tool_calls:opensource><tool_call:opensource>";
        assert_eq!(
            at(text, 1, "<tool_calls:", true),
            Suffix::Yes(":opensource")
        );
        assert_eq!(
            at("<tool_calls:6124c78e>", 0, "<tool_calls:", false),
            Suffix::Yes(":6124c78e")
        );
        assert_eq!(
            token("arg_value", ":6124c78e", true),
            "</arg_value:6124c78e>"
        );
    }

    #[test]
    fn refuses_empty_spaced_and_endless_suffixes() {
        for text in [
            "<tool_calls:>",
            "<tool_calls: x>",
            "<tool_calls:a<b>",
            "<tool_calls>",
            "<tool_call:x>",
        ] {
            assert_eq!(at(text, 0, "<tool_calls:", true), Suffix::No, "{text}");
        }
        let endless = format!("<tool_calls:{}>", "a".repeat(MAX_SUFFIX));
        assert_eq!(at(&endless, 0, "<tool_calls:", false), Suffix::No);
    }

    #[test]
    fn waits_while_the_token_may_still_come() {
        for text in ["<tool_ca", "<tool_calls:", "<tool_calls:opens"] {
            assert_eq!(
                at(text, 0, "<tool_calls:", false),
                Suffix::Partial,
                "{text}"
            );
            assert_eq!(at(text, 0, "<tool_calls:", true), Suffix::No, "{text}");
        }
    }
}
