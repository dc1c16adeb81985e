use tool_runtime::tool;

/// Route by region.
#[tool]
fn empty_name(#[tool(mcp_header = "")] region: String) -> String {
    region
}

/// Route by region.
#[tool]
fn outside_a_token(#[tool(mcp_header = "Région Name")] region: String) -> String {
    region
}

/// Route by region.
#[tool]
fn not_a_string(#[tool(mcp_header = Region)] region: String) -> String {
    region
}

/// Route by region.
#[tool]
fn no_name(#[tool(mcp_header)] region: String) -> String {
    region
}

fn main() {}
