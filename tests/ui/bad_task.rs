use tool_runtime::tool;

/// Run for a long time.
#[tool(task = "always")]
fn long_job() {}

/// Run for longer.
#[tool(task = required)]
fn longer_job() {}

fn main() {}
