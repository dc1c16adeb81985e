//! The other half of the contract: the system prompt that lists the tools and tells a model
//! how to write calls in a [`TextFormat`], and calls written back in that format (for the
//! conversation history).

use super::format::TextFormat;
use super::parameters::Parameters;
use super::{deepseek, kimi};
use crate::{Registry, ToolCall, ToolSpec};
use serde_json::{Map, Value};
use std::fmt::Write;

/// [`Registry::text_tool_prompt`]'s work.
pub(crate) fn tool_prompt(registry: &Registry, format: TextFormat) -> String {
    if let Some(prompt) = super::prompt_templates::family_prompt(registry, format) {
        return prompt;
    }
    let mut prompt = String::from(
        "# Tools\n\nYou can call the tools below. Each has a name, a description, and a JSON Schema for its arguments.\n",
    );
    for spec in registry.specs() {
        let _ = write!(
            prompt,
            "\n## {}\n\n{}\n\nArguments (JSON Schema): {}\n",
            spec.name(),
            spec.description().trim(),
            spec.input_schema()
        );
    }
    prompt.push_str("\n# How to call tools\n\n");
    prompt.push_str(convention(format));
    if let Some(spec) = registry.specs().next() {
        let example = ToolCall::new("", spec.name(), example_arguments(spec).to_string());
        let _ = write!(
            prompt,
            "\n\nFor example:\n\n{}\n",
            write_calls(format, &[example])
        );
    }
    prompt.push_str("\nCall tools only when you need them; after your calls, stop and wait for their results.\n");
    prompt
}

/// How the formats with a tag per argument want values written (a macro, for `concat!`).
macro_rules! values {
    () => {
        "Write strings as they are, without quotes or escaping; write numbers, booleans, arrays and objects as JSON."
    };
}

/// The convention of a DSML version, by its tag prefix and block name.
macro_rules! dsml_convention {
    ($tag:literal, $block:literal) => {
        concat!(
            "To call tools, write a <", $tag, $block, "> block like the following, with one invoke per call and one parameter per argument:\n\n",
            "<", $tag, $block, ">\n<", $tag, "invoke name=\"TOOL_NAME\">\n<", $tag,
            "parameter name=\"ARGUMENT_NAME\" string=\"true|false\">value</", $tag, "parameter>\n</",
            $tag, "invoke>\n</", $tag, $block, ">\n\n",
            "Write strings as they are, without quotes or escaping, and set string=\"true\"; ",
            "write numbers, booleans, arrays and objects as JSON and set string=\"false\"."
        )
    };
}

/// How to call tools in `format`, in words.
fn convention(format: TextFormat) -> &'static str {
    match format {
        TextFormat::Auto | TextFormat::Hermes | TextFormat::HermesVariants => concat!(
            "To call a tool, write a JSON object with the tool's `name` and its `arguments` inside <tool_call></tool_call> tags:\n\n",
            "<tool_call>\n{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n</tool_call>\n\n",
            "To call several tools, write one such block per call."
        ),
        TextFormat::QwenXml => concat!(
            "To call a tool, write:\n\n",
            "<tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nvalue\n</parameter>\n</function>\n</tool_call>\n\n",
            "Write one <parameter> block per argument. Write strings as they are, without quotes or escaping; ",
            "write numbers, booleans, arrays and objects as JSON. To call several tools, write one <tool_call> block per call."
        ),
        TextFormat::Mistral => concat!(
            "To call tools, write [TOOL_CALLS] followed by a JSON array with one object per call, each with the tool's `name` and its `arguments`:\n\n",
            "[TOOL_CALLS][{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
        ),
        TextFormat::Llama3 => concat!(
            "To call a tool, respond with only a JSON object of the form ",
            "{\"name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}, and nothing else. ",
            "To call several tools, separate the objects with \"; \". Do not use variables."
        ),
        TextFormat::Pythonic => concat!(
            "To call tools, respond with only a Python list of calls with keyword arguments, and nothing else:\n\n",
            "[tool_name(argument=value, other_argument=value), other_tool(argument=value)]\n\n",
            "Write values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts."
        ),
        TextFormat::Envelope => concat!(
            "Respond in JSON. To call tools, respond with only ",
            "{\"tool_calls\": [{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]}, with one object per call. ",
            "To answer without calling a tool, respond with {\"response\": \"<your answer>\"}."
        ),
        TextFormat::Fenced => concat!(
            "To call a tool, write a ```json code block holding a JSON object with the tool's `name` and its `arguments`:\n\n",
            "```json\n{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n```\n\n",
            "To call several tools, put an array of such objects in the block."
        ),
        TextFormat::Jamba => concat!(
            "To call tools, write <tool_calls>, a JSON array with one object per call, each with the tool's `name` and its `arguments`, then </tool_calls>:\n\n",
            "<tool_calls>[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]</tool_calls>"
        ),
        TextFormat::Granite => concat!(
            "To call tools, write <|tool_call|> followed by a JSON array with one object per call, each with the tool's `name` and its `arguments`:\n\n",
            "<|tool_call|>[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
        ),
        TextFormat::GraniteFc => concat!(
            "To call a tool, write <function_call> followed by a JSON object with the tool's `name` and its `arguments`:\n\n",
            "<function_call> {\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n\n",
            "To call several tools, write one such line per call."
        ),
        TextFormat::InternLm => concat!(
            "To call a tool, write <|action_start|><|plugin|>, a line break, a JSON object with the tool's `name` and its `parameters`, then <|action_end|>:\n\n",
            "<|action_start|><|plugin|>\n{\"name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}<|action_end|>"
        ),
        TextFormat::LongCat => concat!(
            "To call a tool, write a JSON object with the tool's `name` and its `arguments` inside <longcat_tool_call></longcat_tool_call> tags:\n\n",
            "<longcat_tool_call>{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}</longcat_tool_call>\n\n",
            "To call several tools, write one such block per call."
        ),
        TextFormat::Nemotron => concat!(
            "To call tools, write <TOOLCALL>, a JSON array with one object per call, each with the tool's `name` and its `arguments`, then </TOOLCALL>:\n\n",
            "<TOOLCALL>[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]</TOOLCALL>"
        ),
        TextFormat::Harmony => concat!(
            "To call a tool, write a message to it in the commentary channel, its arguments as a JSON object:\n\n",
            "<|start|>assistant<|channel|>commentary to=functions.<tool name> <|constrain|>json<|message|>{<arguments as JSON>}<|call|>\n\n",
            "To call several tools, write one such message per call."
        ),
        TextFormat::Gemma4 => concat!(
            "To call a tool, write <|tool_call>call:, the tool's name, its arguments in braces, then <tool_call|>:\n\n",
            "<|tool_call>call:<tool name>{argument:<|\"|>text<|\"|>,number:5,flag:true,list:[<|\"|>a<|\"|>],object:{key:<|\"|>value<|\"|>}}<tool_call|>\n\n",
            "Put strings between <|\"|> and <|\"|>; write numbers, true, false and null as they are. To call several tools, write one such block per call."
        ),
        TextFormat::FunctionGemma => concat!(
            "To call a tool, write <start_function_call>call:, the tool's name, its arguments in braces, then <end_function_call>:\n\n",
            "<start_function_call>call:<tool name>{argument:<escape>text<escape>,number:5}<end_function_call>\n\n",
            "Put strings between <escape> and <escape>. To call several tools, write one such block per call."
        ),
        TextFormat::Lfm2 => concat!(
            "To call tools, write <|tool_call_start|>, a Python list of calls with keyword arguments, then <|tool_call_end|>:\n\n",
            "<|tool_call_start|>[tool_name(argument=value, other_argument=value)]<|tool_call_end|>\n\n",
            "Write values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts."
        ),
        TextFormat::Olmo3 => concat!(
            "To call tools, write <function_calls>, one Python call with keyword arguments per line, then </function_calls>:\n\n",
            "<function_calls>\ntool_name(argument=value)\nother_tool(argument=value)\n</function_calls>\n\n",
            "Write values as Python literals: strings in quotes, numbers, True, False, None, lists and dicts."
        ),
        TextFormat::Functionary => concat!(
            "To call a tool, write its name in a <function=...> tag, then its arguments as a JSON object, then </function>:\n\n",
            "<function=<tool name>>{<arguments as JSON>}</function>\n\n",
            "To call several tools, write one such line per call."
        ),
        TextFormat::Apertus => concat!(
            "To call tools, write <|tools_prefix|>, a JSON array with one object per call mapping the tool's name to its arguments, then <|tools_suffix|>:\n\n",
            "<|tools_prefix|>[{\"<tool name>\": {<arguments as JSON>}}]<|tools_suffix|>"
        ),
        TextFormat::CommandR => concat!(
            "To call tools, write <|START_ACTION|>, a JSON array with one object per call, each with a `tool_call_id`, the `tool_name` and its `parameters`, then <|END_ACTION|>:\n\n",
            "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}]<|END_ACTION|>"
        ),
        TextFormat::Glm => concat!(
            "To call a tool, write:\n\n",
            "<tool_call>TOOL_NAME\n<arg_key>ARGUMENT_NAME</arg_key>\n<arg_value>value</arg_value>\n</tool_call>\n\n",
            "Write one <arg_key>/<arg_value> pair per argument. ",
            values!(),
            " To call several tools, write one <tool_call> block per call."
        ),
        TextFormat::HyV3 => concat!(
            "To call tools, write:\n\n",
            "<tool_calls>\n<tool_call>TOOL_NAME<tool_sep>\n<arg_key>ARGUMENT_NAME</arg_key>\n<arg_value>value</arg_value>\n</tool_call>\n</tool_calls>\n\n",
            "Write one <arg_key>/<arg_value> pair per argument. ",
            values!(),
            " To call several tools, write one <tool_call> block per call inside <tool_calls>."
        ),
        TextFormat::K2Horizon => concat!(
            "To call tools, write:\n\n",
            "<ifm|tool_calls><ifm|tool_call>TOOL_NAME<ifm|arg_key>ARGUMENT_NAME</ifm|arg_key><ifm|arg_value>value</ifm|arg_value></ifm|tool_call></ifm|tool_calls>\n\n",
            "Write one <ifm|arg_key>/<ifm|arg_value> pair per argument. ",
            values!(),
            " To call several tools, write one <ifm|tool_call> block per call inside <ifm|tool_calls>."
        ),
        TextFormat::MinimaxM2 => concat!(
            "To call tools, write:\n\n",
            "<minimax:tool_call>\n<invoke name=\"TOOL_NAME\">\n<parameter name=\"ARGUMENT_NAME\">value</parameter>\n</invoke>\n</minimax:tool_call>\n\n",
            "Write one <parameter> per argument. ",
            values!(),
            " To call several tools, write one <invoke> block per call."
        ),
        TextFormat::MiniCpm5 => concat!(
            "To call a tool, write:\n\n",
            "<function name=\"TOOL_NAME\"><param name=\"ARGUMENT_NAME\">value</param></function>\n\n",
            "Write one <param> per argument. ",
            values!(),
            " Put a string holding < or & in <![CDATA[ ]]>. To call several tools, write one <function> block per call."
        ),
        TextFormat::Step3 => concat!(
            "To call tools, write:\n\n",
            "<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"TOOL_NAME\"><steptml:parameter name=\"ARGUMENT_NAME\">value</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>\n\n",
            "Write one <steptml:parameter> per argument. ",
            values!(),
            " To call several tools, write one <｜tool_call_begin｜>...<｜tool_call_end｜> block per call."
        ),
        TextFormat::SeedOss => concat!(
            "To call a tool, write:\n\n",
            "<seed:tool_call>\n<function=TOOL_NAME>\n<parameter=ARGUMENT_NAME>\nvalue\n</parameter>\n</function>\n</seed:tool_call>\n\n",
            "Write one <parameter> block per argument. ",
            values!(),
            " To call several tools, write one <seed:tool_call> block per call."
        ),
        TextFormat::Plamo3 => concat!(
            "To call tools, write <|plamo:begin_tool_requests:plamo|>, then for each call the tool's name and its arguments as a JSON object in these markers, then <|plamo:end_tool_requests:plamo|>:\n\n",
            "<|plamo:begin_tool_requests:plamo|><|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>TOOL_NAME<|plamo:end_tool_name:plamo|>",
            "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>{<arguments as JSON>}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|><|plamo:end_tool_requests:plamo|>"
        ),
        TextFormat::DeepSeekV3 => concat!(
            "To call tools, write <｜tool▁calls▁begin｜>, then for each call <｜tool▁call▁begin｜>function<｜tool▁sep｜>, the tool's name, a line break, its arguments as a JSON object in a ```json code block, and <｜tool▁call▁end｜>; then <｜tool▁calls▁end｜>:\n\n",
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜><tool name>\n```json\n{<arguments as JSON>}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
        ),
        TextFormat::DeepSeekV31 => concat!(
            "To call tools, write <｜tool▁calls▁begin｜>, then for each call <｜tool▁call▁begin｜>, the tool's name, <｜tool▁sep｜>, its arguments as a JSON object, and <｜tool▁call▁end｜>; then <｜tool▁calls▁end｜>:\n\n",
            "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜><tool name><｜tool▁sep｜>{<arguments as JSON>}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
        ),
        TextFormat::DeepSeekV32 => dsml_convention!("｜DSML｜", "function_calls"),
        TextFormat::DeepSeekV4 => dsml_convention!("｜DSML｜", "tool_calls"),
        TextFormat::DeepSeekV41 => dsml_convention!("｜DSML｜ ", "calls"),
        TextFormat::KimiK2 => concat!(
            "To call tools, write <|tool_calls_section_begin|>, then for each call <|tool_call_begin|>functions.TOOL_NAME:N (N counts the calls from 0), <|tool_call_argument_begin|>, its arguments as a JSON object, and <|tool_call_end|>; then <|tool_calls_section_end|>:\n\n",
            "<|tool_calls_section_begin|><|tool_call_begin|>functions.<tool name>:0<|tool_call_argument_begin|>{<arguments as JSON>}<|tool_call_end|><|tool_calls_section_end|>"
        ),
        TextFormat::KimiK3 => concat!(
            "To call tools, write:\n\n",
            "<|open|>tools<|sep|><|open|>call tool=\"TOOL_NAME\" index=\"1\"<|sep|><|open|>argument key=\"ARGUMENT_NAME\" type=\"string\"<|sep|>value<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>\n\n",
            "Write one argument block per argument, with its type (string, number, boolean, null, object or array): strings as they are, without quotes or escaping, other values as JSON. ",
            "Write one call block per call, numbered from 1."
        ),
        TextFormat::Phi4Mini => concat!(
            "To call tools, write the functools marker followed by a single JSON list with one object per call, each with the tool's `name` and its `arguments` (no closing marker):\n\n",
            "functools[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
        ),
        TextFormat::Dots => concat!(
            "To call tools, write a <dots_function_call> block with one invoke per call and one parameter per argument:\n\n",
            "<dots_function_call>\n<invoke name=\"TOOL_NAME\">\n<parameter name=\"ARGUMENT_NAME\">value</parameter>\n</invoke>\n</dots_function_call>\n\n",
            values!()
        ),
        TextFormat::GigaChat => concat!(
            "To call a tool, write <|message_sep|>, a blank line, function call<|role_sep|>, a line break, and a JSON object with the tool's `name` and its `arguments`:\n\n",
            "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}\n\n",
            "To call several tools, write one such message per call."
        ),
        TextFormat::Inkling => concat!(
            "To call a tool, write a message of its own: <|message_model|>, the tool's name, <|content_invoke_tool_json|>, a JSON object with the tool's `name` and its `args`, then <|end_message|>:\n\n",
            "<|message_model|>TOOL_NAME<|content_invoke_tool_json|>{\"name\": \"<tool name>\", \"args\": {<arguments as JSON>}}<|end_message|>\n\n",
            "To call several tools, write one such message per call."
        ),
        TextFormat::FunctionaryV32 => concat!(
            "Start each part of your reply with >>> and its recipient on a line of its own. To call a tool, write >>>, the tool's name and a line break, then its arguments as a JSON object:\n\n",
            ">>>TOOL_NAME\n{<arguments as JSON>}\n\n",
            "To write to the user, start the text with >>>all and a line break. To call several tools, write one such part per call."
        ),
        TextFormat::MinimaxM3 => concat!(
            "To call tools, write a tool_call block with one invoke per call and one element per argument, each tag preceded by ]<]minimax[>[:\n\n",
            "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"TOOL_NAME\">]<]minimax[>[<ARGUMENT_NAME>value]<]minimax[>[</ARGUMENT_NAME>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>\n\n",
            "Write strings as they are, without quotes or escaping, numbers and booleans as JSON; write an object as one element per member, and an array as one ]<]minimax[>[<item> element per value."
        ),
        TextFormat::CommandRPlus => concat!(
            "To call tools, write 'Action:' followed by a ```json code block holding a JSON list of actions, each with the tool's `tool_name` and its `parameters`:\n\n",
            "Action:\n```json\n[{\"tool_name\": \"<tool name>\", \"parameters\": {<arguments as JSON>}}]\n```"
        ),
        TextFormat::Muse => concat!(
            "To call tools, write a message to the tool holding an <atem:function_calls> block with one invoke per call and one parameter per argument, then <|eom|>:\n\n",
            "<|start|>assistant to=TOOL_NAME<|message|><atem:function_calls>\n<atem:invoke name=\"TOOL_NAME\">\n<atem:parameter name=\"ARGUMENT_NAME\">value</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>\n\n",
            values!()
        ),
        TextFormat::Xlam => concat!(
            "When using tools, make calls in a single JSON array, with one object per call, each with the tool's `name` and its `arguments`, and nothing else:\n\n",
            "[{\"name\": \"<tool name>\", \"arguments\": {<arguments as JSON>}}]"
        ),
    }
}

/// Arguments for a tool's example call: its required parameters (or its first), each with its
/// example, default, first enum value, or a value of its type.
fn example_arguments(spec: &ToolSpec) -> Value {
    let parameters = Parameters::of(spec);
    let mut arguments = Map::new();
    for (name, property) in parameters.iter() {
        if !parameters.requires_any() && !arguments.is_empty() {
            break;
        }
        if parameters.requires_any() && !parameters.is_required(name) {
            continue;
        }
        arguments.insert(name.clone(), example_value(property));
    }
    Value::Object(arguments)
}

fn example_value(property: &Value) -> Value {
    if let Some(example) = property.get("examples").and_then(|e| e.get(0)) {
        return example.clone();
    }
    if let Some(value) = property
        .get("default")
        .or_else(|| property.get("enum").and_then(|e| e.get(0)))
    {
        return value.clone();
    }
    let kind = match property.get("type") {
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null"),
        Some(kind) => kind.as_str(),
        None => None,
    };
    match kind {
        Some("integer") => Value::from(1),
        Some("number") => Value::from(1.5),
        Some("boolean") => Value::Bool(true),
        Some("array") => Value::Array(Vec::new()),
        Some("object") => Value::Object(Map::new()),
        _ => Value::String("text".to_owned()),
    }
}

/// `calls` written the way a model writes them in `format` (Hermes tags for
/// [`TextFormat::Auto`]): for putting earlier calls back into a conversation's history, and
/// for the prompt's example. [`parse`](super::parse) reads them back.
pub fn write_calls(format: TextFormat, calls: &[ToolCall]) -> String {
    let objects = |key: &str| -> Vec<String> {
        calls
            .iter()
            .map(|call| {
                format!(
                    "{{\"name\": {}, \"{key}\": {}}}",
                    Value::from(call.name.as_str()),
                    arguments(call)
                )
            })
            .collect()
    };
    match format {
        TextFormat::Auto | TextFormat::Hermes | TextFormat::HermesVariants => objects("arguments")
            .iter()
            .map(|object| format!("<tool_call>\n{object}\n</tool_call>"))
            .collect::<Vec<_>>()
            .join("\n"),
        TextFormat::QwenXml => {
            Template::lines("<tool_call>\n<function={name}>\n{arguments}</function>\n</tool_call>")
                .argument("<parameter={key}>\n{value}\n</parameter>\n")
                .write(calls)
        }
        TextFormat::Mistral => format!("[TOOL_CALLS][{}]", objects("arguments").join(", ")),
        TextFormat::Llama3 => objects("parameters").join("; "),
        TextFormat::Pythonic => {
            let calls: Vec<String> = calls.iter().map(python_call).collect();
            format!("[{}]", calls.join(", "))
        }
        TextFormat::Envelope => {
            format!("{{\"tool_calls\": [{}]}}", objects("arguments").join(", "))
        }
        TextFormat::Fenced => match objects("arguments").as_slice() {
            [one] => format!("```json\n{one}\n```"),
            many => format!("```json\n[{}]\n```", many.join(", ")),
        },
        TextFormat::Jamba => format!(
            "<tool_calls>[{}]</tool_calls>",
            objects("arguments").join(", ")
        ),
        TextFormat::Granite => format!("<|tool_call|>[{}]", objects("arguments").join(", ")),
        TextFormat::GraniteFc => each(&objects("arguments"), "<function_call> ", ""),
        TextFormat::InternLm => each(
            &objects("parameters"),
            "<|action_start|><|plugin|>\n",
            "<|action_end|>",
        ),
        TextFormat::LongCat => each(
            &objects("arguments"),
            "<longcat_tool_call>",
            "</longcat_tool_call>",
        ),
        TextFormat::Nemotron => {
            format!("<TOOLCALL>[{}]</TOOLCALL>", objects("arguments").join(", "))
        }
        TextFormat::Harmony => Template::joined(concat!(
            "<|start|>assistant<|channel|>commentary to=functions.{name} ",
            "<|constrain|>json<|message|>{arguments}<|call|>",
        ))
        .write(calls),
        TextFormat::Gemma4 => gemma_calls(calls, "<|tool_call>", "<tool_call|>", "<|\"|>"),
        TextFormat::FunctionGemma => gemma_calls(
            calls,
            "<start_function_call>",
            "<end_function_call>",
            "<escape>",
        ),
        TextFormat::Lfm2 => {
            let calls: Vec<String> = calls.iter().map(python_call).collect();
            format!("<|tool_call_start|>[{}]<|tool_call_end|>", calls.join(", "))
        }
        TextFormat::Olmo3 => {
            let calls: Vec<String> = calls.iter().map(python_call).collect();
            format!("<function_calls>\n{}\n</function_calls>", calls.join("\n"))
        }
        TextFormat::Functionary => {
            Template::lines("<function={name}>{arguments}</function>").write(calls)
        }
        TextFormat::Apertus => Template::joined("{{json_name}: {arguments}}")
            .between(", ")
            .within("<|tools_prefix|>[", "]<|tools_suffix|>")
            .write(calls),
        TextFormat::CommandR => {
            let objects: Vec<String> = calls
                .iter()
                .enumerate()
                .map(|(n, call)| {
                    format!(
                        "{{\"tool_call_id\": \"{n}\", \"tool_name\": {}, \"parameters\": {}}}",
                        Value::from(call.name.as_str()),
                        arguments(call)
                    )
                })
                .collect();
            format!("<|START_ACTION|>[{}]<|END_ACTION|>", objects.join(", "))
        }
        TextFormat::Glm => Template::lines("<tool_call>{name}\n{arguments}</tool_call>")
            .argument("<arg_key>{key}</arg_key>\n<arg_value>{value}</arg_value>\n")
            .write(calls),
        // As Hy3's template writes them: its tokens carry the checkpoint's suffix.
        TextFormat::HyV3 => Template::lines(
            "<tool_call:opensource>{name}<tool_sep:opensource>\n{arguments}</tool_call:opensource>",
        )
        .argument(
            "<arg_key:opensource>{key}</arg_key:opensource>\n<arg_value:opensource>{value}</arg_value:opensource>\n",
        )
        .within("<tool_calls:opensource>\n", "\n</tool_calls:opensource>")
        .write(calls),
        TextFormat::K2Horizon => {
            Template::lines("<ifm|tool_call>{name}{arguments}</ifm|tool_call>")
                .argument("<ifm|arg_key>{key}</ifm|arg_key><ifm|arg_value>{value}</ifm|arg_value>")
                .within("<ifm|tool_calls>", "</ifm|tool_calls>")
                .write(calls)
        }
        TextFormat::MinimaxM2 => Template::lines("<invoke name=\"{name}\">\n{arguments}</invoke>")
            .argument("<parameter name=\"{key}\">{value}</parameter>\n")
            .within("<minimax:tool_call>\n", "\n</minimax:tool_call>")
            .write(calls),
        TextFormat::MiniCpm5 => Template::lines("<function name=\"{name}\">{arguments}</function>")
            .argument("<param name=\"{key}\">{value}</param>")
            .cdata()
            .write(calls),
        TextFormat::Step3 => Template::joined(concat!(
            "<｜tool_call_begin｜>function<｜tool_sep｜>",
            "<steptml:invoke name=\"{name}\">{arguments}</steptml:invoke><｜tool_call_end｜>",
        ))
        .argument("<steptml:parameter name=\"{key}\">{value}</steptml:parameter>")
        .within("<｜tool_calls_begin｜>", "<｜tool_calls_end｜>")
        .write(calls),
        TextFormat::SeedOss => Template::lines(
            "<seed:tool_call>\n<function={name}>\n{arguments}</function>\n</seed:tool_call>",
        )
        .argument("<parameter={key}>\n{value}\n</parameter>\n")
        .write(calls),
        TextFormat::Plamo3 => Template::joined(concat!(
            "<|plamo:begin_tool_request:plamo|>",
            "<|plamo:begin_tool_name:plamo|>{name}<|plamo:end_tool_name:plamo|>",
            "<|plamo:begin_tool_arguments:plamo|><|plamo:constrain|>json<|plamo:msg|>",
            "{arguments}<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>",
        ))
        .within(
            "<|plamo:begin_tool_requests:plamo|>",
            "<|plamo:end_tool_requests:plamo|>",
        )
        .write(calls),
        TextFormat::DeepSeekV3 => Template::lines(concat!(
            "<｜tool▁call▁begin｜>function<｜tool▁sep｜>{name}\n",
            "```json\n{arguments}\n```<｜tool▁call▁end｜>",
        ))
        .within("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>")
        .write(calls),
        TextFormat::DeepSeekV31 => Template::joined(
            "<｜tool▁call▁begin｜>{name}<｜tool▁sep｜>{arguments}<｜tool▁call▁end｜>",
        )
        .within("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>")
        .write(calls),
        TextFormat::DeepSeekV32 | TextFormat::DeepSeekV4 | TextFormat::DeepSeekV41 => {
            match deepseek::dsml(format) {
                Some(dsml) => dsml_calls(dsml, calls),
                None => String::new(),
            }
        }
        TextFormat::KimiK2 => {
            let calls: String = calls
                .iter()
                .enumerate()
                .map(|(index, call)| {
                    format!(
                        "<|tool_call_begin|>{}<|tool_call_argument_begin|>{}<|tool_call_end|>",
                        kimi::call_id(call, index),
                        arguments(call)
                    )
                })
                .collect();
            format!("<|tool_calls_section_begin|>{calls}<|tool_calls_section_end|>")
        }
        TextFormat::KimiK3 => {
            let calls: String = calls
                .iter()
                .enumerate()
                .map(|(index, call)| k3_call(call, index + 1))
                .collect();
            format!("<|open|>tools<|sep|>{calls}<|close|>tools<|sep|>")
        }
        TextFormat::Xlam => format!("[{}]", objects("arguments").join(", ")),
        TextFormat::Phi4Mini => format!("functools[{}]", objects("arguments").join(", ")),
        TextFormat::Inkling => calls
            .iter()
            .map(|call| {
                format!(
                    "<|message_model|>{}<|content_invoke_tool_json|>{{\"name\": {}, \"args\": {}}}<|end_message|>",
                    call.name,
                    Value::from(call.name.as_str()),
                    arguments(call)
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        TextFormat::FunctionaryV32 => Template::lines(">>>{name}\n{arguments}").write(calls),
        TextFormat::MinimaxM3 => {
            // Values nest as elements, which no template row writes.
            let invokes: Vec<String> = calls.iter().map(|call| {
                let ns = super::minimax_m3::NS;
                let mut out = format!("{ns}<invoke name=\"{}\">", call.name);
                for (key, value) in arguments_map(call) {
                    minimax_element(&mut out, &key, &value);
                }
                let _ = write!(out, "{ns}</invoke>");
                out
            }).collect();
            let ns = super::minimax_m3::NS;
            format!("{ns}<tool_call>\n{}\n{ns}</tool_call>", invokes.join("\n"))
        }
        TextFormat::CommandRPlus => {
            let objects: Vec<String> = calls
                .iter()
                .map(|call| {
                    format!(
                        "{{\"tool_name\": {}, \"parameters\": {}}}",
                        Value::from(call.name.as_str()),
                        arguments(call)
                    )
                })
                .collect();
            format!("Action:\n```json\n[{}]\n```", objects.join(", "))
        }
        TextFormat::Muse => Template::lines(concat!(
            "<|start|>assistant to={name}<|message|><atem:function_calls>\n",
            "<atem:invoke name=\"{name}\">\n{arguments}</atem:invoke>\n",
            "</atem:function_calls><|eom|>",
        ))
        .argument("<atem:parameter name=\"{key}\">{value}</atem:parameter>\n")
        .write(calls),
        TextFormat::GigaChat => each(
            &objects("arguments"),
            "<|message_sep|>\n\nfunction call<|role_sep|>\n",
            "",
        ),
        TextFormat::Dots => Template::lines("<invoke name=\"{name}\">\n{arguments}</invoke>")
            .argument("<parameter name=\"{key}\">{value}</parameter>\n")
            .within("<dots_function_call>\n", "\n</dots_function_call>")
            .write(calls),
    }
}

/// Calls in Gemma's syntax, each between `open` and `close`, strings between `quote`s.
fn gemma_calls(calls: &[ToolCall], open: &str, close: &str, quote: &str) -> String {
    calls
        .iter()
        .map(|call| {
            let map = arguments_map(call);
            format!(
                "{open}call:{}{}{close}",
                call.name,
                gemma_object(&map, quote)
            )
        })
        .collect()
}

fn gemma_object(map: &Map<String, Value>, quote: &str) -> String {
    let pairs: Vec<String> = map
        .iter()
        .map(|(key, value)| {
            let bare = !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
            let key = if bare {
                key.clone()
            } else {
                format!("{quote}{key}{quote}")
            };
            format!("{key}:{}", gemma_value(value, quote))
        })
        .collect();
    format!("{{{}}}", pairs.join(","))
}

/// A JSON value in Gemma's syntax: strings quoted with `quote`, the rest as JSON writes them.
fn gemma_value(value: &Value, quote: &str) -> String {
    match value {
        Value::String(text) => format!("{quote}{text}{quote}"),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| gemma_value(v, quote)).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => gemma_object(map, quote),
        other => other.to_string(),
    }
}

/// A format whose calls are written from templates, one row of `write_calls` each. In
/// `call`, `{name}` is the call's tool (`{json_name}`: as a JSON string) and `{arguments}` its
/// arguments: one JSON object, or, with an [`argument`](Self::argument) template, each
/// argument written by it (`{key}`, and `{value}`: a string as it is, another value as JSON).
/// The calls go `between` apart, between `open` and `close`.
#[derive(Clone, Copy)]
struct Template {
    open: &'static str,
    call: &'static str,
    argument: Option<&'static str>,
    /// Whether a value that would read as XML markup goes in a CDATA section.
    cdata: bool,
    between: &'static str,
    close: &'static str,
}

impl Template {
    /// Each call from `call`, one a line.
    const fn lines(call: &'static str) -> Template {
        Template {
            open: "",
            call,
            argument: None,
            cdata: false,
            between: "\n",
            close: "",
        }
    }

    /// Each call from `call`, one after the other.
    const fn joined(call: &'static str) -> Template {
        Template {
            between: "",
            ..Template::lines(call)
        }
    }

    /// The calls `between` apart.
    const fn between(self, between: &'static str) -> Template {
        Template { between, ..self }
    }

    /// The calls between `open` and `close`.
    const fn within(self, open: &'static str, close: &'static str) -> Template {
        Template {
            open,
            close,
            ..self
        }
    }

    /// Each argument from `argument`, one after the other.
    const fn argument(self, argument: &'static str) -> Template {
        Template {
            argument: Some(argument),
            ..self
        }
    }

    /// Values that would read as XML markup in CDATA sections.
    const fn cdata(self) -> Template {
        Template {
            cdata: true,
            ..self
        }
    }

    fn write(&self, calls: &[ToolCall]) -> String {
        let mut out = self.open.to_owned();
        for (n, call) in calls.iter().enumerate() {
            if n > 0 {
                out.push_str(self.between);
            }
            let arguments = match self.argument {
                Some(template) => pairs(call, |key, value| {
                    let mut pair = String::new();
                    fill(
                        &mut pair,
                        template,
                        &[("{key}", key), ("{value}", &self.value(value))],
                    );
                    pair
                }),
                None => arguments(call).to_string(),
            };
            let json_name = Value::from(call.name.as_str()).to_string();
            let holes = [
                ("{name}", call.name.as_str()),
                ("{json_name}", &json_name),
                ("{arguments}", &arguments),
            ];
            fill(&mut out, self.call, &holes);
        }
        out.push_str(self.close);
        out
    }

    fn value<'a>(&self, value: &'a str) -> std::borrow::Cow<'a, str> {
        // XML text: what would read as markup goes in a CDATA section, when it can.
        if self.cdata && (value.contains('<') || value.contains('&')) && !value.contains("]]>") {
            format!("<![CDATA[{value}]]>").into()
        } else {
            value.into()
        }
    }
}

/// Writes `template` to `out` with each of its `holes` filled: the text put in is not read
/// again, so a value that holds a hole's name stays as it is.
fn fill(out: &mut String, template: &str, holes: &[(&str, &str)]) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match holes.iter().find(|(hole, _)| rest.starts_with(hole)) {
            Some((hole, text)) => {
                out.push_str(text);
                rest = &rest[hole.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// Each argument of `call` written by `pair`, with its value as the formats with a tag per
/// argument want it: strings as they are, the rest as JSON.
fn pairs(call: &ToolCall, pair: impl Fn(&str, &str) -> String) -> String {
    arguments_map(call)
        .iter()
        .map(|(key, value)| match value {
            Value::String(text) => pair(key, text),
            other => pair(key, &other.to_string()),
        })
        .collect()
}

/// Calls in a DSML block: strings as they are, other values as JSON.
fn dsml_calls(dsml: &deepseek::Dsml, calls: &[ToolCall]) -> String {
    let mut out = format!("{}\n", dsml.open);
    for call in calls {
        let _ = writeln!(out, "{} name=\"{}\">", dsml.invoke, call.name);
        for (key, value) in arguments_map(call) {
            let (string, value) = match value {
                Value::String(text) => ("true", text),
                other => ("false", other.to_string()),
            };
            let _ = writeln!(
                out,
                "{} name=\"{key}\" string=\"{string}\">{value}{}",
                dsml.parameter, dsml.parameter_end
            );
        }
        let _ = writeln!(out, "{}", dsml.invoke_end);
    }
    out.push_str(dsml.close);
    out
}

/// One Kimi K3 call, the `index`th: each argument typed, strings as they are.
fn k3_call(call: &ToolCall, index: usize) -> String {
    let escape = |text: &str| text.replace('&', "&amp;").replace('"', "&quot;");
    let mut out = format!(
        "<|open|>call tool=\"{}\" index=\"{index}\"<|sep|>",
        escape(&call.name)
    );
    for (key, value) in arguments_map(call) {
        let (kind, value) = match value {
            Value::String(text) => ("string", text),
            Value::Null => ("null", "null".to_owned()),
            Value::Bool(_) => ("boolean", value.to_string()),
            Value::Number(_) => ("number", value.to_string()),
            Value::Array(_) => ("array", value.to_string()),
            Value::Object(_) => ("object", value.to_string()),
        };
        let _ = write!(
            out,
            "<|open|>argument key=\"{}\" type=\"{kind}\"<|sep|>{value}<|close|>argument<|sep|>",
            escape(&key)
        );
    }
    out.push_str("<|close|>call<|sep|>");
    out
}

/// One MiniMax-M3 element: strings as they are, numbers, booleans and null as JSON, objects
/// as an element per member, arrays as an `<item>` per value.
fn minimax_element(out: &mut String, key: &str, value: &Value) {
    let ns = super::minimax_m3::NS;
    let _ = write!(out, "{ns}<{key}>");
    match value {
        Value::String(text) => out.push_str(text),
        Value::Object(map) => map
            .iter()
            .for_each(|(key, value)| minimax_element(out, key, value)),
        Value::Array(items) => items
            .iter()
            .for_each(|value| minimax_element(out, "item", value)),
        other => out.push_str(&other.to_string()),
    }
    let _ = write!(out, "{ns}</{key}>");
}

/// Each object between `open` and `close`, one a line.
fn each(objects: &[String], open: &str, close: &str) -> String {
    objects
        .iter()
        .map(|object| format!("{open}{object}{close}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A call's arguments as a JSON object; arguments that aren't one are kept as a string.
fn arguments(call: &ToolCall) -> Value {
    match serde_json::from_str::<Value>(&call.arguments) {
        Ok(value @ Value::Object(_)) => value,
        _ if call.arguments.trim().is_empty() => Value::Object(Map::new()),
        _ => Value::String(call.arguments.clone()),
    }
}

fn arguments_map(call: &ToolCall) -> Map<String, Value> {
    match arguments(call) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn python_call(call: &ToolCall) -> String {
    let arguments: Vec<String> = arguments_map(call)
        .iter()
        .map(|(key, value)| format!("{key}={}", python_literal(value)))
        .collect();
    format!("{}({})", call.name, arguments.join(", "))
}

/// A JSON value as a Python literal: JSON strings, numbers, lists and dicts already are one.
fn python_literal(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(_) | Value::String(_) => value.to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python_literal).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(key, value)| {
                    format!("{}: {}", Value::from(key.as_str()), python_literal(value))
                })
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse;
    use serde_json::json;

    fn calls() -> Vec<ToolCall> {
        vec![
            ToolCall::new("x", "get_weather", r#"{"city": "Saint-Étienne", "days": 3, "metric": true}"#),
            ToolCall::new(
                "y",
                "write_file",
                json!({"path": "a \"b\".txt", "lines": ["x\\y", "\n"], "opts": {"mode": null, "n": 1.5}}).to_string(),
            ),
        ]
    }

    #[test]
    fn written_calls_parse_back() {
        let schemas = std::collections::HashMap::from([
            (
                "get_weather".to_owned(),
                json!({"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}, "metric": {"type": "boolean"}}}),
            ),
            (
                "write_file".to_owned(),
                json!({"type": "object", "properties": {"path": {"type": "string"}, "lines": {"type": "array"}, "opts": {"type": "object"}}}),
            ),
        ]);
        for format in TextFormat::ALL.into_iter().chain([TextFormat::Auto]) {
            let written = write_calls(format, &calls());
            for parse_as in [format, TextFormat::Auto] {
                let parsed = parse(&written, parse_as, &schemas);
                assert_eq!(parsed.text, "", "{format:?} as {parse_as:?}: {written}");
                assert!(parsed.errors.is_empty(), "{format:?}: {:?}", parsed.errors);
                let back: Vec<(String, Value)> = parsed
                    .calls
                    .iter()
                    .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
                    .collect();
                let expected: Vec<(String, Value)> = calls()
                    .iter()
                    .map(|c| (c.name.clone(), serde_json::from_str(&c.arguments).unwrap()))
                    .collect();
                assert_eq!(back, expected, "{format:?} as {parse_as:?}: {written}");
            }
        }
    }

    #[test]
    fn python_literals_are_written_as_python() {
        assert_eq!(
            python_literal(&json!([true, null, {"a": "b"}])),
            r#"[True, None, {"a": "b"}]"#
        );
    }
}
