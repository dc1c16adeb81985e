use tool_runtime::tool;

/// List the first entries.
#[tool]
fn list(#[tool(default = "ten")] limit: u32) -> Vec<u32> {
    (0..limit).collect()
}

fn main() {}
