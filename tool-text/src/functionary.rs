//! Functionary v3.1 (llama.cpp; `meetkai-functionary-medium-v3.1`): `<function=NAME>{"k": v}</function>`,
//! the arguments a JSON object.
//!
//! `<function=` also opens Qwen3's XML calls written without their `<tool_call>` tag
//! (`qwen_xml.rs`). What follows the name's `>` tells them apart, here and only here, so no
//! call is read twice: a `{` is Functionary's JSON, anything else (`<parameter=`) is Qwen3's.
//!
//! Peers: llama.cpp's `FUNCTIONARY_V3_1_LLAMA_3_1` parser (Aug 2025) and its current
//! autoparser (`test-chat.cpp`, `meetkai-functionary-medium-v3.1.jinja`). The older parser
//! also reads `<|python_tag|>` followed by code as a call to `python`; that is Llama 3's
//! built-in tool form, read by `llama3.rs` (as Python syntax, not raw code).

use super::arguments;
use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Prefix, Reader, Step};
use super::format::TextFormat;
use super::qwen_xml;

/// `<function=`: Qwen3's XML or Functionary's JSON, told apart in one place.
pub(crate) const READER: Reader = Reader::new(b'<', 20, at, Some(TextFormat::QwenXml));

const OPEN: &str = qwen_xml::FUNCTION;
const CLOSE: &str = "</function>";
/// A name longer than this is not one.
const NAME_MAX: usize = 256;

/// A `<function=` at `pos`, outside any `<tool_call>` tag: Functionary's or Qwen3's.
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let qwen = cx.format.includes(TextFormat::QwenXml);
    let functionary = cx.format.includes(TextFormat::Functionary);
    match prefix(text, pos, OPEN, cx.eof) {
        Prefix::No => return Step::Prose(1),
        Prefix::Partial => return cx.more(Need::Any),
        Prefix::Yes => {}
    }
    if functionary {
        let name = pos + OPEN.len();
        let window = &text.as_bytes()[name..text.len().min(name + NAME_MAX)];
        match memchr::memchr(b'>', window) {
            None if window.len() < NAME_MAX && !cx.eof => return Step::More(Need::Any),
            None => {}
            Some(n) => {
                let body = skip_ws(text, name + n + 1);
                match text.as_bytes().get(body) {
                    None if !cx.eof => return Step::More(Need::Any),
                    Some(b'{') => return read(cx, text, pos, &text[name..name + n], body),
                    _ => {}
                }
            }
        }
    }
    if qwen {
        qwen_xml::bare_at(cx, text, pos)
    } else {
        Step::Prose(1)
    }
}

/// The call whose name is `name` and whose arguments open at `body`.
fn read(cx: &Cx, text: &str, pos: usize, name: &str, body: usize) -> Step {
    let (json_end, read) = match arguments::read(cx, text, body) {
        Ok(read) => read,
        Err(need) => return Step::More(need),
    };
    let end = match arguments::closed_by(cx, text, json_end, &[CLOSE]) {
        Ok(end) => end,
        Err(need) => return Step::More(need),
    };
    let name = name.trim();
    let item = match read {
        Ok(_) if name.is_empty() => Item::Error {
            span: pos..end,
            kind: super::TextErrorKind::MissingName,
        },
        Ok(arguments) => Item::Call {
            name: name.to_owned(),
            arguments,
        },
        Err(kind) => Item::Error {
            span: pos..end,
            kind,
        },
    };
    match region(pos, end, vec![item]) {
        Step::Region { len, items, .. } => Step::Region {
            len,
            items,
            format: Some(TextFormat::Functionary),
        },
        step => step,
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextFormat};

    #[test]
    fn json_after_the_name_is_functionary_and_parameters_are_qwen() {
        let text = "<function=a>{\"x\": 1}</function>\n<function=b>\n<parameter=y>\n2\n</parameter>\n</function>";
        let parsed = parse(text, TextFormat::Auto, &());
        let calls: Vec<_> = parsed
            .calls
            .iter()
            .map(|c| (c.name.as_str(), c.arguments.as_str()))
            .collect();
        assert_eq!(calls, [("a", "{\"x\": 1}"), ("b", "{\"y\":2}")]);
        assert_eq!(parsed.format, Some(TextFormat::Functionary));
        assert_eq!(parsed.text, "");
        // Each format reads only its own.
        assert_eq!(parse(text, TextFormat::Functionary, &()).calls.len(), 1);
        assert_eq!(parse(text, TextFormat::QwenXml, &()).calls[1].name, "b");
    }
}
