//! The directory the file tools may touch, and the check that keeps every path inside it.
//!
//! A model names files by paths relative to the workspace root. A path is accepted only if
//! it is relative, never climbs above the root (`..`), and still lies inside the root once
//! symbolic links are resolved: the lexical check gives a clear message for the common
//! mistakes, and [`Workspace::open`] opens the path once, under the root's descriptor, with
//! `openat2(RESOLVE_BENEATH)`: the kernel refuses any resolution that leaves the root (an
//! absolute symbolic link included), and what was checked is what is read, however the
//! entries change meanwhile. Where the kernel lacks `openat2`, each component is opened with
//! `O_NOFOLLOW`, which refuses every symbolic link.

use std::io;
use std::path::{Component, Path, PathBuf};
use tool_runtime::ToolError;

/// The root directory the file tools are confined to, given to the registry as state, and
/// what of this process's environment the programs `exec_command` runs may see.
#[derive(Clone, Debug)]
pub struct Workspace {
    root: PathBuf,
    pass_env: Vec<String>,
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
        Workspace {
            root: root.into(),
            pass_env: Vec::new(),
        }
    }

    /// Also passes these environment variables to the programs `exec_command` runs (by
    /// default they get only `PATH`, `HOME`, the locale, `TERM`, `USER`, `TMPDIR` and `TZ`:
    /// secrets in the environment stay out of reach).
    #[must_use]
    pub fn pass_env<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Workspace {
        self.pass_env.extend(names.into_iter().map(Into::into));
        self
    }

    /// The variables [`pass_env`](Self::pass_env) added.
    pub fn passed_env(&self) -> &[String] {
        &self.pass_env
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

impl Workspace {
    /// Opens a model-given path under the root, once: the descriptor is the file or directory
    /// the checks were about, so a file swapped for a symbolic link meanwhile can't be read
    /// through. With where it is, for messages.
    pub fn open(&self, path: &str) -> Result<(std::fs::File, Resolved), ToolError> {
        check_relative(path)?;
        let root = self.checked_root(std::fs::canonicalize(&self.root))?;
        let file = self
            .open_under(&root, Path::new(path))
            .map_err(|e| open_error(path, &e))?;
        // Where it is, as the kernel says: for messages only (the descriptor is what is read).
        let real = std::fs::read_link(fd_path(&file)).unwrap_or_else(|_| root.join(path));
        if !real.starts_with(&root) {
            return Err(outside(path));
        }
        Ok((file, Resolved { path: real, root }))
    }

    /// Opens `relative` (a path under `root`, the canonical root) beneath the root.
    pub(crate) fn open_under(&self, root: &Path, relative: &Path) -> io::Result<std::fs::File> {
        let dir = std::fs::File::open(root)?;
        // The root itself is `.` (an empty path names nothing).
        let relative = if relative.as_os_str().is_empty() {
            Path::new(".")
        } else {
            relative
        };
        open_beneath(&dir, relative).map(std::fs::File::from)
    }
}

/// The path through which a process reaches what `file` is open on (`/proc/self/fd/N`): for
/// APIs that want a path, without resolving the name again.
pub(crate) fn fd_path(file: &std::fs::File) -> PathBuf {
    use std::os::fd::AsRawFd;
    PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()))
}

/// `openat2(dir, path, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`, or a component walk with
/// `O_NOFOLLOW` where the kernel has no `openat2`. Non-blocking, so a FIFO never blocks the
/// open (its type is checked on the descriptor after).
fn open_beneath(dir: &std::fs::File, path: &Path) -> io::Result<std::os::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
    let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
    match rustix::fs::openat2(dir, path, flags, Mode::empty(), resolve) {
        Err(rustix::io::Errno::NOSYS) => walk(dir, path, flags),
        opened => opened.map_err(io::Error::from),
    }
}

/// One component at a time, none of them a symbolic link.
fn walk(
    dir: &std::fs::File,
    path: &Path,
    flags: rustix::fs::OFlags,
) -> io::Result<std::os::fd::OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    use std::os::fd::AsFd;
    let names: Vec<&std::ffi::OsStr> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(Ok(name)),
            Component::CurDir => None,
            _ => Some(Err(io::Error::from(io::ErrorKind::InvalidInput))),
        })
        .collect::<io::Result<_>>()?;
    let mut current = rustix::fs::openat(dir, ".", flags | OFlags::DIRECTORY, Mode::empty())?;
    for (i, name) in names.iter().enumerate() {
        let last = i + 1 == names.len();
        let flags = flags
            | OFlags::NOFOLLOW
            | if last {
                OFlags::empty()
            } else {
                OFlags::DIRECTORY
            };
        current = rustix::fs::openat(current.as_fd(), *name, flags, Mode::empty())?;
    }
    Ok(current)
}

/// An error opening `path`, said as the model can act on it.
fn open_error(path: &str, e: &io::Error) -> ToolError {
    match e.raw_os_error() {
        // Out of the root (`RESOLVE_BENEATH`), or a link where none may be (`O_NOFOLLOW`).
        Some(libc::EXDEV | libc::ELOOP) => outside(path),
        _ => match e.kind() {
            io::ErrorKind::NotFound => ToolError::new(format!(
                "{path:?} does not exist in the workspace; check the spelling, or list the parent directory with list_dir"
            )),
            io::ErrorKind::PermissionDenied => {
                ToolError::new(format!("{path:?} can't be accessed: permission denied"))
            }
            _ => ToolError::new(format!("{path:?} can't be accessed: {e}")),
        },
    }
}

fn outside(path: &str) -> ToolError {
    ToolError::new(format!(
        "{path:?} leads outside the workspace through a symbolic link; only files inside the workspace are allowed"
    ))
}

/// Refuses what [`Workspace::open`] opened when it isn't a regular file (a directory, a FIFO
/// whose read would never end), checked on the descriptor itself.
pub(crate) fn require_open_file(file: &std::fs::File, path: &str) -> Result<u64, ToolError> {
    let meta = file
        .metadata()
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
        Ok(meta.len())
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
