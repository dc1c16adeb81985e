use tool_runtime::tool;

/// A clock, which doesn't implement `Inject`.
pub struct Clock;

/// Tell the time.
#[tool]
fn now(#[tool(inject)] clock: Clock) -> String {
    let _ = clock;
    String::from("noon")
}

fn main() {}
