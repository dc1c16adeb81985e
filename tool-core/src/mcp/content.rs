//! Between the registry's types and MCP's wire types, both ways: tool lists, call results,
//! content blocks, log levels and what a client declared it can do; shared by serving and
//! importing. The registry's own MCP shapes (`dialect/mcp.rs`,
//! `results/mcp.rs`) are the one source of truth for what goes out; rmcp's types are filled
//! from them through serde.

use crate::client::ClientCapabilities;
use crate::error::{ErrorCode, ToolError};
use crate::notify::LogLevel;
use crate::output::structured;
use crate::output::{Annotations, ContentBlock, JsonOutput, Resource, ResourceBody};
use crate::Provider;
use crate::{results, ToolCall, ToolOutput};
#[allow(deprecated)] // MCP logging: deprecated by the 2026 draft, in the 2025-11-25 spec.
use rmcp::model::LoggingLevel;
use rmcp::model::{CallToolResult, ResultType, Tool};
use serde_json::Value;

/// The registry's `tools/list` entries as rmcp's `Tool`s.
#[doc(hidden)]
pub fn tool_list(export: &Value) -> Vec<Tool> {
    export
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(
            |entry| match serde_json::from_value::<Tool>(entry.clone()) {
                Ok(tool) => Some(tool),
                Err(error) => {
                    // Every entry is built by `dialect/mcp.rs` in the spec's shape.
                    tracing::error!(%error, entry = %entry, "an MCP tool entry rmcp can't read");
                    None
                }
            },
        )
        .collect()
}

/// One call's output as a `CallToolResult`, in the shape `results::answer` gives MCP.
///
/// The result says `resultType: "complete"`, which protocol 2026-07-28 requires of every
/// result (the official SDKs refuse one without it); rmcp's handler strips it again for a
/// client that negotiated an older version. Read from JSON, rmcp leaves the field unset (an
/// absent field is how older results look), so it is set here, once for every result.
///
/// `wrapped` is `Some` for a tool that declares an output schema: its `structuredContent` is
/// then the structured result in the schema's form (`output::structured`), which the
/// registry has already checked against the schema.
#[doc(hidden)]
pub fn call_result(call: &ToolCall, output: ToolOutput, wrapped: Option<bool>) -> CallToolResult {
    let structured = wrapped.and_then(|wrapped| structured::structured(&output, wrapped));
    let text = output.to_model_text();
    let formatted = results::answer(
        Provider::Mcp,
        std::slice::from_ref(call),
        &[(call.id.clone(), output)],
    );
    let mut result = formatted
        .messages
        .into_iter()
        .next()
        .and_then(|message| serde_json::from_value::<CallToolResult>(message).ok())
        .unwrap_or_else(|| CallToolResult::error(vec![rmcp::model::ContentBlock::text(text)]));
    result.result_type = Some(ResultType::COMPLETE);
    if structured.is_some() {
        result.structured_content = structured;
    }
    result
}

/// A remote result of a tool with an output schema (`wrapped` as `output::structured` has
/// it): [`remote_output`], unless that output would not go out again with the same
/// `structuredContent` when we serve the tool; then the structured result itself, as JSON.
/// Whether it conforms is the registry's check, on every output of the tool.
pub(crate) fn remote_structured_output(result: &CallToolResult, wrapped: bool) -> ToolOutput {
    let output = remote_output(result);
    let Some(remote) = result
        .structured_content
        .as_ref()
        .filter(|_| result.is_error != Some(true))
    else {
        return output;
    };
    if structured::structured(&output, wrapped).as_ref() == Some(remote) {
        return output;
    }
    let value = match remote.get("result") {
        Some(inner) if wrapped => inner.clone(),
        _ => remote.clone(),
    };
    ToolOutput::Json(JsonOutput::from(value))
}

/// A remote server's `CallToolResult` as an output: an error when `isError`, JSON for
/// `structuredContent` (when the content is only its text copy; text and JSON when the text
/// says more), text for text, and rich content for the rest.
pub(crate) fn remote_output(result: &CallToolResult) -> ToolOutput {
    let blocks: Vec<ContentBlock> = result
        .content
        .iter()
        .filter_map(|block| serde_json::to_value(block).ok())
        .map(|block| content_block(&block))
        .collect();
    // Annotated text stays a block, so the annotations reach our own MCP clients.
    let all_text = blocks.iter().all(|b| {
        matches!(
            b,
            ContentBlock::Text {
                annotations: None,
                ..
            }
        )
    });
    let text = || {
        blocks
            .iter()
            .map(ContentBlock::to_model_text)
            .collect::<Vec<_>>()
            .join("\n")
    };
    if result.is_error == Some(true) {
        let message = text();
        let message = if message.is_empty() {
            crate::error_text::NO_MESSAGE.to_owned()
        } else {
            message
        };
        return ToolOutput::from(ToolError::with_code(ErrorCode::ToolFailed, message));
    }
    match &result.structured_content {
        Some(structured) if all_text && !structured.is_null() => {
            structured_output(structured, text())
        }
        _ if all_text => ToolOutput::Text(text()),
        _ => ToolOutput::Content(blocks),
    }
}

/// A `structuredContent` and its result's text: the JSON when the text is only its copy (or
/// empty), else the text followed by the JSON, so neither what the server wrote for the model
/// nor the data is lost. A string wrapped as `{"result": "..."}` whose text is the string
/// itself (the Python SDK's `-> str` tools) is that text.
fn structured_output(structured: &Value, text: String) -> ToolOutput {
    if wrapped_result(structured).and_then(Value::as_str) == Some(text.as_str()) {
        return ToolOutput::Text(text);
    }
    let copy = serde_json::from_str::<Value>(&text).ok();
    let value = unwrapped(structured, copy.as_ref());
    if text.is_empty() || copy.is_some_and(|copy| copy == value || &copy == structured) {
        ToolOutput::Json(JsonOutput::from(value))
    } else {
        ToolOutput::Text(format!("{text}\n{value}"))
    }
}

/// The value a `structuredContent` stands for: servers (this crate's, the Python SDK's) wrap
/// a result that isn't an object as `{"result": value}`, the spec requiring an object, and
/// send the value itself as the text copy. When the text (`copy`, parsed) is exactly the
/// wrapped value, the value is what the tool returned.
fn unwrapped(structured: &Value, copy: Option<&Value>) -> Value {
    match wrapped_result(structured) {
        Some(inner) if copy == Some(inner) => inner.clone(),
        _ => structured.clone(),
    }
}

/// `value` of a `{"result": value}` wrapper.
fn wrapped_result(structured: &Value) -> Option<&Value> {
    structured
        .as_object()
        .filter(|object| object.len() == 1)
        .and_then(|object| object.get("result"))
}

/// One MCP content block (wire JSON) as ours; a `resource_link`, or a kind this version
/// doesn't know, becomes a text note.
pub(crate) fn content_block(block: &Value) -> ContentBlock {
    let converted = plain_block(block);
    match block
        .get("annotations")
        .and_then(|a| serde_json::from_value::<Annotations>(a.clone()).ok())
    {
        Some(mut annotations) => {
            // rmcp holds a priority as `f32`: 0.7 reaches us as 0.699999988079071. The
            // shortest decimal of that `f32` is the number the server wrote.
            annotations.priority = annotations
                .priority
                .map(|p| (p as f32).to_string().parse().unwrap_or(p));
            converted.with_annotations(annotations)
        }
        None => converted,
    }
}

/// [`content_block`] without its annotations.
fn plain_block(block: &Value) -> ContentBlock {
    let text = |key: &str| block[key].as_str().unwrap_or_default().to_owned();
    match block["type"].as_str().unwrap_or_default() {
        "text" => ContentBlock::text(text("text")),
        "image" => ContentBlock::image_base64(text("mimeType"), text("data")),
        "audio" => ContentBlock::audio_base64(text("mimeType"), text("data")),
        "resource" => {
            let resource = &block["resource"];
            let field = |key: &str| resource[key].as_str().map(str::to_owned);
            let body = match (field("text"), field("blob")) {
                (Some(text), _) => ResourceBody::Text { text },
                (None, Some(blob)) => ResourceBody::Blob { blob },
                (None, None) => ResourceBody::Text {
                    text: String::new(),
                },
            };
            ContentBlock::Resource(Resource {
                uri: field("uri").unwrap_or_default(),
                mime_type: field("mimeType"),
                body,
                annotations: None,
            })
        }
        "resource_link" => ContentBlock::text(format!(
            "[resource link: {} ({})]",
            text("uri"),
            block["name"].as_str().unwrap_or("unnamed")
        )),
        other => ContentBlock::text(format!("[{other} content]")),
    }
}

/// MCP's log level as ours.
#[allow(deprecated)]
#[doc(hidden)]
pub fn log_level(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

/// Our log level as MCP's.
#[allow(deprecated)]
#[doc(hidden)]
pub fn mcp_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// What a client's declared capabilities let a tool ask.
#[doc(hidden)]
pub fn declared(declared: &rmcp::model::ClientCapabilities) -> ClientCapabilities {
    let sampling = declared.sampling.as_ref();
    let elicitation = declared.elicitation.as_ref();
    ClientCapabilities {
        sampling: sampling.is_some(),
        sampling_tools: sampling.is_some_and(|s| s.tools.is_some()),
        sampling_context: sampling.is_some_and(|s| s.context.is_some()),
        // `elicitation: {}` (as before modes existed) means form mode.
        elicitation: elicitation.is_some_and(|e| e.form.is_some() || e.url.is_none()),
        elicitation_url: elicitation.is_some_and(|e| e.url.is_some()),
        roots: declared.roots.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(value: Value) -> CallToolResult {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn remote_results_become_the_closest_output() {
        let text = result(
            json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}),
        );
        assert_eq!(remote_output(&text), ToolOutput::text("a\nb"));

        let json = result(
            json!({"content": [{"type": "text", "text": "{\"n\":1}"}], "structuredContent": {"n": 1}}),
        );
        assert_eq!(remote_output(&json), ToolOutput::json(&json!({"n": 1})));
        let wrapped = result(
            json!({"content": [{"type": "text", "text": "[1,2]"}], "structuredContent": {"result": [1, 2]}}),
        );
        assert_eq!(remote_output(&wrapped), ToolOutput::json(&json!([1, 2])));
        let named_result = result(
            json!({"content": [{"type": "text", "text": "ok"}], "structuredContent": {"result": 1}}),
        );
        // "ok" is no copy of the JSON: the model reads both.
        assert_eq!(
            remote_output(&named_result),
            ToolOutput::text("ok\n{\"result\":1}")
        );
        // The Python SDK's `-> str` tools: the string as text, and wrapped as structured
        // content. The string is the output, once.
        let string = result(
            json!({"content": [{"type": "text", "text": "HEY!"}], "structuredContent": {"result": "HEY!"}}),
        );
        assert_eq!(remote_output(&string), ToolOutput::text("HEY!"));
        let empty = result(json!({"content": [], "structuredContent": {"n": 1}}));
        assert_eq!(remote_output(&empty), ToolOutput::json(&json!({"n": 1})));

        let failed = result(json!({"content": [{"type": "text", "text": "no"}], "isError": true}));
        let error = remote_output(&failed);
        assert_eq!(error.as_error().unwrap().message, "no");

        let rich = result(json!({"content": [
            {"type": "text", "text": "look"},
            {"type": "image", "data": "AQID", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "test://r", "mimeType": "text/plain", "text": "t"}},
            {"type": "resource_link", "uri": "test://l", "name": "l"}]}));
        assert_eq!(
            remote_output(&rich),
            ToolOutput::content([
                ContentBlock::text("look"),
                ContentBlock::image_base64("image/png", "AQID"),
                ContentBlock::resource_text("test://r", "text/plain", "t"),
                ContentBlock::text("[resource link: test://l (l)]"),
            ])
        );
    }

    #[test]
    fn outputs_go_out_in_the_mcp_shape() {
        let call = ToolCall::new("1", "t", "{}");
        let out = call_result(
            &call,
            ToolOutput::content([
                ContentBlock::text("x"),
                ContentBlock::audio_base64("audio/wav", "UklGRg=="),
            ]),
            None,
        );
        let wire = serde_json::to_value(&out).unwrap();
        assert_eq!(
            wire["content"][1],
            json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"})
        );
        assert_eq!(wire["isError"], false);

        let out = call_result(&call, ToolOutput::json(&json!([1, 2])), None);
        let wire = serde_json::to_value(&out).unwrap();
        assert_eq!(wire["structuredContent"], json!({"result": [1, 2]}));
        assert_eq!(wire["content"][0]["text"], "[1,2]");
    }

    #[test]
    fn declared_schemas_keep_structured_content_whole_both_ways() {
        let call = ToolCall::new("1", "t", "{}");
        // A `-> String` tool with a wrapped schema: text, and the string as the result.
        let out = call_result(&call, ToolOutput::text("hi"), Some(true));
        assert_eq!(out.structured_content, Some(json!({"result": "hi"})));
        // An object under a wrapped schema (`Option<Struct>`) is wrapped too.
        let out = call_result(&call, ToolOutput::json(&json!({"a": 1})), Some(true));
        assert_eq!(out.structured_content, Some(json!({"result": {"a": 1}})));

        // The Python SDK's `-> str`: text, which goes out again as the same result.
        let string = result(
            json!({"content": [{"type": "text", "text": "HEY!"}], "structuredContent": {"result": "HEY!"}}),
        );
        assert_eq!(
            remote_structured_output(&string, true),
            ToolOutput::text("HEY!")
        );
        // Text that says more than the JSON: the structured result is kept, as JSON.
        let named = result(
            json!({"content": [{"type": "text", "text": "ok"}], "structuredContent": {"n": 1}}),
        );
        assert_eq!(
            remote_structured_output(&named, false),
            ToolOutput::json(&json!({"n": 1}))
        );
    }

    /// MCP content annotations come in with a remote result and go out again when we serve it.
    #[test]
    fn annotations_survive_import_and_serve() {
        let annotated = result(json!({"content": [
            {"type": "text", "text": "done", "annotations": {"audience": ["user"], "priority": 0.7}},
            {"type": "image", "data": "AQID", "mimeType": "image/png", "annotations": {"priority": 0.5}}]}));
        let output = remote_output(&annotated);
        let ToolOutput::Content(blocks) = &output else {
            panic!("annotated text became {output:?}");
        };
        assert_eq!(
            blocks[0].annotations(),
            Some(&Annotations::for_audience(["user"]).priority(0.7))
        );
        assert_eq!(blocks[1].annotations().unwrap().priority, Some(0.5));

        let call = ToolCall::new("1", "annotated", "{}");
        // As the wire has it: text (rmcp's `f32` priority written as its shortest decimal).
        let wire = serde_json::to_string(&call_result(&call, output, None)).unwrap();
        let served: Value = serde_json::from_str(&wire).unwrap();
        assert_eq!(
            served["content"][0]["annotations"],
            json!({"audience": ["user"], "priority": 0.7})
        );
        assert_eq!(
            served["content"][1]["annotations"],
            json!({"priority": 0.5})
        );
        assert_eq!(served["resultType"], "complete");
    }

    fn read(wire: serde_json::Value) -> ClientCapabilities {
        declared(&serde_json::from_value(wire).unwrap())
    }

    #[test]
    fn each_mode_and_sub_capability_is_read_from_what_the_client_declared() {
        let everything = read(json!({
            "sampling": {"tools": {}, "context": {}},
            "elicitation": {"form": {}, "url": {}},
            "roots": {}
        }));
        assert_eq!(everything, ClientCapabilities::all());
        // `elicitation: {}`, as before modes existed: form mode only.
        let legacy = read(json!({"elicitation": {}, "sampling": {}}));
        assert!(legacy.elicitation && !legacy.elicitation_url);
        assert!(legacy.sampling && !legacy.sampling_tools && !legacy.sampling_context);
        let url_only = read(json!({"elicitation": {"url": {}}}));
        assert!(url_only.elicitation_url && !url_only.elicitation);
        assert_eq!(read(json!({})), ClientCapabilities::default());
    }
}
