//! Calls written as XML-like elements: the tool's name in an attribute, each argument in an
//! element named by an attribute too (`<invoke name="f"><parameter name="k">v</parameter>`);
//! and Seed-OSS, which wraps Qwen3's `<function=f><parameter=k>` markup in tags of its own.
//!
//! | format | markup | models | peers |
//! |---|---|---|---|
//! | [`MinimaxM2`](TextFormat::MinimaxM2) | `<minimax:tool_call><invoke name="NAME"><parameter name="k">v</parameter></invoke></minimax:tool_call>` | MiniMax-M2 | vLLM `minimax_m2` (`parser/minimax_m2.py`), SGLang `minimax-m2`, llama.cpp (MiniMax-M2 template) |
//! | [`MiniCpm5`](TextFormat::MiniCpm5) | `<function name="NAME"><param name="k">v</param></function>`, on its own | MiniCPM 5 | vLLM `minicpm5` (`minicpm5xml_tool_parser.py`), SGLang `minicpm5` and `minicpm4` (`minicpm4_xml_detector.py`), llama.cpp |
//! | [`Step3`](TextFormat::Step3) | `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>` | Step-3 | vLLM `step3` (`step3_tool_parser.py`), SGLang `step3` |
//! | [`Dots`](TextFormat::Dots) | `<dots_function_call><invoke name="NAME"><parameter name="k">v</parameter></invoke></dots_function_call>` (its XML body; `dots.rs`) | dots.llm | vLLM `dots` (`dots_tool_parser.py`) |
//! | [`Muse`](TextFormat::Muse) | `<atem:function_calls><atem:invoke name="NAME"><atem:parameter name="k">v</atem:parameter></atem:invoke></atem:function_calls>` (in its messages: `muse.rs`) | Muse Spark, Muse Glimmer | vLLM `muse` (`muse_tool_parser.py`), llama.cpp (Muse Glimmer) |
//! | [`SeedOss`](TextFormat::SeedOss) | `<seed:tool_call><function=NAME><parameter=k>v</parameter></function></seed:tool_call>` | ByteDance Seed-OSS | vLLM `seed_oss` (`parser/seed_oss.py`: Qwen3's grammar in other tags), llama.cpp (Seed-OSS template) |
//!
//! A call ends at its closing tag, or, left open, where the next call or the group's end
//! begins; a parameter ends at its closing tag (MiniMax's also where the next one opens, as
//! vLLM's regex reads it). A closing tag inside a value ends the value, as in the peers.
//! Names and keys are attribute values, quoted with `"` or `'` or bare. Text between the
//! parameters that is not whitespace is an error (MiniCPM5's parser rejects a `<param>`
//! without a name; the others skip it and lose the argument).
//!
//! Values are typed with the tool's input schema (`coerce.rs`), Seed-OSS's as Qwen3 XML's are
//! (`qwen_xml.rs`). MiniMax and MiniCPM5 values are kept as written, surrounding whitespace
//! included (vLLM's MiniMax tests); Step-3 trims them (its parser does). MiniCPM5 values are
//! XML text: `<![CDATA[..]]>` is unwrapped and, in a value without `<` or a bare `&`, the five
//! predefined entities are decoded (its parser reads the call with an XML parser first). Its
//! tags are also read collapsed (`<functionname=`, `<paramname=`) or with the tokenizer's
//! `Ġ` for the space, as its tests write them.
//!
//! Where peers differ: without a schema vLLM's MiniMax and Step-3 parsers keep strings; here
//! values are guessed as for Qwen3 XML. vLLM's Step-3 parses no arrays or objects even where
//! the schema asks for them; here they are. vLLM's MiniCPM5 parser drops calls to unknown tools
//! or missing a required argument, and maps some tool names to others (tau-bench's); here the
//! call is reported as written, for validation to judge. vLLM's MiniCPM5 regex fallback trims
//! values; here they are kept as written. Seed-OSS values lose one line break at each end, as
//! Qwen3 XML's do in vLLM (whose Seed-OSS parser is its Qwen3 one); llama.cpp's keep them. A
//! call cut off at the end of the text is an error.

use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Openers, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::kv::{
    self, attribute, find, first_of, first_of_in, prefix_any, Any, Args, Group, Read, NEXT_TAG,
};
use super::qwen_xml;
use std::borrow::Cow;

/// Calls as `<invoke>` XML.
pub(crate) const READER: Reader = Reader::new(b'<', 80, at, None);

/// One markup's tags.
#[derive(Debug)]
pub(crate) struct Tags {
    pub format: TextFormat,
    /// The calls' group; `None` for calls written on their own.
    pub group: Option<Group<'static>>,
    /// What opens a call, up to its name attribute's value (spellings of one tag).
    pub invoke: &'static [&'static str],
    pub invoke_close: &'static str,
    /// What opens a parameter, up to its name attribute's value.
    pub param: &'static [&'static str],
    pub param_close: &'static str,
    /// A parameter also ends where the next one opens.
    pub param_ends_at_next: bool,
    /// Values are trimmed.
    pub trim: bool,
    /// Values are XML text (CDATA sections, entities).
    pub xml_text: bool,
}

const MARKUPS: [Tags; 5] = [
    Tags {
        format: TextFormat::MinimaxM2,
        group: Some(Group {
            format: TextFormat::MinimaxM2,
            open: "<minimax:tool_call>",
            close: "</minimax:tool_call>",
            filler: &[],
        }),
        invoke: &["<invoke name="],
        invoke_close: "</invoke>",
        param: &["<parameter name="],
        param_close: "</parameter>",
        param_ends_at_next: true,
        trim: false,
        xml_text: false,
    },
    Tags {
        format: TextFormat::Step3,
        group: Some(Group {
            format: TextFormat::Step3,
            open: "<｜tool_calls_begin｜>",
            close: "<｜tool_calls_end｜>",
            filler: &[
                "<｜tool_call_begin｜>",
                "<｜tool_call_end｜>",
                "<｜tool_sep｜>",
                "function<｜tool_sep｜>",
            ],
        }),
        invoke: &["<steptml:invoke name="],
        invoke_close: "</steptml:invoke>",
        param: &["<steptml:parameter name="],
        param_close: "</steptml:parameter>",
        param_ends_at_next: false,
        trim: true,
        xml_text: false,
    },
    Tags {
        format: TextFormat::MiniCpm5,
        group: None,
        invoke: &["<function name=", "<functionname=", "<function\u{120}name="],
        invoke_close: "</function>",
        param: &["<param name=", "<paramname=", "<param\u{120}name="],
        param_close: "</param>",
        param_ends_at_next: false,
        trim: false,
        xml_text: true,
    },
    // dots.llm's XML body (its JSON body is `wrapped.rs`'s; `dots.rs` picks).
    Tags {
        format: TextFormat::Dots,
        group: Some(Group {
            format: TextFormat::Dots,
            open: "<dots_function_call>",
            close: "</dots_function_call>",
            filler: &[],
        }),
        invoke: &["<invoke name="],
        invoke_close: "</invoke>",
        param: &["<parameter name="],
        param_close: "</parameter>",
        param_ends_at_next: false,
        trim: true,
        xml_text: false,
    },
    // Muse's ATEM block, in a message to a tool (`muse.rs`) or on its own.
    Tags {
        format: TextFormat::Muse,
        group: Some(Group {
            format: TextFormat::Muse,
            open: "<atem:function_calls>",
            close: "</atem:function_calls>",
            filler: &[],
        }),
        invoke: &["<atem:invoke name="],
        invoke_close: "</atem:invoke>",
        param: &["<atem:parameter name="],
        param_close: "</atem:parameter>",
        param_ends_at_next: false,
        trim: false,
        xml_text: false,
    },
];

/// Seed-OSS: Qwen3's functions in a group of their own.
const SEED: Group = Group {
    format: TextFormat::SeedOss,
    open: "<seed:tool_call>",
    close: "</seed:tool_call>",
    filler: &[],
};

/// Whether parsing in `format` looks for the markups [`at`] reads.
#[cfg(test)]
pub(crate) fn looks_for(format: TextFormat) -> bool {
    format.includes(SEED.format) || MARKUPS.iter().any(|m| format.includes(m.format))
}

/// A call, or a group of them, opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut openers = Openers::new(cx, text, pos);
    for markup in &MARKUPS {
        let step = match &markup.group {
            Some(group) if openers.opens(markup.format, group.open) => {
                let read = |cx: &Cx, text: &str, at: usize| read_invoke(cx, markup, text, at);
                kv::read_group(cx, text, pos, group, &read)
            }
            None if cx.format.includes(markup.format) => match read_invoke(cx, markup, text, pos) {
                Read::Done(end, item) => region(pos, end, vec![item]),
                Read::Calls(end, items) => region(pos, end, items),
                Read::Wait(need) => return Step::More(need),
                Read::NotACall => continue,
            },
            _ => continue,
        };
        return step.in_format(markup.format);
    }
    if openers.opens(SEED.format, SEED.open) {
        return kv::read_group(cx, text, pos, &SEED, &read_function).in_format(SEED.format);
    }
    openers.none()
}

/// The call opening at `at`, if one does.
fn read_invoke(cx: &Cx, markup: &Tags, text: &str, at: usize) -> Read {
    let open = match prefix_any(text, at, markup.invoke, cx.eof) {
        Any::Yes(open) => open,
        Any::Partial => return Read::Wait(Need::Any),
        Any::No => return Read::NotACall,
    };
    // The call ends at its closing tag; left open, where the next call or the group's end
    // begins; cut off, at the end of the text.
    let name_at = at + open.len();
    let mut stops: Vec<&'static str> = vec![markup.invoke_close];
    stops.extend(markup.invoke);
    if let Some(group) = &markup.group {
        stops.push(group.close);
        stops.extend(group.filler.iter().filter(|f| f.starts_with('<')));
    }
    let (body_end, end, whole) =
        match first_of_in(text, name_at, text.len(), &stops, markup.xml_text) {
            Some((close, tag)) if tag == markup.invoke_close => (close, close + tag.len(), true),
            Some((next, _)) => (next, next, true),
            None if cx.eof => (text.len(), text.len(), false),
            // The text may end inside one of them: nothing decides before its `>`.
            None => return Read::Wait(NEXT_TAG),
        };
    let item = match read_call(cx, markup, text, name_at, body_end, whole) {
        Ok((name, arguments)) => Item::Call { name, arguments },
        Err(kind) => kv::error(at..end, kind),
    };
    Read::Done(end, item)
}

/// The name (its attribute's value at `start`) and the arguments of the call up to `end`.
fn read_call(
    cx: &Cx,
    markup: &Tags,
    text: &str,
    start: usize,
    end: usize,
    whole: bool,
) -> Result<(String, String), TextErrorKind> {
    if !whole {
        return Err(TextErrorKind::Truncated(cut_in(markup, &text[start..end])));
    }
    let syntax = |expected| TextErrorKind::Syntax { expected };
    let (name, after) = attribute(text, start, end).ok_or(syntax("the tool name's end"))?;
    let name = text[name].trim();
    if name.is_empty() {
        return Err(TextErrorKind::MissingName);
    }
    let tag_end = kv::find(text, after..end, ">").ok_or(syntax("`>` after the tool name"))?;
    let mut args = Args::new(cx, name);
    let mut pos = tag_end + 1;
    loop {
        pos = skip_ws(text, pos).min(end);
        if pos == end {
            break;
        }
        let Any::Yes(open) = prefix_any(text, pos, markup.param, true) else {
            return Err(syntax("a parameter tag"));
        };
        let (key, after) =
            attribute(text, pos + open.len(), end).ok_or(syntax("the parameter name's end"))?;
        let key = text[key].trim();
        if key.is_empty() {
            return Err(syntax("a parameter name"));
        }
        let value_start = 1 + find(text, after..end, ">").ok_or(syntax("`>` after a parameter"))?;
        // A closing tag inside a CDATA section is the value's text (llama.cpp's MiniCPM5 test).
        let xml = markup.xml_text;
        let close = first_of_in(text, value_start, end, &[markup.param_close], xml).map(|f| f.0);
        let next = match markup.param_ends_at_next {
            true => {
                first_of_in(text, value_start, close.unwrap_or(end), markup.param, xml).map(|f| f.0)
            }
            false => None,
        };
        let (value_end, next_pos) = match (next, close) {
            (Some(next), _) => (next, next),
            (None, Some(close)) => (close, close + markup.param_close.len()),
            (None, None) => return Err(syntax("the parameter's closing tag")),
        };
        let value = value_text(markup, &text[value_start..value_end]);
        args.insert(key, &value);
        pos = next_pos;
    }
    Ok((name.to_owned(), args.json()))
}

/// Where a call cut off at the end of the text, `body`, stops.
fn cut_in(markup: &Tags, body: &str) -> Cut {
    let last_param = markup.param.iter().filter_map(|p| body.rfind(p)).max();
    match last_param {
        Some(open) if !body[open..].contains(markup.param_close) => Cut::InString,
        _ => Cut::InMarkup,
    }
}

/// A parameter's value as the markup means it.
fn value_text<'t>(markup: &Tags, raw: &'t str) -> Cow<'t, str> {
    let value = if markup.xml_text {
        xml_text(raw)
    } else {
        Cow::Borrowed(raw)
    };
    match markup.trim {
        true => Cow::Owned(value.trim().to_owned()),
        false => value,
    }
}

/// XML character data: a CDATA section's content, or text with its entities decoded when it
/// is well-formed (no `<`, every `&` an entity); else the text as written.
fn xml_text(raw: &str) -> Cow<'_, str> {
    if let Some(inner) = raw
        .strip_prefix("<![CDATA[")
        .and_then(|rest| rest.strip_suffix("]]>"))
    {
        return Cow::Borrowed(inner);
    }
    if raw.contains('<') || !raw.contains('&') {
        return Cow::Borrowed(raw);
    }
    const ENTITIES: [(&str, char); 5] = [
        ("&amp;", '&'),
        ("&lt;", '<'),
        ("&gt;", '>'),
        ("&quot;", '"'),
        ("&apos;", '\''),
    ];
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let Some((entity, c)) = ENTITIES.iter().find(|(e, _)| rest[amp..].starts_with(e)) else {
            return Cow::Borrowed(raw);
        };
        out.push(*c);
        rest = &rest[amp + entity.len()..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// A Qwen3 function inside Seed-OSS's group, opening at `at`.
fn read_function(cx: &Cx, text: &str, at: usize) -> Read {
    match prefix(text, at, qwen_xml::FUNCTION, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Read::Wait(Need::Any),
        Prefix::No => return Read::NotACall,
    }
    const FUNCTION_END: &str = "</function>";
    let stops = [FUNCTION_END, qwen_xml::FUNCTION, SEED.close];
    let (end, closed) = match first_of(text, at + 1, text.len(), &stops) {
        Some((close, FUNCTION_END)) => (close + FUNCTION_END.len(), true),
        Some((next, _)) => (next, true),
        None if cx.eof => (text.len(), false),
        None => return Read::Wait(NEXT_TAG),
    };
    let items = qwen_xml::read_functions(cx, text, at, end, closed);
    // One function opens at `at`, and the range holds no other.
    let item = items
        .into_iter()
        .next()
        .unwrap_or(kv::error(at..end, TextErrorKind::Truncated(Cut::InMarkup)));
    let item = match item {
        // The Qwen3 reader takes a function cut after a closed parameter as complete; here a
        // call cut off is an error.
        Item::Call { .. } if !closed => kv::error(at..end, TextErrorKind::Truncated(Cut::InMarkup)),
        item => item,
    };
    Read::Done(end, item)
}

#[cfg(test)]
mod tests {
    use super::xml_text;
    use crate::{parse, Cut, TextErrorKind, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    fn tools() -> HashMap<String, Value> {
        HashMap::from([
            (
                "get_weather".to_owned(),
                json!({"type": "object", "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer"},
                }}),
            ),
            (
                "sum_values".to_owned(),
                json!({"type": "object", "properties": {
                    "nums": {"type": "array"},
                    "exact": {"type": "boolean"},
                }}),
            ),
        ])
    }

    fn calls(text: &str, format: TextFormat) -> Vec<(String, Value)> {
        crate::test_support::found_ok(text, format, &tools())
    }

    #[test]
    fn minimax_reads_every_invoke_and_keeps_whitespace() {
        // vLLM's test_minimax_m2_tool_parser.py.
        let text = "Let me check. <minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\"> Seattle </parameter>\n<parameter name=\"days\">5</parameter>\n</invoke>\n<invoke name='sum_values'><parameter name=nums>[1, 2]<parameter name=\"exact\">true</parameter></invoke>\n</minimax:tool_call>";
        for format in [TextFormat::MinimaxM2, TextFormat::Auto] {
            assert_eq!(
                calls(text, format),
                [
                    (
                        "get_weather".to_owned(),
                        json!({"city": " Seattle ", "days": 5})
                    ),
                    (
                        "sum_values".to_owned(),
                        json!({"nums": [1, 2], "exact": true})
                    ),
                ]
            );
            assert_eq!(parse(text, format, &tools()).text, "Let me check. ");
        }
    }

    #[test]
    fn minicpm5_reads_its_spellings_and_xml_text() {
        // vLLM's test_minicpm5xml_tool_parser.py.
        let text = "Head\n<function name=\"get_weather\"><param name=\"city\">北京</param></function>\nTXT\n<functionname=\"sum_values\"><paramname=\"nums\">[7,8,9]</param><param\u{120}name=\"exact\">false</param></function>\nTail\n";
        assert_eq!(
            calls(text, TextFormat::Auto),
            [
                ("get_weather".to_owned(), json!({"city": "北京"})),
                (
                    "sum_values".to_owned(),
                    json!({"nums": [7, 8, 9], "exact": false})
                ),
            ]
        );
        assert_eq!(
            parse(text, TextFormat::MiniCpm5, &tools()).text,
            "Head\nTXT\nTail\n"
        );
        let text = "<function name=\"get_weather\"><param name=\"city\"><![CDATA[北\n京]]></param></function>";
        assert_eq!(
            calls(text, TextFormat::MiniCpm5)[0].1,
            json!({"city": "北\n京"})
        );
        // Tags inside a CDATA section are its text (llama.cpp's test-chat.cpp).
        let text = "<function name=\"get_weather\"><param name=\"city\"><![CDATA[<b>x</b> </param></function>]]></param></function>";
        assert_eq!(
            calls(text, TextFormat::MiniCpm5)[0].1,
            json!({"city": "<b>x</b> </param></function>"})
        );
        assert_eq!(xml_text("a &amp; b &lt;c&gt;"), "a & b <c>");
        assert_eq!(xml_text("a & b"), "a & b");
        assert_eq!(xml_text("a < b &amp;"), "a < b &amp;");
        // A parameter without a name spoils the call (vLLM's parser rejects it too).
        let text = "<function name=\"get_weather\"><param>北京</param><param name=\"days\">2</param></function>";
        let parsed = parse(text, TextFormat::MiniCpm5, &tools());
        assert!(parsed.calls.is_empty());
        assert!(matches!(
            parsed.errors[0].kind,
            TextErrorKind::Syntax { .. }
        ));
    }

    #[test]
    fn step3_reads_its_tokens_and_values_with_angle_brackets() {
        // vLLM's test_step3_tool_parser.py.
        let text = "Let me check.\n\n<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\"><steptml:parameter name=\"city\"> a < 5 <b>hi</b> </steptml:parameter><steptml:parameter name=\"days\">2</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_sep｜><｜tool_call_begin｜><steptml:invoke name=\"sum_values\"></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>\n\nDone.";
        for format in [TextFormat::Step3, TextFormat::Auto] {
            assert_eq!(
                calls(text, format),
                [
                    (
                        "get_weather".to_owned(),
                        json!({"city": "a < 5 <b>hi</b>", "days": 2})
                    ),
                    ("sum_values".to_owned(), json!({})),
                ]
            );
            assert_eq!(
                parse(text, format, &tools()).text,
                "Let me check.\n\n\nDone."
            );
        }
    }

    #[test]
    fn seed_oss_reads_qwen_functions_in_its_tags() {
        // llama.cpp's test-chat.cpp, ByteDance-Seed-OSS.
        let text = "<seed:think>maybe <seed:tool_call></seed:think>\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Oslo</parameter>\n<parameter=days>1</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=sum_values>\n<parameter=nums>[1]</parameter>\n</function>\n</seed:tool_call>";
        for format in [TextFormat::SeedOss, TextFormat::Auto] {
            assert_eq!(
                calls(text, format),
                [
                    ("get_weather".to_owned(), json!({"city": "Oslo", "days": 1})),
                    ("sum_values".to_owned(), json!({"nums": [1]})),
                ]
            );
        }
    }

    #[test]
    fn a_call_cut_off_is_an_error() {
        for (text, format, cut) in [
            (
                "<minimax:tool_call><invoke name=\"get_weather\"><parameter name=\"city\">Osl",
                TextFormat::MinimaxM2,
                Cut::InString,
            ),
            (
                "<function name=\"get_weather\"><param name=\"city\">北京</param>",
                TextFormat::MiniCpm5,
                Cut::InMarkup,
            ),
            (
                "<seed:tool_call><function=get_weather><parameter=city>Oslo</parameter>",
                TextFormat::SeedOss,
                Cut::InMarkup,
            ),
        ] {
            let parsed = parse(text, format, &tools());
            assert!(parsed.calls.is_empty(), "{parsed:?}");
            assert_eq!(
                parsed.errors[0].kind,
                TextErrorKind::Truncated(cut),
                "{text}"
            );
            assert_eq!(parsed.errors[0].raw, text);
        }
    }
}
