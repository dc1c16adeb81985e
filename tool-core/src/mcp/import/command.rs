//! Starting a server as a command: its command line split as a shell would, and the last
//! lines of its stderr kept for the error when it fails.

use crate::mcp::lock::lock;
use crate::mcp::McpError;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// How many of the server's last stderr lines an error carries.
const STDERR_TAIL: usize = 20;

/// Reads a child's stderr line by line, keeping the last lines for error messages.
pub(super) async fn keep_tail(
    stderr: tokio::process::ChildStderr,
    tail: Arc<Mutex<VecDeque<String>>>,
    server: String,
) {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(server = %server, "{line}");
        let mut tail = lock(&tail);
        if tail.len() == STDERR_TAIL {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// The error, with what the server said on stderr if anything.
pub(super) fn with_stderr(error: McpError, tail: &Mutex<VecDeque<String>>) -> McpError {
    let tail = lock(tail);
    if tail.is_empty() {
        return error;
    }
    let said: Vec<&str> = tail.iter().map(String::as_str).collect();
    let said = said.join("\n  ");
    match error {
        McpError::Protocol {
            server,
            reason,
            source,
        } => McpError::Protocol {
            server,
            reason: format!("{reason}; it said on stderr:\n  {said}"),
            source,
        },
        other => other,
    }
}

/// Splits a command line into words: spaces separate, `'...'` is literal, `"..."` allows `\"`
/// and `\\`, and `\` escapes a character outside quotes.
pub(super) fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a `'` is not closed".to_owned()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a `\"` is not closed".to_owned()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a `\"` is not closed".to_owned()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}
