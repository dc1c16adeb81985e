//! Families whose templates list the tools as JSON, with their instructions around the list.

use super::{function, indented_json, json_list, lines, openai_tool, py_json};
use crate::format::TextFormat;
use crate::ToolSpec;
use std::fmt::Write;

/// `format`'s tool section, for the formats of this module.
pub(crate) fn prompt(tools: &[&ToolSpec], format: TextFormat) -> Option<String> {
    Some(match format {
        TextFormat::Hermes => format!(
            "{HERMES_RULES}<tools>\n{}\n</tools>\n\n{HERMES_CALL}",
            lines(tools, |spec| py_json(&openai_tool(spec)))
        ),
        TextFormat::Mistral => format!(
            "[AVAILABLE_TOOLS] {}[/AVAILABLE_TOOLS]",
            json_list(tools, openai_tool)
        ),
        TextFormat::Llama3 => indented(LLAMA3_RULES, tools),
        TextFormat::Pythonic => indented(PYTHONIC_RULES, tools),
        TextFormat::Jamba => format!(
            "{JAMBA_RULES}{}{JAMBA_AFTER}",
            json_list(tools, openai_tool)
        ),
        TextFormat::Granite => {
            // The template puts the list in a role of its own (`available_tools`); in one
            // system prompt, its header is written in words.
            trimmed(indented(GRANITE_RULES, tools))
        }
        TextFormat::GraniteFc => {
            let library = lines(tools, |spec| {
                let schema = spec.input_schema();
                let empty = schema
                    .get("properties")
                    .and_then(|p| p.as_object())
                    .is_none_or(|p| p.is_empty());
                // The template writes the name and description as they are, and no quote
                // after the description: what the model is shown with vLLM's template.
                format!(
                    "{{\"name\": \"{}\", \"description\": \"{}, \"parameters\": {}}}",
                    spec.name(),
                    spec.description().trim(),
                    if empty { "{}".to_owned() } else { py_json(schema) }
                )
            });
            format!("{GRANITE_FC_SYSTEM}\n<|function_call_library|>{library}{GRANITE_FC_AFTER}")
        }
        TextFormat::InternLm => json_list(tools, function),
        TextFormat::Nemotron => format!(
            "You can use the following tools to assist the user if required:\n<AVAILABLE_TOOLS>{}{NEMOTRON_AFTER}",
            json_list(tools, function)
        ),
        TextFormat::Lfm2 => format!(
            "List of tools: <|tool_list_start|>{}<|tool_list_end|>",
            json_list(tools, openai_tool)
        ),
        TextFormat::Functionary => {
            let mut out = String::from("You have access to the following functions:\n\n");
            for spec in tools {
                let _ = write!(
                    out,
                    "Use the function '{}' to '{}'\n{}\n\n",
                    spec.name(),
                    spec.description().trim(),
                    py_json(&function(spec))
                );
            }
            out.push_str(FUNCTIONARY_RULES);
            out
        }
        TextFormat::CommandR => {
            let list = tools
                .iter()
                .map(|spec| {
                    // Name and description as they are, `responses` null: the template's own.
                    format!(
                        "    {{\"name\": \"{}\", \"description\": \"{}\", \"parameters\": {}, \"responses\": null}}",
                        spec.name(),
                        spec.description().trim(),
                        py_json(spec.input_schema())
                    )
                })
                .collect::<Vec<_>>()
                .join(",\n");
            format!("{COHERE_RULES}{list}\n]\n```")
        }
        TextFormat::Xlam => trimmed(indented(XLAM_RULES, tools)),
        // The template glues the list to its last rule, with no line break between.
        TextFormat::Phi4Mini => trimmed(indented(PHI4_MINI_RULES, tools)),
        _ => return None,
    })
}

/// `rules`, then each tool as indented JSON followed by a blank line (Llama's and Granite's
/// templates).
fn indented(rules: &str, tools: &[&ToolSpec]) -> String {
    let mut out = rules.to_owned();
    for spec in tools {
        let _ = write!(out, "{}\n\n", indented_json(&openai_tool(spec)));
    }
    out
}

/// `text` without the blank line the template leaves after its last tool (the next message
/// follows there, not more of the prompt).
fn trimmed(mut text: String) -> String {
    text.truncate(text.trim_end().len());
    text
}

/// Qwen2.5's words before its `<tools>` list.
const HERMES_RULES: &str = "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n";

/// Qwen2.5's words after its `<tools>` list.
const HERMES_CALL: &str = "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>";

/// Llama 3.2's JSON instructions (`tool_chat_template_llama3.2_json.jinja`).
const LLAMA3_RULES: &str = concat!(
    "You have access to the following functions. To call a function, please respond with JSON for a function call. ",
    "Respond in the format {\"name\": function name, \"parameters\": dictionary of argument name and its value}. ",
    "Do not use variables.\n\n"
);

/// Llama 3.2's pythonic instructions (`tool_chat_template_llama3.2_pythonic.jinja`).
const PYTHONIC_RULES: &str = concat!(
    "You have access to the following functions. To call functions, please respond with a python list of the calls. ",
    "Respond in the format [func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)] ",
    "Do not use variables.\n\n"
);

/// Granite 3's system sentence and, in words, the header of its `available_tools` role.
const GRANITE_RULES: &str = "You are a helpful AI assistant with access to the following tools. When a tool is required to answer the user query, respond with <|tool_call|> followed by a JSON list of tools used.\n\nAvailable tools:\n";

/// Hunyuan-A13B's instructions before its tool list.
const JAMBA_RULES: &str = "你是一位函数组合专家。你会得到一个问题和一组可能的函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的。\n如果没有一个函数可以使用，请直接使用自然语言回复用户，以助手：开头。\n如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息，以助手：开头。\n如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户，以助手：开头。\n你应该只在工具调用部分返回函数调用。如果你决定调用任何函数，你必须将其格式化为<tool_calls>[{\"name\": \"func_name1\", \"arguments\": {\"argument1\": \"value1\", \"argument2\": \"value2\"}},...]</tool_calls>。你不应该在回复中包含任何其他文本。以下是你可以调用的函数列表，格式为JSON。\n\n";

/// Hunyuan-A13B's instructions after its tool list (the date line that follows is left out).
const JAMBA_AFTER: &str = "\n\n如果你决定返回函数调用，请将其格式化为<tool_calls>[{\"name\": \"func_name1\", \"arguments\": {\"argument1\": \"value1\", \"argument2\": \"value2\"}},...]</tool_calls>，不得包含其他文本。\n否则，请参考开头说的三种情况，以助手：开头进行回复。";

/// granite-20b-functioncalling's default system prompt.
const GRANITE_FC_SYSTEM: &str = "You are a helpful assistant with access to the following function calls. Your task is to understand the given conversation with function calls and responses and generate natural language response as the ASSISTANT to continue the conversation. You may use the following function calls to understand how to respond to the user query.";

/// granite-20b-functioncalling's words after its library, backslashes as the template has them.
const GRANITE_FC_AFTER: &str = "If none of the functions are relevant or the given question lacks the parameters required by the function, please output \\\"<function_call> {\\\"name\\\": \\\"no_function\\\", \\\"arguments\\\": {}}\\\".";

/// Nemotron Nano v2's instructions after its tool list (the doubled braces are the template's).
const NEMOTRON_AFTER: &str = "</AVAILABLE_TOOLS>\n\nIf you decide to call any tool(s), use the following format:\n<TOOLCALL>[{{\"name\": \"tool_name1\", \"arguments\": \"tool_args1\"}}, {{\"name\": \"tool_name2\", \"arguments\": \"tool_args2\"}}]</TOOLCALL>\n\nThe user will execute tool-calls and return responses from tool(s) in this format:\n<TOOL_RESPONSE>[{{\"tool_response1\"}}, {{\"tool_response2\"}}]</TOOL_RESPONSE>\n\nBased on the tool responses, you can call additional tools if needed, correct tool calls if any errors are found, or just respond to the user.";

/// Functionary v3.1's rules after its tool list.
const FUNCTIONARY_RULES: &str = "\nThink very carefully before calling functions.\nIf a you choose to call a function ONLY reply in the following format:\n<{start_tag}={function_name}>{parameters}{end_tag}\nwhere\n\nstart_tag => `<function`\nparameters => a JSON dict with the function argument name as key and function argument value as value.\nend_tag => `</function>`\n\nHere is an example,\n<function=example_function_name>{\"example_name\": \"example_value\"}</function>\n\nReminder:\n- If looking for real time information use relevant functions before falling back to brave_search\n- Function calls MUST follow the specified format, start with <function= and end with </function>\n- Required parameters MUST be specified\n- Only call one function at a time\n- Put the entire function call reply on one line\n\n";

/// Command R7B's tool-use section and the head of its tool list.
const COHERE_RULES: &str = "## Tool Use\nThink about how you can make best use of the provided tools to help with the task and come up with a high level plan that you will execute first.\n\n0. Start by writing <|START_THINKING|> followed by a detailed step by step plan of how you will solve the problem. For each step explain your thinking fully and give details of required tool calls (if needed). Unless specified otherwise, you write your plan in natural language. When you finish, close it out with <|END_THINKING|>.\n    You can optionally choose to skip this step when the user request is so straightforward to address that only a trivial plan would be needed.\n    NOTE: You MUST skip this step when you are directly responding to the user's request without using any tools.\n\nThen carry out your plan by repeatedly executing the following steps.\n1. Action: write <|START_ACTION|> followed by a list of JSON-formatted tool calls, with each one containing \"tool_name\" and \"parameters\" fields.\n    When there are multiple tool calls which are completely independent of each other (i.e. they can be executed in parallel), you should list them out all together in one step. When you finish, close it out with <|END_ACTION|>.\n2. Observation: you will then receive results of those tool calls in JSON format in the very next turn, wrapped around by <|START_TOOL_RESULT|> and <|END_TOOL_RESULT|>. Carefully observe those results and think about what to do next. Note that these results will be provided to you in a separate turn. NEVER hallucinate results.\n    Every tool call produces a list of results (when a tool call produces no result or a single result, it'll still get wrapped inside a list). Each result is clearly linked to its originating tool call via its \"tool_call_id\".\n3. Reflection: start the next turn by writing <|START_THINKING|> followed by what you've figured out so far, any changes you need to make to your plan, and what you will do next. When you finish, close it out with <|END_THINKING|>.\n    You can optionally choose to skip this step when everything is going according to plan and no special pieces of information or reasoning chains need to be recorded.\n    NOTE: You MUST skip this step when you are done with tool-use actions and are ready to respond to the user.\n\nYou can repeat the above 3 steps multiple times (could be 0 times too if no suitable tool calls are available or needed), until you decide it's time to finally respond to the user.\n\n4. Response: then break out of the loop and write <|START_RESPONSE|> followed by a piece of text which serves as a response to the user's last request. Use all previous tool calls and results to help you when formulating your response. When you finish, close it out with <|END_RESPONSE|>.\n\n## Available Tools\nHere is the list of tools that you have available to you.\nYou can ONLY use the tools listed here. When a tool is not listed below, it is NOT available and you should NEVER attempt to use it.\nEach tool is represented as a JSON object with fields like \"name\", \"description\", \"parameters\" (per JSON Schema), and optionally, \"responses\" (per JSON Schema).\n\n```json\n[\n";

/// xLAM-2's instructions before its tools (`tool_chat_template_xlam_llama.jinja`; the Qwen
/// one has the same words).
const XLAM_RULES: &str = "You have access to a set of tools. When using tools, make calls in a single JSON array: \n\n[{\"name\": \"tool_call_name\", \"arguments\": {\"arg1\": \"value1\", \"arg2\": \"value2\"}}, ... (additional parallel tool calls as needed)]\n\nIf no tool is suitable, state that explicitly. If the user's input lacks required parameters, ask for clarification. Do not interpret or respond until tool results are returned. Once they are available, process them or make additional calls if needed. For tasks that don't require tools, such as casual conversation or general advice, respond directly in plain text. The available tools are:\n\n";

/// Phi-4-mini's rules before its tools (`tool_chat_template_phi4_mini.jinja`), typos and
/// all: they are what the model was shown.
const PHI4_MINI_RULES: &str = "In addition to plain text responses, you can choose to call one or more of the provided functions.\n\nUse the following rule to decide when to call a function:\n  * if the response can be generated from your internal knowledge (e.g., as in the case of queries like \"What is the capital of Poland?\"), do so\n  * if you need external information that can be obtained by calling one or more of the provided functions, generate a function calls\n\nIf you decide to call functions:\n  * prefix function calls with functools marker (no closing marker required)\n  * all function calls should be generated in a single JSON list formatted as functools[{\"name\": [function name], \"arguments\": [function arguments as JSON]}, ...]\n  * follow the provided JSON schema. Do not hallucinate arguments or values. Do to blindly copy values from the provided samples\n  * respect the argument type formatting. E.g., if the type is number and format is float, write value 7 as 7.0\n  * make sure you pick the right functions that match the user intent";
