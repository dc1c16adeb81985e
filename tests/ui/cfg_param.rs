use tool_runtime::tool;

/// Search the catalogue.
#[tool]
fn search(
    query: String,
    #[cfg(not(debug_assertions))]
    verbose: bool,
) -> String {
    query
}

fn main() {}
