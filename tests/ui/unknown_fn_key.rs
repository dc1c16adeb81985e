use tool_runtime::tool;

/// Ping.
#[tool(read_only, colour = "blue")]
fn ping() {}

fn main() {}
