//! What every reader reads as prose at a trigger byte, decided from the bytes after it: the
//! trigger search (`triggers.rs`) passes such bytes without asking the scan, which in
//! markdown is most of its stops. A bottom module: the search and the scan both import it,
//! and it imports no reader but the fence's length.

use super::fenced;

/// How many bytes of prose the scan (`scan::dispatch`) surely reads at the trigger byte at `pos`
/// (`Step::Prose(n)`), in every format and scan state, from the bytes `text` already holds:
/// the trigger search passes them without handing the byte to the scan, which in markdown
/// (`[link](..)`, `` `code` ``, `{a, b}`, `x < y`) is most stops. `None` when unsure (the
/// bytes that would decide are not there yet, or some reader might read on). Each arm
/// restates the first test of every reader of its byte, or the scan's own;
/// `scan.rs`'s `surely_prose_agrees_with_every_reader` holds them together.
#[inline]
pub(crate) fn surely_prose(text: &[u8], pos: usize) -> Option<usize> {
    let &next = text.get(pos + 1)?;
    match text[pos] {
        // The scan's own first look.
        b'<' => (!AFTER_LT[usize::from(next)]).then_some(1),
        // Llama 3's bare object and llama.cpp's envelope both start with a quoted first key.
        b'{' => {
            let key = text[pos + 1..]
                .iter()
                .position(|b| !b.is_ascii_whitespace());
            let key = key.filter(|n| !matches!(text[pos + 1 + n], b'"' | b'\''));
            key.map(|_| 1)
        }
        // `[THINK]` and Mistral's `[TOOL_CALLS]` start `[T`, xLAM's list `[{`, and a
        // pythonic list `[name(`: a name, then Python's whitespace, then `(`.
        b'[' => {
            if next == b'T' || !(next.is_ascii_alphabetic() || next == b'_') {
                return None;
            }
            let rest = &text[pos + 2..];
            let name = rest
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.'))
                .unwrap_or(rest.len());
            let after = rest[name..]
                .iter()
                .position(|&b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
            // `\` and `#` may continue Python's whitespace.
            let after = after.filter(|&n| !matches!(rest[name + n], b'(' | b'\\' | b'#'));
            after.map(|_| 1)
        }
        // Inline code (`fenced.rs`), read as `fenced::at` reads it: one or two backticks, up
        // to the same run on the same line, or the run alone where the line ends first.
        b'`' => inline_code(text, pos),
        _ => None,
    }
}

/// The inline code at `pos` as `fenced::at` reads it where the text holds all it needs: the
/// run of backticks, and the same run closing it before the line ends (the code and both
/// runs), or the line break (the run alone).
#[inline]
fn inline_code(text: &[u8], pos: usize) -> Option<usize> {
    let run = text[pos..].iter().take_while(|&&b| b == b'`').count();
    if run >= fenced::FENCE.len() || pos + run == text.len() {
        return None;
    }
    let mut i = pos + run;
    loop {
        // Inline code is mostly a word or two: a look at the next bytes one by one finds its
        // end for less than starting `memchr2`.
        let near = text[i..]
            .iter()
            .take(16)
            .position(|&b| b == b'`' || b == b'\n');
        let at = i + match near {
            Some(n) => n,
            None => memchr::memchr2(b'`', b'\n', &text[i..])?,
        };
        if text[at] == b'\n' {
            return Some(run);
        }
        let close = text[at..].iter().take_while(|&&b| b == b'`').count();
        if at + close == text.len() {
            return None;
        }
        if close == run {
            return Some(at + close - pos);
        }
        i = at + close;
    }
}

/// The bytes that follow `<` in some marker: `<t`ool_call, `<T`OOLCALL, `<f`unction,
/// `<|`special|>, `<l`ongcat, `<r`esponse / `<j`son / `<x`ml / `<J`SON, `<s`tart_function_call / `<s`eed:, `<m`inimax:, `<i`fm|, `<d`ots, `<a`tem:, and
/// DeepSeek's and Step's full-width `<｜` (0xEF starts it in UTF-8). A format whose marker
/// starts otherwise must add its byte here: `written_calls_parse_back` fails until it does.
pub(crate) const AFTER_LT: [bool; 256] = {
    let mut table = [false; 256];
    let bytes = b"tTf|lsmidarjxJ\xEF";
    let mut i = 0;
    while i < bytes.len() {
        table[bytes[i] as usize] = true;
        i += 1;
    }
    table
};
