use tool_runtime::{tool, ToolContext};

/// Route by region.
#[tool]
fn given_twice(#[tool(mcp_header = "Region", mcp_header = "Zone")] region: String) -> String {
    region
}

/// Route by region and zone.
#[tool]
fn one_name_for_two(
    #[tool(mcp_header = "Region")] region: String,
    #[tool(mcp_header = "REGION")] zone: String,
) -> String {
    region + &zone
}

/// Route by call.
#[tool]
fn on_an_injected_parameter(#[tool(mcp_header = "Call")] cx: ToolContext) -> String {
    cx.tool_name().to_owned()
}

/// Route by region, maybe.
#[tool]
fn on_an_option(#[tool(mcp_header = "Region")] region: Option<String>) -> String {
    region.unwrap_or_default()
}

fn main() {}
