use tool_runtime::tool;

/// Say a word several times.
#[tool]
fn repeat(word: String, #[tool(optional)] times: u32) -> String {
    word.repeat(times as usize)
}

fn main() {}
