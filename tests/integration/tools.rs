//! Tools beyond free functions: a `Tool` impl that owns state, and dynamic tools found at run
//! time, both through the whole pipeline (repair, defaults, validation, dispatch).

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::sync::Mutex;
use tool_runtime::registry::BuildError;
use tool_runtime::registry::Location;
use tool_runtime::registry::ToolFlags;
use tool_runtime::{
    tool, DynamicTool, ErrorCode, Registry, Tool, ToolCall, ToolContext, ToolError, ToolOutput,
};

/// A notebook the model writes to: a tool that owns its state.
struct Notebook {
    lines: Mutex<Vec<String>>,
}

#[derive(Deserialize, JsonSchema)]
struct Write {
    /// The line to add.
    #[schemars(length(min = 1, max = 80))]
    line: String,
    /// How many times to add it.
    #[serde(default = "once")]
    times: u8,
}

fn once() -> u8 {
    1
}

impl Tool for Notebook {
    type Args = Write;
    type Output = usize;

    fn name(&self) -> &str {
        "write_note"
    }

    fn description(&self) -> &str {
        "Add a line to the notebook; returns how many lines it holds."
    }

    async fn call(&self, args: Write, cx: ToolContext) -> Result<usize, ToolError> {
        assert_eq!(cx.tool_name(), "write_note");
        let mut lines = self
            .lines
            .lock()
            .map_err(|_| ToolError::new("the notebook is damaged"))?;
        if lines.len() + args.times as usize > 5 {
            return Err(ToolError::new("the notebook is full (5 lines)"));
        }
        lines.extend(std::iter::repeat_n(args.line, args.times as usize));
        Ok(lines.len())
    }
}

fn notebook() -> Notebook {
    Notebook {
        lines: Mutex::new(Vec::new()),
    }
}

/// Echo a word (a `#[tool]` fn beside the others).
#[tool(read_only)]
fn echo(
    /// The word.
    word: String,
) -> String {
    word
}

fn dynamic_weather() -> DynamicTool {
    DynamicTool::new(
        "weather.lookup",
        "Current weather for a city.",
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1},
                "unit": {"type": "string", "enum": ["C", "F"], "default": "C"}
            },
            "required": ["city"],
            "additionalProperties": false
        }),
        |args, cx| async move {
            let unit = args["unit"].as_str().unwrap_or("?").to_owned();
            ToolOutput::json(&json!({"city": args["city"], "unit": unit, "call": cx.call_id()}))
        },
    )
    .with_flags(ToolFlags {
        read_only: true,
        ..ToolFlags::default()
    })
}

fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(echo::TOOL)
        .tool(notebook())
        .dynamic(dynamic_weather())
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_tool_impl_runs_through_the_pipeline() {
    let registry = registry();
    let spec = registry.get("write_note").unwrap();
    assert_eq!(spec.input_schema()["properties"]["line"]["maxLength"], 80);
    assert_eq!(spec.input_schema()["properties"]["times"]["default"], 1);
    assert!(spec.location().is_none());

    assert_eq!(
        registry.call("write_note", r#"{"line": "first"}"#).await,
        ToolOutput::json(&1)
    );
    // Repaired ("2" for 2), defaults filled, validated (length), and its own errors passed on.
    assert_eq!(
        registry
            .call("write_note", r#"{"line": "x", "times": "2"}"#)
            .await,
        ToolOutput::json(&3)
    );
    let too_long = registry
        .call("write_note", &json!({"line": "y".repeat(81)}).to_string())
        .await;
    assert!(
        too_long
            .to_model_text()
            .contains("longer than 80 characters"),
        "{too_long:?}"
    );
    let full = registry
        .call("write_note", r#"{"line": "z", "times": 3}"#)
        .await;
    assert_eq!(
        full.as_error().map(|e| (e.code, e.tool.as_deref())),
        Some((ErrorCode::ToolFailed, Some("write_note")))
    );
}

#[tokio::test]
async fn a_dynamic_tool_is_validated_defaulted_and_dispatched() {
    let registry = registry();
    let calls = [
        ToolCall::new("w1", "weather.lookup", r#"{"city": "Oslo"}"#),
        ToolCall::new("w2", "weather.lookup", r#"{"city": ""}"#),
        ToolCall::new("w3", "weather.lookup", r#"{"city": "Lima", "unit": "K"}"#),
        ToolCall::new("e1", "echo", r#"{"word": "hi"}"#),
    ];
    let outputs = registry.call_all(&calls).await;
    assert_eq!(
        outputs[0],
        ToolOutput::json(&json!({"city": "Oslo", "unit": "C", "call": "w1"}))
    );
    assert!(
        outputs[1]
            .to_model_text()
            .contains("shorter than 1 characters"),
        "{:?}",
        outputs[1]
    );
    assert!(
        outputs[2]
            .to_model_text()
            .contains(r#"Allowed values for "unit": "C", "F""#),
        "{:?}",
        outputs[2]
    );
    assert_eq!(outputs[3], ToolOutput::text("hi"));
}

/// A schema from outside that can't be used leaves its tool out with a note (issue 17 item 9:
/// one such tool used to fail the whole build); `strict_build(true)` makes it a build error.
#[test]
fn a_dynamic_tool_with_a_bad_schema_is_left_out_or_a_strict_build_error() {
    let tools = || {
        let not_an_object = DynamicTool::new("a", "A.", json!({"type": "string"}), |_, _| async {
            ToolOutput::text("")
        });
        let broken = DynamicTool::new(
            "b",
            "B.",
            json!({"type": "object", "properties": {"x": {"type": 5}}}),
            |_, _| async { ToolOutput::text("") },
        );
        let fine = DynamicTool::new("c", "C.", json!({"type": "object"}), |_, _| async {
            ToolOutput::text("c")
        });
        Registry::builder()
            .without_inventory()
            .dynamic(not_an_object)
            .dynamic(broken)
            .dynamic(fine)
    };
    let registry = tools().build().unwrap();
    assert_eq!(
        registry.specs().map(|s| s.name()).collect::<Vec<_>>(),
        ["c"]
    );
    let notes: Vec<String> = registry.notes().iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes[0].contains("tool `a` was left out") && notes[0].contains("must describe an object"),
        "{notes:?}"
    );
    assert!(notes[1].contains("tool `b` was left out"), "{notes:?}");

    let error = tools().strict_build(true).build().unwrap_err();
    let problems: Vec<String> = error.problems().iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("tool `a`") && problems[0].contains("must describe an object"),
        "{problems:?}"
    );
    assert!(problems[1].contains("tool `b`"), "{problems:?}");
}

#[test]
fn a_runtime_tool_clashing_with_a_fn_is_reported() {
    let clash = DynamicTool::new(
        "echo",
        "Another echo.",
        json!({"type": "object"}),
        |_, _| async { ToolOutput::text("") },
    );
    let error = Registry::builder()
        .without_inventory()
        .register(echo::TOOL)
        .dynamic(clash)
        .build()
        .unwrap_err();
    let BuildError::DuplicateName {
        name,
        first,
        second,
    } = error
    else {
        panic!("{error}")
    };
    assert_eq!(name, "echo");
    assert!(matches!(first, Location::Source(_)) && second == Location::Runtime);
}

/// List the registry's tools (uses the injected context).
#[tool(read_only)]
fn list_tools(ctx: ToolContext) -> Vec<String> {
    ctx.tools().map(|t| t.name().to_owned()).collect()
}

#[tokio::test]
async fn tools_can_see_their_registry_and_its_state() {
    let registry = Registry::builder()
        .without_inventory()
        .register_all([list_tools::TOOL, echo::TOOL])
        .dynamic(DynamicTool::new(
            "greeting",
            "Greet from state.",
            json!({"type": "object"}),
            |_, cx: ToolContext| async move {
                let word = cx
                    .state::<String>()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                ToolOutput::text(word)
            },
        ))
        .state(String::from("hej"))
        .build()
        .unwrap();
    assert_eq!(
        registry.call("list_tools", "{}").await,
        // In the order the builder was given them.
        ToolOutput::json(&["list_tools", "echo", "greeting"])
    );
    assert_eq!(
        registry.call("greeting", "{}").await,
        ToolOutput::text("hej")
    );
}
