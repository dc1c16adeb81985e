//! The same tool, `search(query, limit = 10, exact: Option<bool>, mode: Mode)`, written by
//! hand, with our `#[tool]`, with rmcp's `#[tool_router]` + `#[tool]` and with rig's `Tool`,
//! each reachable as one call from `(name, args_json)` to the `String` that framework hands on.
//!
//! The criterion bench (`benches/peers.rs`) times every path in one run; the `peer_counts`
//! binary runs one path N times for callgrind (`scripts/bench-peers.sh` does both). The tool
//! is the one of `tests/benches/search_tool.rs`.

pub mod agent_baseline;
pub mod agent_ours;
pub mod agent_rig;
pub mod baseline;
pub mod ours;
pub mod peer_rig;
pub mod peer_rmcp;
pub mod scripted_server;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How hard to search.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Quick and rough.
    Fast,
    /// The usual.
    Balanced,
    /// Slow and careful.
    Thorough,
}

/// What the tool returns: the arguments echoed, and a count.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Found {
    query: String,
    limit: u32,
    exact: Option<bool>,
    mode: Mode,
    count: usize,
}

/// The arguments, for the frameworks that take a struct (the baseline, rmcp and rig): what
/// `#[tool]` generates for our version, written out.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// What to look for.
    pub query: String,
    /// How many results.
    #[serde(default = "ten")]
    pub limit: u32,
    /// Match the whole phrase.
    #[serde(default)]
    pub exact: Option<bool>,
    /// How hard to search.
    pub mode: Mode,
}

fn ten() -> u32 {
    10
}

/// The tool's body, shared by every version.
pub fn run_search(query: String, limit: u32, exact: Option<bool>, mode: Mode) -> Found {
    let count = query.len() % (limit as usize + 1);
    Found {
        query,
        limit,
        exact,
        mode,
        count,
    }
}

/// The two argument payloads: `small` (46 B) and `large` (a query of about 4 KB).
pub fn payloads() -> [(&'static str, String); 2] {
    let small = r#"{"query":"rust tools","limit":5,"mode":"fast"}"#.to_owned();
    let words: Vec<String> = (0..700).map(|i| format!("w{i}")).collect();
    let large = format!(
        r#"{{"query":"{}","limit":5,"mode":"fast"}}"#,
        words.join(" ")
    );
    [("small", small), ("large", large)]
}

/// A runtime like the benches': one thread, timers and I/O on (rmcp's service needs them).
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}
