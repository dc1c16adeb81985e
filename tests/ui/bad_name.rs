use tool_runtime::tool;

/// Ping.
#[tool(name = "bad name!")]
fn ping() {}

fn main() {}
