//! Malformed and borderline tool calls in model text: an error for what can't be read, never
//! a guess, and every good call around it kept. The cases are written after the ones in the
//! peers' own test suites (vLLM `tests/tool_parsers/`, llama.cpp `tests/test-chat.cpp`,
//! SGLang `test/srt/test_function_call_parser.py`), named beside each.

use tool_runtime::text::{parse, TextErrorKind, TextFormat, TextParse, TextStream};

/// `written` cut in two at the char boundary at or after its middle.
fn halves(written: &str) -> (&str, &str) {
    let mut half = written.len() / 2;
    while !written.is_char_boundary(half) {
        half += 1;
    }
    written.split_at(half)
}

/// `text` streamed in 13-byte pieces (at char boundaries), its events collected.
fn streamed_in_13_byte_pieces(text: &str, format: TextFormat) -> TextParse {
    let mut stream = TextStream::new(format, &());
    let mut events = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + 13).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        events.extend(stream.push(&text[at..end]));
        at = end;
    }
    events.extend(stream.finish());
    events.into_iter().collect()
}

fn names(parsed: &TextParse) -> Vec<&str> {
    parsed.calls.iter().map(|c| c.name.as_str()).collect()
}

/// vLLM's Hermes tests feed `<tool_call>` bodies to `json.loads`: a body that isn't JSON is
/// no call. Here it is an error with its raw text, and its neighbours are kept.
#[test]
fn a_call_broken_in_the_middle_is_an_error_in_every_json_format() {
    let cases: [(&str, TextFormat); 14] = [
        (
            "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"b\", \"arguments\": {\"x\": 1, \"y\": }}</tool_call>\n<tool_call>{\"name\": \"c\", \"arguments\": {\"z\": 2}}</tool_call>",
            TextFormat::Hermes,
        ),
        (
            "[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1 \"y\": 2}}, {\"name\": \"c\", \"arguments\": {\"z\": 2}}]",
            TextFormat::Mistral,
        ),
        (
            "{\"tool_calls\": [{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": true \"y\": 2}}, {\"name\": \"c\", \"arguments\": {\"z\": 2}}]}",
            TextFormat::Envelope,
        ),
        (
            "```json\n[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": }}, {\"name\": \"c\", \"arguments\": {\"z\": 2}}]\n```",
            TextFormat::Fenced,
        ),
        (
            "<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {\"x\": 1,, \"y\": 2}}; {\"name\": \"c\", \"parameters\": {\"z\": 2}}",
            TextFormat::Llama3,
        ),
        (
            "[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": [1, }}, {\"name\": \"c\", \"arguments\": {\"z\": 2}}]",
            TextFormat::Xlam,
        ),
        (
            "functools[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1 \"y\": 2}}, {\"name\": \"c\", \"arguments\": {\"z\": 2}}]",
            TextFormat::Phi4Mini,
        ),
        (
            "<dots_function_call><invoke name=\"a\"></invoke><invoke name=\"b\"><parameter name=\"x\">1</invoke><invoke name=\"c\"><parameter name=\"z\">2</parameter></invoke></dots_function_call>",
            TextFormat::Dots,
        ),
        (
            "<|function_call|>{\"name\": \"a\", \"arguments\": {}}\n<|function_call|>{\"name\": \"b\", \"arguments\": {\"x\": 1,, \"y\": 2}}\n<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"c\", \"arguments\": {\"z\": 2}}",
            TextFormat::GigaChat,
        ),
        (
            "<|message_model|>a<|content_invoke_tool_json|>{\"name\": \"a\", \"args\": {}}<|end_message|><|message_model|>b<|content_invoke_tool_json|>{\"name\": \"b\", \"args\": {\"x\": }}<|end_message|><|message_model|>c<|content_invoke_tool_json|>{\"name\": \"c\", \"args\": {\"z\": 2}}<|end_message|>",
            TextFormat::Inkling,
        ),
        (
            ">>>a\n{}\n>>>b\n{\"x\": 1,, \"y\": 2}\n>>>c\n{\"z\": 2}",
            TextFormat::FunctionaryV32,
        ),
        (
            "]<]minimax[>[<tool_call>]<]minimax[>[<invoke name=\"a\">]<]minimax[>[</invoke>]<]minimax[>[<invoke name=\"b\">]<]minimax[>[<x>1]<]minimax[>[</y>]<]minimax[>[</invoke>]<]minimax[>[<invoke name=\"c\">]<]minimax[>[<z>2]<]minimax[>[</z>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>",
            TextFormat::MinimaxM3,
        ),
        (
            "Action:\n```json\n[{\"tool_name\": \"a\", \"parameters\": {}}, {\"tool_name\": \"b\", \"parameters\": {\"x\": }}, {\"tool_name\": \"c\", \"parameters\": {\"z\": 2}}]\n```",
            TextFormat::CommandRPlus,
        ),
        (
            "<|start|>assistant to=a<|message|>{}<|eom|><|start|>assistant to=b<|message|>{\"x\": 1,, \"y\": 2}<|eom|><|start|>assistant to=c<|message|><atem:function_calls><atem:invoke name=\"c\"><atem:parameter name=\"z\">2</atem:parameter></atem:invoke></atem:function_calls><|eom|>",
            TextFormat::Muse,
        ),
    ];
    for (text, format) in cases {
        for format in [format, TextFormat::Auto] {
            let parsed = parse(text, format, &());
            assert_eq!(names(&parsed), ["a", "c"], "{format:?}: {parsed:#?}");
            assert_eq!(parsed.errors.len(), 1, "{format:?}: {parsed:#?}");
            let error = &parsed.errors[0];
            // Functionary v3.2's recipient line and Muse's header name the tool unquoted.
            let names_b = error.raw.contains("\"b\"")
                || error.raw.starts_with(">>>b\n")
                || error.raw.contains(" to=b<");
            assert!(names_b, "{format:?}: {error:?}");
            assert_eq!(&text[error.span.clone()], error.raw);
        }
    }
}

/// A pythonic list (vLLM `test_pythonic_tool_parser.py`, Llama 3.2 / ToolACE) with one call
/// whose literal is broken: that call is an error, the others are read.
#[test]
fn one_broken_pythonic_call_costs_only_itself() {
    let text = "[get_weather(city='Paris'), get_time(tz=), get_news(topic=\"rust\")]";
    let parsed = parse(text, TextFormat::Pythonic, &());
    assert_eq!(names(&parsed), ["get_weather", "get_news"], "{parsed:#?}");
    assert_eq!(parsed.errors.len(), 1, "{parsed:#?}");
    assert!(
        parsed.errors[0].raw.contains("get_time(tz=)"),
        "{parsed:#?}"
    );
}

/// XML parameters (vLLM `qwen3coder_tool_parser.py`): a `<parameter=` left open ends where
/// the next one starts, as vLLM's pattern reads it (one reading only); a function with no
/// name is an error, and the call beside it is kept.
#[test]
fn qwen_xml_calls_are_read_one_by_one() {
    let text = "<tool_call>\n<function=a>\n<parameter=x>\n1\n<parameter=y>\n2\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>";
    let parsed = parse(text, TextFormat::QwenXml, &());
    assert_eq!(names(&parsed), ["a"], "{parsed:#?}");
    assert_eq!(parsed.calls[0].arguments, r#"{"x":1,"y":2}"#);
    assert_eq!(parsed.errors.len(), 1, "{parsed:#?}");
    assert!(!parsed.text.contains("</tool_call>"), "{parsed:#?}");
}

/// An object that parses but names no tool is an error, not prose.
#[test]
fn a_call_without_a_name_is_an_error() {
    for (text, format) in [
        (
            "<tool_call>{\"arguments\": {\"x\": 1}}</tool_call>",
            TextFormat::Hermes,
        ),
        (
            "[TOOL_CALLS][{\"arguments\": {\"x\": 1}}]",
            TextFormat::Mistral,
        ),
        (
            "```json\n{\"arguments\": {\"x\": 1}}\n```",
            TextFormat::Fenced,
        ),
    ] {
        let parsed = parse(text, format, &());
        assert!(parsed.calls.is_empty(), "{format:?}: {parsed:#?}");
        assert_eq!(parsed.errors.len(), 1, "{format:?}: {parsed:#?}");
        assert_eq!(parsed.errors[0].kind, TextErrorKind::MissingName);
    }
}

/// Mistral v11 (`[TOOL_CALLS]name[ARGS]{..}`, llama.cpp's Magistral and Devstral cases):
/// anything but an object after `[ARGS]` is an error; a JSON string holding the object is
/// decoded once; whitespace between the name and `[ARGS]` is fine.
#[test]
fn mistral_v11_arguments_are_an_object() {
    let parsed = parse(
        "[TOOL_CALLS]get_time[ARGS]\"CET\"",
        TextFormat::Mistral,
        &(),
    );
    assert!(parsed.calls.is_empty(), "{parsed:#?}");
    assert_eq!(parsed.errors[0].kind, TextErrorKind::ArgumentsNotObject);
    let parsed = parse("[TOOL_CALLS]get_time[ARGS][1, 2]", TextFormat::Mistral, &());
    assert!(parsed.calls.is_empty(), "{parsed:#?}");
    assert_eq!(parsed.errors.len(), 1, "{parsed:#?}");

    let parsed = parse(
        "[TOOL_CALLS]get_time[ARGS]\"{\\\"tz\\\": \\\"CET\\\"}\"",
        TextFormat::Mistral,
        &(),
    );
    assert_eq!(parsed.calls[0].arguments, r#"{"tz": "CET"}"#, "{parsed:#?}");
    let parsed = parse(
        "[TOOL_CALLS]get_time [ARGS] {\"tz\": \"CET\"}",
        TextFormat::Mistral,
        &(),
    );
    assert_eq!(names(&parsed), ["get_time"], "{parsed:#?}");
    assert!(parsed.errors.is_empty(), "{parsed:#?}");
}

/// llama.cpp's Ministral cases (`tests/test-chat.cpp`): reasoning, then a v11 call; and the
/// same call considered inside the reasoning first ("fake tool call marker in reasoning").
/// One call, once: what a model writes while it thinks is not a call it makes.
#[test]
fn a_call_after_a_reasoning_block_is_reported_once() {
    let texts = [
        "[THINK]I'm\nthinking[/THINK][TOOL_CALLS]special_function[ARGS]{\"arg1\":1}",
        "[THINK]Let me think about [TOOL_CALLS]special_function[ARGS]{\"arg1\":1} and more[/THINK][TOOL_CALLS]special_function[ARGS]{\"arg1\":1}",
    ];
    for text in texts {
        for format in [TextFormat::Mistral, TextFormat::Auto] {
            let parsed = parse(text, format, &());
            assert_eq!(
                names(&parsed),
                ["special_function"],
                "{format:?}: {parsed:#?}"
            );
            assert_eq!(parsed.calls[0].arguments, r#"{"arg1":1}"#);
            assert!(parsed.errors.is_empty(), "{format:?}: {parsed:#?}");
            assert!(parsed.text.ends_with("[/THINK]"), "{format:?}: {parsed:#?}");
        }
    }
    // Qwen3 and DeepSeek-R1 think in `<think>` tags.
    let text = "<think>Maybe <tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>?</think>\n<tool_call>{\"name\": \"b\", \"arguments\": {}}</tool_call>";
    for format in [TextFormat::Hermes, TextFormat::Auto] {
        let parsed = parse(text, format, &());
        assert_eq!(names(&parsed), ["b"], "{format:?}: {parsed:#?}");
    }
}

/// llama.cpp's Llama 3.x parser accepts `{"type": "function", "name": .., "parameters": ..}`,
/// bare or after `<|python_tag|>`.
#[test]
fn llama3_calls_may_say_their_type_first() {
    let call =
        "{\"type\": \"function\", \"name\": \"special_function\", \"parameters\": {\"arg1\": 1}}";
    for text in [call.to_owned(), format!("<|python_tag|>{call}")] {
        for format in [TextFormat::Llama3, TextFormat::Auto] {
            let parsed = parse(&text, format, &());
            assert_eq!(
                names(&parsed),
                ["special_function"],
                "{format:?}: {parsed:#?}"
            );
            assert_eq!(parsed.calls[0].arguments, r#"{"arg1": 1}"#);
        }
    }
}

/// A fence's language tag is matched whatever its case, and a fence holding a list of calls
/// is read as the list.
#[test]
fn fences_are_read_whatever_the_tag_case_and_hold_lists() {
    for tag in ["json", "JSON", "Json"] {
        let text = format!("```{tag}\n{{\"name\": \"a\", \"arguments\": {{\"x\": 1}}}}\n```");
        let parsed = parse(&text, TextFormat::Fenced, &());
        assert_eq!(names(&parsed), ["a"], "{tag}: {parsed:#?}");
    }
    let text = "```json\n[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"y\": 2}}]\n```";
    let parsed = parse(text, TextFormat::Fenced, &());
    assert_eq!(names(&parsed), ["a", "b"], "{parsed:#?}");
}

/// A tool definition printed by the model (what it was told in the prompt, echoed back) is
/// not a call: `name`, `description` and a schema-shaped `parameters`.
#[test]
fn a_tool_definition_is_not_a_call() {
    let definition = "{\"name\": \"get_weather\", \"description\": \"The weather in a city.\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}}";
    for text in [format!("```json\n{definition}\n```"), definition.to_owned()] {
        for format in [TextFormat::Auto, TextFormat::Fenced, TextFormat::Llama3] {
            let parsed = parse(&text, format, &());
            assert!(parsed.calls.is_empty(), "{format:?}: {parsed:#?}");
            assert!(parsed.errors.is_empty(), "{format:?}: {parsed:#?}");
            assert_eq!(parsed.text, text);
        }
    }
}

/// Issue 32 item 10: a call the end of the text cuts is an error in every format, never a
/// call made of what came before the cut. vLLM's Hermes test: the outer `}` and the closing
/// tag missing, `{"trigger": true}` whole, is no call. Then, for each of the 46 formats, a call
/// with three arguments as `write_calls` writes it, cut at every char boundary: whatever is
/// read (whole, streamed, and under `Auto`) is either no call or exactly the call written,
/// and a cut that leaves a call's arguments short is reported as an error.
#[test]
fn a_call_cut_at_the_end_of_the_text_is_an_error_in_every_format() {
    use serde_json::Value;
    use tool_runtime::text::write_calls;
    use tool_runtime::ToolCall;

    let text = "<tool_call>\n{\"name\": \"final_answer\", \"arguments\": {\"trigger\": true}";
    for format in [TextFormat::Hermes, TextFormat::Auto] {
        let parsed = parse(text, format, &());
        assert!(parsed.calls.is_empty(), "{format:?}: {parsed:#?}");
        assert_eq!(parsed.errors.len(), 1, "{format:?}: {parsed:#?}");
        assert!(matches!(parsed.errors[0].kind, TextErrorKind::Truncated(_)));
        assert_eq!(parsed.errors[0].raw, text);
    }

    let call = ToolCall::new(
        "c",
        "get_weather",
        r#"{"city": "Paris", "days": 3, "ok": true}"#,
    );
    let full: Value = serde_json::from_str(&call.arguments).unwrap();
    for format in TextFormat::ALL {
        let written = write_calls(format, std::slice::from_ref(&call));
        assert_eq!(parse(&written, format, &()).calls.len(), 1, "{format:?}");
        // Where the last argument's value ends: a cut after it but before the call's own end
        // leaves every argument there, yet it is still a cut.
        let last_value = written
            .rfind("true")
            .or_else(|| written.rfind("True"))
            .map(|at| at + "true".len());
        let mut cuts_after_the_arguments = 0;
        for cut in (1..written.len()).filter(|&n| written.is_char_boundary(n)) {
            let prefix = &written[..cut];
            for parse_as in [format, TextFormat::Auto] {
                let parsed = parse(prefix, parse_as, &());
                for found in &parsed.calls {
                    let arguments: Value =
                        serde_json::from_str(&found.arguments).unwrap_or_default();
                    assert!(
                        found.name == "get_weather" && arguments == full,
                        "{format:?} as {parse_as:?}, cut at {cut} ({prefix:?}): read {} {}",
                        found.name,
                        found.arguments
                    );
                }
                if parse_as == format {
                    let streamed = streamed_in_13_byte_pieces(prefix, parse_as);
                    assert_eq!(streamed, parsed, "{format:?}, cut at {cut}, streamed");
                }
                // Cut right after the last value: every argument is there, the call's end is
                // not. No call is read, and the cut is reported.
                if parse_as == format && Some(cut) == last_value {
                    cuts_after_the_arguments += 1;
                    assert!(
                        parsed.calls.is_empty() && !parsed.errors.is_empty(),
                        "{format:?}: {prefix:?} is no error: {parsed:#?}"
                    );
                }
            }
        }
        assert_eq!(cuts_after_the_arguments, 1, "{format:?}: {written}");
    }
}

/// Issue 32 item 12: OpenAI's shape of a tool definition, `{"type": "function", "function":
/// {"name", "parameters": <schema>}}`, echoed in a fence or bare, is not a call to the tool
/// with its schema as arguments, with or without a description (a call in that shape writes
/// `arguments`). The same shape carrying `arguments` is still a call.
#[test]
fn a_tool_definition_in_openai_shape_is_not_a_call() {
    let schema = "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}, \"b\": {\"type\": \"integer\"}}, \"required\": [\"a\", \"b\"]}";
    for described in ["", "\"description\": \"Adds two numbers.\", "] {
        let definition = format!(
            "{{\"type\": \"function\", \"function\": {{\"name\": \"add\", {described}\"parameters\": {schema}}}}}"
        );
        for text in [
            format!("```json\n{definition}\n```"),
            format!("Here are my tools:\n```json\n[{definition}]\n```\nDone."),
            definition.clone(),
        ] {
            for format in [TextFormat::Auto, TextFormat::Fenced, TextFormat::Llama3] {
                let parsed = parse(&text, format, &());
                assert!(parsed.calls.is_empty(), "{format:?}: {parsed:#?}");
                assert!(parsed.errors.is_empty(), "{format:?}: {parsed:#?}");
                assert_eq!(parsed.text, text, "{format:?}");
            }
        }
    }
    let call = "```json\n{\"type\": \"function\", \"function\": {\"name\": \"add\", \"arguments\": {\"a\": 1, \"b\": 2}}}\n```";
    for format in [TextFormat::Auto, TextFormat::Fenced] {
        let parsed = parse(call, format, &());
        assert_eq!(names(&parsed), ["add"], "{format:?}: {parsed:#?}");
        assert_eq!(parsed.calls[0].arguments, r#"{"a": 1, "b": 2}"#);
    }
}

/// Issue 32 item 11: a Llama 3 JSON object written arguments first, `{"parameters": {..}}`,
/// is a call; without a name it is a `MissingName` error (as `{"arguments": ..}` in a fence
/// is), never silently prose; with the name after its arguments it is read.
#[test]
fn a_llama3_object_without_a_name_is_an_error() {
    for text in [
        "{\"parameters\": {}}",
        "{\"parameters\": {\"city\": \"Paris\"}}",
        "{\"arguments\": {\"city\": \"Paris\"}}",
        "<|python_tag|>{\"parameters\": {\"city\": \"Paris\"}}",
    ] {
        for format in [TextFormat::Llama3, TextFormat::Auto] {
            let parsed = parse(text, format, &());
            assert!(parsed.calls.is_empty(), "{format:?} {text}: {parsed:#?}");
            assert_eq!(parsed.errors.len(), 1, "{format:?} {text}: {parsed:#?}");
            assert_eq!(parsed.errors[0].kind, TextErrorKind::MissingName);
            assert_eq!(parsed.errors[0].raw, text);
            assert_eq!(parsed.text, "", "{format:?} {text}");
        }
    }
    let text = "{\"parameters\": {\"city\": \"Paris\"}, \"name\": \"get_weather\"}";
    for format in [TextFormat::Llama3, TextFormat::Auto] {
        let parsed = parse(text, format, &());
        assert_eq!(names(&parsed), ["get_weather"], "{format:?}: {parsed:#?}");
        assert_eq!(parsed.calls[0].arguments, r#"{"city": "Paris"}"#);
    }
}

/// vLLM's Qwen3-Coder tests: the closing `</tool_call>` goes with the call, never into the
/// prose.
#[test]
fn no_closing_tag_is_left_in_the_prose() {
    let text = "Let me write it.\n<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>\nDone.";
    for format in [TextFormat::QwenXml, TextFormat::Auto] {
        let parsed = parse(text, format, &());
        assert_eq!(names(&parsed), ["write_file"], "{format:?}: {parsed:#?}");
        assert_eq!(parsed.text, "Let me write it.\nDone.", "{format:?}");
    }
    // A bare `<function=..>` block (Qwen3-Coder without the outer tag), then a stray close.
    let text = "<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>\nDone.";
    let parsed = parse(text, TextFormat::QwenXml, &());
    assert_eq!(names(&parsed), ["write_file"], "{parsed:#?}");
    assert_eq!(parsed.text, "Done.", "{parsed:#?}");
}

/// Under `Auto`, the parse says which format it read, and every call where it stands.
#[test]
fn auto_says_which_format_it_read_and_where_each_call_is() {
    let text = "Checking.\n<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n";
    let parsed = parse(text, TextFormat::Auto, &());
    assert_eq!(parsed.format, Some(TextFormat::Hermes));
    assert_eq!(parsed.spans.len(), 1);
    assert_eq!(
        &text[parsed.spans[0].clone()],
        "<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>"
    );
    let parsed = parse("[TOOL_CALLS]a{\"x\": 1}", TextFormat::Auto, &());
    assert_eq!(parsed.format, Some(TextFormat::Mistral));
    assert_eq!(parsed.spans.len(), 1);
    assert_eq!(parsed.spans[0], 0..21);
    let parsed = parse("Just prose.", TextFormat::Auto, &());
    assert_eq!(parsed.format, None);
}

/// A string left unterminated before more text: where it was meant to end can't be known, so
/// the call is an error that runs to the end of its list (a call after it in the same list
/// can't be told from text inside the string), and nothing is invented. Calls in their own
/// markup after it are still read.
#[test]
fn an_unterminated_string_is_an_error_never_a_value() {
    let text = "<tool_call>{\"name\": \"a\", \"arguments\": {\"x\": \"open, \"y\": 2}}</tool_call>\n<tool_call>{\"name\": \"b\", \"arguments\": {}}</tool_call>";
    let parsed = parse(text, TextFormat::Hermes, &());
    assert_eq!(names(&parsed), ["b"], "{parsed:#?}");
    assert_eq!(parsed.errors.len(), 1, "{parsed:#?}");
    let text = "[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {\"x\": \"open, \"y\": 2}}, {\"name\": \"b\", \"arguments\": {}}]";
    let parsed = parse(text, TextFormat::Mistral, &());
    assert!(parsed.calls.is_empty(), "{parsed:#?}");
    assert_eq!(parsed.errors.len(), 1, "{parsed:#?}");
}

/// `text` fed to a [`TextStream`] in pieces of `size` bytes (widened to a char boundary),
/// its events gathered.
fn streamed(text: &str, format: TextFormat, size: usize) -> TextParse {
    let mut stream = TextStream::new(format, &());
    let mut parsed = TextParse::default();
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = size.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        parsed.extend(stream.push(&rest[..cut]));
        rest = &rest[cut..];
    }
    parsed.extend(stream.finish());
    parsed
}

/// Every text above, streamed in chunks of every size from 1 to 16 bytes (at character
/// boundaries), gives exactly what the whole text gives: calls, spans, formats, errors, prose.
#[test]
fn streamed_in_any_chunks_the_same_as_whole() {
    let texts = [
        "<tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"b\", \"arguments\": {\"x\": 1, \"y\": }}</tool_call>\n<tool_call>{\"name\": \"c\", \"arguments\": {\"z\": 2}}</tool_call>",
        "[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {\"x\": 1 \"y\": 2}}]",
        "[get_weather(city='Paris'), get_time(tz=), get_news(topic=\"rust\")]",
        "[THINK]Let me think about [TOOL_CALLS]f[ARGS]{\"a\":1} and more[/THINK][TOOL_CALLS]f [ARGS] {\"a\": 1}",
        "<think>Maybe <tool_call>{\"name\": \"a\", \"arguments\": {}}</tool_call>?</think>\n<tool_call>{\"name\": \"b\", \"arguments\": {}}</tool_call>",
        "<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>\nDone.",
        "{\"type\": \"function\", \"name\": \"f\", \"parameters\": {\"a\": 1}}",
        "```JSON\n[{\"name\": \"a\", \"arguments\": {}}, {\"arguments\": {\"y\": 2}}]\n```\nok",
        "[TOOL_CALLS]get_time[ARGS]\"{\\\"tz\\\": \\\"CET\\\"}\" then [TOOL_CALLS]x[ARGS][1]",
        "<dots_function_call><invoke name=\"a\"><parameter name=\"x\">1</parameter></invoke><invoke name=\"b\">oops</invoke></dots_function_call><dots_function_call>{\"name\": \"c\", \"arguments\": {}}</dots_function_call>",
        "<tool>{\"name\": \"a\", \"arguments\": {}}</tool>\n<response>{\"name\": \"b\", \"arguments\": {\"x\": 1,, \"y\": 2}}</response>\n```xml\n<json>{\"name\": \"c\", \"arguments\": {\"z\": 2}}</json>\n```",
    ];
    for text in texts {
        for format in [
            TextFormat::Auto,
            TextFormat::Hermes,
            TextFormat::Mistral,
            TextFormat::Pythonic,
            TextFormat::QwenXml,
            TextFormat::Llama3,
            TextFormat::Fenced,
            TextFormat::Xlam,
            TextFormat::Phi4Mini,
            TextFormat::Dots,
            TextFormat::GigaChat,
            TextFormat::Inkling,
            TextFormat::FunctionaryV32,
            TextFormat::MinimaxM3,
            TextFormat::CommandRPlus,
            TextFormat::Muse,
            TextFormat::HermesVariants,
        ] {
            let whole = parse(text, format, &());
            for size in 1..=16 {
                let streamed = streamed(text, format, size);
                assert_eq!(streamed, whole, "{format:?}, chunks of {size}: {text}");
            }
        }
    }
}

/// Text that opens calls and never closes them (the parser traps: unclosed tags, nested
/// markers, enormous repeats), 256 KiB of each: every format answers, each opened call is an
/// error, and nothing is taken for a call. Before, unclosed Qwen XML cost time with the cube
/// of its size (11 s for 144 KB); the time now doubles with the size
/// (`cargo bench -p tool-tests --features bench --bench text_parser -- text_parser_hostile`).
#[test]
fn text_that_never_closes_its_calls_is_answered() {
    #[derive(serde::Deserialize)]
    struct Trap {
        name: String,
        text_gen: Vec<Repeat>,
        formats: Vec<TextFormat>,
        expect: Expect,
    }
    #[derive(serde::Deserialize)]
    struct Repeat {
        repeat: String,
        times: usize,
    }
    #[derive(serde::Deserialize)]
    struct Expect {
        calls: usize,
    }
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/attacks/model_text/never_closed.jsonl"
    );
    let corpus = std::fs::read_to_string(file).expect("the attack corpus");
    let mut traps = 0;
    for line in corpus.lines().filter(|l| !l.trim().is_empty()) {
        let trap: Trap = serde_json::from_str(line).expect("a corpus entry");
        let text: String = trap
            .text_gen
            .iter()
            .map(|part| part.repeat.repeat(part.times))
            .collect();
        for &format in &trap.formats {
            let whole = parse(&text, format, &());
            assert_eq!(
                whole.calls.len(),
                trap.expect.calls,
                "{} as {format:?}",
                trap.name
            );
            // Streamed in pieces of 61 bytes (a prime: the cuts fall everywhere in the unit).
            let streamed = streamed(&text, format, 61);
            assert_eq!(streamed, whole, "{} as {format:?}, streamed", trap.name);
        }
        traps += 1;
    }
    assert!(traps >= 8, "{traps} traps in {file}");
}

/// The classic parser traps, for every format: its own call cut in half and repeated (an
/// unclosed special token, over a hundred times), and a call nested inside another's markup.
/// Nothing panics, no call gets values the model didn't write, every error points at text
/// that is there, and the stream agrees with the whole text.
#[test]
fn every_format_survives_unclosed_repeated_and_nested_markup() {
    use tool_runtime::text::write_calls;
    use tool_runtime::ToolCall;
    let call = ToolCall::new("c", "get_weather", r#"{"city": "Paris", "days": 3}"#);
    for format in TextFormat::ALL {
        let written = write_calls(format, std::slice::from_ref(&call));
        let (head, tail) = halves(&written);
        let traps = [
            // Unclosed, repeated: the opener of a call, 120 times, with prose between.
            format!("{head} and ").repeat(120),
            // Nested: a whole call inside the first half of another.
            format!("{head}{written}{tail}"),
            // The closing half alone, repeated.
            tail.repeat(60),
        ];
        for text in &traps {
            for parse_as in [format, TextFormat::Auto] {
                let parsed = parse(text, parse_as, &());
                // A call read from the traps names the one tool written and holds a JSON
                // object (in the XML-like formats a value is the text between its tags, as
                // the peers read it, so a nested call can land inside a value).
                for call in &parsed.calls {
                    assert_eq!(call.name, "get_weather", "{format:?} as {parse_as:?}");
                    let arguments: serde_json::Value =
                        serde_json::from_str(&call.arguments).unwrap_or_default();
                    assert!(arguments.is_object(), "{format:?}: {}", call.arguments);
                }
                assert!(
                    parsed.calls.len() <= 2,
                    "{format:?} as {parse_as:?}: {} calls from {text:.120}",
                    parsed.calls.len()
                );
                for error in &parsed.errors {
                    assert_eq!(text.get(error.span.clone()), Some(error.raw.as_str()));
                }
                // The stream, in 13-byte pieces (at char boundaries), gives the same.
                let streamed = streamed_in_13_byte_pieces(text, parse_as);
                assert_eq!(streamed, parsed, "{format:?} as {parse_as:?}");
            }
        }
    }
}

/// Past 16 KiB a stream rescans a held call only as the text grows (so an unclosed call costs
/// its length, not its square): what it gives out must still add up to the whole-text parse,
/// for every format, on traps of about 40 KiB.
#[test]
fn long_held_text_streams_to_the_same_result() {
    use tool_runtime::text::write_calls;
    use tool_runtime::ToolCall;
    let call = ToolCall::new("c", "get_weather", r#"{"city": "Paris", "days": 3}"#);
    for format in TextFormat::ALL {
        let written = write_calls(format, std::slice::from_ref(&call));
        let (head, tail) = halves(&written);
        for piece in [
            format!("{head} and "),
            format!("{head}{written}"),
            tail.to_owned(),
        ] {
            let text = piece.repeat(40 * 1024 / piece.len() + 1);
            for parse_as in [format, TextFormat::Auto] {
                let parsed = parse(&text, parse_as, &());
                let streamed = streamed_in_13_byte_pieces(&text, parse_as);
                assert_eq!(streamed, parsed, "{format:?} as {parse_as:?}: {piece:.80}");
            }
        }
    }
}
