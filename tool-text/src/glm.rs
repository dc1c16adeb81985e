//! Calls written as a tool name followed by key/value tag pairs, GLM's layout and its kin.
//!
//! | format | markup | models | peers |
//! |---|---|---|---|
//! | [`Glm`](TextFormat::Glm) | `<tool_call>NAME\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n</tool_call>` (GLM 4.7 writes it on one line) | GLM 4.5/4.6/4.7, Ling 3.0, Poolside | vLLM `glm45`/`glm47` (`parser/glm47_moe.py`), `ling3` (`parser/ling3.py`), `poolside_v1` (`tool_parsers/poolside_v1_tool_parser.py`); SGLang `glm`, `glm45`, `glm47`, `ling3`, `poolside_v1`; llama.cpp (GLM-4.6 and GLM-4.7-Flash templates, Ling 3.0) |
//! | [`HyV3`](TextFormat::HyV3) | `<tool_calls><tool_call>NAME<tool_sep><arg_key>k</arg_key><arg_value>v</arg_value></tool_call></tool_calls>`; Hy4 leaves out `<tool_sep>` | Tencent Hy3, Hy4 | vLLM `hy_v3` (`hy_v3_tool_parser.py`), `hy_v4` (`hy_v4_tool_parser.py`) |
//! | [`K2Horizon`](TextFormat::K2Horizon) | `<ifm\|tool_calls><ifm\|tool_call>NAME<ifm\|arg_key>k</ifm\|arg_key><ifm\|arg_type>t</ifm\|arg_type><ifm\|arg_value>v</ifm\|arg_value></ifm\|tool_call></ifm\|tool_calls>` (`<ifm\|arg_type>` only in its typed mode), or a JSON call object (or a list of them) in `<ifm\|tool_call>`; calls may stand without `<ifm\|tool_calls>` | K2 Horizon, K2-V3 | vLLM `k2_horizon` (`k2_horizon_tool_parser.py`), SGLang `k2_horizon`/`k2_v3` (`K2V3Detector`) |
//!
//! GLM's calls open with Hermes's `<tool_call>`: `hermes.rs` finds the tag and hands its body
//! here when it is a name followed by `<arg_key>` (or a known tool's name alone, a call without
//! arguments), so one matcher reads the tag and no call is reported twice. A `<tool_call>` or
//! `</tool_call>` inside an `<arg_value>` is part of the value (llama.cpp's Ling 3.0 test).
//! Hy's `<tool_calls>` is Jamba's too: [`at`] takes it only when a `<tool_call>` comes first,
//! and leaves a JSON list to `wrapped.rs` (`scan::dispatch` asks this module first).
//!
//! Values are kept as written, surrounding whitespace included (vLLM's GLM 4.7 and Poolside
//! tests), and typed with the tool's input schema by `coerce.rs`: strings as written; numbers,
//! booleans, `null`, arrays and objects parsed when the schema says so (trimmed first). K2
//! Horizon's `<ifm|arg_type>` decides where the schema doesn't. Keys and names are trimmed.
//!
//! Where peers differ: without a schema vLLM's GLM and Hy parsers keep strings, Poolside's
//! parses JSON-looking values (`json.loads`, then `ast.literal_eval`); here they are guessed
//! as for Qwen3 XML (`coerce.rs`). A parameter the schema lacks stays a string, as in vLLM's
//! GLM parser (Poolside's parses it). vLLM's boolean typing also takes `1`/`0`; not here. vLLM
//! reads a call cut off at the end of the text (the pairs so far); here it is an error. K2
//! Horizon's parser picks JSON, XML or typed XML from a request setting and rejects the others;
//! all three are read here.
//!
//! Hunyuan's tokens may carry a checkpoint's suffix (`<tool_calls:opensource>` in Hy3's
//! template, `<tool_calls:6124c78e>` in a Hy4 vocabulary): vLLM reads it from the tokenizer,
//! here it is read from the group's opening token (`suffix.rs`), and the group's tags must all
//! carry it. Unsuffixed tokens are read as well (vLLM's `hy_v3` default).

use super::cursor::{prefix, region, skip_ws, Cx, Item, Need, Openers, Prefix, Reader, Step};
use super::error::{Cut, TextErrorKind};
use super::format::TextFormat;
use super::kv::{self, find, Args, Group, Read, NEXT_TAG};
use super::object;
use super::suffix::{self, Suffix};
use memchr::memmem;
use serde_json::{Map, Value};

/// Hy's and K2 Horizon's blocks: before Jamba's, as Hy's `<tool_calls>` holding tagged calls is Hy's.
pub(crate) const READER: Reader = Reader::new(b'<', 50, at, None);

/// One markup's tags.
#[derive(Debug)]
pub(crate) struct Tags<'a> {
    pub call_open: &'a str,
    pub call_close: &'a str,
    /// What may stand between the name and the pairs (Hy3's `<tool_sep>`).
    pub name_sep: Option<&'a str>,
    pub key_open: &'a str,
    pub key_close: &'a str,
    /// What may stand between a key and its value, holding the value's type (K2 Horizon).
    pub kind: Option<(&'a str, &'a str)>,
    pub value_open: &'a str,
    pub value_close: &'a str,
    /// Whether a call may be a JSON object instead (K2 Horizon's `json` mode).
    pub json: bool,
}

pub(crate) const GLM: Tags<'static> = Tags {
    call_open: "<tool_call>",
    call_close: "</tool_call>",
    name_sep: None,
    key_open: "<arg_key>",
    key_close: "</arg_key>",
    kind: None,
    value_open: "<arg_value>",
    value_close: "</arg_value>",
    json: false,
};

const HY: Tags<'static> = Tags {
    name_sep: Some("<tool_sep>"),
    ..GLM
};

const K2: Tags<'static> = Tags {
    call_open: "<ifm|tool_call>",
    call_close: "</ifm|tool_call>",
    name_sep: None,
    key_open: "<ifm|arg_key>",
    key_close: "</ifm|arg_key>",
    kind: Some(("<ifm|arg_type>", "</ifm|arg_type>")),
    value_open: "<ifm|arg_value>",
    value_close: "</ifm|arg_value>",
    json: true,
};

/// The markups whose calls stand in a group.
const GROUPS: [(Group<'static>, &Tags<'static>); 2] = [
    (
        Group {
            format: TextFormat::HyV3,
            open: "<tool_calls>",
            close: "</tool_calls>",
            filler: &[],
        },
        &HY,
    ),
    (
        Group {
            format: TextFormat::K2Horizon,
            open: "<ifm|tool_calls>",
            close: "</ifm|tool_calls>",
            filler: &[],
        },
        &K2,
    ),
];

/// Whether parsing in `format` looks for the groups [`at`] reads.
#[cfg(test)]
pub(crate) fn looks_for(format: TextFormat) -> bool {
    GROUPS
        .iter()
        .any(|(group, _)| format.includes(group.format))
}

/// A group of calls opening at `pos` (a `<`).
pub(crate) fn at(cx: &Cx, text: &str, pos: usize) -> Step {
    let mut openers = Openers::new(cx, text, pos);
    for (group, tags) in &GROUPS {
        if !openers.opens(group.format, group.open) {
            continue;
        }
        if let Some(step) = group_at(cx, text, pos, group, tags) {
            return step;
        }
    }
    // K2 Horizon's calls may stand alone, without `<ifm|tool_calls>` (SGLang's `k2_v3` and
    // vLLM's LLM360 parsers read each `<ifm|tool_call>` block wherever it is).
    if openers.opens(TextFormat::K2Horizon, K2.call_open) {
        let (_, k2) = &GROUPS[1];
        return match read_call(cx, k2, "</ifm|tool_calls>", text, pos) {
            Read::Done(end, item) => region(pos, end, vec![item]).in_format(TextFormat::K2Horizon),
            Read::Calls(end, calls) => region(pos, end, calls).in_format(TextFormat::K2Horizon),
            Read::Wait(need) => cx.more(need),
            Read::NotACall => Step::Prose(1),
        };
    }
    if cx.format.includes(TextFormat::HyV3) {
        match suffix::at(text, pos, "<tool_calls:", cx.eof) {
            Suffix::Yes(suffix) => {
                let tokens = HySuffixed::new(suffix);
                if let Some(step) = group_at(cx, text, pos, &tokens.group(), &tokens.tags()) {
                    return step;
                }
            }
            Suffix::Partial => return Step::More(Need::Any),
            Suffix::No => {}
        }
    }
    openers.none()
}

/// The calls of `group`, opening at `pos`, if its first call is one of `tags`'s: after Hy's
/// `<tool_calls>`, Jamba's JSON list is not one.
fn group_at(cx: &Cx, text: &str, pos: usize, group: &Group, tags: &Tags) -> Option<Step> {
    let first = skip_ws(text, pos + group.open.len());
    match prefix(text, first, tags.call_open, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Some(Step::More(Need::Any)),
        Prefix::No => return None,
    }
    let read = |cx: &Cx, text: &str, at: usize| read_call(cx, tags, group.close, text, at);
    Some(kv::read_group(cx, text, pos, group, &read).in_format(group.format))
}

/// Hunyuan's tokens with the suffix a group's opening token carries (`suffix.rs`): every tag
/// of that group must carry it too, as in vLLM's `hy_v4` parser, whose tokens are the
/// vocabulary's.
struct HySuffixed {
    open: String,
    close: String,
    call_open: String,
    call_close: String,
    name_sep: String,
    key_open: String,
    key_close: String,
    value_open: String,
    value_close: String,
}

impl HySuffixed {
    fn new(suffix: &str) -> HySuffixed {
        let open = |name| suffix::token(name, suffix, false);
        let close = |name| suffix::token(name, suffix, true);
        HySuffixed {
            open: open("tool_calls"),
            close: close("tool_calls"),
            call_open: open("tool_call"),
            call_close: close("tool_call"),
            name_sep: open("tool_sep"),
            key_open: open("arg_key"),
            key_close: close("arg_key"),
            value_open: open("arg_value"),
            value_close: close("arg_value"),
        }
    }

    fn group(&self) -> Group<'_> {
        Group {
            format: TextFormat::HyV3,
            open: &self.open,
            close: &self.close,
            filler: &[],
        }
    }

    fn tags(&self) -> Tags<'_> {
        Tags {
            call_open: &self.call_open,
            call_close: &self.call_close,
            name_sep: Some(&self.name_sep),
            key_open: &self.key_open,
            key_close: &self.key_close,
            kind: None,
            value_open: &self.value_open,
            value_close: &self.value_close,
            json: false,
        }
    }
}

/// The call opening at `at` inside a group that `group_close` closes.
fn read_call(cx: &Cx, tags: &Tags, group_close: &str, text: &str, at: usize) -> Read {
    match prefix(text, at, tags.call_open, cx.eof) {
        Prefix::Yes => {}
        Prefix::Partial => return Read::Wait(NEXT_TAG),
        Prefix::No => return Read::NotACall,
    }
    let body = at + tags.call_open.len();
    let (body_end, end, whole) = match call_end(cx, tags, group_close, text, body) {
        Ok(found) => found,
        Err(need) => return Read::Wait(need),
    };
    let first = skip_ws(text, body).min(body_end);
    if tags.json && whole && text.as_bytes().get(first) == Some(&b'[') {
        return Read::Calls(end, json_calls(cx, &text[first..body_end], at..end));
    }
    let item = match read_pairs(cx, tags, text, body, body_end, whole) {
        Ok((name, arguments)) => Item::Call { name, arguments },
        Err(kind) => kv::error(at..end, kind),
    };
    Read::Done(end, item)
}

/// The calls of a JSON list in one K2 Horizon call's tags (SGLang's `k2_v3` reads a list there
/// as several calls): each element is read on its own, so one bad element costs one error.
fn json_calls(cx: &Cx, body: &str, span: std::ops::Range<usize>) -> Vec<Item> {
    let elements =
        match serde_json::from_str::<Vec<Box<serde_json::value::RawValue>>>(body.trim_end()) {
            Ok(elements) if !elements.is_empty() => elements,
            Ok(_) => return vec![kv::error(span, TextErrorKind::Empty)],
            Err(_) => {
                let kind = TextErrorKind::Syntax {
                    expected: "a JSON list of calls",
                };
                return vec![kv::error(span, kind)];
            }
        };
    elements
        .iter()
        .map(|element| match json_call(cx, element.get()) {
            Ok((name, arguments)) => Item::Call { name, arguments },
            Err(kind) => kv::error(span.clone(), kind),
        })
        .collect()
}

/// Where the body that starts at `body` ends, where its call ends, and whether it is whole: at
/// its closing tag, or left open where the next call or the group's end begins; cut off where
/// the text ends. Tags inside a value are the value's.
fn call_end(
    cx: &Cx,
    tags: &Tags,
    group_close: &str,
    text: &str,
    body: usize,
) -> Result<(usize, usize, bool), Need> {
    let bytes = text.as_bytes();
    let cut = |cx: &Cx| match cx.eof {
        true => Ok((text.len(), text.len(), false)),
        false => Err(NEXT_TAG),
    };
    let mut from = body;
    loop {
        let Some(lt) = memchr::memchr(b'<', &bytes[from..]).map(|n| from + n) else {
            return cut(cx);
        };
        let rest = &text[lt..];
        if rest.starts_with(tags.value_open) {
            match find(
                text,
                lt + tags.value_open.len()..text.len(),
                tags.value_close,
            ) {
                Some(close) => from = close + tags.value_close.len(),
                None => return cut(cx),
            }
            continue;
        }
        if rest.starts_with(tags.call_close) {
            return Ok((lt, lt + tags.call_close.len(), true));
        }
        if rest.starts_with(tags.call_open) || rest.starts_with(group_close) {
            return Ok((lt, lt, true));
        }
        let markers = [
            tags.value_open,
            tags.call_close,
            tags.call_open,
            group_close,
        ];
        if !cx.eof
            && markers
                .iter()
                .any(|m| m.len() > rest.len() && m.starts_with(rest))
        {
            return Err(NEXT_TAG);
        }
        from = lt + 1;
    }
}

/// Whether a `<tool_call>` body, `text[start..end]`, is GLM's: a name followed by `<arg_key>`,
/// or a known tool's name alone. Anything else is left to Hermes (which reports what isn't JSON).
pub(crate) fn is_body(cx: &Cx, text: &str, start: usize, end: usize) -> bool {
    let first = skip_ws(text, start);
    if first >= end || matches!(text.as_bytes()[first], b'{' | b'[' | b'<' | b'"' | b'\'') {
        return false;
    }
    let name_end = memchr::memchr(b'<', &text.as_bytes()[first..end]).map_or(end, |n| first + n);
    let name = text[first..name_end].trim_end();
    if name.bytes().any(|b| b.is_ascii_whitespace()) {
        return false;
    }
    let rest = &text[name_end..end];
    rest.starts_with(GLM.key_open)
        // Cut off inside the tag.
        || (end == text.len() && !rest.is_empty() && GLM.key_open.starts_with(rest))
        || (rest.is_empty() && cx.accepts(name))
}

/// The call in a `<tool_call>` body that [`is_body`]; `whole` when the body was not cut off.
pub(crate) fn read_body(cx: &Cx, text: &str, start: usize, end: usize, whole: bool) -> Item {
    match read_pairs(cx, &GLM, text, start, end, whole) {
        Ok((name, arguments)) => Item::Call { name, arguments },
        Err(kind) => kv::error(start..end, kind),
    }
}

/// Whether a GLM body ends inside a value (one opened and not yet closed).
pub(crate) fn in_value(body: &str) -> bool {
    open_value(&GLM, body)
}

fn open_value(tags: &Tags, body: &str) -> bool {
    let hay = body.as_bytes();
    memmem::rfind(hay, tags.value_open.as_bytes())
        .is_some_and(|open| memmem::find(&hay[open..], tags.value_close.as_bytes()).is_none())
}

/// The name and the arguments of the call in `text[start..end]`.
fn read_pairs(
    cx: &Cx,
    tags: &Tags,
    text: &str,
    start: usize,
    end: usize,
    whole: bool,
) -> Result<(String, String), TextErrorKind> {
    if !whole {
        // The pairs so far may not be all of them.
        let cut = match open_value(tags, &text[start..end]) {
            true => Cut::InString,
            false => Cut::InMarkup,
        };
        return Err(TextErrorKind::Truncated(cut));
    }
    let first = skip_ws(text, start).min(end);
    if first == end {
        return Err(TextErrorKind::Empty);
    }
    if tags.json && text.as_bytes()[first] == b'{' {
        return json_call(cx, &text[first..end]);
    }
    let bytes = text.as_bytes();
    let name_end = memchr::memchr(b'<', &bytes[first..end]).map_or(end, |n| first + n);
    let name = text[first..name_end].trim();
    if name.is_empty() {
        return Err(TextErrorKind::MissingName);
    }
    let mut pos = name_end;
    if let Some(sep) = tags.name_sep {
        if text[pos..end].starts_with(sep) {
            pos += sep.len();
        }
    }
    let syntax = |expected| TextErrorKind::Syntax { expected };
    let mut args = Args::new(cx, name);
    loop {
        pos = skip_ws(text, pos).min(end);
        if pos == end {
            break;
        }
        if !text[pos..end].starts_with(tags.key_open) {
            return Err(syntax("a key tag"));
        }
        let key_start = pos + tags.key_open.len();
        let key_end =
            find(text, key_start..end, tags.key_close).ok_or(syntax("the key's closing tag"))?;
        let key = text[key_start..key_end].trim();
        if key.is_empty() {
            return Err(syntax("a parameter name"));
        }
        pos = skip_ws(text, key_end + tags.key_close.len()).min(end);
        let mut hint = None;
        if let Some((open, close)) = tags.kind {
            if text[pos..end].starts_with(open) {
                let kind_start = pos + open.len();
                let kind_end =
                    find(text, kind_start..end, close).ok_or(syntax("the type's closing tag"))?;
                hint = Some(text[kind_start..kind_end].trim());
                pos = skip_ws(text, kind_end + close.len()).min(end);
            }
        }
        if !text[pos..end].starts_with(tags.value_open) {
            return Err(syntax("a value tag"));
        }
        let value_start = pos + tags.value_open.len();
        let value_end = find(text, value_start..end, tags.value_close)
            .ok_or(syntax("the value's closing tag"))?;
        let value = &text[value_start..value_end];
        match hint {
            Some(hint) => args.insert_hinted(key, value, hint),
            None => args.insert(key, value),
        }
        pos = value_end + tags.value_close.len();
    }
    Ok((name.to_owned(), args.json()))
}

/// A call written as a JSON object (K2 Horizon's `json` mode): string values are typed with the
/// tool's schema, as its XML values are.
fn json_call(cx: &Cx, body: &str) -> Result<(String, String), TextErrorKind> {
    let found = object::read_call(body)?;
    let Some(schema) = cx.tools.input_schema(&found.name) else {
        return Ok((found.name, found.arguments));
    };
    let mut arguments: Map<String, Value> =
        serde_json::from_str(&found.arguments).map_err(|_| TextErrorKind::ArgumentsNotObject)?;
    for (key, value) in arguments.iter_mut() {
        if let Value::String(raw) = value {
            *value = super::coerce::coerce(raw, Some(schema), key);
        }
    }
    Ok((found.name, Value::Object(arguments).to_string()))
}

#[cfg(test)]
mod tests {
    use crate::{parse, Cut, TextErrorKind, TextFormat};
    use serde_json::{json, Value};
    use std::collections::HashMap;

    fn tools() -> HashMap<String, Value> {
        HashMap::from([
            (
                "calculate".to_owned(),
                json!({"type": "object", "properties": {
                    "operation": {"type": "string"},
                    "a": {"type": "number"},
                    "b": {"type": "number"},
                    "enabled": {"type": "boolean"},
                }}),
            ),
            (
                "lookup".to_owned(),
                json!({"type": "object", "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer"},
                }}),
            ),
            ("get_time".to_owned(), json!({"type": "object"})),
        ])
    }

    fn calls(text: &str, format: TextFormat) -> Vec<(String, Value)> {
        crate::test_support::found_ok(text, format, &tools())
    }

    #[test]
    fn glm_values_are_typed_by_the_schema_and_strings_kept_as_written() {
        // vLLM's test_glm4_moe_tool_parser.py and test_glm47_moe_tool_parser.py.
        let text = "<tool_call>calculate\n<arg_key>operation</arg_key><arg_value>add</arg_value>\n<arg_key>a</arg_key><arg_value>42</arg_value>\n<arg_key>b</arg_key><arg_value>2.5</arg_value>\n<arg_key>enabled</arg_key><arg_value>true</arg_value>\n</tool_call>";
        for format in [TextFormat::Glm, TextFormat::Hermes, TextFormat::Auto] {
            assert_eq!(
                calls(text, format),
                [(
                    "calculate".to_owned(),
                    json!({"operation": "add", "a": 42, "b": 2.5, "enabled": true})
                )]
            );
        }
        let text = "<tool_call>calculate<arg_key> operation </arg_key><arg_value>  add  </arg_value></tool_call>";
        assert_eq!(
            calls(text, TextFormat::Glm)[0].1,
            json!({"operation": "  add  "})
        );
        let parsed = parse(text, TextFormat::Auto, &tools());
        assert_eq!(parsed.format, Some(TextFormat::Glm));
    }

    #[test]
    fn a_call_without_arguments_needs_a_known_name() {
        for text in [
            "<tool_call>get_time</tool_call>",
            "<tool_call>get_time\n</tool_call>",
        ] {
            assert_eq!(
                calls(text, TextFormat::Glm),
                [("get_time".to_owned(), json!({}))]
            );
        }
        // Not a tool: Hermes's error for a body that isn't JSON, as before.
        let parsed = parse("<tool_call>hello</tool_call>", TextFormat::Auto, &tools());
        assert!(parsed.calls.is_empty());
        assert!(matches!(
            parsed.errors[0].kind,
            TextErrorKind::Syntax { .. }
        ));
    }

    #[test]
    fn tags_inside_a_value_are_the_value() {
        // llama.cpp's Ling 3.0 test.
        let text = "<tool_call>lookup\n<arg_key>query</arg_key>\n<arg_value>contains </think> and <tool_call> strings</tool_call></arg_value>\n<arg_key>limit</arg_key>\n<arg_value>1</arg_value>\n</tool_call>";
        assert_eq!(
            calls(text, TextFormat::Auto),
            [(
                "lookup".to_owned(),
                json!({"query": "contains </think> and <tool_call> strings</tool_call>", "limit": 1})
            )]
        );
    }

    #[test]
    fn a_call_cut_off_is_an_error_and_an_open_one_ends_at_the_next() {
        let text = "<tool_call>lookup<arg_key>query</arg_key><arg_value>x</arg_value>";
        let parsed = parse(text, TextFormat::Glm, &tools());
        assert!(parsed.calls.is_empty());
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(Cut::InMarkup)
        );
        let parsed = parse(&text[..text.len() - 5], TextFormat::Glm, &tools());
        assert_eq!(
            parsed.errors[0].kind,
            TextErrorKind::Truncated(Cut::InString)
        );
        let text = format!("{text}\n<tool_call>get_time</tool_call>");
        assert_eq!(calls(&text, TextFormat::Glm).len(), 2);
    }

    #[test]
    fn hy_reads_its_group_and_leaves_jamba_lists_alone() {
        // vLLM's test_hy_v3_tool_parser.py, with and without `<tool_sep>` (Hy4).
        let text = "Checking.<tool_calls>\n<tool_call>lookup<tool_sep>\n<arg_key>query</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>2</arg_value>\n</tool_call>\n<tool_call>get_time</tool_call>\n</tool_calls>";
        for format in [TextFormat::HyV3, TextFormat::Auto] {
            let parsed = parse(text, format, &tools());
            assert_eq!(parsed.text, "Checking.");
            assert_eq!(parsed.format, Some(TextFormat::HyV3));
            assert_eq!(
                calls(text, format),
                [
                    ("lookup".to_owned(), json!({"query": "Beijing", "limit": 2})),
                    ("get_time".to_owned(), json!({}))
                ]
            );
        }
        let jamba = "<tool_calls>[{\"name\": \"get_time\", \"arguments\": {}}]</tool_calls>";
        let parsed = parse(jamba, TextFormat::Auto, &tools());
        assert_eq!(parsed.format, Some(TextFormat::Jamba));
        assert_eq!(parsed.calls.len(), 1);
        let parsed = parse(jamba, TextFormat::HyV3, &tools());
        assert_eq!((parsed.calls.len(), parsed.text.as_str()), (0, jamba));
    }

    #[test]
    fn hy_reads_the_suffix_its_group_opens_with() {
        // Hy3's template writes every token with `:opensource`; Hy4's vocabularies carry a
        // suffix of their own (`:6124c78e` is the example of vLLM's `hy_v4_tool_parser.py`).
        for suffix in [":opensource", ":6124c78e"] {
            let text = "<think>x</think>Checking.<tool_calls>\n<tool_call>lookup<tool_sep>\n<arg_key>query</arg_key>\n<arg_value>Bei</tool_call>jing</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>2</arg_value>\n</tool_call>\n<tool_call>get_time</tool_call>\n</tool_calls> done"
                .replace('>', &format!("{suffix}>"))
                .replace(&format!("</tool_call{suffix}>jing"), "</tool_call>jing");
            for format in [TextFormat::HyV3, TextFormat::Auto] {
                let parsed = parse(&text, format, &tools());
                assert_eq!(
                    parsed.text,
                    format!("<think{suffix}>x</think{suffix}>Checking. done")
                );
                assert_eq!(parsed.format, Some(TextFormat::HyV3));
                assert_eq!(
                    calls(&text, format),
                    [
                        (
                            "lookup".to_owned(),
                            json!({"query": "Bei</tool_call>jing", "limit": 2})
                        ),
                        ("get_time".to_owned(), json!({}))
                    ]
                );
            }
        }
    }

    #[test]
    fn hy_tags_without_the_groups_suffix_are_no_call() {
        // The keys lack the suffix the group opened with: one error, the next call read.
        let text = "<tool_calls:opensource><tool_call:opensource>lookup<arg_key>query</arg_key><arg_value>x</arg_value></tool_call:opensource><tool_call:opensource>get_time</tool_call:opensource></tool_calls:opensource>";
        let parsed = parse(text, TextFormat::HyV3, &tools());
        assert_eq!(parsed.errors.len(), 1, "{parsed:?}");
        assert_eq!(parsed.calls.len(), 1);
        assert_eq!(parsed.calls[0].name, "get_time");
        // A call inside a suffixed think block is thought, not made.
        let text = "<think:opensource><tool_calls:opensource><tool_call:opensource>get_time</tool_call:opensource></tool_calls:opensource></think:opensource>";
        let parsed = parse(text, TextFormat::Auto, &tools());
        assert_eq!((parsed.calls.len(), parsed.text.as_str()), (0, text));
    }

    #[test]
    fn k2_horizon_calls_stand_alone_and_a_json_list_is_several_calls() {
        // SGLang's test_k2v3_tool_parser.py: `<ifm|tool_call>` without `<ifm|tool_calls>`, a
        // JSON list in one call's tags, reasoning-effort blocks before the calls.
        let text = "<ifm|think_fast>maybe <ifm|tool_call>get_time</ifm|tool_call></ifm|think_fast>Sure. <ifm|tool_call>lookup<ifm|arg_key>limit</ifm|arg_key><ifm|arg_value>2</ifm|arg_value></ifm|tool_call> and <ifm|tool_call>[{\"name\": \"get_time\", \"arguments\": {}}, {\"name\": \"lookup\", \"arguments\": {\"query\": \"x\"}}]</ifm|tool_call>";
        for format in [TextFormat::K2Horizon, TextFormat::Auto] {
            let parsed = parse(text, format, &tools());
            assert_eq!(
                parsed.text,
                "<ifm|think_fast>maybe <ifm|tool_call>get_time</ifm|tool_call></ifm|think_fast>Sure.  and "
            );
            assert_eq!(parsed.format, Some(TextFormat::K2Horizon));
            assert_eq!(
                calls(text, format),
                [
                    ("lookup".to_owned(), json!({"limit": 2})),
                    ("get_time".to_owned(), json!({})),
                    ("lookup".to_owned(), json!({"query": "x"})),
                ]
            );
        }
        // One bad element of a list costs one error; a list that isn't JSON is one error.
        let text = "<ifm|tool_call>[{\"name\": \"get_time\", \"arguments\": {}}, {\"arguments\": {}}]</ifm|tool_call><ifm|tool_call>[oops</ifm|tool_call><ifm|tool_call>get_time</ifm|tool_call>";
        let parsed = parse(text, TextFormat::K2Horizon, &tools());
        assert_eq!(parsed.calls.len(), 2, "{parsed:?}");
        assert_eq!(parsed.errors.len(), 2, "{parsed:?}");
        assert_eq!(parsed.text, "");
    }

    #[test]
    fn one_bad_call_in_a_group_costs_one_error() {
        let text = "<tool_calls><tool_call>get_time<tool_sep><arg_key>x</arg_key></tool_call>junk<tool_call>get_time</tool_call></tool_calls> after";
        let parsed = parse(text, TextFormat::HyV3, &tools());
        assert_eq!(parsed.calls.len(), 1);
        assert_eq!(parsed.errors.len(), 2, "{parsed:?}");
        assert_eq!(parsed.errors[1].raw, "junk");
        assert_eq!(parsed.text, " after");
    }

    #[test]
    fn a_group_opened_again_ends_the_open_one_and_cuts_its_call() {
        // The model started over: the first group's call was cut inside a value, and the
        // second group is read on its own (kv::read_group's rule, for every grouped markup).
        let first = "<tool_calls><tool_call>lookup<tool_sep><arg_key>query</arg_key><arg_value>Bei";
        let text = format!("{first}<tool_calls><tool_call>get_time</tool_call></tool_calls> ok");
        for format in [TextFormat::HyV3, TextFormat::Auto] {
            let parsed = parse(&text, format, &tools());
            assert_eq!(parsed.calls.len(), 1, "{parsed:?}");
            assert_eq!(parsed.calls[0].name, "get_time");
            assert_eq!(parsed.errors.len(), 1);
            assert_eq!(
                parsed.errors[0].kind,
                TextErrorKind::Truncated(Cut::InString)
            );
            assert!(first.ends_with(&parsed.errors[0].raw));
            assert_eq!(parsed.text, " ok");
        }
    }

    #[test]
    fn k2_horizon_reads_plain_typed_and_json_calls() {
        // vLLM's test_k2_horizon_tool_parser.py.
        let text = "Before <ifm|tool_calls><ifm|tool_call>lookup<ifm|arg_key>query</ifm|arg_key><ifm|arg_value>123</ifm|arg_value><ifm|arg_key>limit</ifm|arg_key><ifm|arg_value>3</ifm|arg_value></ifm|tool_call>\n<ifm|tool_call>ping</ifm|tool_call></ifm|tool_calls> after.";
        let parsed = parse(text, TextFormat::K2Horizon, &tools());
        assert_eq!(parsed.text, "Before  after.");
        assert_eq!(
            calls(text, TextFormat::Auto),
            [
                ("lookup".to_owned(), json!({"query": "123", "limit": 3})),
                ("ping".to_owned(), json!({}))
            ]
        );
        let typed = "<ifm|tool_calls><ifm|tool_call>search<ifm|arg_key>n</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>2</ifm|arg_value><ifm|arg_key>q</ifm|arg_key><ifm|arg_type>any</ifm|arg_type><ifm|arg_value>2</ifm|arg_value></ifm|tool_call></ifm|tool_calls>";
        assert_eq!(
            calls(typed, TextFormat::K2Horizon)[0].1,
            json!({"n": 2, "q": "2"})
        );
        let json = "<ifm|tool_calls><ifm|tool_call>{\"name\": \"lookup\", \"arguments\": {\"limit\": \"2\"}}</ifm|tool_call></ifm|tool_calls>";
        assert_eq!(calls(json, TextFormat::Auto)[0].1, json!({"limit": 2}));
    }
}
