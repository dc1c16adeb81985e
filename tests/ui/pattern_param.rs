use tool_runtime::tool;

/// Add the two halves of a pair.
#[tool]
fn add_pair((a, b): (i32, i32)) -> i32 {
    a + b
}

fn main() {}
