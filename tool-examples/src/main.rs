//! `tool-examples`: list, export and call the example tools, or watch a short demo.

mod cli;

use clap::Parser;
use std::io::{self, Write};
use std::process::ExitCode;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // `exec_command` runs each program in a process group of its own (so its timeout can kill
    // what the program started), out of reach of the terminal's Ctrl-C: pass it on, then end
    // as Ctrl-C would have.
    // Registered here, before any program starts, not when the task is first polled.
    #[cfg(unix)]
    if let Ok(mut interrupt) =
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
    {
        tokio::spawn(async move {
            if interrupt.recv().await.is_some() {
                tool_examples::tools::exec_command::interrupt_running();
                std::process::exit(130);
            }
        });
    }
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
            // Messages quote what came from outside: a server's error, an unreadable input.
            eprintln!("error: {}", cli::terminal::text(&e.to_string()));
            ExitCode::from(2)
        }
    }
}
