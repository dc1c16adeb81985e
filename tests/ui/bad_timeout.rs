use tool_runtime::tool;

/// Wait.
#[tool(timeout = "30 seconds")]
fn wait() {}

fn main() {}
