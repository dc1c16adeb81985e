//! `list_dir`: the entries of a workspace directory, a few levels deep (async, `tokio::fs`
//! on directories opened beneath the workspace root).

use crate::workspace::{Resolved, Workspace};
use std::path::PathBuf;
use tool_runtime::{tool, State, ToolError};

/// The deepest listing allowed: deeper trees are listed one subdirectory at a time.
const MAX_DEPTH: usize = 5;
/// The most entries one call can return.
const MAX_LIMIT: usize = 1000;

/// List the files and directories in a workspace directory.
///
/// One entry per line, as a path relative to the workspace root that other tools accept.
/// Entries are sorted by name, each directory followed by its own entries when `depth` > 1.
/// Directories end with `/`, symbolic links with `@` (links are not followed).
#[tool(read_only, idempotent)]
pub async fn list_dir(
    /// Directory to list, relative to the workspace root; "." is the root itself.
    #[tool(default = String::from("."))]
    path: String,
    /// How many levels to list: 1 lists only the directory's own entries.
    #[tool(default = 1)]
    #[schemars(range(min = 1, max = 5))]
    depth: usize,
    /// The most entries to return.
    #[tool(default = 100)]
    #[schemars(range(min = 1, max = 1000))]
    limit: usize,
    workspace: State<Workspace>,
) -> Result<String, ToolError> {
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(ToolError::new(format!(
            "depth must be between 1 and {MAX_DEPTH}, got {depth}; list deeper directories one at a time"
        )));
    }
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ToolError::new(format!(
            "limit must be between 1 and {MAX_LIMIT}, got {limit}"
        )));
    }
    // Opened once under the root; every directory below is opened beneath the root again,
    // by the kernel (`Workspace::open_under`), never followed by name.
    let (dir, resolved) = workspace.open(&path)?;
    let is_dir = dir.metadata().map(|m| m.is_dir()).unwrap_or(false);
    if !is_dir {
        return Err(ToolError::new(format!(
            "{path:?} is a file, not a directory; read it with read_file, or list its parent directory"
        )));
    }

    let top = read_sorted(&dir, &resolved.path)
        .await
        .map_err(|e| ToolError::new(format!("{path:?} can't be listed: {e}")))?;
    if top.is_empty() {
        return Ok(format!("{} is an empty directory.", resolved.display()));
    }

    // Depth-first, in sorted order: the stack holds entries still to print, the next on top.
    let mut stack: Vec<(Entry, usize)> = top.into_iter().rev().map(|e| (e, 1)).collect();
    let mut out = String::new();
    let mut shown = 0usize;
    while let Some((entry, level)) = stack.pop() {
        if shown == limit {
            out.push_str(&format!(
                "… more entries not shown; raise limit (up to {MAX_LIMIT}) or list a subdirectory\n"
            ));
            break;
        }
        shown += 1;
        out.push_str(&line(&resolved, &entry));
        if entry.kind == Kind::Dir && level < depth {
            let relative = entry
                .path
                .strip_prefix(&resolved.root)
                .unwrap_or(&entry.path);
            let opened = workspace.open_under(&resolved.root, relative);
            let children = match &opened {
                Ok(child) => read_sorted(child, &entry.path).await,
                Err(e) => Err(std::io::Error::new(e.kind(), e.to_string())),
            };
            match children {
                Ok(children) => stack.extend(children.into_iter().rev().map(|c| (c, level + 1))),
                Err(e) => out.push_str(&format!(
                    "  (the entries of {} can't be listed: {e})\n",
                    resolved.relative(&entry.path)
                )),
            }
        }
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Dir,
    File,
    Symlink,
}

struct Entry {
    path: PathBuf,
    kind: Kind,
}

fn line(resolved: &Resolved, entry: &Entry) -> String {
    let suffix = match entry.kind {
        Kind::Dir => "/",
        Kind::Symlink => "@",
        Kind::File => "",
    };
    format!("{}{suffix}\n", resolved.relative(&entry.path))
}

/// A directory's entries sorted by name. `file_type` doesn't follow links, so a link to a
/// directory outside the workspace is listed but never entered. The entries are read from the
/// open directory `dir` (through its `/proc/self/fd` path), named under `path`.
async fn read_sorted(dir: &std::fs::File, path: &std::path::Path) -> std::io::Result<Vec<Entry>> {
    let mut reader = tokio::fs::read_dir(crate::workspace::fd_path(dir)).await?;
    let mut entries = Vec::new();
    while let Some(entry) = reader.next_entry().await? {
        let kind = match entry.file_type().await {
            Ok(t) if t.is_symlink() => Kind::Symlink,
            Ok(t) if t.is_dir() => Kind::Dir,
            _ => Kind::File,
        };
        entries.push(Entry {
            path: path.join(entry.file_name()),
            kind,
        });
    }
    entries.sort_by(|a, b| a.path.file_name().cmp(&b.path.file_name()));
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
        fs::create_dir_all(root.join("src/tools/deep/deeper")).unwrap();
        fs::write(root.join("src/lib.rs"), "").unwrap();
        fs::write(root.join("src/tools/a.rs"), "").unwrap();
        fs::write(root.join("src/tools/deep/deeper/x.rs"), "").unwrap();
        fs::write(root.join("README.md"), "").unwrap();
        fs::write(root.join("Cargo.toml"), "").unwrap();
        fs::create_dir(root.join("empty")).unwrap();
        let ws = State(Arc::new(Workspace::new(root)));
        (dir, ws)
    }

    async fn list(
        ws: &State<Workspace>,
        path: &str,
        depth: usize,
        limit: usize,
    ) -> Result<String, ToolError> {
        list_dir(path.to_owned(), depth, limit, ws.clone()).await
    }

    #[tokio::test]
    async fn lists_one_level_sorted() {
        let (_dir, ws) = setup();
        assert_eq!(
            list(&ws, ".", 1, 100).await.unwrap(),
            "Cargo.toml\nREADME.md\nempty/\nsrc/\n"
        );
    }

    #[tokio::test]
    async fn descends_depth_first() {
        let (_dir, ws) = setup();
        assert_eq!(
            list(&ws, "src", 2, 100).await.unwrap(),
            "src/lib.rs\nsrc/tools/\nsrc/tools/a.rs\nsrc/tools/deep/\n"
        );
    }

    #[tokio::test]
    async fn limit_cuts_and_says_so() {
        let (_dir, ws) = setup();
        let out = list(&ws, ".", 5, 2).await.unwrap();
        assert!(
            out.starts_with("Cargo.toml\nREADME.md\n… more entries"),
            "{out}"
        );
    }

    #[tokio::test]
    async fn bad_inputs_fail_clearly() {
        let (_dir, ws) = setup();
        assert!(list(&ws, ".", 6, 10)
            .await
            .unwrap_err()
            .message
            .contains("depth"));
        assert!(list(&ws, ".", 0, 10)
            .await
            .unwrap_err()
            .message
            .contains("depth"));
        assert!(list(&ws, ".", 1, 0)
            .await
            .unwrap_err()
            .message
            .contains("limit"));
        assert!(list(&ws, "README.md", 1, 10)
            .await
            .unwrap_err()
            .message
            .contains("not a directory"));
        assert!(list(&ws, "nope", 1, 10)
            .await
            .unwrap_err()
            .message
            .contains("does not exist"));
        assert!(list(&ws, "..", 1, 10)
            .await
            .unwrap_err()
            .message
            .contains("above"));
        assert_eq!(
            list(&ws, "empty", 1, 10).await.unwrap(),
            "empty is an empty directory."
        );
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn symlinks_are_marked_not_followed() {
        let (dir, ws) = setup();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret"), "").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("empty/out")).unwrap();
        assert_eq!(list(&ws, "empty", 3, 10).await.unwrap(), "empty/out@\n");
        assert!(list(&ws, "empty/out", 1, 10)
            .await
            .unwrap_err()
            .message
            .contains("symbolic link"));
    }

    #[test]
    fn defaults_apply_through_the_registry() {
        let (dir, _ws) = setup();
        let registry = crate::registry(dir.path().to_path_buf()).unwrap();
        let out = registry.call_blocking("list_dir", "{}");
        assert_eq!(out.to_model_text(), "Cargo.toml\nREADME.md\nempty/\nsrc/\n");
    }
}
