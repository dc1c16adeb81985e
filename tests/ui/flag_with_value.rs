use tool_runtime::tool;

/// Ping.
#[tool(read_only = true)]
fn ping() {}

fn main() {}
