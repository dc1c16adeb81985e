use tool_runtime::tool;

/// Ping.
#[tool(strict)]
fn ping() {}

/// Pong.
#[tool(strict = "no", title = 3)]
fn pong() {}

fn main() {}
