use tool_runtime::tool;

/// Read a byte from memory.
#[tool]
unsafe fn peek(address: usize) -> u8 {
    *(address as *const u8)
}

fn main() {}
