use tool_runtime::tool;

/// Ping.
#[tool(read_only, read_only, name = "ping", name = "pong")]
fn ping() {}

fn main() {}
