//! A model without native tool calling: the system prompt that lists the tools, the calls
//! written in its reply, run and answered. `cargo run -p tool-runtime --example text_only`.

use tool_runtime::text::{self, TextFormat};
use tool_runtime::{tool, Provider, Registry};

/// Get the current weather in a city.
#[tool(read_only)]
fn get_weather(
    /// City and country, for example "Paris, France".
    location: String,
) -> String {
    format!("18°C in {location}")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let registry = Registry::builder()
        .without_inventory()
        .register(get_weather::TOOL)
        .build()?;

    // 1. The system prompt: every tool's name, description and JSON Schema, and how to call.
    let prompt = text::tool_prompt(TextFormat::Hermes, registry.specs());
    assert!(prompt.contains("get_weather") && prompt.contains("<tool_call>"));

    // 2. The model's reply, with a call written in it.
    let reply = "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"location\": \"Paris, France\"}}\n</tool_call>";
    let parsed = text::parse(reply, TextFormat::Auto, &registry);
    assert_eq!(parsed.text.trim(), "Let me check.");
    assert_eq!(parsed.calls[0].name, "get_weather");
    assert!(parsed.errors.is_empty());

    // 3. Run the calls; answer them in the shape of the API the model is served behind
    //    (an OpenAI-compatible chat endpoint here).
    let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    let results = runtime.block_on(registry.answer_all(Provider::OpenAiChat, &parsed.calls));
    assert_eq!(results.messages[0]["content"], "18°C in Paris, France");
    println!("{}", serde_json::to_string_pretty(&results.messages)?);
    Ok(())
}
