//! `tool-examples`: list, export and call the example tools, or watch a short demo.

mod cli;

use clap::Parser;
use std::io::{self, Write};
use std::process::ExitCode;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // Not locked for the whole run: `serve` speaks MCP on stdout from other threads.
    let mut out = io::stdout();
    let result = match cli::run(args, &mut out).await {
        Ok(code) => out.flush().map(|()| code).map_err(cli::CliError::from),
        Err(e) => Err(e),
    };
    match result {
        Ok(code) => code,
        // `tool-examples schema | head` closing the pipe early is not a failure.
        Err(cli::CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
