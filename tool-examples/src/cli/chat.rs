//! `tool-examples chat --provider P --url URL --model NAME`: an agent over the example tools
//! against a model server, interactive or one shot (`--prompt`). Each call is shown as the
//! model makes it, destructive ones wait for a yes at the terminal (or `--yes`), and each
//! result is shown as it arrives.

use super::{terminal, CliError};
use clap::Args;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use tool_runtime::agent::{
    Agent, AgentEvent, Anthropic, Gemini, Model, Ollama, OpenAiChat, OpenAiResponses, TensorZero,
    ToolChoice,
};
use tool_runtime::text::TextFormat;
use tool_runtime::{Provider, Registry};

/// The most characters of a call or a result shown on the terminal (the model gets them whole).
const RESULT_CHARS: usize = 600;
/// The most lines of a result shown on the terminal.
const RESULT_LINES: usize = 12;

/// The arguments of `chat`.
#[derive(Debug, Args)]
pub(super) struct ChatArgs {
    /// The API the server speaks: openai-chat (any OpenAI-compatible server: vLLM, llama.cpp,
    /// Ollama, LM Studio, TensorZero, LiteLLM), openai-responses, anthropic, gemini,
    /// tensorzero (TensorZero's native /inference; --model names the function), or ollama
    /// (Ollama's native /api/chat).
    #[arg(long, value_name = "NAME", default_value = "openai-chat", value_parser = super::parse_provider)]
    provider: Provider,
    /// The server's base URL, for example http://127.0.0.1:8000/v1 [default: the provider's
    /// public API].
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// The model's name, as the server knows it (with --provider tensorzero: the function).
    #[arg(long, value_name = "NAME")]
    model: String,
    /// Text-only mode for a model without native tools: the format it writes calls in (a
    /// name such as hermes or qwen_xml, or a vLLM/SGLang --tool-call-parser name), or auto:
    /// the format the model's name says (`TextFormat::for_model`), else every format.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    text_tools: Option<TextFormat>,
    /// With --text-tools and a llama.cpp server: hold the model's first reply of each prompt
    /// to a call of one of the tools in the format's markup, with llama.cpp's `grammar` field
    /// (auto: written from the tools' schemas). The hermes format has a grammar.
    #[arg(long, value_name = "auto", requires = "text_tools")]
    grammar: Option<GrammarArg>,
    /// Which tools the model may or must call on the first request of each prompt: auto,
    /// required, none, or a tool's name; sent in the provider's own shape (Ollama's API has
    /// none). Native tools only: with --text-tools, --grammar auto makes the first reply a
    /// call.
    #[arg(
        long,
        value_name = "auto|required|none|NAME",
        conflicts_with = "text_tools"
    )]
    tool_choice: Option<ToolChoice>,
    /// The environment variable holding the API key [default: the provider's usual one, sent
    /// only when set].
    #[arg(long, value_name = "VAR")]
    api_key_env: Option<String>,
    /// Send this one prompt, print the answer and exit: 0 when the model answered, 1 when the
    /// run failed.
    #[arg(long, value_name = "TEXT")]
    prompt: Option<String>,
    /// The system prompt.
    #[arg(
        long,
        value_name = "TEXT",
        default_value = "You are a careful assistant with tools over a local workspace. Use them to answer."
    )]
    system: String,
    /// The most model requests per prompt.
    #[arg(long, value_name = "N", default_value_t = 8)]
    max_turns: usize,
    /// The most calls of one reply that run; the rest are answered with an error, not run.
    #[arg(long, value_name = "N", default_value_t = 16)]
    max_calls_per_turn: usize,
    /// The most bytes of tool results the conversation keeps; older results are cut to a
    /// marker past it.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    max_history_result_bytes: usize,
    /// The largest request sent (the conversation, system prompt and tools as JSON); a larger
    /// one ends the prompt with an error.
    #[arg(long, value_name = "BYTES", default_value_t = 8 << 20)]
    max_request_bytes: usize,
    /// Ask for whole replies instead of server-sent events.
    #[arg(long)]
    no_stream: bool,
}

/// `--grammar`'s value.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum GrammarArg {
    /// Written from the tools for the text format.
    Auto,
}

/// A format by its name or a vLLM/SGLang parser name (`qwen3_coder`, `hunyuan_a13b`).
fn parse_format(name: &str) -> Result<TextFormat, String> {
    name.parse()
        .map_err(|e: tool_runtime::text::UnknownTextFormat| e.to_string())
}

/// The transport for `--provider`, at `--url` or the provider's public API.
fn model(args: &ChatArgs) -> Result<Box<dyn Model>, CliError> {
    let url = |default: &str| args.url.clone().unwrap_or_else(|| default.to_owned());
    macro_rules! configured {
        ($transport:expr) => {{
            let mut model = $transport.streaming(!args.no_stream);
            if let Some(var) = &args.api_key_env {
                model = model.api_key_env(var);
            }
            Box::new(model) as Box<dyn Model>
        }};
    }
    Ok(match args.provider {
        Provider::OpenAiChat => configured!(OpenAiChat::new(
            url("https://api.openai.com/v1"),
            &args.model
        )),
        Provider::OpenAiResponses => configured!(OpenAiResponses::new(
            url("https://api.openai.com/v1"),
            &args.model
        )),
        Provider::Anthropic => configured!(Anthropic::new(
            url("https://api.anthropic.com/v1"),
            &args.model
        )),
        Provider::Gemini => configured!(Gemini::new(
            url("https://generativelanguage.googleapis.com/v1beta"),
            &args.model
        )),
        // TensorZero's native endpoint: `--model` names the function, whose tools the
        // registry sends as `additional_tools` (its OpenAI-compatible endpoint is
        // `--provider openai-chat --model tensorzero::function_name::NAME`).
        Provider::TensorZero => configured!(TensorZero::function(
            url("http://127.0.0.1:3000"),
            &args.model
        )),
        // Ollama's native `/api/chat` (its OpenAI-compatible endpoint is
        // `--provider openai-chat --url http://127.0.0.1:11434/v1`).
        Provider::Ollama => configured!(Ollama::new(url("http://127.0.0.1:11434"), &args.model)),
        other => {
            return Err(CliError::Input(format!(
                "`chat` talks to a model API; `{}` is not one (use openai-chat, openai-responses, anthropic, gemini, tensorzero or ollama)",
                other.as_str()
            )))
        }
    })
}

/// Runs the session: one prompt, or a prompt per line of stdin until it ends.
pub(super) async fn run(
    registry: Registry,
    args: &ChatArgs,
    out: &mut dyn Write,
) -> Result<ExitCode, CliError> {
    let mut agent = Agent::new(model(args)?, registry)
        .system(&args.system)
        .max_turns(args.max_turns)
        .max_calls_per_turn(args.max_calls_per_turn)
        .max_history_result_bytes(args.max_history_result_bytes)
        .max_request_bytes(args.max_request_bytes);
    if let Some(choice) = &args.tool_choice {
        if let ToolChoice::Tool(name) = choice {
            if agent.registry().get(name).is_none() {
                return Err(CliError::Input(format!(
                    "--tool-choice {}: no tool of that name (see `list`)",
                    terminal::text(name)
                )));
            }
        }
        if args.provider == Provider::Ollama {
            eprintln!("note: Ollama's /api/chat has no tool choice; --tool-choice is not sent");
        }
        agent = agent.tool_choice(choice.clone());
    }
    if let Some(format) = args.text_tools {
        let format = match format {
            TextFormat::Auto => TextFormat::for_model(&args.model),
            named => named,
        };
        match (args.text_tools, format) {
            (Some(TextFormat::Auto), TextFormat::Auto) => eprintln!(
                "note: the model's name names no known text format; calls in every format are read"
            ),
            (Some(TextFormat::Auto), format) => {
                eprintln!("note: text tools in the {format} format, from the model's name");
            }
            _ => {}
        }
        agent = agent.text_tools(format);
        if args.grammar.is_some() {
            if args.provider != Provider::OpenAiChat {
                return Err(CliError::Input(
                    "--grammar is llama.cpp's request field, sent with --provider openai-chat"
                        .to_owned(),
                ));
            }
            let Some(grammar) = tool_runtime::text::call_grammar(format, agent.registry().specs())
            else {
                return Err(CliError::Input(format!(
                    "--grammar auto: the {format} format has no grammar yet (hermes has one)"
                )));
            };
            agent = agent.grammar(grammar);
        }
    }
    if let Some(prompt) = &args.prompt {
        return Ok(if turn(&mut agent, prompt, out).await? {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    eprintln!(
        "chat with {} at {} ({} tools); an empty line or end of input quits",
        terminal::text(&args.model),
        terminal::text(args.url.as_deref().unwrap_or("the provider's API")),
        agent.registry().len()
    );
    let stdin = io::stdin();
    let mut failed = false;
    loop {
        eprint!("> ");
        let mut line = String::new();
        if stdin.lock().read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        failed |= !turn(&mut agent, line.trim(), out).await?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// One prompt: text on `out` as it streams, calls and results on stderr. Whether the model
/// answered.
async fn turn(agent: &mut Agent, prompt: &str, out: &mut dyn Write) -> Result<bool, CliError> {
    let mut events = agent.stream(prompt);
    while let Some(event) = events.next().await {
        match event {
            Ok(AgentEvent::Text(text)) => {
                write!(out, "{}", terminal::lines(&text))?;
                out.flush()?;
            }
            Ok(AgentEvent::CallReady(call)) => eprintln!(
                "\n→ {} {}",
                terminal::text(&call.name),
                terminal::glance(
                    &terminal::arguments(&call.arguments, false),
                    RESULT_CHARS,
                    1
                )
            ),
            Ok(AgentEvent::CallResult { tool, output, .. }) => eprintln!(
                "← {}{}: {}",
                terminal::text(&tool),
                if output.is_error() { " (error)" } else { "" },
                result(&output.to_model_text())
            ),
            Ok(AgentEvent::Done(reply)) => {
                writeln!(out)?;
                eprintln!(
                    "[{} turns, {} calls, {} tokens in, {} out]",
                    reply.turns, reply.calls, reply.usage.input_tokens, reply.usage.output_tokens
                );
            }
            Ok(_) => {}
            Err(error) => {
                writeln!(out)?;
                let message = super::said(&error);
                eprintln!("error: {}", terminal::text(&message));
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A result as the terminal shows it: text, its line breaks and tabs printed as such (the
/// line break ending it ends the shown line), everything else a terminal would act on
/// escaped, and a long one cut in the middle.
fn result(text: &str) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    terminal::glance(&terminal::lines(text), RESULT_CHARS, RESULT_LINES).into_owned()
}
