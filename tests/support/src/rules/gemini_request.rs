//! Gemini `generateContent` request bodies: the conversation the agent sends, checked against
//! the API reference, so every Gemini request of the agent tests is checked as it arrives.
//!
//! Sources:
//! - [RQ] `models.generateContent` request body (ai.google.dev/api/generate-content): the
//!   fields are `contents` (required), `tools`, `toolConfig`, `safetySettings`,
//!   `systemInstruction`, `generationConfig`, `cachedContent`.
//! - [CT] `Content` (ai.google.dev/api/caching#Content): `parts[]`, and `role` "Must be either
//!   'user' or 'model'".
//! - [PT] `Part` (ai.google.dev/api/caching#Part): its data is a union, "can be only one of"
//!   `text`, `inlineData`, `functionCall`, `functionResponse`, `fileData`, `executableCode`,
//!   `codeExecutionResult`; beside it `thought`, `thoughtSignature`, `partMetadata`,
//!   `videoMetadata`, `mediaResolution`.
//! - [FC] `FunctionCall`: `id`, `name` (required), `args` (a JSON object).
//!   [FR] `FunctionResponse`: `id`, `name` (required), `response` (required, "The function
//!   response in JSON object format"), `parts`, `willContinue`, `scheduling`.
//! - [FN] "Function calling" (ai.google.dev/gemini-api/docs/function-calling): after a model
//!   turn with function calls, the next content is the user's, holding a `functionResponse`
//!   for each call, named as the call.

use super::common::unknown_keys;
use super::gemini;
use serde_json::Value;

const BODY: &[&str] = &[
    "contents",
    "tools",
    "toolConfig",
    "safetySettings",
    "systemInstruction",
    "generationConfig",
    "cachedContent",
];
const DATA: &[&str] = &[
    "text",
    "inlineData",
    "functionCall",
    "functionResponse",
    "fileData",
    "executableCode",
    "codeExecutionResult",
];
const BESIDE_DATA: &[&str] = &[
    "thought",
    "thoughtSignature",
    "partMetadata",
    "videoMetadata",
    "mediaResolution",
];

/// Every violation in one request body, one line each: `/json/pointer: what is wrong [source]`.
pub fn check_request(body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(map) = body.as_object() else {
        return vec!["the body is not an object [RQ]".into()];
    };
    for key in unknown_keys(map, BODY) {
        out.push(format!("/{key}: not a request field [RQ]"));
    }
    match map.get("contents").and_then(Value::as_array) {
        Some(contents) if !contents.is_empty() => check_contents(contents, &mut out),
        _ => out.push("/contents: required, a non-empty list [RQ]".into()),
    }
    if let Some(system) = map.get("systemInstruction") {
        check_content("/systemInstruction", system, false, &mut out);
    }
    if let Some(tools) = map.get("tools") {
        match tools.as_array() {
            Some(tools) => {
                for (i, tool) in tools.iter().enumerate() {
                    for line in gemini::check(tool) {
                        out.push(format!("/tools/{i}: {line}"));
                    }
                }
            }
            None => out.push("/tools: not a list [RQ]".into()),
        }
    }
    out
}

fn check_contents(contents: &[Value], out: &mut Vec<String>) {
    for (i, content) in contents.iter().enumerate() {
        check_content(&format!("/contents/{i}"), content, true, out);
    }
    // [FN] each model turn's calls are answered, in order and by name, by the next content.
    for (i, pair) in contents.windows(2).enumerate() {
        let calls = names(&pair[0], "functionCall");
        if calls.is_empty() || pair[0]["role"] != "model" {
            continue;
        }
        let answers = names(&pair[1], "functionResponse");
        if pair[1]["role"] != "user" || answers != calls {
            out.push(format!(
                "/contents/{}: the calls {calls:?} of /contents/{i} need one functionResponse each, in a user content; found {answers:?} [FN]",
                i + 1
            ));
        }
    }
    if let Some(last) = contents.last() {
        let calls = names(last, "functionCall");
        if !calls.is_empty() {
            out.push(format!(
                "/contents/{}: ends with calls {calls:?} and no responses [FN]",
                contents.len() - 1
            ));
        }
    }
}

fn names(content: &Value, kind: &str) -> Vec<String> {
    content["parts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|part| part.get(kind))
        .map(|data| data["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn check_content(at: &str, content: &Value, needs_role: bool, out: &mut Vec<String>) {
    let Some(map) = content.as_object() else {
        out.push(format!("{at}: not a Content object [CT]"));
        return;
    };
    for key in unknown_keys(map, &["parts", "role"]) {
        out.push(format!("{at}/{key}: not a Content field [CT]"));
    }
    match map.get("role").and_then(Value::as_str) {
        Some("user" | "model") => {}
        None if !needs_role => {}
        other => out.push(format!(
            "{at}/role: {other:?}, must be \"user\" or \"model\" [CT]"
        )),
    }
    let Some(parts) = map
        .get("parts")
        .and_then(Value::as_array)
        .filter(|p| !p.is_empty())
    else {
        out.push(format!("{at}/parts: required, a non-empty list [CT]"));
        return;
    };
    for (j, part) in parts.iter().enumerate() {
        check_part(&format!("{at}/parts/{j}"), part, out);
    }
}

fn check_part(at: &str, part: &Value, out: &mut Vec<String>) {
    let Some(map) = part.as_object() else {
        out.push(format!("{at}: not a Part object [PT]"));
        return;
    };
    let data: Vec<&str> = map
        .keys()
        .map(String::as_str)
        .filter(|k| DATA.contains(k))
        .collect();
    if data.len() != 1 {
        out.push(format!(
            "{at}: holds {data:?}, exactly one data field is allowed [PT]"
        ));
    }
    let allowed: Vec<&str> = DATA.iter().chain(BESIDE_DATA).copied().collect();
    for key in unknown_keys(map, &allowed) {
        out.push(format!("{at}/{key}: not a Part field [PT]"));
    }
    if let Some(text) = map.get("text") {
        if !text.is_string() {
            out.push(format!("{at}/text: not a string [PT]"));
        }
    }
    if let Some(call) = map.get("functionCall") {
        check_call(&format!("{at}/functionCall"), call, out);
    }
    if let Some(response) = map.get("functionResponse") {
        check_response(&format!("{at}/functionResponse"), response, out);
    }
}

fn check_call(at: &str, call: &Value, out: &mut Vec<String>) {
    let Some(map) = call.as_object() else {
        out.push(format!("{at}: not an object [FC]"));
        return;
    };
    for key in unknown_keys(map, &["id", "name", "args"]) {
        out.push(format!("{at}/{key}: not a FunctionCall field [FC]"));
    }
    if !map.get("name").is_some_and(Value::is_string) {
        out.push(format!("{at}/name: required, a string [FC]"));
    }
    if map.get("args").is_some_and(|args| !args.is_object()) {
        out.push(format!("{at}/args: not a JSON object [FC]"));
    }
}

fn check_response(at: &str, response: &Value, out: &mut Vec<String>) {
    let Some(map) = response.as_object() else {
        out.push(format!("{at}: not an object [FR]"));
        return;
    };
    let fields = [
        "id",
        "name",
        "response",
        "parts",
        "willContinue",
        "scheduling",
    ];
    for key in unknown_keys(map, &fields) {
        out.push(format!("{at}/{key}: not a FunctionResponse field [FR]"));
    }
    if !map.get("name").is_some_and(Value::is_string) {
        out.push(format!("{at}/name: required, a string [FR]"));
    }
    if !map.get("response").is_some_and(Value::is_object) {
        out.push(format!("{at}/response: required, a JSON object [FR]"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_documented_exchange_passes_and_broken_ones_say_why() {
        let good = json!({
            "contents": [
                {"role": "user", "parts": [{"text": "Lights?"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "dim", "args": {"b": 1}}, "thoughtSignature": "x"}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "dim", "response": {"output": "ok"}}}]}
            ],
            "systemInstruction": {"parts": [{"text": "Be brief."}]}
        });
        assert_eq!(check_request(&good), Vec::<String>::new());

        let mut unanswered = good.clone();
        unanswered["contents"].as_array_mut().unwrap().pop();
        assert!(check_request(&unanswered)[0].contains("[FN]"));

        let mut wrong_role = good.clone();
        wrong_role["contents"][2]["role"] = json!("function");
        let found = check_request(&wrong_role);
        assert!(
            found.iter().any(|v| v.contains("/contents/2/role")),
            "{found:?}"
        );

        let mut two_data = good.clone();
        two_data["contents"][0]["parts"][0]["functionCall"] = json!({"name": "dim"});
        assert!(check_request(&two_data)[0].contains("exactly one data field"));

        let mut bare = good;
        bare["contents"][2]["parts"][0]["functionResponse"] =
            json!({"name": "dim", "response": "ok"});
        assert!(check_request(&bare)[0].contains("/response: required, a JSON object"));
    }
}
