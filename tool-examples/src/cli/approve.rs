//! Approval on the command line: destructive tools (such as `exec_command`) run only when the
//! user says yes at the terminal, or passed `--yes`.

use std::io::{BufRead, BufReader, Write};
use tool_runtime::approval::BoxFuture;
use tool_runtime::approval::{Approval, ApprovalRequest, Approver};

/// The most characters of arguments the approval prompt shows: a few lines of a terminal.
const PROMPT_CHARS: usize = 400;

/// Asks on the terminal, or says yes to everything when told to.
pub(super) struct TerminalApprover {
    /// `--yes`: allow every call without asking.
    pub yes: bool,
}

impl Approver for TerminalApprover {
    fn approve<'a>(&'a self, request: &'a ApprovalRequest<'a>) -> BoxFuture<'a, Approval> {
        if self.yes {
            return Box::pin(std::future::ready(Approval::Allow));
        }
        // The name may come from an imported server; the arguments are the model's, which
        // could pad a command with spaces until it scrolls away: summed up, both ends kept.
        let question = format!(
            "Allow {} with {}? [y/N] ",
            super::terminal::text(request.tool.name()),
            super::terminal::summary(&shown(request.arguments), PROMPT_CHARS)
        );
        Box::pin(async move {
            // Reading the terminal blocks: keep it off the async threads.
            tokio::task::spawn_blocking(move || ask(&question))
                .await
                .unwrap_or_else(|_| Approval::deny("the approval prompt failed"))
        })
    }
}

/// The arguments as the user is shown them. The model's own text could hide the command
/// (JSON allows `\r` between tokens) or carry terminal escapes, so it is never printed as it
/// is: compact JSON when it parses, escaped text when it doesn't.
fn shown(arguments: &str) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(arguments) else {
        return arguments.escape_debug().to_string();
    };
    // serde_json escapes only C0 controls; DEL, C1 controls (CSI) and bidi overrides would
    // still reach the terminal, so they get JSON escapes too.
    let mut shown = String::new();
    for c in value.to_string().chars() {
        if matches!(c, '"' | '\\' | '\'') || c.escape_debug().len() == 1 {
            shown.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                shown.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    shown
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

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn nothing_the_model_wrote_reaches_the_terminal_raw() {
        // Carriage returns between tokens; in the string an escaped ESC (JSON allows no raw
        // C0 control there) and raw CSI, right-to-left override and DEL, which it does allow.
        let arguments =
            "{\"argv\": [\"touch\", \"pwned\"]\r \r, \"x\": \"\\u001b[2K\u{9b}\u{202e}\u{7f}\"}";
        let text = shown(arguments);
        assert_eq!(
            text,
            r#"{"argv":["touch","pwned"],"x":"\u001b[2K\u009b\u202e\u007f"}"#
        );
        // Still the same JSON.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value,
            serde_json::from_str::<serde_json::Value>(arguments).unwrap()
        );
        assert_eq!(shown("{\"a\": 1\r"), r#"{\"a\": 1\r"#);
    }
}
