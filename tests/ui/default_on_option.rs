use tool_runtime::tool;

/// List the first entries.
#[tool]
fn list(#[tool(default = Some(10))] limit: Option<u32>) -> Vec<u32> {
    (0..limit.unwrap_or(10)).collect()
}

fn main() {}
