//! How errors read to the model: `#[tool(error_format = "...")]` and `ToolError::with_format`
//! seen through a real registry and every provider's results.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};
use tool_runtime::output::ErrorFormat;
use tool_runtime::{
    results, tool, DynamicTool, Provider, Registry, ToolCall, ToolError, ToolOutput,
};

/// What `python_exec` fails with: Python's own traceback.
const NAME_ERROR: &str = "Traceback (most recent call last):\n  File \"<cell>\", line 1\nNameError: name 'x' is not defined";

/// Run a cell of Python code and return what it prints.
#[tool(error_format = "traceback")]
fn python_exec(
    /// The code to run.
    code: String,
) -> Result<String, ToolError> {
    if code.contains('x') {
        return Err(ToolError::new(NAME_ERROR));
    }
    Ok(String::from("2\n"))
}

/// Look up a support ticket.
#[tool(error_format = "json")]
fn get_ticket(
    /// The ticket's number.
    id: u32,
) -> Result<String, ToolError> {
    if id == 0 {
        return Err(ToolError::new("there is no ticket 0")
            .with_retry_hint("Ask the user for the number.")
            .with_format(ErrorFormat::Text));
    }
    Ok(format!("ticket {id}: open"))
}

/// Delete a file.
#[tool]
fn delete_file(
    /// The file's path.
    path: String,
) -> Result<(), ToolError> {
    Err(ToolError::new(format!("{path} is read-only")).with_retry_hint("Pick another file."))
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register_all([python_exec::TOOL, get_ticket::TOOL, delete_file::TOOL])
        .build()
        .unwrap()
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

/// The calls' results for OpenAI Chat (`content` per message) and Anthropic (`tool_result`
/// blocks), after running them through the registry.
fn answered(calls: &[ToolCall]) -> (Vec<Value>, Vec<Value>) {
    let registry = registry();
    let outputs: Vec<(String, ToolOutput)> = block_on(registry.call_all(calls))
        .into_iter()
        .zip(calls)
        .map(|(output, call)| (call.id.clone(), output))
        .collect();
    let chat = results::answer(Provider::OpenAiChat, calls, &outputs).messages;
    let anthropic = results::answer(Provider::Anthropic, calls, &outputs).messages;
    let blocks = anthropic[0]["content"].as_array().unwrap().clone();
    (chat, blocks)
}

#[test]
fn the_macro_puts_the_format_on_the_spec() {
    let registry = registry();
    let format = |name| registry.get(name).unwrap().error_format();
    assert_eq!(format("python_exec"), ErrorFormat::Traceback);
    assert_eq!(format("get_ticket"), ErrorFormat::Json);
    assert_eq!(format("delete_file"), ErrorFormat::Text);
}

#[test]
fn a_traceback_tool_passes_pythons_traceback_verbatim() {
    let calls = [ToolCall::new(
        "c1",
        "python_exec",
        r#"{"code": "print(x)"}"#,
    )];
    let (chat, anthropic) = answered(&calls);
    // No `Error: ` before it: a traceback says it is an error.
    assert_eq!(chat[0]["content"], NAME_ERROR);
    assert_eq!(anthropic[0]["content"], NAME_ERROR);
    assert_eq!(anthropic[0]["is_error"], true);
}

#[test]
fn a_traceback_tool_builds_one_for_the_runtimes_errors() {
    let calls = [ToolCall::new("c1", "python_exec", r#"{"cod": "1 + 1"}"#)];
    let (chat, _) = answered(&calls);
    let text = chat[0]["content"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Traceback (most recent call last):");
    assert_eq!(lines[1], "  in tool `python_exec`");
    assert!(
        lines[2].starts_with("InvalidArguments: Invalid arguments for python_exec"),
        "{text}"
    );
    assert!(lines.iter().any(|l| l.starts_with("  at ")), "{text}");
    assert_eq!(
        lines.last().unwrap(),
        &"Hint: Call python_exec again with the arguments fixed as described."
    );
}

#[test]
fn a_json_tool_answers_invalid_arguments_as_a_json_object() {
    let calls = [ToolCall::new("c1", "get_ticket", r#"{"id": "seven"}"#)];
    let (chat, anthropic) = answered(&calls);
    let text = chat[0]["content"].as_str().unwrap();
    assert!(
        text.starts_with(r#"{"error":{"code":"invalid_arguments","#),
        "{text}"
    );
    let error: Value = serde_json::from_str(text).unwrap();
    let error = &error["error"];
    assert_eq!(error["tool"], "get_ticket");
    assert!(error["message"]
        .as_str()
        .unwrap()
        .contains("Invalid arguments for get_ticket"));
    assert_eq!(error["violations"][0]["pointer"], "/id");
    assert_eq!(
        error["retry_hint"],
        "Call get_ticket again with the arguments fixed as described."
    );
    assert!(
        error.get("format").is_none(),
        "the format is not part of the text"
    );
    assert_eq!(anthropic[0]["content"], text);
    assert_eq!(anthropic[0]["is_error"], true);
}

#[test]
fn an_errors_own_format_beats_the_tools() {
    let calls = [ToolCall::new("c1", "get_ticket", r#"{"id": 0}"#)];
    let (chat, anthropic) = answered(&calls);
    assert_eq!(
        chat[0]["content"],
        "Error: there is no ticket 0\nAsk the user for the number."
    );
    assert_eq!(
        anthropic[0]["content"],
        "there is no ticket 0\nAsk the user for the number."
    );
}

#[test]
fn a_text_tool_reads_as_before() {
    let calls = [
        ToolCall::new("c1", "delete_file", r#"{"path": "/etc/hosts"}"#),
        ToolCall::new("c2", "get_ticket", r#"{"id": 7}"#),
    ];
    let (chat, anthropic) = answered(&calls);
    assert_eq!(
        chat[0]["content"],
        "Error: /etc/hosts is read-only\nPick another file."
    );
    assert_eq!(anthropic[0]["is_error"], true);
    // Success is untouched by any format.
    assert_eq!(chat[1]["content"], "ticket 7: open");
    assert!(anthropic[1].get("is_error").is_none());
}

#[test]
fn every_path_through_the_registry_applies_the_format() {
    let registry = registry();
    let blocking = registry.call_blocking("get_ticket", r#"{"id": -1}"#);
    assert_eq!(blocking.as_error().unwrap().format, Some(ErrorFormat::Json));
    let called = block_on(registry.call("python_exec", r#"{"code": "x"}"#));
    assert_eq!(
        called.as_error().unwrap().format,
        Some(ErrorFormat::Traceback)
    );
    // A text tool's errors keep no format: their wire shape is as it was.
    let text = registry.call_blocking("delete_file", r#"{"path": "a"}"#);
    assert_eq!(text.as_error().unwrap().format, None);
    let wire = serde_json::to_value(&text).unwrap();
    assert!(wire["error"].get("format").is_none(), "{wire}");
    // An unknown tool has no format to take.
    let unknown = registry.call_blocking("python_exe", "{}");
    assert_eq!(unknown.as_error().unwrap().format, None);
}

#[test]
fn a_dynamic_tool_chooses_its_format_on_the_builder() {
    let schema =
        json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let tool = DynamicTool::new("fail", "Always fails.", schema, |_, _| async {
        ToolOutput::from(ToolError::new("no luck"))
    })
    .with_error_format(ErrorFormat::Json);
    let registry = Registry::builder()
        .without_inventory()
        .dynamic(tool)
        .build()
        .unwrap();
    assert_eq!(
        registry.get("fail").unwrap().error_format(),
        ErrorFormat::Json
    );
    let calls = [ToolCall::new("c1", "fail", r#"{"n": 1}"#)];
    let outputs = vec![Some(block_on(registry.call("fail", r#"{"n": 1}"#)))];
    let mcp = results::answer_in_order(Provider::Mcp, &calls, &outputs).messages;
    assert_eq!(mcp[0]["isError"], true);
    assert_eq!(
        mcp[0]["content"][0]["text"],
        r#"{"error":{"code":"tool_failed","message":"no luck","tool":"fail"}}"#
    );
}
