//! The command line: its arguments, and one module per subcommand.

mod approve;
mod call;
mod chat;
mod conformance_client;
mod demo;
mod list;
mod run;
mod schema;
mod serve;
pub(crate) mod terminal;

use clap::{Parser, Subcommand};
use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use tool_runtime::mcp::McpImport;
use tool_runtime::{Provider, Registry, RegistryBuilder};

/// List, export and call the example tools; with no command, run a short demo.
#[derive(Debug, Parser)]
#[command(name = "tool-examples", version)]
pub(crate) struct Cli {
    /// The workspace root the file tools are confined to [default: the current directory].
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Allow destructive tools (such as exec_command) without asking on the terminal.
    #[arg(long, global = true)]
    yes: bool,
    /// Add the tools of the MCP server this command line starts (`'npx -y some-server'`),
    /// named `{server}__{tool}`; repeat for more servers.
    #[arg(long = "mcp", global = true, value_name = "'COMMAND ARGS'")]
    mcp: Vec<String>,
    /// Add the tools of the MCP server at this streamable-HTTP URL, named `{server}__{tool}`;
    /// repeat for more servers.
    #[arg(long = "mcp-url", global = true, value_name = "URL")]
    mcp_url: Vec<String>,
    /// Sign in to the `--mcp-url` servers that ask (OAuth 2.1): the authorization URL is
    /// printed, and a listener on 127.0.0.1 takes the browser's redirect. Tokens are kept in
    /// `$XDG_STATE_HOME/tool-examples/oauth/` (or `~/.local/state/...`), readable by you alone.
    #[arg(long, global = true, requires = "mcp_url")]
    oauth: bool,
    /// Pass this environment variable on to the programs exec_command runs (repeatable); by
    /// default they get only PATH, HOME, USER, LOGNAME, the locale, TERM, TMPDIR and TZ.
    #[arg(long = "pass-env", global = true, value_name = "NAME")]
    pass_env: Vec<String>,
    /// Code mode: the model gets one tool, `run_python`, whose Python calls the tools;
    /// `--code-mode=beside` keeps the tools beside it. Needs a build with `--features code`.
    #[arg(long = "code-mode", global = true, value_name = "alone|beside", num_args = 0..=1, require_equals = true, default_missing_value = "alone")]
    code_mode: Option<CodeModeArg>,
    /// Run code mode's snippets in worker processes of this `monty` binary (Monty's worker:
    /// `pip install pydantic-monty-runtime==0.0.23`), where code that crashes the interpreter
    /// ends a worker, not this program. Implies `--code-mode` when that is not given. Needs a
    /// build with `--features code-workers`.
    #[arg(long = "code-workers", global = true, value_name = "MONTY")]
    code_workers: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// `--code-mode` and `--code-workers`.
#[derive(Clone, Debug, Default)]
struct Code {
    mode: Option<CodeModeArg>,
    workers: Option<PathBuf>,
}

/// `--code-mode`'s value.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum CodeModeArg {
    /// The code tool alone.
    Alone,
    /// The code tool beside the tools.
    Beside,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the tools: name, flags, and the first line of the description.
    List,
    /// Print every tool's schema as JSON, in a model API's shape.
    Schema {
        #[arg(long, alias = "provider", value_name = "NAME", default_value = "mcp", value_parser = parse_shape, help = shape_help())]
        dialect: schema::Shape,
        /// Strict mode (OpenAI structured outputs, Anthropic strict tool use); each tool that
        /// can't be strict is listed with `strict: false`, and why is said on stderr.
        #[arg(long)]
        strict: bool,
        /// With `--provider tensorzero`: write a TensorZero config folder here instead
        /// (`tensorzero.toml` and `tools/NAME.json`), and print the files written.
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
        /// With `--out`: add `[functions.NAME]`, a chat function offering every tool.
        #[arg(long, value_name = "NAME", requires = "out")]
        function: Option<String>,
        /// With `--function`: the function's variant, a `chat_completion` on this model
        /// (`openai::gpt-4o-mini`, or a model of your config).
        #[arg(long, value_name = "MODEL", requires = "function")]
        model: Option<String>,
    },
    /// Call a tool and print its output as JSON; exits with 1 when the output is an error.
    Call {
        /// The tool's name.
        name: String,
        /// The arguments, a JSON object; `-` reads them from stdin.
        #[arg(default_value = "{}")]
        args: String,
    },
    /// Run the demo (what `tool-examples` alone does): a scratch workspace and a few calls.
    Demo,
    /// Route a model's output (read from stdin), run every call it makes, and print the
    /// results as the provider's next request needs them; exits with 1 when a call failed or
    /// was left unanswered (a call to a tool that is not a function, such as a custom tool).
    Run(run::RunArgs),
    /// Serve the tools over MCP: on stdio, or over streamable HTTP with --http.
    Serve(serve::ServeArgs),
    /// Chat with a model that uses the tools: `--provider openai-chat --url
    /// http://127.0.0.1:8000/v1 --model NAME` (vLLM, llama.cpp, Ollama, LM Studio,
    /// TensorZero...); `--prompt` for one shot (exit 0 when the model answered, 1 otherwise).
    Chat(chat::ChatArgs),
    /// The MCP conformance suite's client: connect to URL with the import, list the tools,
    /// call the scenario's (`MCP_CONFORMANCE_SCENARIO`); for `conformance client --command`.
    #[command(name = "conformance-client", hide = true)]
    ConformanceClient {
        /// The server's URL, which the suite appends.
        url: String,
    },
}

/// Exit code of `call` when the output is an error (clap's own usage errors exit with 2).
const CALL_FAILED: ExitCode = ExitCode::FAILURE;

/// Why a command could not run at all (exit code 2), as opposed to a call that failed.
#[derive(Debug)]
pub(crate) enum CliError {
    /// Writing the output or reading input failed.
    Io(io::Error),
    /// The root or the registry is unusable.
    Setup(String),
    /// The input is not what the command reads.
    Input(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Io(e) => e.fmt(f),
            CliError::Setup(message) | CliError::Input(message) => f.write_str(message),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

/// Runs the command line, writing results to `out`; notes about the CLI go to stderr.
pub(crate) async fn run(cli: Cli, out: &mut dyn Write) -> Result<ExitCode, CliError> {
    let root = cli.root;
    let yes = cli.yes;
    let mcp = Imports {
        commands: cli.mcp,
        urls: cli.mcp_url,
        oauth: cli.oauth,
    };
    let env = cli.pass_env;
    let code = Code {
        mode: cli.code_mode,
        workers: cli.code_workers,
    };
    match cli.command.unwrap_or(Command::Demo) {
        Command::Demo => {
            if root.is_some() {
                eprintln!(
                    "note: the demo runs in a scratch directory of its own; --root is ignored"
                );
            }
            demo::run(out).await
        }
        Command::List => list::run(&registry(root, yes, &env, &mcp, code).await?, out),
        Command::Schema {
            dialect,
            strict,
            out: dir,
            function,
            model,
        } => {
            let registry = registry(root, yes, &env, &mcp, code).await?;
            match dir {
                Some(dir) => {
                    let config = schema::TensorZeroOut {
                        dir,
                        function,
                        model,
                    };
                    schema::write_tensorzero(&registry, dialect, strict, &config, out)
                }
                None => schema::run(&registry, dialect, strict, out),
            }
        }
        Command::Call { name, args } => {
            let registry = registry(root.clone(), yes, &env, &mcp, code).await?;
            call::run(&registry, root.as_deref(), &name, &args, out).await
        }
        Command::Run(args) => {
            let registry = registry(root.clone(), yes, &env, &mcp, code).await?;
            run::run(&registry, root.as_deref(), &args, out).await
        }
        Command::Chat(args) => {
            chat::run(registry(root, yes, &env, &mcp, code).await?, &args, out).await
        }
        Command::ConformanceClient { url } => conformance_client::run(&url).await,
        Command::Serve(args) => {
            let builder = if args.conformance {
                tool_examples::conformance::builder()
            } else {
                examples(root, yes, &env)
            };
            let registry = build(builder, &mcp, code).await?;
            if args.conformance {
                tool_examples::conformance::resources::keep_touching_watched(
                    registry.resources().clone(),
                    std::time::Duration::from_secs(1),
                );
            }
            serve::run(registry, &args).await
        }
    }
}

/// Parses a provider's name with the runtime's own parser, so a new provider needs no CLI
/// change.
fn parse_provider(text: &str) -> Result<Provider, String> {
    text.parse()
        .map_err(|e: tool_runtime::providers::UnknownProvider| e.to_string())
}

/// `schema --dialect`: a provider, or `plain` for the neutral list.
fn parse_shape(text: &str) -> Result<schema::Shape, String> {
    match text {
        "plain" => Ok(schema::Shape::Plain),
        _ => parse_provider(text)
            .map(schema::Shape::Provider)
            .map_err(|e| format!("{e}, or plain")),
    }
}

fn shape_help() -> String {
    let names: Vec<&str> = Provider::ALL.iter().map(|p| p.as_str()).collect();
    format!(
        "The export's shape: {}, or plain (the neutral list: name, description, parameters)",
        names.join(", ")
    )
}

/// The example registry over `--root`, or the current directory, with the tools of every
/// `--mcp` server.
async fn registry(
    root: Option<PathBuf>,
    yes: bool,
    env: &[String],
    mcp: &Imports,
    code: Code,
) -> Result<Registry, CliError> {
    build(examples(root, yes, env), mcp, code).await
}

/// The example tools over `--root`, or the current directory.
fn examples(root: Option<PathBuf>, yes: bool, env: &[String]) -> RegistryBuilder {
    let root = root.unwrap_or_else(|| PathBuf::from("."));
    let workspace = tool_examples::Workspace::new(root).pass_env(env.iter().cloned());
    tool_examples::builder_in(workspace, Default::default())
        .approver(approve::TerminalApprover { yes })
}

/// `--mcp`, `--mcp-url` and `--oauth`.
#[derive(Debug, Default)]
pub(crate) struct Imports {
    commands: Vec<String>,
    urls: Vec<String>,
    oauth: bool,
}

impl Imports {
    /// The import of `url`, signing in when `--oauth` says so.
    fn http(&self, url: &str) -> Result<McpImport, CliError> {
        let import = McpImport::http(url);
        if !self.oauth {
            return Ok(import);
        }
        #[cfg(feature = "mcp-oauth")]
        {
            let tokens = oauth_folder()?;
            Ok(import.oauth(
                tool_runtime::mcp::McpOAuth::new()
                    .client_name("tool-examples")
                    .token_folder(tokens),
            ))
        }
        #[cfg(not(feature = "mcp-oauth"))]
        Err(CliError::Setup(
            "--oauth: this build has no sign-in (tool-examples' `mcp-oauth` feature)".to_owned(),
        ))
    }
}

/// Where `--oauth` keeps tokens: `$XDG_STATE_HOME/tool-examples/oauth`, or
/// `~/.local/state/tool-examples/oauth`.
#[cfg(feature = "mcp-oauth")]
fn oauth_folder() -> Result<PathBuf, CliError> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/state")))
        .ok_or_else(|| {
            CliError::Setup("--oauth: neither XDG_STATE_HOME nor HOME is set".to_owned())
        })?;
    Ok(state.join("tool-examples").join("oauth"))
}

/// Builds, connecting every `--mcp` and `--mcp-url` server first; what an import renamed or cleaned, and
/// what the build left aside, is said on stderr.
async fn build(
    mut builder: RegistryBuilder,
    mcp: &Imports,
    code: Code,
) -> Result<Registry, CliError> {
    let setup =
        |e: &dyn fmt::Display| CliError::Setup(format!("the registry could not be built: {e}"));
    let mut imports = Vec::new();
    for line in &mcp.commands {
        imports.push(McpImport::command_line(line).map_err(|e| setup(&e))?);
    }
    for url in &mcp.urls {
        imports.push(mcp.http(url)?);
    }
    for import in imports {
        let tools = import.connect().await.map_err(|e| setup(&e))?;
        for note in tools.notes() {
            let note = format!("{}: {note}", tools.prefix());
            eprintln!("note: {}", terminal::text(&note));
        }
        builder = builder.mcp_tools(tools);
    }
    let registry = code_mode(builder, code)
        .await?
        .build()
        .map_err(|e| setup(&e))?;
    // What the build left aside (defaults a schema refuses): said once, here.
    for note in registry.notes() {
        eprintln!("note: {}", terminal::text(&note.to_string()));
    }
    Ok(registry)
}

/// The builder with `--code-mode` and `--code-workers` applied.
async fn code_mode(builder: RegistryBuilder, code: Code) -> Result<RegistryBuilder, CliError> {
    let mode = match (code.mode, &code.workers) {
        (None, None) => return Ok(builder),
        (mode, _) => mode.unwrap_or(CodeModeArg::Alone),
    };
    #[cfg(feature = "code")]
    {
        use tool_runtime::code::{CodeMode, CodeSettings};
        #[cfg_attr(not(feature = "code-workers"), allow(unused_mut))]
        let mut settings = CodeSettings::default();
        if let Some(binary) = code.workers {
            #[cfg(feature = "code-workers")]
            {
                // One worker per core: a run holds its worker until it ends.
                let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
                let pool = tool_runtime::code::WorkerPool::start(binary, workers)
                    .await
                    .map_err(|e| CliError::Setup(e.to_string()))?;
                settings = settings.workers(pool);
            }
            #[cfg(not(feature = "code-workers"))]
            {
                let _ = binary;
                return Err(CliError::Setup(
                    "--code-workers needs a build with worker processes: `cargo run -p tool-examples --features code-workers -- ...`"
                        .to_owned(),
                ));
            }
        }
        let mode = match mode {
            CodeModeArg::Alone => CodeMode::Alone,
            CodeModeArg::Beside => CodeMode::Beside,
        };
        Ok(builder.code_mode_with(mode, settings))
    }
    #[cfg(not(feature = "code"))]
    {
        let _ = (builder, mode);
        Err(CliError::Setup(
            "--code-mode needs a build with code mode: `cargo run -p tool-examples --features code -- ...`"
                .to_owned(),
        ))
    }
}

/// Writes a value as pretty JSON and a newline. Going through a `Value` first indents the
/// JSON a tool returned too, which `ToolOutput` keeps as raw text.
/// The JSON is escaped for a terminal (`terminal::json`): tool names, descriptions and outputs
/// can come from outside the program.
/// `error` and each of its sources, joined by `: `: each said once, on one line.
pub(crate) fn said(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        // Some errors say their source in their own message too: said once.
        let cause_text = cause.to_string();
        if !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

fn write_json<T: serde::Serialize + ?Sized>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let value = serde_json::to_value(value)?;
    let text = serde_json::to_string_pretty(&value)?;
    writeln!(out, "{}", terminal::json(&text))
}
