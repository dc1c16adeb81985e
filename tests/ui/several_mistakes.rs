use tool_runtime::tool;

/// Three mistakes in one fn: every one must be reported, not only the first.
#[tool(name = "no spaces allowed")]
fn several(word: &str, #[tool(fallback = 1)] count: u32) -> String {
    word.repeat(count as usize)
}

fn main() {}
