//! The benchmark tool, its hand-written baseline and the payloads, shared by the criterion
//! bench (`pipeline.rs`) and the instruction counter (`pipeline_counts.rs`).

#![allow(dead_code)]

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tool_runtime::{tool, Registry};

/// How hard to search.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    /// Quick and rough.
    Fast,
    /// The usual.
    Balanced,
    /// Slow and careful.
    Thorough,
}

#[derive(Serialize)]
struct Found {
    query: String,
    limit: u32,
    exact: Option<bool>,
    mode: Mode,
    count: usize,
}

fn run_search(query: String, limit: u32, exact: Option<bool>, mode: Mode) -> Found {
    let count = query.len() % (limit as usize + 1);
    Found {
        query,
        limit,
        exact,
        mode,
        count,
    }
}

/// Search the index.
#[tool(read_only)]
fn search(
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
    run_search(query, limit, exact, mode)
}

/// Search the index, as an async fn.
#[tool(read_only)]
async fn search_async(
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
    run_search(query, limit, exact, mode)
}

/// Search the index, with a range on `limit` that only validation checks.
#[tool(read_only)]
fn search_ranged(
    /// What to look for.
    query: String,
    /// How many results.
    #[tool(default = 10)]
    #[schemars(range(min = 1, max = 100))]
    limit: u32,
    /// Match the whole phrase.
    exact: Option<bool>,
    /// How hard to search.
    mode: Mode,
) -> Found {
    run_search(query, limit, exact, mode)
}

/// The hand-written baseline's argument struct: what `#[tool]` generates, written out.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Args {
    query: String,
    #[serde(default = "ten")]
    limit: u32,
    #[serde(default)]
    exact: Option<bool>,
    mode: Mode,
}

fn ten() -> u32 {
    10
}

/// What a careful hand-written dispatcher does: `match` on the name, `from_str` into the
/// argument struct, a direct call, `to_string` of the result.
pub fn baseline(name: &str, args: &str) -> Result<String, String> {
    match name {
        "search" => {
            let a: Args = serde_json::from_str(args).map_err(|e| e.to_string())?;
            serde_json::to_string(&run_search(a.query, a.limit, a.exact, a.mode))
                .map_err(|e| e.to_string())
        }
        _ => Err(format!("unknown tool {name}")),
    }
}

/// The bench tools' registry, as `configure` sets it up.
pub fn registry(
    configure: impl FnOnce(tool_runtime::RegistryBuilder) -> tool_runtime::RegistryBuilder,
) -> Registry {
    configure(Registry::builder().without_inventory().register_all([
        search::TOOL,
        search_ranged::TOOL,
        search_async::TOOL,
    ]))
    .build()
    .expect("the bench registry builds")
}

/// The small (46 B) and large (4 KB) argument texts, named.
pub fn payloads() -> [(&'static str, String); 2] {
    let small = r#"{"query":"rust tools","limit":5,"mode":"fast"}"#.to_owned();
    let words: Vec<String> = (0..700).map(|i| format!("w{i}")).collect();
    let large = format!(
        r#"{{"query":"{}","limit":5,"mode":"fast"}}"#,
        words.join(" ")
    );
    [("small", small), ("large", large)]
}

/// Search the index, as an async fn that must run alone: any other call waits for it.
#[tool(parallel = false)]
async fn search_exclusive(
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
    run_search(query, limit, exact, mode)
}

/// The `#[tool]` definition of `search`, to copy into large generated registries.
pub fn search_def() -> tool_runtime::registry::ToolDef {
    search::TOOL
}

/// `n` copies of the `search` tool's real `#[tool]` definition, each under its own leaked
/// name (`search_0000`, ...): the registry benches' 1,000 tools.
pub fn search_copies(n: usize) -> Vec<tool_runtime::registry::ToolDef> {
    let search = search_def();
    (0..n)
        .map(|i| tool_runtime::registry::ToolDef {
            name: Box::leak(format!("search_{i:04}").into_boxed_str()),
            ..search
        })
        .collect()
}

/// A builder holding `defs` and nothing from the inventory.
pub fn builder_of(defs: &[tool_runtime::registry::ToolDef]) -> tool_runtime::RegistryBuilder {
    defs.iter()
        .fold(Registry::builder().without_inventory(), |b, def| {
            b.register(*def)
        })
}

/// Adds `search_exclusive`, the async tool that is not parallel-safe.
pub fn with_exclusive(builder: tool_runtime::RegistryBuilder) -> tool_runtime::RegistryBuilder {
    builder.register(search_exclusive::TOOL)
}

/// The hand-written baseline of an async tool: parse, await the fn directly, serialize.
pub async fn baseline_async(args: &str) -> Result<String, String> {
    let a: Args = serde_json::from_str(args).map_err(|e| e.to_string())?;
    serde_json::to_string(&search_async(a.query, a.limit, a.exact, a.mode).await)
        .map_err(|e| e.to_string())
}

/// The async tool fn's future alone, its arguments already typed (the small payload's).
pub async fn search_typed_async() -> usize {
    search_async("rust tools".to_owned(), 5, None, Mode::Fast)
        .await
        .count
}

/// How many calls a dispatch batch holds.
pub const BATCH: usize = 1_000;

/// A batch of [`BATCH`] calls of `tool`, each with `args` and its own id.
pub fn batch(tool: &str, args: &str) -> Vec<tool_runtime::ToolCall> {
    (0..BATCH)
        .map(|i| tool_runtime::ToolCall::new(format!("call_{i}"), tool, args))
        .collect()
}

/// The runtime the async benches run on: one thread, timers on.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}
