use tool_runtime::tool;

/// Greet someone, or everyone.
#[tool]
fn greet(name: Option<&str>) -> String {
    format!("hello, {}", name.unwrap_or("everyone"))
}

fn main() {}
