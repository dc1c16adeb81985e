use tool_runtime::tool;

/// Run some code.
#[tool(error_format = "python")]
fn run_code() {}

/// Run other code.
#[tool(error_format = json)]
fn run_other() {}

fn main() {}
