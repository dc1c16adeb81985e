//! `#[tool]` under a renamed dependency (`rt = { package = "tool-runtime" }`): the generated
//! code finds the runtime as `::rt`, as rig-derive and serde's `crate = ".."` users expect.

/// Add two numbers.
#[rt::tool(read_only)]
pub fn add(
    /// The first number.
    a: i64,
    /// The second number.
    #[tool(default = 1)]
    b: i64,
) -> i64 {
    a + b
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tool_under_a_renamed_runtime_builds_exports_and_runs() {
        let registry = rt::Registry::builder()
            .register(super::add::TOOL)
            .build()
            .unwrap();
        let tools = registry.export_plain().to_value();
        assert_eq!(tools[0]["name"], "add");
        assert_eq!(tools[0]["parameters"]["required"], serde_json::json!(["a"]));
        assert_eq!(
            registry.call_blocking("add", r#"{"a": 2}"#).to_model_text(),
            "3"
        );
    }
}
