use tool_runtime::tool;

/// Read a lot.
#[tool(max_output = 0)]
fn read_all() -> String {
    String::new()
}

fn main() {}
