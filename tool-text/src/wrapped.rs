//! Formats that wrap JSON calls in markers of their own: a JSON object
//! `{"name": .., "arguments": {..}}` (or `"parameters"`), or a list of them, between an opening
//! marker and, for most, a closing one. The body is read as a Hermes tag's is (`hermes.rs`),
//! so what holds for Hermes holds here: one bad call costs one error, a call cut off is an
//! error and never a guess, and a closing marker inside a JSON string is not the end.
//!
//! | format | markup | peers |
//! |---|---|---|
//! | [`Jamba`](TextFormat::Jamba) | `<tool_calls>[{..}, ..]</tool_calls>` | vLLM `jamba`, `hunyuan_a13b`; SGLang `hunyuan`; llama.cpp (Apriel 1.5) |
//! | [`Granite`](TextFormat::Granite) | `<\|tool_call\|>[{..}, ..]`, or `<tool_call>[{..}, ..]` (Granite 3.1+), no closing marker | vLLM `granite` |
//! | [`GraniteFc`](TextFormat::GraniteFc) | `<function_call> {..}`, repeated (no closing marker) | vLLM `granite-20b-fc` |
//! | [`InternLm`](TextFormat::InternLm) | `<\|action_start\|><\|plugin\|>\n{"name", "parameters"}<\|action_end\|>` | vLLM `internlm`, SGLang `internlm` |
//! | [`LongCat`](TextFormat::LongCat) | `<longcat_tool_call>{..}</longcat_tool_call>` | vLLM `longcat` |
//! | [`Nemotron`](TextFormat::Nemotron) | `<TOOLCALL>[{..}, ..]</TOOLCALL>` | llama.cpp (Nemotron Nano v2) |
//! | [`Dots`](TextFormat::Dots) | `<dots_function_call>{..}</dots_function_call>` (its JSON body; `dots.rs`) | vLLM `dots` |

use super::cursor::{region, skip_ws, Cx, Item, Need, Openers, Reader, Step};
use super::error::TextErrorKind;
use super::format::TextFormat;
use super::hermes;
use super::json::{self, Extent};
use memchr::memmem;

/// JSON in a format's own tags.
pub(crate) const READER: Reader = Reader::new(b'<', 70, at, None);

/// One wrapping markup.
#[derive(Debug)]
pub(crate) struct Wrap {
    pub format: TextFormat,
    /// What opens the calls (a special token, or a tag).
    pub open: &'static str,
    /// What closes them; `None` for a markup whose calls end with their JSON.
    pub close: Option<&'static str>,
}

/// Every wrapping markup. A format may have two (the first is the one written).
pub(crate) const WRAPS: [Wrap; 8] = [
    Wrap {
        format: TextFormat::Jamba,
        open: "<tool_calls>",
        close: Some("</tool_calls>"),
    },
    Wrap {
        format: TextFormat::Granite,
        open: "<|tool_call|>",
        close: None,
    },
    // Granite 3.1 and later spell the token out (vLLM's `granite` parser reads both). Under
    // Auto a `<tool_call>` is Hermes's, whose reading of a list left open is the same.
    Wrap {
        format: TextFormat::Granite,
        open: "<tool_call>",
        close: None,
    },
    Wrap {
        format: TextFormat::GraniteFc,
        open: "<function_call>",
        close: None,
    },
    Wrap {
        format: TextFormat::InternLm,
        open: "<|action_start|><|plugin|>",
        close: Some("<|action_end|>"),
    },
    Wrap {
        format: TextFormat::LongCat,
        open: "<longcat_tool_call>",
        close: Some("</longcat_tool_call>"),
    },
    Wrap {
        format: TextFormat::Nemotron,
        open: "<TOOLCALL>",
        close: Some("</TOOLCALL>"),
    },
    // dots.llm's JSON body; its XML body is `invoke_xml.rs`'s (`dots.rs` picks).
    Wrap {
        format: TextFormat::Dots,
        open: "<dots_function_call>",
        close: Some("</dots_function_call>"),
    },
];

/// The markup of `format`, if it is one of these.
#[cfg(test)]
pub(crate) fn wrap(format: TextFormat) -> Option<&'static Wrap> {
    WRAPS.iter().find(|w| w.format == format)
}

/// Any wrapping markup the parse looks for that opens at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut openers = Openers::new(cx, text, pos);
    for wrap in &WRAPS {
        if openers.opens(wrap.format, wrap.open) {
            return read(cx, text, pos, wrap).in_format(wrap.format);
        }
    }
    openers.none()
}

/// The calls of `wrap` opening at `pos`.
fn read(cx: &Cx, text: &str, pos: usize, wrap: &Wrap) -> Step {
    let body = pos + wrap.open.len();
    let first = skip_ws(text, body);
    if first == text.len() && !cx.eof {
        return Step::More(Need::Any);
    }
    // The JSON's own end, so that a marker inside one of its strings is not taken for the end;
    // looked for no further than the closing marker, so a call that never closes its JSON
    // costs its own length, not the rest of the text's.
    let json_end = match text.as_bytes().get(first) {
        Some(b'{' | b'[') => match wrap.close.and_then(|c| json::extent_before(text, first, c)) {
            Some((_, Extent::Closed(end))) => Some(end),
            Some(_) => None,
            None => match json::extent_or_wait(cx.eof, text, first) {
                Ok(Extent::Closed(end)) => Some(end),
                Ok(_) => None,
                Err(need) => return Step::More(need),
            },
        },
        _ => None,
    };
    let Some(close) = wrap.close else {
        // No closing marker: the calls end with their JSON (or, cut off, with the text).
        let json_follows = first == text.len() || matches!(text.as_bytes()[first], b'{' | b'[');
        if !json_follows {
            if wrap.open == hermes::OPEN {
                // The spelled-out tag is other formats' too: with no JSON after it, it is
                // no Granite call (vLLM's parser leaves it as content).
                return Step::Prose(1);
            }
            // A marker token with something else after it: the marker is the bad call, what
            // follows is prose (reading on to the end of the text would make a streamed parse
            // depend on where the text was cut).
            return region(
                pos,
                first,
                vec![Item::Error {
                    span: pos..first,
                    kind: TextErrorKind::Syntax {
                        expected: "a JSON object or list after the marker",
                    },
                }],
            );
        }
        let end = json_end.unwrap_or(text.len());
        return region(
            pos,
            end,
            hermes::read_body(cx, text, body, end, json_end.is_some()),
        );
    };
    let from = json_end.unwrap_or(body);
    match memmem::find(&text.as_bytes()[from..], close.as_bytes()) {
        Some(n) => {
            let close_at = from + n;
            region(
                pos,
                close_at + close.len(),
                hermes::read_body(cx, text, body, close_at, true),
            )
        }
        None if !cx.eof => Step::More(Need::Byte(
            close.as_bytes()[close.len() - 1],
            close.as_bytes()[close.len() - 1],
        )),
        // Never closed: the calls end where their JSON does, or with the text.
        None => {
            let end = json_end.unwrap_or(text.len());
            region(
                pos,
                end,
                hermes::read_body(cx, text, body, end, json_end.is_some()),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextErrorKind, TextFormat};

    use crate::test_support::names;

    #[test]
    fn each_markup_reads_its_calls_and_keeps_the_prose() {
        let cases = [
            (TextFormat::Jamba, "Checking.\n<tool_calls>[{\"name\": \"a\", \"arguments\": {\"x\": 1}}, {\"name\": \"b\", \"arguments\": {}}]</tool_calls>\nDone."),
            (TextFormat::Granite, "Checking.\n<|tool_call|>[{\"name\": \"a\", \"arguments\": {\"x\": 1}}, {\"name\": \"b\", \"arguments\": {}}]\nDone."),
            (TextFormat::GraniteFc, "Checking.\n<function_call> {\"name\": \"a\", \"arguments\": {\"x\": 1}}\n<function_call> {\"name\": \"b\", \"arguments\": {}}\nDone."),
            (TextFormat::InternLm, "Checking.\n<|action_start|><|plugin|>\n{\"name\": \"a\", \"parameters\": {\"x\": 1}}<|action_end|>\n<|action_start|><|plugin|>\n{\"name\": \"b\", \"parameters\": {}}<|action_end|>\nDone."),
            (TextFormat::LongCat, "Checking.\n<longcat_tool_call>{\"name\": \"a\", \"arguments\": {\"x\": 1}}</longcat_tool_call>\n<longcat_tool_call>{\"name\": \"b\", \"arguments\": {}}</longcat_tool_call>\nDone."),
            (TextFormat::Nemotron, "Checking.\n<TOOLCALL>[{\"name\": \"a\", \"arguments\": {\"x\": 1}}, {\"name\": \"b\", \"arguments\": {}}]</TOOLCALL>\nDone."),
        ];
        for (format, text) in cases {
            for parse_as in [format, TextFormat::Auto] {
                let (calls, prose, errors) = names(text, parse_as);
                assert_eq!(calls, ["a{\"x\": 1}", "b{}"], "{format:?} as {parse_as:?}");
                assert_eq!(prose, "Checking.\nDone.", "{format:?} as {parse_as:?}");
                assert_eq!(errors, 0, "{format:?}");
            }
        }
    }

    #[test]
    fn granite_reads_its_token_spelled_out_too() {
        // vLLM `test_granite_tool_parser.py::test_granite_string_prefix_format` (Granite 3.1).
        let text =
            "<tool_call> [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}]";
        for format in [TextFormat::Granite, TextFormat::Auto] {
            let (calls, prose, errors) = names(text, format);
            assert_eq!(calls, ["get_weather{\"city\": \"Tokyo\"}"], "{format:?}");
            assert_eq!((prose.as_str(), errors), ("", 0), "{format:?}");
        }
        let parsed = parse(text, TextFormat::Granite, &());
        assert_eq!(parsed.format, Some(TextFormat::Granite));
    }

    #[test]
    fn a_closing_marker_in_a_string_is_not_the_end_and_a_cut_call_is_an_error() {
        let text = "<tool_calls>[{\"name\": \"echo\", \"arguments\": {\"s\": \"</tool_calls>\"}}]</tool_calls>";
        let (calls, prose, _) = names(text, TextFormat::Jamba);
        assert_eq!(calls, ["echo{\"s\": \"</tool_calls>\"}"]);
        assert_eq!(prose, "");
        let parsed = parse(
            "<TOOLCALL>[{\"name\": \"a\", \"arguments\": {\"p\": \"x",
            TextFormat::Nemotron,
            &(),
        );
        assert!(parsed.calls.is_empty());
        assert!(
            matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)),
            "{parsed:?}"
        );
    }

    #[test]
    fn a_marker_without_json_after_it_is_one_error_and_the_rest_is_prose() {
        for (format, text) in [
            (TextFormat::Granite, "<|tool_call|> sorry, no tool fits."),
            (
                TextFormat::GraniteFc,
                "<function_call> sorry, no tool fits.",
            ),
        ] {
            let parsed = parse(text, format, &());
            assert_eq!(parsed.text, "sorry, no tool fits.", "{format:?}");
            assert_eq!(parsed.errors.len(), 1, "{format:?}");
            assert!(parsed.calls.is_empty());
        }
        // The spelled-out `<tool_call>` with no JSON after it is not Granite's.
        let text = "<tool_call>\n<function=f>\n</function>";
        let parsed = parse(text, TextFormat::Granite, &());
        assert_eq!((parsed.text.as_str(), parsed.errors.len()), (text, 0));
    }

    #[test]
    fn one_bad_call_costs_one_error() {
        let text = "<tool_calls>[{\"name\": \"a\", \"arguments\": {}}, {oops}, {\"name\": \"b\", \"arguments\": {}}]</tool_calls>";
        let parsed = parse(text, TextFormat::Jamba, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(parsed.errors.len(), 1);
    }
}
