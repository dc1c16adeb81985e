use tool_runtime::tool;

/// Search the catalogue.
#[tool]
fn search(
    query: String,
    #[cfg_attr(debug_assertions, tool(default = 10))]
    limit: u32,
) -> String {
    query.repeat(limit as usize)
}

fn main() {}
