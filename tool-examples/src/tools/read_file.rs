//! `read_file`: numbered lines of a text file in the workspace (sync).

use crate::text::{looks_binary, truncate_chars};
use crate::workspace::Workspace;
use std::io::{BufRead, BufReader};
use tool_runtime::{tool, State, ToolError};

/// Lines longer than this are cut, so one minified line can't flood the model's context.
const MAX_LINE_CHARS: usize = 500;

/// Read a text file from the workspace, as numbered lines.
///
/// Each line comes back as `L<n>: <text>`, numbered from 1. Read a long file in pages: when
/// more lines follow, the last line of the output says which `offset` to continue from.
/// Lines longer than 500 characters are cut and end with `…`.
#[tool(read_only, idempotent)]
pub fn read_file(
    /// Path of the file, relative to the workspace root, for example "src/main.rs".
    path: String,
    /// The line number to start at (1 is the first line).
    #[tool(default = 1)]
    #[schemars(range(min = 1))]
    offset: usize,
    /// The most lines to return.
    #[tool(default = 200)]
    #[schemars(range(min = 1, max = 2000))]
    limit: usize,
    workspace: State<Workspace>,
) -> Result<String, ToolError> {
    if offset == 0 {
        return Err(ToolError::new(
            "offset is 1-indexed: use offset 1 for the first line",
        ));
    }
    if !(1..=2000).contains(&limit) {
        return Err(ToolError::new(format!(
            "limit must be between 1 and 2000, got {limit}"
        )));
    }
    // Opened once, under the workspace root: what is checked is what is read.
    let (file, _) = workspace.open(&path)?;
    crate::workspace::require_open_file(&file, &path)?;
    let mut reader = BufReader::new(file);
    let head = reader
        .fill_buf()
        .map_err(|e| ToolError::new(format!("{path:?} can't be read: {e}")))?;
    if looks_binary(head) {
        return Err(ToolError::new(format!(
            "{path:?} is a binary file (it contains NUL bytes); read_file only reads text"
        )));
    }

    let end = offset.saturating_add(limit);
    let mut out = String::new();
    let mut line = Vec::new();
    let mut lines_seen = 0usize;
    let mut more = false;
    let binary = || {
        ToolError::new(format!(
            "{path:?} is a binary file (it contains NUL bytes); read_file only reads text"
        ))
    };
    loop {
        // At most a line's shown length is held: a file that is one enormous line costs a
        // few kilobytes, not its size.
        let read = next_line(&mut reader, MAX_LINE_BYTES, &mut line)
            .map_err(|e| ToolError::new(format!("{path:?} can't be read: {e}")))?;
        let Some(complete) = read else { break };
        if complete == Line::Binary {
            return Err(binary());
        }
        lines_seen += 1;
        if lines_seen >= end {
            more = true;
            break;
        }
        if lines_seen < offset {
            continue;
        }
        let bytes = strip_line_ending(&line);
        // A line cut short may end inside a character: keep the whole ones.
        let bytes = match (std::str::from_utf8(bytes), complete) {
            (Err(e), Line::Cut) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
            _ => bytes,
        };
        let text = std::str::from_utf8(bytes).map_err(|_| {
            ToolError::new(format!(
                "line {lines_seen} of {path:?} is not valid UTF-8: the file is binary or in another encoding, and read_file only reads UTF-8 text"
            ))
        })?;
        let mut shown = truncate_chars(text, MAX_LINE_CHARS);
        if complete == Line::Cut && !shown.ends_with('…') {
            shown.push('…');
        }
        out.push_str(&format!("L{lines_seen}: {shown}\n"));
    }

    if lines_seen == 0 {
        return Ok(format!("{path} is empty."));
    }
    if lines_seen < offset {
        return Err(ToolError::new(format!(
            "offset {offset} is past the end of {path:?}, which has {lines_seen} line{}; use an offset from 1 to {lines_seen}",
            if lines_seen == 1 { "" } else { "s" }
        )));
    }
    if more {
        out.push_str(&format!(
            "… more lines follow; continue with offset {end}\n"
        ));
    }
    Ok(out)
}

/// The most bytes of one line kept while reading: enough for [`MAX_LINE_CHARS`] characters of
/// any width, and one more to know it was cut.
const MAX_LINE_BYTES: usize = MAX_LINE_CHARS * 4 + 4;

/// How a line read by [`next_line`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// All of it is in the buffer.
    Whole,
    /// Only its first bytes are; the rest was read past.
    Cut,
    /// It holds a NUL byte: the file is binary.
    Binary,
}

/// Reads the next line into `line`, keeping at most `keep` bytes of it and reading past the
/// rest chunk by chunk, and looks at every byte read for a NUL. `None` at the end of the file.
fn next_line(
    reader: &mut impl BufRead,
    keep: usize,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<Line>> {
    line.clear();
    let mut state = None;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(state);
        }
        let (taken, done) = match memchr::memchr(b'\n', chunk) {
            Some(n) => (n + 1, true),
            None => (chunk.len(), false),
        };
        let part = &chunk[..taken];
        let binary = memchr::memchr(0, part).is_some();
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        let cut = part.len() > room || state == Some(Line::Cut);
        reader.consume(taken);
        if binary {
            return Ok(Some(Line::Binary));
        }
        state = Some(if cut { Line::Cut } else { Line::Whole });
        if done {
            return Ok(state);
        }
    }
}

fn strip_line_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::sync::Arc;
    use tool_runtime::ErrorCode;

    fn setup() -> (tempfile::TempDir, State<Workspace>) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("five.txt"), "one\ntwo\r\nthree\nfour\nfive").unwrap();
        let ws = State(Arc::new(Workspace::new(dir.path())));
        (dir, ws)
    }

    fn read(
        ws: &State<Workspace>,
        path: &str,
        offset: usize,
        limit: usize,
    ) -> Result<String, ToolError> {
        read_file(path.to_owned(), offset, limit, ws.clone())
    }

    #[test]
    fn reads_numbered_lines() {
        let (_dir, ws) = setup();
        assert_eq!(
            read(&ws, "five.txt", 1, 200).unwrap(),
            "L1: one\nL2: two\nL3: three\nL4: four\nL5: five\n"
        );
    }

    #[test]
    fn pages_with_offset_and_limit() {
        let (_dir, ws) = setup();
        assert_eq!(
            read(&ws, "five.txt", 2, 2).unwrap(),
            "L2: two\nL3: three\n… more lines follow; continue with offset 4\n"
        );
        assert_eq!(read(&ws, "five.txt", 5, 1).unwrap(), "L5: five\n");
    }

    #[test]
    fn offset_past_the_end_is_explained() {
        let (_dir, ws) = setup();
        let err = read(&ws, "five.txt", 9, 10).unwrap_err();
        assert!(err.message.contains("past the end"), "{}", err.message);
        assert!(err.message.contains("5 lines"), "{}", err.message);
        let err = read(&ws, "five.txt", 0, 10).unwrap_err();
        assert!(err.message.contains("1-indexed"), "{}", err.message);
    }

    #[test]
    fn binary_and_non_utf8_are_refused() {
        let (dir, ws) = setup();
        fs::write(dir.path().join("img.png"), b"\x89PNG\r\n\x1a\n\0\0\0").unwrap();
        fs::write(dir.path().join("latin1.txt"), b"caf\xe9\n").unwrap();
        let err = read(&ws, "img.png", 1, 10).unwrap_err();
        assert!(err.message.contains("binary"), "{}", err.message);
        let err = read(&ws, "latin1.txt", 1, 10).unwrap_err();
        assert!(err.message.contains("not valid UTF-8"), "{}", err.message);
    }

    #[test]
    fn long_lines_are_cut_on_a_char_boundary() {
        let (dir, ws) = setup();
        fs::write(dir.path().join("long.txt"), "é".repeat(600)).unwrap();
        let out = read(&ws, "long.txt", 1, 1).unwrap();
        assert_eq!(out, format!("L1: {}…\n", "é".repeat(500)));
    }

    #[test]
    fn missing_files_directories_and_escapes_fail_clearly() {
        let (dir, ws) = setup();
        fs::create_dir(dir.path().join("d")).unwrap();
        fs::write(dir.path().join("empty.txt"), "").unwrap();
        assert!(read(&ws, "nope.txt", 1, 10)
            .unwrap_err()
            .message
            .contains("does not exist"));
        assert!(read(&ws, "d", 1, 10)
            .unwrap_err()
            .message
            .contains("directory"));
        assert!(read(&ws, "../five.txt", 1, 10)
            .unwrap_err()
            .message
            .contains("above"));
        assert_eq!(
            read(&ws, "empty.txt", 1, 10).unwrap(),
            "empty.txt is empty."
        );
    }

    #[cfg(unix)]
    #[test]
    fn pipes_are_refused_not_read_forever() {
        let (dir, ws) = setup();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to test
        }
        let err = read(&ws, "pipe", 1, 10).unwrap_err();
        assert!(
            err.message.contains("not a regular file"),
            "{}",
            err.message
        );
    }

    #[test]
    fn through_the_registry() {
        let (dir, _ws) = setup();
        let registry = crate::registry(dir.path().to_path_buf()).unwrap();
        let out = registry.call_blocking("read_file", r#"{"path": "five.txt", "limit": 1}"#);
        assert_eq!(
            out.to_model_text(),
            "L1: one\n… more lines follow; continue with offset 2\n"
        );
        let out = registry.call_blocking("read_file", r#"{"limit": 1}"#);
        assert_eq!(out.as_error().unwrap().code, ErrorCode::InvalidArguments);
        let out = registry.call_blocking("read_file", r#"{"path": "/etc/passwd"}"#);
        assert!(out.as_error().unwrap().message.contains("absolute"));
    }
}
