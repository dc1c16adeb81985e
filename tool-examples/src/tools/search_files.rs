//! `search_files`: lines of workspace text files that contain a string (async, `tokio::fs`).

use crate::text::looks_binary;
use crate::workspace::{Resolved, Workspace};
use serde::Serialize;
use std::path::{Path, PathBuf};
use tool_runtime::{tool, State, ToolError};

/// Files larger than this are skipped: they are rarely source, and slow to scan.
const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// The most files one search reads, so a huge tree can't stall the call.
const MAX_FILES: u64 = 20_000;
/// A match's `text` is cut to this many chars.
const MAX_TEXT_CHARS: usize = 200;
/// Directories never searched: version control data and build output.
const SKIPPED_DIRS: &[&str] = &[".git", ".hg", ".svn", "node_modules", "target"];

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SearchResults {
    /// The matching lines, in path order, then line order.
    pub matches: Vec<Match>,
    /// Whether the search stopped early (at `max_results`, or after 20000 files), so more
    /// matches may exist.
    pub truncated: bool,
    /// Text files read.
    pub files_searched: u64,
    /// Files skipped for being binary, not UTF-8, over 1 MiB, or not regular files.
    pub files_skipped: u64,
}

/// One matching line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Match {
    /// The file, relative to the workspace root.
    pub path: String,
    /// The line number, from 1.
    pub line: u64,
    /// The line, trimmed and cut to 200 characters around the match.
    pub text: String,
}

/// Search text files in the workspace for lines containing a string.
///
/// A plain substring search (no regular expressions), through a directory and everything
/// below it. Binary files, files over 1 MiB, symbolic links and the directories `.git`,
/// `.hg`, `.svn`, `node_modules` and `target` are skipped. Returns JSON: the matches, and
/// whether the search stopped at `max_results`.
// `output_schema`: MCP clients get the result's schema, and every result conforms to it.
#[tool(read_only, idempotent, output_schema)]
pub async fn search_files(
    /// The text to look for, on one line.
    query: String,
    /// Directory (or single file) to search, relative to the workspace root.
    #[tool(default = String::from("."))]
    path: String,
    /// Match upper and lower case exactly.
    #[tool(default = false)]
    case_sensitive: bool,
    /// The most matches to return.
    #[tool(default = 20)]
    #[schemars(range(min = 1, max = 200))]
    max_results: usize,
    /// Only search files with this extension, such as "rs" or "md".
    extension: Option<String>,
    workspace: State<Workspace>,
) -> Result<SearchResults, ToolError> {
    if query.is_empty() {
        return Err(ToolError::new("query is empty: give the text to look for"));
    }
    if query.contains(['\n', '\r']) {
        return Err(ToolError::new(
            "query spans several lines, but matching is line by line: search for one line of it",
        ));
    }
    if !(1..=200).contains(&max_results) {
        return Err(ToolError::new(format!(
            "max_results must be between 1 and 200, got {max_results}"
        )));
    }
    let extension =
        match extension
            .as_deref()
            .map(|e| e.trim().trim_start_matches('.'))
        {
            Some("") => return Err(ToolError::new(
                "extension is empty: give one such as \"rs\", or leave it out to search every file",
            )),
            other => other.map(str::to_owned),
        };
    // Opened once under the root; everything below is opened beneath the root again by the
    // kernel (`Workspace::open_under`), so a swapped symbolic link can't lead the walk out.
    let (opened, resolved) = workspace.open(&path)?;
    let mut search = Search {
        workspace: workspace.clone(),
        needle: if case_sensitive {
            query
        } else {
            query.to_lowercase()
        },
        case_sensitive,
        max_results,
        results: SearchResults {
            matches: Vec::new(),
            truncated: false,
            files_searched: 0,
            files_skipped: 0,
        },
    };

    let is_dir = opened.metadata().map(|m| m.is_dir()).unwrap_or(false);
    drop(opened);
    if !is_dir {
        // A file named outright is searched whatever its extension.
        search.file(&resolved, &resolved.path).await;
        return Ok(search.results);
    }

    let mut stack = vec![resolved.path.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = sorted_entries(&workspace, &resolved, &dir).await else {
            continue;
        };
        let mut subdirs = Vec::new();
        for (entry, kind) in entries {
            match kind {
                EntryKind::Dir => {
                    let skipped = entry
                        .file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| SKIPPED_DIRS.contains(&n));
                    if !skipped {
                        subdirs.push(entry);
                    }
                }
                EntryKind::File if has_extension(&entry, extension.as_deref()) => {
                    if search.results.files_searched + search.results.files_skipped >= MAX_FILES {
                        search.results.truncated = true;
                        return Ok(search.results);
                    }
                    if search.file(&resolved, &entry).await {
                        return Ok(search.results);
                    }
                }
                EntryKind::File | EntryKind::Other => {}
            }
        }
        // Files of a directory come before its subdirectories, which are searched in order.
        stack.extend(subdirs.into_iter().rev());
    }
    Ok(search.results)
}

struct Search {
    workspace: State<Workspace>,
    needle: String,
    case_sensitive: bool,
    max_results: usize,
    results: SearchResults,
}

impl Search {
    /// Searches one file; `true` once `max_results` is exceeded and the search should stop.
    async fn file(&mut self, resolved: &Resolved, path: &Path) -> bool {
        // Opened beneath the root, then only regular files read: a FIFO named outright would
        // never end.
        let relative = path.strip_prefix(&resolved.root).unwrap_or(path);
        let file = self.workspace.open_under(&resolved.root, relative).ok();
        let readable = file
            .as_ref()
            .and_then(|f| f.metadata().ok())
            .is_some_and(|m| m.is_file() && m.len() <= MAX_FILE_BYTES);
        let bytes = match (readable, file) {
            (true, Some(file)) => {
                use tokio::io::AsyncReadExt;
                let mut bytes = Vec::new();
                let mut file = tokio::fs::File::from_std(file).take(MAX_FILE_BYTES);
                file.read_to_end(&mut bytes).await.ok().map(|_| bytes)
            }
            _ => None,
        };
        let text = bytes
            .filter(|b| !looks_binary(b))
            .and_then(|b| String::from_utf8(b).ok());
        let Some(text) = text else {
            self.results.files_skipped += 1;
            return false;
        };
        self.results.files_searched += 1;
        for (n, line) in text.lines().enumerate() {
            let found = if self.case_sensitive {
                line.find(&self.needle).map(|at| line[..at].chars().count())
            } else {
                let lower = line.to_lowercase();
                lower
                    .find(&self.needle)
                    .map(|at| lower[..at].chars().count())
            };
            let Some(at_char) = found else { continue };
            if self.results.matches.len() == self.max_results {
                self.results.truncated = true;
                return true;
            }
            self.results.matches.push(Match {
                path: resolved.relative(path),
                line: n as u64 + 1,
                text: snippet(line, at_char, MAX_TEXT_CHARS),
            });
        }
        false
    }
}

/// The trimmed line, or when it is longer than `max` chars, a `max`-char window that starts a
/// little before the match. `at_char` is the match's char index in the untrimmed line
/// (approximate for case-insensitive matches, where lowercasing can change lengths).
fn snippet(line: &str, at_char: usize, max: usize) -> String {
    let lead = line.chars().take_while(|c| c.is_whitespace()).count();
    let trimmed = line.trim();
    let total = trimmed.chars().count();
    if total <= max {
        return trimmed.to_owned();
    }
    let start = at_char
        .saturating_sub(lead)
        .saturating_sub(max / 4)
        .min(total - max);
    trimmed.chars().skip(start).take(max).collect()
}

fn has_extension(path: &Path, extension: Option<&str>) -> bool {
    extension.is_none_or(|want| {
        path.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case(want))
    })
}

enum EntryKind {
    Dir,
    File,
    Other,
}

/// A directory's entries, sorted by name; symbolic links count as `Other` and are skipped.
/// The entries of `dir` (a path under the root), read from the directory opened beneath the
/// root, not by its name.
async fn sorted_entries(
    workspace: &Workspace,
    resolved: &Resolved,
    dir: &Path,
) -> std::io::Result<Vec<(PathBuf, EntryKind)>> {
    let relative = dir.strip_prefix(&resolved.root).unwrap_or(dir);
    let opened = workspace.open_under(&resolved.root, relative)?;
    let mut reader = tokio::fs::read_dir(crate::workspace::fd_path(&opened)).await?;
    let mut entries = Vec::new();
    while let Some(entry) = reader.next_entry().await? {
        let kind = match entry.file_type().await {
            Ok(t) if t.is_dir() => EntryKind::Dir,
            Ok(t) if t.is_file() => EntryKind::File,
            _ => EntryKind::Other,
        };
        entries.push((dir.join(entry.file_name()), kind));
    }
    entries.sort_by(|a, b| a.0.file_name().cmp(&b.0.file_name()));
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::sync::Arc;

    fn setup() -> (tempfile::TempDir, State<Workspace>) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("src/nested")).unwrap();
        fs::create_dir_all(root.join("target/debug")).unwrap();
        fs::create_dir_all(root.join(".git")).unwrap();
        fs::write(root.join("README.md"), "# Demo\nTODO: write docs\n").unwrap();
        fs::write(
            root.join("src/lib.rs"),
            "fn main() {\n    // todo: more\n}\n",
        )
        .unwrap();
        fs::write(root.join("src/nested/deep.rs"), "// TODO deep\n").unwrap();
        fs::write(root.join("src/blob.bin"), b"TODO\0\0").unwrap();
        fs::write(root.join("target/debug/out.rs"), "TODO in build output\n").unwrap();
        fs::write(root.join(".git/HEAD"), "TODO in git\n").unwrap();
        let ws = State(Arc::new(Workspace::new(root)));
        (dir, ws)
    }

    async fn search(
        ws: &State<Workspace>,
        query: &str,
        path: &str,
        case_sensitive: bool,
        max_results: usize,
        extension: Option<&str>,
    ) -> Result<SearchResults, ToolError> {
        search_files(
            query.into(),
            path.into(),
            case_sensitive,
            max_results,
            extension.map(str::to_owned),
            ws.clone(),
        )
        .await
    }

    fn found(results: &SearchResults) -> Vec<(String, u64)> {
        results
            .matches
            .iter()
            .map(|m| (m.path.clone(), m.line))
            .collect()
    }

    #[tokio::test]
    async fn finds_lines_case_insensitively_skipping_noise() {
        let (_dir, ws) = setup();
        let results = search(&ws, "todo", ".", false, 20, None).await.unwrap();
        assert_eq!(
            found(&results),
            vec![
                ("README.md".into(), 2),
                ("src/lib.rs".into(), 2),
                ("src/nested/deep.rs".into(), 1)
            ]
        );
        assert_eq!(results.matches[1].text, "// todo: more");
        assert_eq!(results.files_skipped, 1);
        assert_eq!(results.files_searched, 3);
        assert!(!results.truncated);
    }

    #[tokio::test]
    async fn case_extension_and_path_filters() {
        let (_dir, ws) = setup();
        let results = search(&ws, "TODO", ".", true, 20, Some(".rs"))
            .await
            .unwrap();
        assert_eq!(found(&results), vec![("src/nested/deep.rs".into(), 1)]);
        let results = search(&ws, "todo", "src/lib.rs", false, 20, None)
            .await
            .unwrap();
        assert_eq!(found(&results), vec![("src/lib.rs".into(), 2)]);
    }

    #[tokio::test]
    async fn stops_at_max_results() {
        let (_dir, ws) = setup();
        let results = search(&ws, "todo", ".", false, 2, None).await.unwrap();
        assert_eq!(results.matches.len(), 2);
        assert!(results.truncated);
    }

    #[tokio::test]
    async fn skips_big_files() {
        let (dir, ws) = setup();
        let big = "needle\n".repeat(200_000);
        fs::write(dir.path().join("big.txt"), big).unwrap();
        let results = search(&ws, "needle", ".", false, 20, None).await.unwrap();
        assert!(results.matches.is_empty());
        assert_eq!(results.files_skipped, 2);
    }

    #[tokio::test]
    async fn long_lines_are_windowed_on_char_boundaries() {
        let (dir, ws) = setup();
        let line = format!("{}needle{}", "é".repeat(300), "ü".repeat(300));
        fs::write(dir.path().join("long.txt"), &line).unwrap();
        let results = search(&ws, "NEEDLE", "long.txt", false, 20, None)
            .await
            .unwrap();
        let text = &results.matches[0].text;
        assert_eq!(text.chars().count(), MAX_TEXT_CHARS);
        assert!(text.contains("needle"), "{text}");
    }

    #[tokio::test]
    async fn bad_inputs_fail_clearly() {
        let (_dir, ws) = setup();
        let message = |r: Result<SearchResults, ToolError>| r.unwrap_err().message;
        assert!(message(search(&ws, "", ".", false, 20, None).await).contains("empty"));
        assert!(message(search(&ws, "a\nb", ".", false, 20, None).await).contains("one line"));
        assert!(message(search(&ws, "a", ".", false, 0, None).await).contains("max_results"));
        assert!(message(search(&ws, "a", ".", false, 201, None).await).contains("max_results"));
        assert!(message(search(&ws, "a", ".", false, 20, Some(".")).await).contains("extension"));
        assert!(message(search(&ws, "a", "../..", false, 20, None).await).contains("above"));
        assert!(message(search(&ws, "a", "nope", false, 20, None).await).contains("does not exist"));
    }

    #[test]
    fn through_the_registry_with_defaults() {
        let (dir, _ws) = setup();
        let registry = crate::registry(dir.path().to_path_buf()).unwrap();
        let out = registry.call_blocking("search_files", r#"{"query": "deep"}"#);
        let tool_runtime::ToolOutput::Json(json) = out else {
            panic!("expected JSON, got {out:?}");
        };
        assert_eq!(
            json.to_value()["matches"],
            serde_json::json!([{"path": "src/nested/deep.rs", "line": 1, "text": "// TODO deep"}])
        );
        let schema = registry.get("search_files").unwrap().input_schema();
        assert_eq!(schema["properties"]["max_results"]["maximum"], 200);
        assert_eq!(schema["required"], serde_json::json!(["query"]));
    }
}
