//! OpenAI's official OpenAPI spec (`tests/specs/openai-openapi.yaml`, from the public
//! `openai/openai-openapi` repository, MIT license beside it) as a checker of request bodies:
//! the scripted upstream checks every Chat Completions and Responses request against the
//! spec's own request schemas (`CreateChatCompletionRequest`, `CreateResponse`), so a body
//! the spec rejects fails the test that sent it.
//!
//! The spec is OpenAPI 3.1, whose schemas are JSON Schema 2020-12: they are checked with the
//! `jsonschema` crate, the whole spec as the root document so that every `$ref` resolves.
//! (Prism 5.14.2, tried first, lets `{"model": "m"}` through as a valid Chat Completions
//! request: it does not check these bodies.)

use serde_json::Value;
use std::sync::OnceLock;

/// The schema a request to `path` must fit, by the path's end; `None` for other paths.
fn schema_for(path: &str) -> Option<&'static str> {
    let path = path.split('?').next().unwrap_or(path);
    if path.ends_with("/chat/completions") {
        Some("CreateChatCompletionRequest")
    } else if path.ends_with("/responses") {
        Some("CreateResponse")
    } else {
        None
    }
}

struct Validators {
    chat: jsonschema::Validator,
    responses: jsonschema::Validator,
}

fn validators() -> &'static Validators {
    static VALIDATORS: OnceLock<Validators> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../specs/openai-openapi.yaml");
        let text = std::fs::read_to_string(path).expect("the vendored OpenAI spec is there");
        let spec: Value =
            serde_norway::from_str(&floats_past_64_bits(&text)).expect("the OpenAI spec is YAML");
        let build = |name: &str| {
            let mut root = spec.clone();
            root.as_object_mut()
                .expect("the spec is an object")
                .insert("$ref".into(), format!("#/components/schemas/{name}").into());
            jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .build(&root)
                .unwrap_or_else(|e| panic!("the spec's {name} compiles: {e}"))
        };
        Validators {
            chat: build("CreateChatCompletionRequest"),
            responses: build("CreateResponse"),
        }
    })
}

/// The spec's text with each integer past 64 bits written as a float. The spec gives `seed`
/// the bounds ±9223372036854776000 (a JavaScript rounding of i64's), which neither
/// serde_json nor the YAML reader can hold as an integer; as floats they mean the same.
fn floats_past_64_bits(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        out.push_str(line);
        if let Some((_, value)) = line.rsplit_once(": ") {
            let digits = value.strip_prefix('-').unwrap_or(value);
            let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
            if integer && value.parse::<i64>().is_err() && value.parse::<u64>().is_err() {
                out.push_str(".0");
            }
        }
        out.push('\n');
    }
    out
}

/// Checks a request body sent to `path` against the spec: `None` when the spec's request
/// schemas don't cover the path, else the violations (empty when the body fits).
pub fn violations(path: &str, body: &Value) -> Option<Vec<String>> {
    let validator = match schema_for(path)? {
        "CreateChatCompletionRequest" => &validators().chat,
        _ => &validators().responses,
    };
    Some(
        validator
            .iter_errors(body)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_spec_rejects_what_it_should_and_takes_what_it_should() {
        let good = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}]});
        assert_eq!(violations("/v1/chat/completions", &good), Some(vec![]));
        let no_messages = json!({"model": "m"});
        assert!(!violations("/v1/chat/completions", &no_messages)
            .unwrap()
            .is_empty());
        let tool_without_id = json!({"model": "m", "messages": [{"role": "tool", "content": "x"}]});
        assert!(!violations("/chat/completions", &tool_without_id)
            .unwrap()
            .is_empty());
        let response = json!({"model": "m", "input": [
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c", "output": "ok"}]});
        assert_eq!(violations("/v1/responses", &response), Some(vec![]));
        // The spec requires `output` on an output item (and, as written, not `call_id`).
        let bad_item =
            json!({"model": "m", "input": [{"type": "function_call_output", "call_id": "c"}]});
        assert!(!violations("/v1/responses", &bad_item).unwrap().is_empty());
        assert_eq!(violations("/v1/messages", &good), None);
    }
}
