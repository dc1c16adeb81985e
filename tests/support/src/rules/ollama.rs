//! Ollama's native chat API (`POST /api/chat`): its tool definitions, and whole request
//! bodies, so every Ollama request of the agent tests is checked as the scripted upstream
//! receives it.
//!
//! Ollama reads a request into Go structs (`encoding/json`): a value of the wrong JSON type is
//! refused with HTTP 400, and a field the struct lacks is dropped without a word. Both are
//! violations here: a dropped field is something the model never sees.
//!
//! Sources (github.com/ollama/ollama):
//! - [RQ] `api/types.go` `ChatRequest`: `model`, `messages`, `stream`, `format`, `keep_alive`,
//!   `tools`, `options`, `think`, `truncate`, `shift`, `_debug_render_only`, `logprobs`,
//!   `top_logprobs`.
//! - [MS] `api/types.go` `Message`: `role`, `content` (a string), `thinking`, `images`,
//!   `tool_calls`, `tool_name`, `tool_call_id`; `docs/api.md`: role "either `system`,
//!   `user`, `assistant`, or `tool`".
//! - [TC] `api/types.go` `ToolCall` (`id`, `function`), `ToolCallFunction` (`index`, `name`,
//!   `arguments`, an object: `ToolCallFunctionArguments` is an ordered map).
//! - [TL] `api/types.go` `Tool` (`type`, `items`, `function`), `ToolFunction` (`name`,
//!   `description`, `parameters`), `ToolFunctionParameters` (`type`, `$defs`, `items`,
//!   `required`, `properties`).
//! - [TR] `docs/api.md` "Chat request (With history, with tools)": after an assistant message
//!   with calls, one `tool` message per call, naming its tool in `tool_name`.

use super::common::unknown_keys;
use serde_json::{Map, Value};

const BODY: &[&str] = &[
    "model",
    "messages",
    "stream",
    "format",
    "keep_alive",
    "tools",
    "options",
    "think",
    "truncate",
    "shift",
    "_debug_render_only",
    "logprobs",
    "top_logprobs",
];
const MESSAGE: &[&str] = &[
    "role",
    "content",
    "thinking",
    "images",
    "tool_calls",
    "tool_name",
    "tool_call_id",
];
const ROLES: &[&str] = &["system", "user", "assistant", "tool"];

/// A tool list, `[{"type": "function", "function": {..}}]`: one line per violation.
pub fn check(tools: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match tools.as_array() {
        Some(tools) => {
            for (i, tool) in tools.iter().enumerate() {
                check_tool(&format!("/{i}"), tool, &mut out);
            }
        }
        None => out.push("the tool list is not an array [TL]".into()),
    }
    out
}

fn check_tool(at: &str, tool: &Value, out: &mut Vec<String>) {
    let Some(map) = tool.as_object() else {
        out.push(format!("{at}: not an object [TL]"));
        return;
    };
    for key in unknown_keys(map, &["type", "items", "function"]) {
        out.push(format!("{at}/{key}: not a Tool field, dropped [TL]"));
    }
    if map.get("type").and_then(Value::as_str) != Some("function") {
        out.push(format!("{at}/type: must be \"function\" [TL]"));
    }
    let Some(function) = map.get("function").and_then(Value::as_object) else {
        out.push(format!("{at}/function: required, an object [TL]"));
        return;
    };
    for key in unknown_keys(function, &["name", "description", "parameters"]) {
        out.push(format!(
            "{at}/function/{key}: not a ToolFunction field, dropped [TL]"
        ));
    }
    if function
        .get("name")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        out.push(format!("{at}/function/name: required, a string [TL]"));
    }
    if function.get("description").is_some_and(|d| !d.is_string()) {
        out.push(format!("{at}/function/description: not a string [TL]"));
    }
    match function.get("parameters").and_then(Value::as_object) {
        Some(parameters) => check_parameters(&format!("{at}/function/parameters"), parameters, out),
        None => out.push(format!(
            "{at}/function/parameters: required, an object [TL]"
        )),
    }
}

/// What `ToolProperty` holds; any other keyword of a property is dropped unseen [TL].
const PROPERTY: &[&str] = &[
    "anyOf",
    "type",
    "items",
    "description",
    "enum",
    "properties",
    "required",
];

fn check_parameters(at: &str, parameters: &Map<String, Value>, out: &mut Vec<String>) {
    for key in unknown_keys(
        parameters,
        &["type", "$defs", "items", "required", "properties"],
    ) {
        out.push(format!(
            "{at}/{key}: not a ToolFunctionParameters field, dropped [TL]"
        ));
    }
    for (name, property) in parameters
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        check_property(&format!("{at}/properties/{name}"), property, out);
    }
    if !parameters.get("type").is_some_and(Value::is_string) {
        out.push(format!("{at}/type: required, a string [TL]"));
    }
    if parameters.get("properties").is_some_and(|p| !p.is_object()) {
        out.push(format!("{at}/properties: not an object [TL]"));
    }
    let required = parameters.get("required");
    if required.is_some_and(|r| !r.as_array().is_some_and(|r| r.iter().all(Value::is_string))) {
        out.push(format!("{at}/required: not a list of strings [TL]"));
    }
}

fn check_property(at: &str, property: &Value, out: &mut Vec<String>) {
    let Some(map) = property.as_object() else {
        out.push(format!("{at}: not a ToolProperty object [TL]"));
        return;
    };
    for key in unknown_keys(map, PROPERTY) {
        out.push(format!(
            "{at}/{key}: not a ToolProperty field, dropped [TL]"
        ));
    }
    for (name, inner) in map
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        check_property(&format!("{at}/properties/{name}"), inner, out);
    }
    for (i, branch) in map
        .get("anyOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        check_property(&format!("{at}/anyOf/{i}"), branch, out);
    }
    if let Some(items) = map.get("items").filter(|items| items.is_object()) {
        check_property(&format!("{at}/items"), items, out);
    }
}

/// Every violation in one `/api/chat` request body: `/json/pointer: what is wrong [source]`.
pub fn check_request(body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(map) = body.as_object() else {
        return vec!["the body is not an object [RQ]".into()];
    };
    for key in unknown_keys(map, BODY) {
        out.push(format!("/{key}: not a ChatRequest field, dropped [RQ]"));
    }
    if !map.get("model").is_some_and(Value::is_string) {
        out.push("/model: required, a string [RQ]".into());
    }
    if map.get("stream").is_some_and(|s| !s.is_boolean()) {
        out.push("/stream: not a boolean [RQ]".into());
    }
    match map.get("messages").and_then(Value::as_array) {
        Some(messages) => check_messages(messages, &mut out),
        None => out.push("/messages: required, a list [RQ]".into()),
    }
    if let Some(tools) = map.get("tools") {
        for line in check(tools) {
            out.push(format!("/tools{line}"));
        }
    }
    out
}

fn check_messages(messages: &[Value], out: &mut Vec<String>) {
    for (i, message) in messages.iter().enumerate() {
        check_message(&format!("/messages/{i}"), message, out);
    }
    // [TR] an assistant message's calls are answered by as many tool messages, by name.
    for (i, message) in messages.iter().enumerate() {
        let calls: Vec<&str> = message["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| c["function"]["name"].as_str().unwrap_or_default())
            .collect();
        if calls.is_empty() {
            continue;
        }
        let answers: Vec<&str> = messages[i + 1..]
            .iter()
            .take_while(|m| m["role"] == "tool")
            .map(|m| m["tool_name"].as_str().unwrap_or_default())
            .collect();
        if answers != calls {
            out.push(format!(
                "/messages/{i}: the calls {calls:?} need one tool message each, naming its tool, next; found {answers:?} [TR]"
            ));
        }
    }
}

fn check_message(at: &str, message: &Value, out: &mut Vec<String>) {
    let Some(map) = message.as_object() else {
        out.push(format!("{at}: not a Message object [MS]"));
        return;
    };
    for key in unknown_keys(map, MESSAGE) {
        out.push(format!("{at}/{key}: not a Message field, dropped [MS]"));
    }
    if !map
        .get("role")
        .and_then(Value::as_str)
        .is_some_and(|r| ROLES.contains(&r))
    {
        out.push(format!("{at}/role: must be one of {ROLES:?} [MS]"));
    }
    for key in ["content", "thinking", "tool_name", "tool_call_id"] {
        if map.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
            out.push(format!("{at}/{key}: not a string [MS]"));
        }
    }
    let calls = match map.get("tool_calls") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(calls)) => calls,
        Some(_) => {
            out.push(format!("{at}/tool_calls: not a list [MS]"));
            return;
        }
    };
    for (j, call) in calls.iter().enumerate() {
        let at = format!("{at}/tool_calls/{j}");
        let Some(call) = call.as_object() else {
            out.push(format!("{at}: not a ToolCall object [TC]"));
            continue;
        };
        for key in unknown_keys(call, &["id", "function"]) {
            out.push(format!("{at}/{key}: not a ToolCall field, dropped [TC]"));
        }
        let Some(function) = call.get("function").and_then(Value::as_object) else {
            out.push(format!("{at}/function: required, an object [TC]"));
            continue;
        };
        for key in unknown_keys(function, &["index", "name", "arguments"]) {
            out.push(format!(
                "{at}/function/{key}: not a ToolCallFunction field, dropped [TC]"
            ));
        }
        if !function.get("name").is_some_and(Value::is_string) {
            out.push(format!("{at}/function/name: required, a string [TC]"));
        }
        if function.get("index").is_some_and(|i| !i.is_i64()) {
            out.push(format!("{at}/function/index: not an integer [TC]"));
        }
        if !function.get("arguments").is_some_and(Value::is_object) {
            out.push(format!(
                "{at}/function/arguments: required, a JSON object [TC]"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `docs/capabilities/tool-calling.mdx`, "Generate a response with a single tool result",
    /// without the `type` its example adds to the call (the `ToolCall` struct drops it).
    #[test]
    fn the_documented_second_request_passes_and_breaks_are_named() {
        let good = json!({"model": "qwen3", "stream": false, "messages": [
            {"role": "user", "content": "What is the temperature in New York?"},
            {"role": "assistant", "tool_calls": [{"function": {"index": 0, "name": "get_temperature", "arguments": {"city": "New York"}}}]},
            {"role": "tool", "tool_name": "get_temperature", "content": "22°C"}],
            "tools": [{"type": "function", "function": {"name": "get_temperature", "description": "Get the current temperature for a city",
                "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}}}]});
        assert_eq!(check_request(&good), Vec::<String>::new());
        let bad = json!({"model": "qwen3", "messages": [
            {"role": "assistant", "content": [{"type": "text"}], "tool_calls": [{"function": {"name": "f", "arguments": "{}"}}]},
            {"role": "function", "content": "x"}],
            "tools": [{"type": "function", "function": {"name": "f", "strict": true, "parameters": {"type": "object",
                "properties": {"x": {"$ref": "#/$defs/X"}, "y": {"type": "array", "items": {"type": "integer", "minimum": 0}}}}}}]});
        let lines = check_request(&bad);
        for needle in [
            "/messages/0/content: not a string",
            "/messages/0/tool_calls/0/function/arguments: required, a JSON object",
            "/messages/1/role",
            "/messages/0: the calls",
            "/tools/0/function/strict: not a ToolFunction field",
            "/tools/0/function/parameters/properties/x/$ref: not a ToolProperty field",
            "/tools/0/function/parameters/properties/y/items/minimum: not a ToolProperty field",
        ] {
            assert!(
                lines.iter().any(|l| l.contains(needle)),
                "{needle}: {lines:#?}"
            );
        }
    }
}
