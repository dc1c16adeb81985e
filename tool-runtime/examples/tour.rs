//! The README's tour as a program: a tool, a registry, the tool list, a model's reply routed,
//! run and answered, and a bad call. `cargo run -p tool-runtime --example tour`.

use tool_runtime::{router, tool, Provider, Registry, ToolError};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, for example "Paris, France".
    location: String,
    /// Degrees Fahrenheit instead of Celsius.
    #[tool(default = false)]
    fahrenheit: bool,
) -> Result<String, ToolError> {
    if location.trim().is_empty() {
        return Err(ToolError::new("`location` is empty: name a city"));
    }
    Ok(if fahrenheit {
        format!("64°F in {location}")
    } else {
        format!("18°C in {location}")
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Every #[tool] fn linked into the program, checked once.
    let registry = Registry::builder().build()?;

    // The tool list for a request: plain JSON Schema, or any provider's shape.
    let plain = registry.export_plain().to_value();
    assert_eq!(
        plain[0]["parameters"]["required"],
        serde_json::json!(["location"])
    );
    let tools = registry.export(Provider::Anthropic).strict(true).to_value();
    assert_eq!(tools[0]["name"], "get_weather");

    // The model's reply (an Anthropic Messages response) ...
    let reply = r#"{"type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "toolu_01", "name": "get_weather",
                     "input": {"location": "Paris, France"}}]}"#;
    let turn = router::route(Provider::Anthropic, reply)?;

    // ... its calls run, and answered in the shape its next request carries.
    let answer = registry.answer_all(turn.provider, &turn.calls).await;
    assert_eq!(
        answer.messages[0]["content"][0]["content"],
        "18°C in Paris, France"
    );

    // A bad call is an answer the model can act on.
    let output = registry
        .call("get_weather", r#"{"locaton": "Paris"}"#)
        .await;
    assert!(output.is_error());
    println!("{}", output.to_model_text()); // Invalid arguments for get_weather: unknown field `locaton` ...
    Ok(())
}
