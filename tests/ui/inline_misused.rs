use tool_runtime::tool;

/// Wait, on the caller's thread, but at most a while.
#[tool(inline, timeout = "5s")]
fn wait_inline() {}

/// Wait, asynchronously.
#[tool(inline)]
async fn wait_async() {}

fn main() {}
