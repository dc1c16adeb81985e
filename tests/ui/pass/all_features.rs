//! Every feature of `#[tool]` at once, so the success path stays compiling.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_runtime::pipeline::{CallContext, Inject, StateRequirement};
use tool_runtime::{tool, Registry, State, ToolContext, ToolError, ToolOutput};

/// What the tools share through `State<T>`.
pub struct Inventory {
    pub items: Vec<String>,
}

/// A value of our own, injected with `#[tool(inject)]`.
pub struct Clock(&'static str);

impl Inject for Clock {
    const REQUIREMENT: Option<StateRequirement> = None;

    fn inject(_cx: &CallContext<'_>) -> Result<Self, ToolOutput> {
        Ok(Clock("noon"))
    }
}

/// A kind of item.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A tool for the hand.
    Hand,
    /// A tool with a motor.
    Power,
}

/// What `find` returns.
#[derive(Serialize)]
pub struct Found {
    pub tool: String,
    pub call_id: Option<String>,
    pub items: Vec<String>,
}

/// Find items in the inventory.
///
/// Matches are **case-insensitive**.
///
/// # Arguments
///
/// * `query` - Words to look for.
/// * `r#type` - Only items of this kind.
#[tool(name = "find_items", read_only, idempotent)]
pub async fn find(
    query: String,
    r#type: Option<Kind>,
    /// How many items to return.
    #[tool(default = 10)]
    #[schemars(range(min = 1, max = 100))]
    limit: u32,
    /// Skip this many matches first.
    #[serde(rename = "skip")]
    #[tool(default = 0)]
    offset: usize,
    inventory: State<Inventory>,
    ctx: ToolContext,
    #[tool(inject)] clock: Clock,
) -> Result<Found, ToolError> {
    let _ = (r#type, clock.0);
    if query.is_empty() {
        return Err(ToolError::new("the query is empty"));
    }
    let query = query.to_lowercase();
    Ok(Found {
        tool: ctx.tool_name().to_owned(),
        call_id: ctx.call_id().map(str::to_owned),
        items: inventory
            .items
            .iter()
            .filter(|item| item.to_lowercase().contains(&query))
            .skip(offset)
            .take(limit as usize)
            .cloned()
            .collect(),
    })
}

/// Count the items.
#[tool]
fn count(inventory: State<Inventory>) -> usize {
    inventory.items.len()
}

#[tool(
    description = "Say hello.",
    title = "Greeter",
    destructive,
    open_world,
    strict = false,
    error_format = "traceback"
)]
fn hello(
    /// Who to greet.
    name: String,
) -> ToolOutput {
    ToolOutput::text(format!("hello, {name}"))
}

/// Do nothing.
#[tool]
fn noop() {}

fn main() {
    // Still ordinary fns.
    let inventory = State(std::sync::Arc::new(Inventory {
        items: vec![String::from("Hammer"), String::from("Drill")],
    }));
    assert_eq!(count(inventory), 2);
    assert_eq!(hello(String::from("you")), ToolOutput::text("hello, you"));
    noop();

    let registry = Registry::builder()
        .without_inventory()
        .register_all([find::TOOL, count::TOOL, hello::TOOL])
        // `hello` is destructive: it runs only when an approver allows it.
        .approver(|_: &tool_runtime::pipeline::ApprovalRequest<'_>| {
            tool_runtime::pipeline::Approval::Allow
        })
        .register(noop::TOOL)
        .state(Inventory {
            items: vec![String::from("Hammer")],
        })
        .build()
        .expect("every tool's requirements are met");
    assert_eq!(registry.len(), 4);

    let find = registry
        .get("find_items")
        .expect("`name = ..` renames the tool");
    let properties = &find.input_schema()["properties"];
    assert!(
        properties["type"].is_object(),
        "raw identifiers lose their `r#`"
    );
    assert!(
        properties["skip"].is_object(),
        "#[serde(rename)] is forwarded"
    );
    assert_eq!(
        properties["limit"]["maximum"], 100,
        "#[schemars(range)] is forwarded"
    );
    assert_eq!(properties["query"]["description"], "Words to look for.");
    assert_eq!(
        properties["type"]["description"],
        "Only items of this kind."
    );
    assert_eq!(properties["limit"]["default"], 10);
    let required = &find.input_schema()["required"];
    assert_eq!(required, &serde_json::json!(["query"]));

    let hello = registry.get("hello").unwrap();
    assert_eq!(hello.title(), Some("Greeter"));
    assert!(!hello.flags().strict, "strict = false opts out");
    assert!(find.flags().strict, "tools are strict-capable by default");
    assert_eq!(hello.error_format(), tool_runtime::output::ErrorFormat::Traceback);
    assert_eq!(find.error_format(), tool_runtime::output::ErrorFormat::Text);

    // The async tool runs, with its defaults, state, context and injected value.
    let output = registry.call_blocking("find_items", r#"{"query": "HAMMER", "type": "hand"}"#);
    let found = output.to_model_text();
    assert!(found.contains(r#""tool":"find_items""#), "{found}");
    assert!(found.contains(r#""items":["Hammer"]"#), "{found}");
    // And so does the sync one.
    assert_eq!(
        registry.call_blocking("hello", r#"{"name": "you"}"#),
        ToolOutput::text("hello, you")
    );
}
