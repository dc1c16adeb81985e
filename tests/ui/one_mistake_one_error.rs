// One mistake in `#[tool]` is one error: the fn and its `TOOL` still exist (as stand-ins),
// so the registration and the call below add none.
use tool_runtime::{tool, Registry};

/// Add two numbers.
#[tool(name = "add numbers")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _ = Registry::builder().register(add::TOOL).build();
    let _ = add(1, 2);
}
