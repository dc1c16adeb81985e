use tool_runtime::tool;

/// Book a trip, in the background once asked who travels.
#[tool(defer_task)]
fn book_trip() {}

/// Book another trip.
#[tool(task = "forbidden", defer_task)]
fn book_another() {}

fn main() {}
