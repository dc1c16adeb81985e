//! DeepSeek's tool calls, in its special tokens (note the full-width `｜` and the `▁`):
//!
//! | format | markup | peers |
//! |---|---|---|
//! | [`DeepSeekV3`](TextFormat::DeepSeekV3) | `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` `\n```json\n{..}\n```<｜tool▁call▁end｜>..<｜tool▁calls▁end｜>` | vLLM `deepseek_v3`, SGLang `deepseekv3`, llama.cpp (DeepSeek R1) |
//! | [`DeepSeekV31`](TextFormat::DeepSeekV31) | `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{..}<｜tool▁call▁end｜>..<｜tool▁calls▁end｜>` | vLLM `deepseek_v31`, SGLang `deepseekv31`, llama.cpp |
//! | [`DeepSeekV32`](TextFormat::DeepSeekV32) | `<｜DSML｜function_calls><｜DSML｜invoke name="NAME"><｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter>..</｜DSML｜invoke>..</｜DSML｜function_calls>` | vLLM `deepseek_v32`, SGLang `deepseekv32` |
//! | [`DeepSeekV4`](TextFormat::DeepSeekV4) | the same DSML in `<｜DSML｜tool_calls>..</｜DSML｜tool_calls>` | vLLM `deepseek_v4`, SGLang `deepseekv4` |
//! | [`DeepSeekV41`](TextFormat::DeepSeekV41) | the same, each tag name spaced: `<｜DSML｜ calls>`, `<｜DSML｜ invoke name=..>`, `<｜DSML｜ parameter ..>` | vLLM `deepseek_v41` |
//!
//! V3 and V3.1 share their markers: after `<｜tool▁sep｜>`, a JSON object is V3.1's arguments
//! (the name was before the separator), anything else V3's name line (the call's type,
//! `function`, was before it), and either is read in both formats. Arguments are JSON, read
//! as in the other JSON formats.
//!
//! In DSML, a `string="true"` parameter's value is the string as written (no unescaping, no
//! trimming); a `string="false"` one is JSON, and when it is not valid JSON it is typed with
//! the tool's schema as Qwen3 XML values are (vLLM keeps it as a string). Then, as vLLM's
//! schema-aware fixer does, a value not of the type the tool's schema gives its parameter is
//! typed by the schema from its text (`string="true"` `42` for an integer is 42, `5.0` is 5,
//! `null` for a string is `"null"`); with no schema, the flag alone decides. A value ends at `</｜DSML｜parameter>`, or, left open, at the next parameter,
//! `</｜DSML｜invoke>` or the block's end.

use super::coerce::{coerce, fit};
use super::cursor::{prefix, skip_ws, Cx, Item, Need, Openers, Prefix, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::special::{
    self, attribute, attributes, cut, error, json_arguments, json_value, last_byte, Argument,
    Block, Read, Tag,
};
use serde_json::{Map, Value};

const CALLS_BEGIN: &str = "<｜tool▁calls▁begin｜>";
const CALLS_END: &str = "<｜tool▁calls▁end｜>";
const CALL_BEGIN: &str = "<｜tool▁call▁begin｜>";
const CALL_END: &str = "<｜tool▁call▁end｜>";
const SEP: &str = "<｜tool▁sep｜>";

/// The markers of one DSML version.
#[derive(Debug)]
pub(crate) struct Dsml {
    pub format: TextFormat,
    pub open: &'static str,
    pub close: &'static str,
    pub invoke: &'static str,
    pub invoke_end: &'static str,
    pub parameter: &'static str,
    pub parameter_end: &'static str,
}

/// Every DSML version.
pub(crate) const DSMLS: [Dsml; 3] = [
    Dsml {
        format: TextFormat::DeepSeekV32,
        open: "<｜DSML｜function_calls>",
        close: "</｜DSML｜function_calls>",
        invoke: "<｜DSML｜invoke",
        invoke_end: "</｜DSML｜invoke>",
        parameter: "<｜DSML｜parameter",
        parameter_end: "</｜DSML｜parameter>",
    },
    Dsml {
        format: TextFormat::DeepSeekV4,
        open: "<｜DSML｜tool_calls>",
        close: "</｜DSML｜tool_calls>",
        invoke: "<｜DSML｜invoke",
        invoke_end: "</｜DSML｜invoke>",
        parameter: "<｜DSML｜parameter",
        parameter_end: "</｜DSML｜parameter>",
    },
    Dsml {
        format: TextFormat::DeepSeekV41,
        open: "<｜DSML｜ calls>",
        close: "</｜DSML｜ calls>",
        invoke: "<｜DSML｜ invoke",
        invoke_end: "</｜DSML｜ invoke>",
        parameter: "<｜DSML｜ parameter",
        parameter_end: "</｜DSML｜ parameter>",
    },
];

/// The DSML markers of `format`, if it is a DSML one.
pub(crate) fn dsml(format: TextFormat) -> Option<&'static Dsml> {
    DSMLS.iter().find(|d| d.format == format)
}

/// Whether `format` is one of DeepSeek's.
#[cfg(test)]
pub(crate) fn handles(format: TextFormat) -> bool {
    matches!(format, TextFormat::DeepSeekV3 | TextFormat::DeepSeekV31) || dsml(format).is_some()
}

/// A DeepSeek block opening at `pos` (a `<｜`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let f = cx.format;
    let mut openers = Openers::new(cx, text, pos);
    // V3 and V3.1 share their markers: the block is V3.1's only when that is the format asked for.
    let v3 = match f {
        TextFormat::DeepSeekV31 => Some(TextFormat::DeepSeekV31),
        _ if f.includes(TextFormat::DeepSeekV3) => Some(TextFormat::DeepSeekV3),
        _ => None,
    };
    if let Some(format) = v3.filter(|_| openers.starts(CALLS_BEGIN)) {
        let block = Block {
            format,
            close: CALLS_END,
            call: CALL_BEGIN,
            expected: "`<｜tool▁call▁begin｜>`",
        };
        return special::block(cx, text, pos, pos + CALLS_BEGIN.len(), &block, &read_call);
    }
    for dsml in &DSMLS {
        if openers.opens(dsml.format, dsml.open) {
            let block = Block {
                format: dsml.format,
                close: dsml.close,
                call: dsml.invoke,
                expected: "`<｜DSML｜invoke name=..>`",
            };
            let read = |cx: &Cx, text: &str, at: usize| read_invoke(cx, text, at, dsml);
            return special::block(cx, text, pos, pos + dsml.open.len(), &block, &read);
        }
    }
    openers.none()
}

/// One `<｜tool▁call▁begin｜>` call at `at`.
fn read_call(cx: &Cx, text: &str, at: usize) -> Result<Read, Need> {
    let bytes = text.as_bytes();
    let head = at + CALL_BEGIN.len();
    // What comes before the separator: the type (V3) or the name (V3.1), up to the next marker.
    let sep = match special::head(cx, text, at, head, SEP, CALL_END, "`<｜tool▁sep｜>`")? {
        Ok(sep) => sep,
        Err(read) => return Ok(read),
    };
    let head = text[head..sep].trim();
    let after = sep + SEP.len();
    let first = skip_ws(text, after);
    let (name, args, format) = match bytes.get(first) {
        None if !cx.eof => return Err(Need::Any),
        None => return Ok(cut(at, text.len())),
        // V3.1: `NAME<｜tool▁sep｜>{..}`.
        Some(b'{' | b'<') => (head, first, TextFormat::DeepSeekV31),
        // V3: `function<｜tool▁sep｜>NAME\n```json\n{..}\n```` .
        Some(_) => {
            let Some(name_end) = bytes[after..]
                .iter()
                .position(|b| matches!(b, b'\n' | b'{' | b'`' | b'<'))
                .map(|n| after + n)
            else {
                if !cx.eof {
                    return Err(Need::Any);
                }
                return Ok(cut(at, text.len()));
            };
            let mut args = skip_ws(text, name_end);
            match prefix(text, args, "```", cx.eof) {
                Prefix::Yes => {
                    // The fence and its language.
                    args += 3;
                    while args < bytes.len() && bytes[args].is_ascii_alphanumeric() {
                        args += 1;
                    }
                    if args == bytes.len() && !cx.eof {
                        return Err(Need::Any);
                    }
                }
                Prefix::Partial => return Err(Need::Any),
                Prefix::No => {}
            }
            (text[after..name_end].trim(), args, TextFormat::DeepSeekV3)
        }
    };
    let (end, arguments) = json_arguments(cx, text, args, CALL_END)?;
    let item = match arguments {
        _ if name.is_empty() => error(at..end, TextErrorKind::MissingName),
        Ok(arguments) => Item::Call {
            name: name.to_owned(),
            arguments,
        },
        Err(kind) => error(at..end, kind),
    };
    Ok(Read {
        end,
        item,
        format: Some(format),
    })
}

/// One `<｜DSML｜invoke name="..">` at `at`, up to its `</｜DSML｜invoke>`.
fn read_invoke(cx: &Cx, text: &str, at: usize, dsml: &Dsml) -> Result<Read, Need> {
    let (attrs, body) = match tag_end(cx, text, at + dsml.invoke.len())? {
        Ok(found) => found,
        Err((end, kind)) => return Ok(Read::new(end, error(at..end, kind))),
    };
    let name = attribute(&attrs, "name").map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return skip_invoke(cx, text, at, body, dsml, TextErrorKind::MissingName);
    }
    // A JSON object instead of parameter tags: SGLang's detector reads it as the arguments
    // ("Format 2 - Direct JSON", its `test_detect_and_parse_json_format`); the name is in the
    // tag and the object says the rest, so nothing is guessed.
    let first = skip_ws(text, body);
    if text.as_bytes().get(first) == Some(&b'{') {
        let (end, arguments) = json_arguments(cx, text, first, dsml.invoke_end)?;
        let item = match arguments {
            Ok(arguments) => Item::Call {
                name: name.to_owned(),
                arguments,
            },
            Err(kind) => error(at..end, kind),
        };
        return Ok(Read::new(end, item));
    }
    let schema = cx.tools.input_schema(name);
    let mut arguments = Map::new();
    let mut last = body;
    loop {
        let next = skip_ws(text, last);
        if next == text.len() {
            if !cx.eof {
                return Err(Need::Any);
            }
            // Cut off by the end of the message, even between parameters: more may have
            // followed, so it is an error, never the call made of those before the cut.
            return Ok(cut(at, text.len()));
        }
        match prefix(text, next, dsml.invoke_end, cx.eof) {
            Prefix::Yes => {
                last = next + dsml.invoke_end.len();
                break;
            }
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => {}
        }
        match prefix(text, next, dsml.parameter, cx.eof) {
            Prefix::Yes => match read_parameter(cx, text, next, dsml, schema)? {
                (end, Ok((key, value))) => {
                    arguments.insert(key, value);
                    last = end;
                    continue;
                }
                (end, Err(kind)) => {
                    return match end {
                        // Cut off inside the parameter.
                        end if end == text.len() => Ok(Read::new(end, error(at..end, kind))),
                        end => skip_invoke(cx, text, at, end, dsml, kind),
                    };
                }
            },
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => {}
        }
        // The next call, or the block's end: this one was left open.
        let mut open = false;
        for marker in [dsml.invoke, dsml.close] {
            match prefix(text, next, marker, cx.eof) {
                Prefix::Yes => open = true,
                Prefix::Partial => return Err(Need::Any),
                Prefix::No => {}
            }
        }
        if open {
            break;
        }
        let kind = TextErrorKind::Syntax {
            expected: "`<｜DSML｜parameter name=..>`",
        };
        return skip_invoke(cx, text, at, next, dsml, kind);
    }
    Ok(Read::new(
        last,
        Item::Call {
            name: name.to_owned(),
            arguments: Value::Object(arguments).to_string(),
        },
    ))
}

/// The invoke at `at` as one error `kind`, up to its `</｜DSML｜invoke>` or the block's end,
/// whichever comes first from `from`, or up to the end of the text.
fn skip_invoke(
    cx: &Cx,
    text: &str,
    at: usize,
    from: usize,
    dsml: &Dsml,
    kind: TextErrorKind,
) -> Result<Read, Need> {
    let end = match special::skip_to(text, from, dsml.invoke_end, dsml.close) {
        Some(end) => end,
        None if !cx.eof => return Err(last_byte(dsml.invoke_end)),
        None => text.len(),
    };
    Ok(Read::new(end, error(at..end, kind)))
}

/// One `<｜DSML｜parameter name=".." string="..">value</｜DSML｜parameter>` at `at`: where it
/// ends, and its name and value or what is wrong with it.
fn read_parameter(
    cx: &Cx,
    text: &str,
    at: usize,
    dsml: &Dsml,
    schema: Option<&Value>,
) -> Result<Argument, Need> {
    let (attrs, value_start) = match tag_end(cx, text, at + dsml.parameter.len())? {
        Ok(found) => found,
        Err((end, kind)) => return Ok((end, Err(kind))),
    };
    let bytes = text.as_bytes();
    // The value ends at the first DSML tag that can end it.
    let mut search = value_start;
    let (value_end, end) = loop {
        let Some(lt) = memchr::memchr(b'<', &bytes[search..]).map(|n| search + n) else {
            if !cx.eof {
                return Err(Need::Byte(b'<', b'<'));
            }
            return Ok((text.len(), Err(TextErrorKind::Truncated(Cut::InString))));
        };
        match prefix(text, lt, dsml.parameter_end, cx.eof) {
            Prefix::Yes => break (lt, lt + dsml.parameter_end.len()),
            Prefix::Partial => return Err(Need::Any),
            Prefix::No => {}
        }
        let mut ends = false;
        for marker in [dsml.parameter, dsml.invoke_end, dsml.close] {
            match prefix(text, lt, marker, cx.eof) {
                Prefix::Yes => ends = true,
                Prefix::Partial => return Err(Need::Any),
                Prefix::No => {}
            }
        }
        if ends {
            break (lt, lt);
        }
        search = lt + 1;
    };
    let Some(key) = attribute(&attrs, "name")
        .map(str::trim)
        .filter(|k| !k.is_empty())
    else {
        return Ok((
            end,
            Err(TextErrorKind::Syntax {
                expected: "a parameter name",
            }),
        ));
    };
    let raw = &text[value_start..value_end];
    let value = match attribute(&attrs, "string") {
        Some(flag) if flag.eq_ignore_ascii_case("true") => {
            fit(Value::String(raw.to_owned()), raw, schema, key)
        }
        Some(flag) if flag.eq_ignore_ascii_case("false") => {
            fit(json_value(raw, schema, key), raw, schema, key)
        }
        _ => coerce(raw, schema, key),
    };
    Ok((end, Ok((key.to_owned(), value))))
}

/// A tag whose attributes start at `start`: its attributes and where it ends (after its `>`),
/// or, when it is broken, where the error ends and why.
fn tag_end<'t>(cx: &Cx, text: &'t str, start: usize) -> Result<Tag<'t>, Need> {
    let bytes = text.as_bytes();
    match memchr::memchr2(b'>', b'<', &bytes[start..]).map(|n| start + n) {
        None if !cx.eof => Err(Need::Byte(b'>', b'<')),
        None => Ok(Err((text.len(), TextErrorKind::Truncated(Cut::InMarkup)))),
        Some(lt) if bytes[lt] == b'<' => Ok(Err((
            lt,
            TextErrorKind::Syntax {
                expected: "`>` after the tag's attributes",
            },
        ))),
        Some(gt) => match attributes(&text[start..gt]) {
            // Attributes need a space before them.
            Some(attrs) if attrs.is_empty() || bytes[start].is_ascii_whitespace() => {
                Ok(Ok((attrs, gt + 1)))
            }
            _ => Ok(Err((
                gt + 1,
                TextErrorKind::Syntax {
                    expected: "`name=\"..\"` attributes",
                },
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse, TextErrorKind, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    use crate::test_support::{found as calls_with, pairs};

    fn calls(text: &str, format: TextFormat) -> (Vec<(String, Value)>, String, usize) {
        calls_with(text, format, &())
    }

    #[test]
    fn v3_calls_are_read_with_their_fences() {
        // vLLM's test output, with prose around it.
        let text = "Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Tokyo\", \"unit\": \"celsius\"}\n```<｜tool▁call▁end｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>search_hotels\n```json\n{\"location\": \"Tokyo\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>\nDone.";
        for format in [
            TextFormat::DeepSeekV3,
            TextFormat::DeepSeekV31,
            TextFormat::Auto,
        ] {
            assert_eq!(
                calls(text, format),
                (
                    pairs(&[
                        ("get_weather", json!({"city": "Tokyo", "unit": "celsius"})),
                        ("search_hotels", json!({"location": "Tokyo"})),
                    ]),
                    "Let me check.Done.".to_owned(),
                    0
                ),
                "{format:?}"
            );
        }
        assert_eq!(
            parse(text, TextFormat::Auto, &()).format,
            Some(TextFormat::DeepSeekV3)
        );
    }

    #[test]
    fn v31_calls_are_read() {
        let text = "normal text<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo<｜tool▁sep｜>{\"x\":1}<｜tool▁call▁end｜><｜tool▁call▁begin｜>bar<｜tool▁sep｜>{\"y\":2}<｜tool▁call▁end｜><｜tool▁calls▁end｜> some suffix text";
        for format in [
            TextFormat::DeepSeekV31,
            TextFormat::DeepSeekV3,
            TextFormat::Auto,
        ] {
            assert_eq!(
                calls(text, format),
                (
                    pairs(&[("foo", json!({"x": 1})), ("bar", json!({"y": 2}))]),
                    "normal text some suffix text".to_owned(),
                    0
                ),
                "{format:?}"
            );
        }
        assert_eq!(
            parse(text, TextFormat::Auto, &()).format,
            Some(TextFormat::DeepSeekV31)
        );
        // No arguments written.
        let text = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>now<｜tool▁sep｜><｜tool▁call▁end｜><｜tool▁calls▁end｜>";
        assert_eq!(
            calls(text, TextFormat::DeepSeekV31).0,
            pairs(&[("now", json!({}))])
        );
    }

    #[test]
    fn broken_v3_blocks_are_errors_not_prose_or_guesses() {
        // vLLM's unparsable blocks: cut off, and calls without their markers.
        let (found, prose, errors) = calls(
            "Let me look that up.<｜tool▁calls▁begin｜>get_weather",
            TextFormat::DeepSeekV31,
        );
        assert!(found.is_empty());
        assert_eq!((prose.as_str(), errors), ("Let me look that up.", 1));
        let text = "<｜tool▁calls▁begin｜>foo<｜tool▁sep｜>{\"x\":1}<｜tool▁calls▁end｜>after";
        let parsed = parse(text, TextFormat::DeepSeekV31, &());
        assert!(parsed.calls.is_empty());
        assert_eq!(parsed.text, "after");
        assert_eq!(parsed.errors[0].raw, &text[..text.len() - 5]);
        // A call cut inside its JSON, after a good one.
        let text = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>a<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁call▁begin｜>b<｜tool▁sep｜>{\"x\": \"cu";
        let parsed = parse(text, TextFormat::DeepSeekV31, &());
        assert_eq!(parsed.calls.len(), 1);
        assert!(matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)));
        // A marker inside a JSON string is not the call's end.
        let text = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>echo<｜tool▁sep｜>{\"s\": \"<｜tool▁call▁end｜>\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
        assert_eq!(
            calls(text, TextFormat::DeepSeekV31),
            (
                pairs(&[("echo", json!({"s": "<｜tool▁call▁end｜>"}))]),
                String::new(),
                0
            )
        );
        // A marker alone is prose.
        let text = "The end token is <｜tool▁calls▁end｜>.";
        assert_eq!(calls(text, TextFormat::Auto), (vec![], text.to_owned(), 0));
    }

    fn dsml(block: &str, spaced: bool) -> String {
        let tag = if spaced { "｜DSML｜ " } else { "｜DSML｜" };
        format!(
            "Checking.\n\n<{tag}{block}>\n<{tag}invoke name=\"get_weather\">\n<{tag}parameter name=\"city\" string=\"true\">杭州</{tag}parameter>\n<{tag}parameter name=\"days\" string=\"false\">3</{tag}parameter>\n<{tag}parameter name=\"zip\" string=\"true\">007</{tag}parameter>\n</{tag}invoke>\n<{tag}invoke name=\"search\">\n<{tag}parameter name=\"filters\" string=\"false\">{{\"lang\": \"en\"}}</{tag}parameter>\n</{tag}invoke>\n</{tag}{block}>"
        )
    }

    #[test]
    fn dsml_values_are_strings_or_json_as_flagged() {
        let expected = pairs(&[
            (
                "get_weather",
                json!({"city": "杭州", "days": 3, "zip": "007"}),
            ),
            ("search", json!({"filters": {"lang": "en"}})),
        ]);
        for (format, text) in [
            (TextFormat::DeepSeekV32, dsml("function_calls", false)),
            (TextFormat::DeepSeekV4, dsml("tool_calls", false)),
            (TextFormat::DeepSeekV41, dsml("calls", true)),
        ] {
            for parse_as in [format, TextFormat::Auto] {
                assert_eq!(
                    calls(&text, parse_as),
                    (expected.clone(), "Checking.\n\n".to_owned(), 0),
                    "{format:?} as {parse_as:?}"
                );
            }
            assert_eq!(parse(&text, TextFormat::Auto, &()).format, Some(format));
        }
        // V4 writes `tool_calls`, not V3.2's `function_calls` (vLLM's test), and V4.1 spaces
        // its tags.
        let text = dsml("function_calls", false);
        assert_eq!(
            calls(&text, TextFormat::DeepSeekV4),
            (vec![], text.clone(), 0)
        );
        let text = dsml("tool_calls", false);
        assert_eq!(
            calls(&text, TextFormat::DeepSeekV41),
            (vec![], text.clone(), 0)
        );
    }

    #[test]
    fn dsml_json_that_is_not_json_is_typed_by_the_schema() {
        let tools = HashMap::from([(
            "f".to_owned(),
            json!({"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}, "o": {"type": "object"}}}),
        )]);
        let text = "<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"n\" string=\"false\">007</｜DSML｜parameter><｜DSML｜parameter name=\"s\" string=\"false\">hi there</｜DSML｜parameter><｜DSML｜parameter name=\"o\" string=\"false\">{'a': True}</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>";
        assert_eq!(
            calls_with(text, TextFormat::DeepSeekV32, &tools).0,
            pairs(&[("f", json!({"n": 7, "s": "hi there", "o": {"a": true}}))])
        );
        // Code with `<` and quotes stays as written.
        let code = "if a < b {\n    print(\"x\")\n}\n";
        let text = format!("<｜DSML｜tool_calls><｜DSML｜invoke name=\"write\"><｜DSML｜parameter name=\"code\" string=\"true\">{code}</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>");
        assert_eq!(
            calls(&text, TextFormat::DeepSeekV4).0,
            pairs(&[("write", json!({"code": code}))])
        );
    }

    #[test]
    fn broken_dsml_costs_one_error_per_invoke() {
        let text = "<｜DSML｜function_calls><｜DSML｜invoke name=\"a\"></｜DSML｜invoke><｜DSML｜invoke>{\"x\": 1}</｜DSML｜invoke><｜DSML｜invoke name=\"b\">[1]</｜DSML｜invoke><｜DSML｜invoke name=\"c\"><｜DSML｜parameter name=\"x\" string=\"true\">1</｜DSML｜parameter></｜DSML｜function_calls>";
        let parsed = parse(text, TextFormat::DeepSeekV32, &());
        let names: Vec<&str> = parsed.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["a", "c"], "{parsed:?}");
        assert_eq!(parsed.calls[0].arguments, "{}");
        assert_eq!(parsed.errors.len(), 2);
        assert_eq!(parsed.errors[0].kind, TextErrorKind::MissingName);
        assert!(parsed.errors[1]
            .raw
            .starts_with("<｜DSML｜invoke name=\"b\">"));
        assert!(parsed.errors[1].raw.ends_with("</｜DSML｜invoke>"));
        assert_eq!(parsed.text, "");
        // A JSON object instead of parameter tags is the arguments (SGLang's direct JSON);
        // one missing its brace costs that call only.
        let text = "<｜DSML｜function_calls><｜DSML｜invoke name=\"b\">\n{\"x\": 1}\n</｜DSML｜invoke><｜DSML｜invoke name=\"d\">{\"y\": tr</｜DSML｜invoke><｜DSML｜invoke name=\"e\">{}</｜DSML｜invoke></｜DSML｜function_calls>";
        let (found, prose, errors) = calls(text, TextFormat::DeepSeekV32);
        assert_eq!(found, pairs(&[("b", json!({"x": 1})), ("e", json!({}))]));
        assert_eq!((prose.as_str(), errors), ("", 1));
        // Cut inside a value, or between parameters (more may have followed): an error.
        let cut = "<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"x\" string=\"true\">ab";
        let parsed = parse(cut, TextFormat::DeepSeekV32, &());
        assert!(parsed.calls.is_empty());
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(crate::Cut::InString)
        );
        let cut = "<｜DSML｜function_calls><｜DSML｜invoke name=\"f\"><｜DSML｜parameter name=\"x\" string=\"true\">ab</｜DSML｜parameter>\n";
        let parsed = parse(cut, TextFormat::DeepSeekV32, &());
        assert!(parsed.calls.is_empty(), "{parsed:?}");
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(crate::Cut::InMarkup)
        );
    }
}
