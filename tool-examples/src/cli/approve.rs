//! Approval on the command line: destructive tools (such as `exec_command`) run only when the
//! user says yes at the terminal, or passed `--yes`.

use std::io::{BufRead, BufReader, Write};
use tool_runtime::{Approval, ApprovalRequest, Approver, BoxFuture};

/// Asks on the terminal, or says yes to everything when told to.
pub struct TerminalApprover {
    /// `--yes`: allow every call without asking.
    pub yes: bool,
}

impl Approver for TerminalApprover {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest<'a>) -> BoxFuture<'a, Approval> {
        if self.yes {
            return Box::pin(std::future::ready(Approval::Allow));
        }
        let question = format!(
            "Allow {} with {}? [y/N] ",
            request.tool.name(),
            request.arguments
        );
        Box::pin(async move {
            // Reading the terminal blocks: keep it off the async threads.
            tokio::task::spawn_blocking(move || ask(&question))
                .await
                .unwrap_or_else(|_| Approval::deny("the approval prompt failed"))
        })
    }
}

/// Asks on `/dev/tty`, so the question reaches the user even when stdin carries a model's
/// output (`run`); with no terminal at all, the answer is no.
fn ask(question: &str) -> Approval {
    let Ok(tty) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
    else {
        return Approval::deny("there is no terminal to confirm this destructive call on; rerun with --yes to allow it");
    };
    let mut writer = &tty;
    if writer
        .write_all(question.as_bytes())
        .and_then(|()| writer.flush())
        .is_err()
    {
        return Approval::deny("the confirmation prompt could not be shown");
    }
    let mut answer = String::new();
    match BufReader::new(&tty).read_line(&mut answer) {
        Ok(_) if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") => {
            Approval::Allow
        }
        _ => Approval::deny("the user declined this call"),
    }
}
