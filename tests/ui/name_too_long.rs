use tool_runtime::tool;

/// Ping.
#[tool(name = "a_tool_name_that_goes_on_and_on_well_past_the_sixty_four_byte_limit")]
fn ping() {}

fn main() {}
