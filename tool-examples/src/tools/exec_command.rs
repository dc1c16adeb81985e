//! `exec_command`: run a program in the workspace, without a shell, under a timeout (sync).
//!
//! The argument vector goes to the operating system as it is, so nothing the model writes is
//! ever parsed by a shell: `;`, `|`, `$(...)`, globs and quotes are plain characters in an
//! argument. The tool is `destructive` (a program can do anything the user can), so a
//! registry's approval policy asks before each call.

use crate::workspace::Workspace;
use serde::Serialize;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
#[cfg(target_os = "linux")]
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};
use tool_runtime::{tool, State, ToolError};

/// The timeout when the model gives none.
const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// The longest a program may run, whatever the model asks.
const MAX_TIMEOUT_MS: u64 = 60_000;
/// Each stream keeps this many bytes from its start and as many from its end, so a program
/// that prints gigabytes can't exhaust memory; the registry's output cap cuts further.
const KEEP_BYTES: usize = 32 * 1024;
/// How long to wait for the output pipes to close once the program has ended: a process it
/// started may hold them open long after.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// How a program run ended, and what it printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommandOutput {
    /// The exit code; `null` when the program was killed (by the timeout or a signal).
    pub exit_code: Option<i32>,
    /// The signal that ended the program, on Unix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    /// Whether the timeout killed the program.
    pub timed_out: bool,
    /// How long the program ran, in milliseconds.
    pub duration_ms: u64,
    /// What it wrote to standard output (invalid UTF-8 replaced with `�`).
    pub stdout: String,
    /// What it wrote to standard error.
    pub stderr: String,
}

/// Run a program in the workspace and return its exit code and output.
///
/// `argv` is the program and its arguments, passed as they are: no shell runs, so characters
/// such as `|`, `;`, `>`, `*`, `$VAR` and `$(...)` reach the program literally. The program
/// runs in `workdir` (relative to the workspace root) with no input, and is killed after
/// `timeout_ms` milliseconds (at most 60000). Nothing it starts outlives it, and it sees
/// only a basic environment (PATH, HOME, locale). Returns JSON: `exit_code`, `timed_out`,
/// `duration_ms`, `stdout` and `stderr`; long output keeps its beginning and end.
#[tool(destructive)]
pub fn exec_command(
    /// The program and its arguments, for example ["cargo", "test", "--quiet"].
    argv: Vec<String>,
    /// The directory to run in, relative to the workspace root.
    #[tool(default = String::from("."))]
    workdir: String,
    /// Milliseconds before the program is killed; more than 60000 counts as 60000.
    #[tool(default = DEFAULT_TIMEOUT_MS)]
    #[schemars(range(min = 1))]
    timeout_ms: u64,
    workspace: State<Workspace>,
) -> Result<CommandOutput, ToolError> {
    let Some((program, args)) = argv.split_first() else {
        return Err(ToolError::new(
            "argv is empty: give the program and its arguments, for example [\"ls\", \"-l\"]",
        ));
    };
    if program.trim().is_empty() {
        return Err(ToolError::new(
            "argv[0] is empty: it must name the program to run, for example \"ls\"",
        ));
    }
    if let Some(i) = argv.iter().position(|a| a.contains('\0')) {
        return Err(ToolError::new(format!(
            "argv[{i}] contains a NUL character, which no program can receive"
        )));
    }
    // Opened once beneath the root; the program starts in that very directory (through its
    // descriptor's `/proc/self/fd` path), not in whatever the name points to by then.
    let (dir, _) = workspace.open(&workdir)?;
    if !dir.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(ToolError::new(format!(
            "workdir {workdir:?} is not a directory; give a directory relative to the workspace root, such as \".\""
        )));
    }

    let started = Instant::now();
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(crate::workspace::fd_path(&dir))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Only the environment a program needs, and what the user allowed: API keys and tokens
    // in this process's environment stay here.
    command.env_clear();
    for name in BASE_ENV
        .iter()
        .copied()
        .chain(workspace.passed_env().iter().map(String::as_str))
    {
        if let Some(value) = std::env::var_os(name) {
            command.env(name, value);
        }
    }
    // A group of its own, so the timeout can kill what the program started as well.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    // And, on Linux, a waiter that ends everything the program started when it ends (a PID
    // namespace where the system allows one, a child subreaper everywhere): `setsid` or not.
    #[cfg(target_os = "linux")]
    {
        let caller = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
        // SAFETY: `contain` makes only async-signal-safe calls (unshare, prctl, sigaction,
        // fork, waitpid, open, read, kill, close_range, _exit), as a `pre_exec` closure must.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || contain(caller));
        }
    }
    let mut child = command.spawn().map_err(|e| spawn_error(program, &e))?;
    let _group = Running::register(&child);
    let stdout = Drain::start(child.stdout.take());
    let stderr = Drain::start(child.stderr.take());
    let status = wait(&mut child, effective_timeout(timeout_ms))
        .map_err(|e| ToolError::new(format!("waiting for {program:?} failed: {e}")))?;
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let deadline = Instant::now() + DRAIN_GRACE;
    Ok(CommandOutput {
        exit_code: status.and_then(|s| s.code()),
        signal: status.and_then(signal),
        timed_out: status.is_none(),
        duration_ms,
        stdout: stdout.finish(deadline),
        stderr: stderr.finish(deadline),
    })
}

/// The environment variables a program gets by default (when set here).
const BASE_ENV: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TMPDIR", "TZ",
];

/// Runs in the forked child before `exec`, and makes it the program's *waiter*: it forks
/// once more, the new child goes on to `exec` the program, and the waiter only waits for it
/// and exits with its status (so the caller's wait, timeout and kill work on it as on the
/// program), but not before everything the program started has ended:
///
/// - where the system allows a PID namespace (root, CAP_SYS_ADMIN), the program runs as its
///   PID 1, and when it ends the kernel kills every process left in the namespace;
/// - in every case the waiter is a *child subreaper* (`PR_SET_CHILD_SUBREAPER`): a process the
///   program started whose parent ends (a background child, one that called `setsid`, a
///   daemon that forked twice) becomes the waiter's child instead of init's, so when the
///   program has ended the waiter finds its children (`/proc/self/task/N/children`), kills
///   them, takes in theirs, and goes on until none is left.
///
/// The caller's timeout sends the waiter SIGTERM: it kills the program, then does the same.
/// The waiter ends with the caller (`PR_SET_PDEATHSIG`, the same SIGTERM), the program with
/// the waiter. `caller` is the caller's pid, to notice a caller that ended before that was
/// set up.
#[cfg(target_os = "linux")]
fn contain(caller: libc::pid_t) -> io::Result<()> {
    // SAFETY: only async-signal-safe libc calls, in a child between fork and exec; the waiter
    // never returns, and allocates nothing.
    unsafe {
        let namespace = libc::unshare(libc::CLONE_NEWPID) == 0;
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1) != 0 {
            return Err(io::Error::last_os_error());
        }
        // SIGTERM from the caller (or the kernel, as the caller's death signal): stop. Not
        // from anyone else: the waiter shares the program's group, so a script's `kill -TERM
        // 0` reaches it too. SIGINT and SIGQUIT (Ctrl-C passed on to the group) are for the
        // program, which decides what to do with them; the waiter stays to clean up.
        CALLER.store(caller, Ordering::SeqCst);
        let mut stop: libc::sigaction = std::mem::zeroed();
        stop.sa_sigaction = on_stop as OnStop as libc::sighandler_t;
        stop.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut stop.sa_mask);
        let mut old_term: libc::sigaction = std::mem::zeroed();
        let mut old_int: libc::sigaction = std::mem::zeroed();
        let mut old_quit: libc::sigaction = std::mem::zeroed();
        let mut ignore: libc::sigaction = std::mem::zeroed();
        ignore.sa_sigaction = libc::SIG_IGN;
        libc::sigaction(libc::SIGTERM, &stop, &mut old_term);
        libc::sigaction(libc::SIGINT, &ignore, &mut old_int);
        libc::sigaction(libc::SIGQUIT, &ignore, &mut old_quit);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
        if libc::getppid() != caller {
            STOP.store(true, Ordering::SeqCst);
        }
        let waiter = libc::getpid();
        match libc::fork() {
            -1 => Err(io::Error::last_os_error()),
            0 => {
                // The program: the signals as they were, and it must not outlive the waiter.
                libc::sigaction(libc::SIGTERM, &old_term, std::ptr::null_mut());
                libc::sigaction(libc::SIGINT, &old_int, std::ptr::null_mut());
                libc::sigaction(libc::SIGQUIT, &old_quit, std::ptr::null_mut());
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                // (In a namespace its parent is outside it, `getppid` says 0: no check.)
                if !namespace && libc::getppid() != waiter {
                    libc::_exit(127);
                }
                Ok(())
            }
            program => wait_then_sweep(program),
        }
    }
}

/// Set by SIGTERM in a waiter: kill the program now.
#[cfg(target_os = "linux")]
static STOP: AtomicBool = AtomicBool::new(false);
/// The waiter's program, for its SIGTERM handler (0 until it is forked).
#[cfg(target_os = "linux")]
static PROGRAM: AtomicI32 = AtomicI32::new(0);

/// The caller's pid, for a waiter's SIGTERM handler to know who sent it.
#[cfg(target_os = "linux")]
static CALLER: AtomicI32 = AtomicI32::new(0);

#[cfg(target_os = "linux")]
type OnStop = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

/// A waiter's SIGTERM handler: kills the program when the caller sent it (async-signal-safe:
/// atomics and `kill`); a SIGTERM from anyone else, such as the program signalling its own
/// process group, is the program's business.
#[cfg(target_os = "linux")]
extern "C" fn on_stop(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: with SA_SIGINFO the kernel passes a valid siginfo_t; `si_pid` is the sender's.
    let sender = unsafe { info.as_ref().map_or(0, |info| info.si_pid()) };
    if sender != 0 && sender != CALLER.load(Ordering::SeqCst) {
        return;
    }
    STOP.store(true, Ordering::SeqCst);
    let program = PROGRAM.load(Ordering::SeqCst);
    if program > 0 {
        // SAFETY: kill only sends a signal; the program is this process's unreaped child.
        unsafe { libc::kill(program, libc::SIGKILL) };
    }
}

/// The waiter's life once the program is forked: wait for it, end what it left, exit as it
/// did.
#[cfg(target_os = "linux")]
unsafe fn wait_then_sweep(program: libc::pid_t) -> ! {
    // SAFETY: async-signal-safe calls only (see `contain`).
    unsafe {
        PROGRAM.store(program, Ordering::SeqCst);
        if STOP.load(Ordering::SeqCst) {
            libc::kill(program, libc::SIGKILL);
        }
        // The waiter holds no descriptor of the caller's: its `exec` report pipe (which would
        // keep `spawn` waiting) and the program's output are the program's.
        libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32);
        // Waited for without reaping, so the handler can't kill its pid once it may be
        // someone else's: forgotten first, then reaped.
        let mut info: libc::siginfo_t = std::mem::zeroed();
        while libc::waitid(
            libc::P_PID,
            program.unsigned_abs(),
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        ) == -1
        {
            if *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        }
        PROGRAM.store(0, Ordering::SeqCst);
        let mut status = 0;
        while libc::waitpid(program, &mut status, 0) == -1 {
            if *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        }
        sweep();
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        }
        libc::_exit(libc::WEXITSTATUS(status))
    }
}

/// Kills the waiter's children until it has none: each killed process's own children come
/// to the waiter (its subreaper) in turn. Stops early only when every child left refused the
/// signal (a program that gained privileges, `sudo`) or the children can't be listed (no
/// `/proc`), rounds capped so a fork bomb can't keep the waiter forever.
#[cfg(target_os = "linux")]
unsafe fn sweep() {
    // SAFETY: async-signal-safe calls only (see `contain`).
    unsafe {
        let mut status = 0;
        for _ in 0..100_000 {
            while libc::waitpid(-1, &mut status, libc::WNOHANG) > 0 {}
            if kill_children() == 0 {
                return;
            }
            // At least one was killed: wait for a death (EINTR: look again).
            libc::waitpid(-1, &mut status, 0);
        }
    }
}

/// Sends SIGKILL to each child of the waiter listed in `/proc/self/task/PID/children` (the
/// waiter has one thread); how many took it. No allocation: the path and the list are read
/// through fixed buffers.
#[cfg(target_os = "linux")]
unsafe fn kill_children() -> usize {
    let mut path = [0u8; 64];
    let head = b"/proc/self/task/";
    path[..head.len()].copy_from_slice(head);
    let mut at = head.len();
    // SAFETY: getpid has no preconditions.
    let pid = unsafe { libc::getpid() };
    let mut digits = [0u8; 12];
    let mut n = 0;
    let mut rest = pid.unsigned_abs();
    loop {
        digits[n] = b'0' + (rest % 10) as u8;
        n += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for i in (0..n).rev() {
        path[at] = digits[i];
        at += 1;
    }
    let tail = b"/children\0";
    path[at..at + tail.len()].copy_from_slice(tail);
    // SAFETY: `path` is NUL-terminated; the descriptor is closed below.
    let fd = unsafe { libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return 0;
    }
    let mut killed = 0;
    let mut child: libc::pid_t = 0;
    let mut buf = [0u8; 512];
    loop {
        // SAFETY: reads at most `buf.len()` bytes into `buf`.
        let read = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        let Ok(read @ 1..) = usize::try_from(read) else {
            break;
        };
        for &byte in &buf[..read.min(buf.len())] {
            if byte.is_ascii_digit() {
                child = child
                    .saturating_mul(10)
                    .saturating_add(libc::pid_t::from(byte - b'0'));
            } else if child > 0 {
                // SAFETY: kill only sends a signal; an unreaped child's pid can't be reused.
                killed += usize::from(unsafe { libc::kill(child, libc::SIGKILL) } == 0);
                child = 0;
            }
        }
    }
    if child > 0 {
        // SAFETY: as above.
        killed += usize::from(unsafe { libc::kill(child, libc::SIGKILL) } == 0);
    }
    // SAFETY: `fd` was opened above.
    unsafe { libc::close(fd) };
    killed
}

/// The timeout asked for, at least 1 ms and at most 60 s.
fn effective_timeout(ms: u64) -> Duration {
    Duration::from_millis(ms.clamp(1, MAX_TIMEOUT_MS))
}

/// Waits for the child to exit; `None` when the timeout came first and it was killed.
fn wait(child: &mut Child, timeout: Duration) -> io::Result<Option<ExitStatus>> {
    let deadline = Instant::now() + timeout;
    // Polling (1 ms, doubling to 50 ms) keeps `child` here, where the timeout can kill it.
    let mut pause = Duration::from_millis(1);
    loop {
        if ended(child)? {
            // What is left of its process group goes with it (the waiter has ended what it
            // found; this catches what it couldn't list), then it is reaped.
            kill(child);
            return child.wait().map(Some);
        }
        let now = Instant::now();
        if now >= deadline {
            stop(child)?;
            return Ok(None);
        }
        thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Whether the child has exited, leaving it unreaped: its pid, which is also its process
/// group's id, stays its own until [`Child::wait`], so [`kill`] can't reach anyone else's.
#[cfg(target_os = "linux")]
fn ended(child: &Child) -> io::Result<bool> {
    let pid: libc::id_t = child.id();
    // SAFETY: waitid writes one siginfo_t into `info`; WNOWAIT leaves the child unreaped.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let options = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        if libc::waitid(libc::P_PID, pid, &mut info, options) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(info.si_pid() != 0)
    }
}

#[cfg(not(target_os = "linux"))]
fn ended(child: &mut Child) -> io::Result<bool> {
    // Reaped at once here: `kill` after it may find the group gone, never someone else's
    // (a group's id stays taken while any member lives).
    Ok(child.try_wait()?.is_some())
}

/// How long the waiter has to end the program and what it started once asked, before its
/// whole process group is killed.
#[cfg(target_os = "linux")]
const STOP_GRACE: Duration = Duration::from_secs(2);

/// The timeout: the waiter is asked to end the program and everything it started (SIGTERM,
/// see [`contain`]); if it hasn't within [`STOP_GRACE`], the process group is killed. Then
/// the child is reaped.
#[cfg(target_os = "linux")]
fn stop(child: &mut Child) -> io::Result<()> {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill only sends a signal to the unreaped child.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    let deadline = Instant::now() + STOP_GRACE;
    while !ended(child)? && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(5));
    }
    kill(child);
    child.wait().map(drop)
}

#[cfg(not(target_os = "linux"))]
fn stop(child: &mut Child) -> io::Result<()> {
    // It may have exited just now; either way it is reaped.
    kill(child);
    child.wait().map(drop)
}

/// The process groups of the programs running now. In a group of its own a program no longer
/// gets the terminal's Ctrl-C, so [`interrupt_running`] passes it on.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// A program's place in [`RUNNING`], given back when its call ends.
struct Running(u32);

impl Running {
    fn register(child: &Child) -> Running {
        let pid = child.id();
        RUNNING.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
        Running(pid)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|&pid| pid != self.0);
    }
}

/// Sends SIGINT to every program `exec_command` is running, as a terminal's Ctrl-C would
/// have before each got a process group of its own. For a CLI's Ctrl-C handler.
pub fn interrupt_running() {
    #[cfg(unix)]
    for &pid in RUNNING.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        if let Ok(pid) = libc::pid_t::try_from(pid) {
            // SAFETY: killpg only sends a signal; a group that has ended makes it fail.
            unsafe { libc::killpg(pid, libc::SIGINT) };
        }
    }
}

/// Kills the program's whole process group: `sh`, `make` or `cargo test` leave their work to
/// children, which would otherwise outlive the timeout.
#[cfg(unix)]
fn kill(child: &mut Child) {
    // The group's id is the child's pid, not reusable before the child is reaped.
    // SAFETY: killpg only sends a signal to the group the child leads.
    let killed = libc::pid_t::try_from(child.id())
        .is_ok_and(|pid| unsafe { libc::killpg(pid, libc::SIGKILL) } == 0);
    if !killed {
        let _ = child.kill();
    }
}

#[cfg(not(unix))]
fn kill(child: &mut Child) {
    let _ = child.kill();
}

#[cfg(unix)]
fn signal(status: ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&status)
}

#[cfg(not(unix))]
fn signal(_: ExitStatus) -> Option<i32> {
    None
}

fn spawn_error(program: &str, error: &io::Error) -> ToolError {
    match error.kind() {
        io::ErrorKind::NotFound => ToolError::new(format!(
            "the program {program:?} was not found; check its name, or give its path"
        )),
        io::ErrorKind::PermissionDenied => ToolError::new(format!(
            "{program:?} can't be run: permission denied (is it an executable file?)"
        )),
        _ => ToolError::new(format!("{program:?} could not be started: {error}")),
    }
}

/// One output stream, read on its own thread so neither pipe fills up and stalls the program.
struct Drain {
    kept: Arc<Mutex<Kept>>,
    done: Receiver<()>,
}

impl Drain {
    fn start(stream: Option<impl Read + Send + 'static>) -> Drain {
        let kept = Arc::new(Mutex::new(Kept::default()));
        let (tx, done) = mpsc::channel();
        if let Some(mut stream) = stream {
            let kept = Arc::clone(&kept);
            thread::spawn(move || {
                let mut buf = [0u8; 8192];
                while let Ok(n @ 1..) = stream.read(&mut buf) {
                    if let Ok(mut kept) = kept.lock() {
                        kept.push(&buf[..n]);
                    }
                }
                let _ = tx.send(());
            });
        }
        Drain { kept, done }
    }

    /// The text read, once the stream has closed or the deadline has passed.
    fn finish(self, deadline: Instant) -> String {
        let _ = self
            .done
            .recv_timeout(deadline.saturating_duration_since(Instant::now()));
        let kept = match self.kept.lock() {
            Ok(mut kept) => std::mem::take(&mut *kept),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        kept.into_text()
    }
}

/// A stream's first and last [`KEEP_BYTES`] bytes, and a count of those dropped between.
#[derive(Default)]
struct Kept {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    dropped: u64,
}

impl Kept {
    fn push(&mut self, bytes: &[u8]) {
        let room = KEEP_BYTES - self.head.len();
        let (head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(head);
        self.tail.extend(rest);
        let excess = self.tail.len().saturating_sub(KEEP_BYTES);
        self.tail.drain(..excess);
        self.dropped += excess as u64;
    }

    fn into_text(self) -> String {
        let mut text = String::from_utf8_lossy(&self.head).into_owned();
        if self.dropped > 0 {
            text.push_str(&format!("\n[... {} bytes not kept ...]\n", self.dropped));
        }
        let tail: Vec<u8> = self.tail.into();
        text.push_str(&String::from_utf8_lossy(&tail));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn setup() -> (tempfile::TempDir, State<Workspace>) {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("file.txt"), "x").unwrap();
        let ws = State(Arc::new(Workspace::new(dir.path())));
        (dir, ws)
    }

    fn run(ws: &State<Workspace>, argv: &[&str]) -> Result<CommandOutput, ToolError> {
        let argv = argv.iter().map(|a| a.to_string()).collect();
        exec_command(argv, ".".into(), DEFAULT_TIMEOUT_MS, ws.clone())
    }

    #[cfg(unix)]
    #[test]
    fn shell_characters_are_plain_arguments() {
        let (dir, ws) = setup();
        let argv = [
            "echo",
            "a;",
            "touch",
            "pwned",
            "|",
            "cat",
            "$(touch pwned2)",
            "`id`",
            "&&",
            "$HOME",
            "*",
            ">",
            "out.txt",
        ];
        let out = run(&ws, &argv).unwrap();
        assert_eq!(
            out.stdout,
            "a; touch pwned | cat $(touch pwned2) `id` && $HOME * > out.txt\n"
        );
        assert_eq!(out.exit_code, Some(0));
        assert!(!out.timed_out);
        for never in ["pwned", "pwned2", "out.txt"] {
            assert!(!dir.path().join(never).exists(), "{never} was created");
        }
    }

    #[cfg(unix)]
    #[test]
    fn exit_codes_and_stderr_are_reported() {
        let (_dir, ws) = setup();
        let out = run(&ws, &["ls", "definitely-not-here"]).unwrap();
        assert_ne!(out.exit_code, Some(0));
        assert!(out.exit_code.is_some());
        assert!(out.stderr.contains("definitely-not-here"), "{}", out.stderr);
        assert_eq!(run(&ws, &["false"]).unwrap().exit_code, Some(1));
    }

    #[cfg(unix)]
    #[test]
    fn runs_in_the_workdir() {
        let (dir, ws) = setup();
        let out = exec_command(vec!["pwd".into()], "sub".into(), 5000, ws).unwrap();
        let expected = fs::canonicalize(dir.path().join("sub")).unwrap();
        assert_eq!(out.stdout.trim_end(), expected.to_str().unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn the_timeout_kills_the_program() {
        let (_dir, ws) = setup();
        let argv = vec!["sleep".into(), "10".into()];
        let started = Instant::now();
        let out = exec_command(argv, ".".into(), 200, ws).unwrap();
        assert!(out.timed_out);
        assert_eq!(out.exit_code, None);
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(out.duration_ms >= 200);
    }

    /// The waiter shares the program's process group: a script's `kill -TERM 0` reaches it
    /// too, but only the caller's SIGTERM stops the program.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_program_signalling_its_own_group_keeps_its_exit_code() {
        let (_dir, ws) = setup();
        let out = run(
            &ws,
            &["sh", "-c", "trap '' TERM; kill -TERM 0; echo after; exit 3"],
        )
        .unwrap();
        assert_eq!((out.exit_code, out.signal), (Some(3), None), "{out:?}");
        assert_eq!(out.stdout, "after\n");
    }

    #[test]
    fn the_timeout_is_clamped() {
        assert_eq!(effective_timeout(u64::MAX), Duration::from_secs(60));
        assert_eq!(effective_timeout(0), Duration::from_millis(1));
        assert_eq!(effective_timeout(1500), Duration::from_millis(1500));
    }

    #[cfg(unix)]
    #[test]
    fn long_output_keeps_its_ends() {
        let (_dir, ws) = setup();
        let out = run(&ws, &["seq", "1", "100000"]).unwrap();
        assert!(out.stdout.starts_with("1\n2\n3\n"));
        assert!(out.stdout.ends_with("99999\n100000\n"));
        assert!(out.stdout.contains(" bytes not kept ...]"));
        assert!(out.stdout.len() < 3 * KEEP_BYTES);
    }

    #[test]
    fn bad_inputs_fail_clearly() {
        let (_dir, ws) = setup();
        let message = |argv: &[&str], workdir: &str| {
            let argv = argv.iter().map(|a| a.to_string()).collect();
            exec_command(argv, workdir.into(), 1000, ws.clone())
                .unwrap_err()
                .message
        };
        assert!(message(&[], ".").contains("argv is empty"));
        assert!(message(&[" "], ".").contains("argv[0] is empty"));
        assert!(message(&["echo", "a\0b"], ".").contains("argv[1] contains a NUL"));
        assert!(message(&["definitely-not-a-program-xyz"], ".").contains("was not found"));
        assert!(message(&["echo"], "..").contains("above the workspace"));
        assert!(message(&["echo"], "/tmp").contains("absolute"));
        assert!(message(&["echo"], "nope").contains("does not exist"));
        assert!(message(&["echo"], "file.txt").contains("not a directory"));
    }

    #[cfg(unix)]
    #[test]
    fn through_the_registry_it_needs_approval_and_its_output_is_bounded() {
        use tool_runtime::pipeline::{Approval, ApprovalRequest};
        use tool_runtime::{ErrorCode, ToolOutput};
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        // Destructive: without an approver, the default policy denies the call.
        let unattended = crate::registry(root.clone()).unwrap();
        let out = unattended.call_blocking("exec_command", r#"{"argv": ["echo", "hi"]}"#);
        assert_eq!(out.as_error().unwrap().code, ErrorCode::Denied);

        let registry = crate::builder(root, Arc::default())
            .approver(|_: &ApprovalRequest<'_>| Approval::Allow)
            .build()
            .unwrap();
        let out = registry.call_blocking("exec_command", r#"{"argv": ["seq", "1", "100000"]}"#);
        let ToolOutput::Json(json) = &out else {
            panic!("expected JSON, got {out:?}");
        };
        // Cut to the registry's cap, still JSON, the exit code and both ends kept.
        assert!(json.as_str().len() <= ToolOutput::DEFAULT_MAX_OUTPUT);
        assert!(json.truncation().is_some());
        let value = json.to_value();
        assert_eq!(value["exit_code"], 0);
        assert_eq!(value["timed_out"], false);
        let stdout = value["stdout"].as_str().unwrap();
        assert!(stdout.starts_with("1\n2\n3\n"), "{stdout}");
        assert!(stdout.ends_with("99999\n100000\n"), "{stdout}");
    }

    #[test]
    fn kept_output_drops_the_middle() {
        let mut kept = Kept::default();
        kept.push(&vec![b'a'; KEEP_BYTES - 1]);
        kept.push(b"bc");
        kept.push(&vec![b'x'; KEEP_BYTES]);
        kept.push(b"yz");
        let text = kept.into_text();
        assert!(text.starts_with(&"a".repeat(KEEP_BYTES - 1)));
        assert!(text.contains("b\n[... 3 bytes not kept ...]\n"));
        assert!(text.ends_with("xyz"));
    }
}
