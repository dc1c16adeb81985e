//! An agent against any OpenAI-compatible server (vLLM, llama.cpp, Ollama, LM Studio,
//! TensorZero, LiteLLM, OpenAI), with two small tools:
//!
//! ```text
//! cargo run -p tool-runtime --features agent --example agent -- URL MODEL [PROMPT] [--text-tools]
//! cargo run -p tool-runtime --features agent --example agent -- http://127.0.0.1:8000/v1 Qwen/Qwen3-8B
//! ```
//!
//! `--text-tools` is for a model served without a tool parser: the tools go in the system
//! prompt and the calls are read from the reply's text (Hermes tags). The key, if the server
//! needs one, is read from `OPENAI_API_KEY`.

use tool_runtime::agent::{Agent, OpenAiChat};
use tool_runtime::text::TextFormat;
use tool_runtime::{tool, Registry};

/// Count the words and lines of a text.
#[tool(read_only)]
fn count_words(
    /// The text.
    text: String,
) -> String {
    format!(
        "{} words, {} lines",
        text.split_whitespace().count(),
        text.lines().count()
    )
}

/// Add up a list of numbers.
#[tool(read_only)]
fn sum(
    /// The numbers.
    numbers: Vec<f64>,
) -> f64 {
    numbers.iter().sum()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let text_tools = args.iter().any(|a| a == "--text-tools");
    args.retain(|a| a != "--text-tools");
    let [url, model, rest @ ..] = args.as_slice() else {
        eprintln!("usage: agent URL MODEL [PROMPT] [--text-tools]");
        std::process::exit(2);
    };
    let prompt = rest.first().map_or(
        "What is 12.5 + 30 + 0.25, and how many words are in \"the quick brown fox\"?",
        String::as_str,
    );

    let registry = Registry::builder().build()?;
    let mut agent = Agent::new(OpenAiChat::new(url, model), registry)
        .system("You are a careful assistant. Use the tools for arithmetic and counting.")
        .max_turns(8);
    if text_tools {
        agent = agent.text_tools(TextFormat::Hermes);
    }
    let reply = agent.run(prompt).await?;
    for turn in agent.history() {
        eprintln!("{turn:?}");
    }
    println!("{}", reply.text);
    eprintln!(
        "{} requests, {} calls, {} tokens in, {} out",
        reply.turns, reply.calls, reply.usage.input_tokens, reply.usage.output_tokens
    );
    Ok(())
}
