//! The tools the MCP conformance suite (`@modelcontextprotocol/conformance`, server mode)
//! calls by name, as ordinary `#[tool]` fns: `tool-examples serve --conformance` serves them.
//!
//! Each returns what its scenario expects (the suite's own descriptions, quoted on each fn):
//! rich content through [`ToolOutput::content`], an error through `Err`, and log and progress
//! notifications through the injected [`ToolContext`]; the tools that ask the client for
//! sampling and elicitation are in `ask`, the resources and prompts in [`resources`], those of
//! protocol 2026-07-28's input-required results in `input_required`, those the tasks
//! scenarios call in `tasks`, and the one whose argument is also a header in `headers`.

mod ask;
mod headers;
mod input_required;
#[cfg(feature = "mcp")]
pub mod resources;
mod tasks;

use serde_json::json;
use std::time::Duration;
use tool_runtime::output::ContentBlock;
use tool_runtime::output::LogLevel;
use tool_runtime::registry::ToolDef;
use tool_runtime::{
    tool, DynamicTool, Registry, RegistryBuilder, ToolContext, ToolError, ToolOutput,
};

/// Every conformance tool's definition.
pub const TOOLS: &[ToolDef] = &[
    test_simple_text::TOOL,
    test_image_content::TOOL,
    test_audio_content::TOOL,
    test_embedded_resource::TOOL,
    test_multiple_content_types::TOOL,
    test_error_handling::TOOL,
    test_tool_with_logging::TOOL,
    test_tool_with_progress::TOOL,
    test_reconnection::TOOL,
    ask::test_sampling::TOOL,
    ask::test_elicitation::TOOL,
    ask::test_elicitation_sep1034_defaults::TOOL,
    ask::test_elicitation_sep1330_enums::TOOL,
    ask::test_elicitation_url::TOOL,
    ask::test_url_required::TOOL,
    input_required::test_input_required_result_elicitation::TOOL,
    input_required::test_input_required_result_sampling::TOOL,
    input_required::test_input_required_result_list_roots::TOOL,
    input_required::test_input_required_result_request_state::TOOL,
    input_required::test_input_required_result_multiple_inputs::TOOL,
    input_required::test_input_required_result_multi_round::TOOL,
    input_required::test_input_required_result_tampered_state::TOOL,
    input_required::test_input_required_result_capabilities::TOOL,
    input_required::test_streaming_elicitation::TOOL,
    input_required::test_logging_tool::TOOL,
    input_required::test_missing_capability::TOOL,
    tasks::greet::TOOL,
    tasks::slow_compute::TOOL,
    tasks::failing_job::TOOL,
    tasks::protocol_error_job::TOOL,
    tasks::confirm_delete::TOOL,
    tasks::multi_input::TOOL,
    tasks::test_tool_with_task::TOOL,
    headers::region_status::TOOL,
];

/// A builder holding only the conformance tools, [`json_schema_2020_12_tool`], and (with
/// the `mcp` feature, which resources need) the suite's resources and prompts (`resources`).
pub fn builder() -> RegistryBuilder {
    let tools = TOOLS
        .iter()
        .fold(Registry::builder().without_inventory(), |b, &tool| {
            b.register(tool)
        })
        .dynamic(json_schema_2020_12_tool());
    #[cfg(feature = "mcp")]
    let tools = resources::add_to(tools);
    tools
}

/// Scenario `json-schema-2020-12` checks that a schema's `$schema`, `$defs` and
/// `additionalProperties` reach the client as written (SEP-1613), and from protocol
/// 2026-07-28 `$anchor`, `allOf`/`anyOf` and `if`/`then`/`else` too (SEP-2106): the
/// scenario's own schema. A `#[tool]` fn's schema never has `$schema` (Gemini CLI's validator
/// refuses it), so this one is a [`DynamicTool`], whose schema is served as given.
pub fn json_schema_2020_12_tool() -> DynamicTool {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }
        },
        "properties": {
            "name": {"type": "string"},
            "address": {"$ref": "#/$defs/address"},
            "contactMethod": {"type": "string", "enum": ["phone", "email"]},
            "phone": {"type": "string"},
            "email": {"type": "string"}
        },
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {
            "properties": {"contactMethod": {"const": "phone"}},
            "required": ["contactMethod"]
        },
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    });
    DynamicTool::new(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        schema,
        |args, _cx| async move {
            let name = args["name"].as_str().unwrap_or("world");
            ToolOutput::text(format!("Hello, {name}!"))
        },
    )
}

/// A 1×1 red PNG.
const RED_PIXEL_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A WAV file: 8 kHz, mono, 8-bit, `samples` samples of silence.
fn silent_wav(samples: u32) -> Vec<u8> {
    let mut wav = Vec::with_capacity(44 + samples as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + samples).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // the fmt chunk's size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // one channel
    wav.extend_from_slice(&8000u32.to_le_bytes()); // samples per second
    wav.extend_from_slice(&8000u32.to_le_bytes()); // bytes per second
    wav.extend_from_slice(&1u16.to_le_bytes()); // bytes per frame
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&samples.to_le_bytes());
    wav.resize(wav.len() + samples as usize, 128); // 8-bit silence is the midpoint
    wav
}

/// Returns a simple text response.
///
/// Scenario `tools-call-simple-text`: "returns: `{"content": [{"type": "text", "text": "This
/// is a simple text response for testing."}]}`".
#[tool(read_only)]
fn test_simple_text() -> String {
    "This is a simple text response for testing.".to_owned()
}

/// Returns an image: a 1×1 red PNG.
///
/// Scenario `tools-call-image`: an `image` block with base64 `data` and `mimeType`
/// `image/png`.
#[tool(read_only)]
fn test_image_content() -> ToolOutput {
    ToolOutput::content([ContentBlock::image("image/png", RED_PIXEL_PNG)])
}

/// Returns a short silent sound.
///
/// Scenario `tools-call-audio`: an `audio` block with base64 `data` and `mimeType`
/// `audio/wav`.
#[tool(read_only)]
fn test_audio_content() -> ToolOutput {
    ToolOutput::content([ContentBlock::audio("audio/wav", silent_wav(8))])
}

/// Returns an embedded text resource.
///
/// Scenario `tools-call-embedded-resource`: a `resource` block whose resource has a `uri`, a
/// `mimeType` and a `text` (or `blob`).
#[tool(read_only)]
fn test_embedded_resource() -> ToolOutput {
    ToolOutput::content([ContentBlock::resource_text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    )])
}

/// Returns text, an image and a resource, in that order.
///
/// Scenario `tools-call-mixed-content`: "Multiple content types test:", an image, and the
/// resource `test://mixed-content-resource` with the JSON `{"test":"data","value":123}`.
#[tool(read_only)]
fn test_multiple_content_types() -> ToolOutput {
    ToolOutput::content([
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image("image/png", RED_PIXEL_PNG),
        ContentBlock::resource_text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        ),
    ])
}

/// Always fails.
///
/// Scenario `tools-call-error`: a result with `isError: true` whose first content block is
/// the text "This tool intentionally returns an error for testing".
#[tool(read_only)]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new(
        "This tool intentionally returns an error for testing",
    ))
}

/// Sends three log lines while it runs, 50 ms apart.
///
/// Scenario `tools-call-with-logging`: "send 3 log notifications at info level: "Tool
/// execution started", "Tool processing data", "Tool execution completed"".
#[tool(read_only)]
async fn test_tool_with_logging(cx: ToolContext) -> String {
    cx.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    cx.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    cx.log(LogLevel::Info, "Tool execution completed");
    "Logging test completed: 3 messages sent.".to_owned()
}

/// Reports its progress three times, 50 ms apart: 0, 50 and 100 out of 100.
///
/// Scenario `tools-call-with-progress`: "Send progress notification: `0/100`, wait ~50ms,
/// `50/100`, wait ~50ms, `100/100`".
#[tool(read_only)]
async fn test_tool_with_progress(cx: ToolContext) -> String {
    cx.progress(0.0, Some(100.0), Some("Starting"));
    tokio::time::sleep(Duration::from_millis(50)).await;
    cx.progress(50.0, Some(100.0), Some("Halfway"));
    tokio::time::sleep(Duration::from_millis(50)).await;
    cx.progress(100.0, Some(100.0), Some("Done"));
    "Progress test completed.".to_owned()
}

/// Takes a moment before answering.
///
/// Scenario `server-sse-polling` calls it on a raw POST and reads the answer from the SSE
/// stream (it would also resume the stream after a disconnect, which this server doesn't
/// force).
#[tool(read_only)]
async fn test_reconnection() -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    "Reconnection test completed.".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wav_header_says_what_follows() {
        let wav = silent_wav(8);
        assert_eq!(wav.len(), 52);
        assert_eq!(&wav[..4], b"RIFF");
        assert_eq!(
            u32::from_le_bytes(wav[4..8].try_into().unwrap()) as usize,
            wav.len() - 8
        );
    }

    #[test]
    fn every_tool_answers_as_its_scenario_expects() {
        let registry = builder().build().unwrap();
        let text = registry.call_blocking("test_simple_text", "{}");
        assert_eq!(
            text.to_model_text(),
            "This is a simple text response for testing."
        );
        let error = registry.call_blocking("test_error_handling", "{}");
        assert!(error.is_error());
        let mixed = registry.call_blocking("test_multiple_content_types", "{}");
        let ToolOutput::Content(blocks) = mixed else {
            panic!("{mixed:?}")
        };
        assert_eq!(blocks.len(), 3);
    }
}
