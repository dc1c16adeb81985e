use tool_runtime::tool;

fn fill(_args: &mut serde_json::Value) {}

/// Show a directory.
#[tool(resolver = fill)]
fn show(cwd: String) -> String {
    cwd
}

fn main() {}
