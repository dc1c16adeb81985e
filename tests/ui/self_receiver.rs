use tool_runtime::tool;

struct Counter {
    count: u32,
}

impl Counter {
    /// Read the counter.
    #[tool]
    fn count(&self) -> u32 {
        self.count
    }
}

fn main() {}
