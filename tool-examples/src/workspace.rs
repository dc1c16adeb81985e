//! The directory the file tools may touch, and the check that keeps every path inside it.
//!
//! A model names files by paths relative to the workspace root. A path is accepted only if
//! it is relative, never climbs above the root (`..`), and still lies inside the root once
//! symbolic links are resolved: the lexical check gives a clear message for the common
//! mistakes, the canonical-prefix check closes the symlink hole.

use std::io;
use std::path::{Component, Path, PathBuf};
use tool_runtime::ToolError;

/// The root directory the file tools are confined to, given to the registry as state.
#[derive(Clone, Debug)]
pub struct Workspace {
    root: PathBuf,
}

/// A path checked by [`Workspace::resolve`]: canonical, and inside the canonical root.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The canonical path of the file or directory.
    pub path: PathBuf,
    /// The canonical workspace root it lies in.
    pub root: PathBuf,
}

impl Workspace {
    /// A workspace rooted at `root`. The root is checked on every call, not here, so a
    /// root that appears or moves later is picked up.
    pub fn new(root: impl Into<PathBuf>) -> Workspace {
        Workspace { root: root.into() }
    }

    /// The root as it was given.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Checks a model-given path and returns where it really is (blocking file system calls).
    pub fn resolve(&self, path: &str) -> Result<Resolved, ToolError> {
        check_relative(path)?;
        let root = std::fs::canonicalize(&self.root);
        let root = self.checked_root(root)?;
        let target = std::fs::canonicalize(root.join(path));
        confine(path, root, target)
    }

    /// [`resolve`](Self::resolve) for async tools: the same checks through `tokio::fs`.
    pub async fn resolve_async(&self, path: &str) -> Result<Resolved, ToolError> {
        check_relative(path)?;
        let root = tokio::fs::canonicalize(&self.root).await;
        let root = self.checked_root(root)?;
        let target = tokio::fs::canonicalize(root.join(path)).await;
        confine(path, root, target)
    }

    fn checked_root(&self, root: io::Result<PathBuf>) -> Result<PathBuf, ToolError> {
        root.map_err(|e| {
            ToolError::new(format!(
                "the workspace root {} is not accessible ({e}); the tool can't read anything until it exists",
                self.root.display()
            ))
        })
    }
}

impl Resolved {
    /// A path under the root as the model should write it: relative, `/`-separated, `.` for
    /// the root itself.
    pub fn relative(&self, path: &Path) -> String {
        relative_to(&self.root, path)
    }

    /// This path, relative to the root.
    pub fn display(&self) -> String {
        relative_to(&self.root, &self.path)
    }
}

/// Refuses a directory, or anything else that isn't a regular file (a FIFO would block the
/// read forever), with a message that says what to do instead.
pub(crate) fn require_file(resolved: &Resolved, path: &str) -> Result<(), ToolError> {
    let meta = std::fs::metadata(&resolved.path)
        .map_err(|e| ToolError::new(format!("{path:?} can't be accessed: {e}")))?;
    if meta.is_dir() {
        Err(ToolError::new(format!(
            "{path:?} is a directory; list it with list_dir, or give the path of a file inside it"
        )))
    } else if !meta.is_file() {
        Err(ToolError::new(format!(
            "{path:?} is not a regular file (a device, socket or pipe); only regular files can be read"
        )))
    } else {
        Ok(())
    }
}

fn relative_to(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<_> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

/// Rejects what is wrong with a path before touching the file system: empty, absolute, or
/// climbing above the root with `..`.
fn check_relative(path: &str) -> Result<(), ToolError> {
    if path.trim().is_empty() {
        return Err(ToolError::new(
            "the path is empty: give a path relative to the workspace root, such as \"src/main.rs\" or \".\"",
        ));
    }
    if path.contains('\0') {
        return Err(ToolError::new(format!(
            "the path {path:?} contains a NUL character"
        )));
    }
    let mut depth = 0usize;
    for component in Path::new(path).components() {
        match component {
            Component::Prefix(_) | Component::RootDir => {
                return Err(ToolError::new(format!(
                    "{path:?} is an absolute path; give a path relative to the workspace root, such as \"src/main.rs\""
                )));
            }
            Component::CurDir => {}
            Component::ParentDir => {
                depth = depth.checked_sub(1).ok_or_else(|| {
                    ToolError::new(format!(
                        "{path:?} climbs above the workspace root with \"..\"; only paths inside the workspace are allowed"
                    ))
                })?;
            }
            Component::Normal(_) => depth += 1,
        }
    }
    Ok(())
}

/// Turns the canonicalized target into a [`Resolved`], refusing anything a symlink led
/// outside the root.
fn confine(path: &str, root: PathBuf, target: io::Result<PathBuf>) -> Result<Resolved, ToolError> {
    let target = target.map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => ToolError::new(format!(
            "{path:?} does not exist in the workspace; check the spelling, or list the parent directory with list_dir"
        )),
        io::ErrorKind::PermissionDenied => {
            ToolError::new(format!("{path:?} can't be accessed: permission denied"))
        }
        _ => ToolError::new(format!("{path:?} can't be accessed: {e}")),
    })?;
    if !target.starts_with(&root) {
        return Err(ToolError::new(format!(
            "{path:?} leads outside the workspace through a symbolic link; only files inside the workspace are allowed"
        )));
    }
    Ok(Resolved { path: target, root })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn setup() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/a.txt"), "a").unwrap();
        let ws = Workspace::new(dir.path());
        (dir, ws)
    }

    #[test]
    fn inside_paths_resolve() {
        let (_dir, ws) = setup();
        assert_eq!(ws.resolve("sub/a.txt").unwrap().display(), "sub/a.txt");
        assert_eq!(
            ws.resolve("./sub/../sub/a.txt").unwrap().display(),
            "sub/a.txt"
        );
        assert_eq!(ws.resolve(".").unwrap().display(), ".");
    }

    #[test]
    fn escapes_are_refused() {
        let (_dir, ws) = setup();
        for bad in ["..", "../x", "sub/../../x", "/etc/passwd", "", "  "] {
            let err = ws.resolve(bad).unwrap_err();
            assert!(
                err.message.contains("above the workspace")
                    || err.message.contains("absolute")
                    || err.message.contains("empty"),
                "{bad}: {}",
                err.message
            );
        }
    }

    #[test]
    fn missing_paths_say_so() {
        let (_dir, ws) = setup();
        let err = ws.resolve("sub/nope.txt").unwrap_err();
        assert!(err.message.contains("does not exist"), "{}", err.message);
    }

    #[test]
    fn missing_root_says_so() {
        let ws = Workspace::new("/definitely/not/a/root/here");
        let err = ws.resolve("a.txt").unwrap_err();
        assert!(err.message.contains("workspace root"), "{}", err.message);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let (dir, ws) = setup();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.txt"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
        std::os::unix::fs::symlink("sub/a.txt", dir.path().join("inner")).unwrap();
        let err = ws.resolve("link/secret.txt").unwrap_err();
        assert!(err.message.contains("symbolic link"), "{}", err.message);
        // A link that stays inside is fine.
        assert_eq!(ws.resolve("inner").unwrap().display(), "sub/a.txt");
    }

    #[tokio::test]
    async fn async_resolution_matches() {
        let (_dir, ws) = setup();
        assert_eq!(
            ws.resolve_async("sub").await.unwrap().display(),
            ws.resolve("sub").unwrap().display()
        );
        assert!(ws.resolve_async("../x").await.is_err());
    }
}
