use tool_runtime::tool;

/// Echo a value.
#[tool]
fn echo(text: String) -> String
where
    String: Clone,
{
    text
}

fn main() {}
