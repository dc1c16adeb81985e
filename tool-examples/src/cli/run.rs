//! `tool-examples run --format FORMAT < model_output`: route a model's turn, run its calls,
//! print the results as the provider's next request needs them.

use super::{write_json, CliError, CALL_FAILED};
use clap::Args;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use tool_runtime::router::{self, OtherCall, RouteError, Routed};
use tool_runtime::text::{self, TextFormat, TextParse};
use tool_runtime::{results, Provider, Registry, ToolCall};

/// The arguments of `run`.
#[derive(Debug, Args)]
pub(super) struct RunArgs {
    /// What stdin holds: a provider's response as JSON, or `text` for calls written in plain
    /// text. `auto` detects the provider, and reads input that is not JSON as text.
    #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = parse_input, help = input_help())]
    format: Input,
    /// The shape to print the results in [default: the input's provider; openai-chat for text].
    #[arg(long, alias = "provider", value_name = "NAME", value_parser = super::parse_provider)]
    dialect: Option<Provider>,
}

/// What `--format` names.
#[derive(Clone, Copy, Debug)]
enum Input {
    /// `auto`: whichever provider's shape it has, or text.
    Auto,
    Provider(Provider),
    Text,
}

fn parse_input(name: &str) -> Result<Input, String> {
    match name {
        "text" => Ok(Input::Text),
        "auto" => Ok(Input::Auto),
        _ => name.parse().map(Input::Provider).map_err(|_| {
            format!(
                "unknown format `{name}`; expected one of: {}",
                formats().join(", ")
            )
        }),
    }
}

fn formats() -> Vec<&'static str> {
    let mut names = vec!["auto"];
    names.extend(Provider::ALL.iter().map(|p| p.as_str()));
    names.push("text");
    names
}

fn input_help() -> String {
    format!("What stdin holds: {}", formats().join(", "))
}

/// Routes stdin, runs every call through the registry, and prints the results; exit code 1
/// when any call's output is an error, or a call could not be answered at all.
pub(super) async fn run(
    registry: &Registry,
    root: Option<&Path>,
    args: &RunArgs,
    out: &mut dyn Write,
) -> Result<ExitCode, CliError> {
    let root = root.unwrap_or(Path::new("."));
    if !root.is_dir() {
        return Err(CliError::Setup(format!(
            "--root {} is not a directory",
            root.display()
        )));
    }
    let mut input = String::new();
    io::stdin().read_to_string(&mut input)?;
    let (calls, other_calls, provider) = route(registry, &input, args)?;

    // One at a time, in the model's order: an approval prompt is about one call.
    let mut outputs = Vec::with_capacity(calls.len());
    for call in &calls {
        outputs.push(registry.call_all(std::slice::from_ref(call)).await.pop());
    }
    let failed = outputs.iter().flatten().any(|output| output.is_error());
    let formatted = results::answer_in_order(provider, &calls, &outputs);
    for problem in &formatted.problems {
        eprintln!("note: {}", super::terminal::text(&problem.to_string()));
    }
    write_json(out, &formatted.messages)?;
    // The provider refuses a next request that leaves any call of the turn unanswered.
    for other in &other_calls {
        let message = format!(
            "call {:?} ({:?}) is a {:?} call, not a function call: it was not run and has no answer above; add one before sending the next request",
            other.id, other.name, other.kind
        );
        eprintln!("error: {}", super::terminal::text(&message));
    }
    Ok(if failed || !other_calls.is_empty() {
        CALL_FAILED
    } else {
        ExitCode::SUCCESS
    })
}

/// The calls in the input, the calls that are not function calls, and the provider the
/// results go back in.
fn route(
    registry: &Registry,
    input: &str,
    args: &RunArgs,
) -> Result<(Vec<ToolCall>, Vec<OtherCall>, Provider), CliError> {
    let as_text = |parsed: TextParse| {
        for error in &parsed.errors {
            eprintln!("note: {}", super::terminal::text(&error.to_string()));
        }
        let provider = args.dialect.unwrap_or(Provider::OpenAiChat);
        (parsed.calls, Vec::new(), provider)
    };
    let named = match args.format {
        Input::Text => return Ok(as_text(text::parse(input, TextFormat::Auto, registry))),
        Input::Provider(provider) => Some(provider),
        Input::Auto => None,
    };
    let routed = match named {
        Some(provider) => router::route(provider, input),
        None => router::route_auto(input),
    };
    let routed: Routed = match routed {
        Ok(routed) => routed,
        // Under `auto`, text that isn't JSON may be a model's reply with calls written in it;
        // but input that starts like JSON and holds no call is a reply that failed to read
        // (nested too deep, cut short): its error is said, as for a named format, never an
        // empty answer.
        Err(error @ (RouteError::NotJson(_) | RouteError::TooDeep { .. })) if named.is_none() => {
            let parsed = text::parse(input, TextFormat::Auto, registry);
            let json_like = input
                .trim_start_matches('\u{feff}')
                .trim_start()
                .starts_with(['{', '[']);
            if json_like && parsed.calls.is_empty() && parsed.errors.is_empty() {
                return Err(unreadable(error));
            }
            eprintln!("note: the input is not JSON; reading it as text");
            return Ok(as_text(parsed));
        }
        Err(error) => return Err(unreadable(error)),
    };
    let provider = args.dialect.unwrap_or(routed.provider);
    Ok((routed.calls, routed.other_calls, provider))
}

fn unreadable(error: RouteError) -> CliError {
    // The error and its sources (a JSON parser's line and column), each said once.
    CliError::Input(format!(
        "the model output could not be routed: {}",
        super::said(&error)
    ))
}
