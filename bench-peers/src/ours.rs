//! Our version: a `#[tool]` fn (and the same as an `async fn`) in a registry with validation on.

use crate::{run_search, Found, Mode};
use tool_runtime::{tool, Registry, ToolOutput};

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

/// Search the index, as a sync fn that `call(..).await` runs on the caller's task.
#[tool(read_only, inline)]
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
    run_search(query, limit, exact, mode)
}

/// The registry the tools are called through: the defaults (validation on).
pub fn registry() -> Registry {
    Registry::builder()
        .without_inventory()
        .register(search::TOOL)
        .register(search_async::TOOL)
        .register(search_inline::TOOL)
        .build()
        .expect("the bench registry builds")
}

/// The output's text, moved out: the baseline also ends holding a `String`.
pub fn text(output: ToolOutput) -> String {
    match output {
        ToolOutput::Json(json) => json.into_string(),
        ToolOutput::Text(text) => text,
        other => other.to_model_text(),
    }
}

/// A sync tool through `call_blocking`: runs inline on the caller's thread.
pub fn call_blocking(registry: &Registry, name: &str, args: &str) -> String {
    text(registry.call_blocking(name, args))
}

/// A tool through `call(..).await`: an async one, a sync one (tokio's blocking pool), or an
/// inline sync one (the caller's task).
pub async fn call_async(registry: &Registry, name: &str, args: &str) -> String {
    text(registry.call(name, args).await)
}
