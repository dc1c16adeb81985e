//! Our agent loop for the agent-loop bench: `Agent::new(OpenAiChat::new(url, "scripted"),
//! registry)` with the `search` tool, and optionally 99 more tools in the request's list.

use crate::{run_search, Found, Mode, SearchArgs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tool_runtime::agent::{Agent, OpenAiChat, Reply};
use tool_runtime::{tool, DynamicTool, Registry, ToolOutput};

/// How many times either `search` tool below has run.
pub static CALLS: AtomicUsize = AtomicUsize::new(0);

/// Search the index. (`ours::search_inline` under the name the scripted model calls, and
/// counted: a sync fn run on the caller's task.)
#[tool(name = "search", read_only, inline)]
fn search_inline(
    /// What to look for.
    query: String,
    /// How many results.
    #[tool(default = 10)]
    limit: u32,
    /// Match the whole phrase.
    exact: Option<bool>,
    /// How hard to search.
    mode: Mode,
) -> Found {
    CALLS.fetch_add(1, Ordering::Relaxed);
    run_search(query, limit, exact, mode)
}

/// Search the index. (`ours::search` under the name the scripted model calls, and counted: a
/// sync fn that `call(..).await`, and so the agent, runs on tokio's blocking pool.)
#[tool(name = "search", read_only)]
fn search_pooled(
    /// What to look for.
    query: String,
    /// How many results.
    #[tool(default = 10)]
    limit: u32,
    /// Match the whole phrase.
    exact: Option<bool>,
    /// How hard to search.
    mode: Mode,
) -> Found {
    CALLS.fetch_add(1, Ordering::Relaxed);
    run_search(query, limit, exact, mode)
}

/// Which `search` the registry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// `#[tool(inline)]`: runs on the agent's task.
    Inline,
    /// A plain sync `#[tool]`: runs on tokio's blocking pool.
    Pooled,
}

/// The filler tools' schema: the `search` arguments' (the same JSON rig's filler tools get).
pub fn filler_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(SearchArgs)).expect("a schema is JSON")
}

/// A registry with `search` and `tools - 1` filler tools (`search_1`, `search_2`, ...), built
/// at run time with [`DynamicTool`]; the model never calls the fillers.
pub fn registry(kind: SearchKind, tools: usize) -> Registry {
    let search = match kind {
        SearchKind::Inline => search_inline::TOOL,
        SearchKind::Pooled => search_pooled::TOOL,
    };
    let schema = filler_schema();
    let mut builder = Registry::builder().without_inventory().register(search);
    for i in 1..tools {
        builder = builder.dynamic(DynamicTool::new(
            format!("search_{i}"),
            format!("Search index number {i}."),
            schema.clone(),
            |_args, _cx| async { ToolOutput::text("never called") },
        ));
    }
    let registry = builder.build().expect("the agent bench registry builds");
    assert_eq!(registry.len(), tools, "every tool is registered");
    registry
}

/// The agent: whole (non-streamed) replies from the scripted server at `base_url`.
pub fn agent(base_url: &str, registry: Registry) -> Agent {
    let model = OpenAiChat::new(base_url, "scripted")
        .api_key("scripted")
        .streaming(false)
        .timeout(Duration::from_secs(30));
    Agent::new(model, registry).max_turns(2)
}

/// One run: the prompt, the call turn, the tool, the final answer; then the conversation is
/// forgotten.
pub async fn run(agent: &mut Agent, prompt: &str) -> Reply {
    let reply = agent.run(prompt).await;
    agent.clear();
    reply.expect("our agent run succeeds")
}
