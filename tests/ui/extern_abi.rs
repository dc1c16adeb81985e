use tool_runtime::tool;

/// Add two numbers.
#[tool]
extern "C" fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
