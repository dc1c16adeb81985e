use tool_runtime::tool;

/// Shout a word.
#[tool]
fn shout(word: impl Into<String>) -> String {
    word.into().to_uppercase()
}

fn main() {}
