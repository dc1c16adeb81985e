//! What the CLI prints reaches a person's terminal: nothing from outside (a model's text, its
//! calls, a tool's result) reaches it raw, results print as text, and the approval prompt
//! shows a command whole or not at all. The inputs are `tests/attacks/terminal/`; the far end
//! is the scripted upstream (a fixture, not a model), and the approval prompt is answered on a
//! real pseudo-terminal, the `chat` process's controlling terminal.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde::Deserialize;
use serde_json::Value;
use std::ffi::CString;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tool_test_support::attacks::{corpus_dir, expand, Part};
use tool_test_support::replies::*;
use tool_test_support::upstream::{Scripted, Upstream};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn chat_command(root: &Path, upstream: &Upstream, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tool-examples"));
    command
        .arg("--root")
        .arg(root)
        .args(["chat", "--model", "scripted", "--no-stream", "--url"])
        .arg(format!("{}/v1", upstream.url()))
        .args(extra)
        .stdin(Stdio::null());
    command
}

fn tool_results(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

/// One line of `tests/attacks/terminal/hidden.jsonl`: text holding characters a terminal
/// would act on or not show, and those characters (hexadecimal code points).
#[derive(Deserialize)]
struct Hidden {
    name: String,
    text: String,
    hidden: Vec<String>,
}

fn hidden_corpus() -> Vec<Hidden> {
    let text = std::fs::read_to_string(corpus_dir().join("terminal/hidden.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The model answers with every hostile text, calls a tool with them in its arguments and
/// one with them in its name: neither the answer (stdout) nor the call and result lines
/// (stderr) show any of them raw, and each is shown as its `\u{..}` escape.
#[test]
fn hidden_characters_reach_the_terminal_escaped() {
    let corpus = hidden_corpus();
    let all: Vec<&str> = corpus.iter().map(|h| h.text.as_str()).collect();
    let joined = all.join(" | ");
    let root = tempfile::tempdir().unwrap();
    let arguments = serde_json::json!({ "path": joined }).to_string();
    let name = format!("list_dir{}", corpus[1].text);
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[
            ("c1", "read_file", &arguments),
            ("c2", &name, "{}"),
        ])),
        Scripted::json(chat_text(&all.join("\n"))),
    ]);
    let out = chat_command(root.path(), &upstream, &["--prompt", "show me"])
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for entry in &corpus {
        for hex in &entry.hidden {
            let c = char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap();
            let escaped = format!("\\u{{{hex}}}");
            assert!(
                !stdout.contains(c) && !stderr.contains(c),
                "{}: U+{hex} reached the terminal raw:\n{stdout:?}\n{stderr:?}",
                entry.name
            );
            assert!(
                stdout.contains(&escaped),
                "{}: the answer does not show {escaped}: {stdout:?}",
                entry.name
            );
        }
    }
    // The unknown tool's name, on the call line and the result line.
    assert!(
        stderr.contains("→ list_dirrm\\u{2060} -rf\\u{ad} ~"),
        "{stderr}"
    );
    assert!(
        stderr.contains("← list_dirrm\\u{2060} -rf\\u{ad} ~ (error)"),
        "{stderr}"
    );
}

/// A result ending in a line break prints as that text, ending its line, not as `\u{a}`;
/// a result of many lines prints as lines.
#[test]
fn a_result_prints_as_text() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(
        root.path().join("marker.txt"),
        "first line\n\tsecond line\n",
    )
    .unwrap();
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[
            ("c1", "list_dir", "{}"),
            ("c2", "read_file", r#"{"path": "marker.txt"}"#),
        ])),
        Scripted::json(chat_text("Listed.")),
    ]);
    let out = chat_command(root.path(), &upstream, &["--prompt", "list"])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let results = tool_results(&upstream.requests()[1].body);
    assert!(results[0].ends_with("marker.txt\n"), "{results:?}");
    assert!(
        !stderr.contains("\\u{a}") && !stderr.contains("\\u{9}"),
        "{stderr}"
    );
    assert!(stderr.contains("← list_dir: marker.txt\n"), "{stderr}");
    // read_file's numbered lines, each on a line of its own, the tab kept.
    let read = stderr.split("← read_file: ").nth(1).unwrap();
    let first = read
        .lines()
        .position(|l| l.ends_with("first line"))
        .unwrap();
    assert!(
        read.lines()
            .nth(first + 1)
            .unwrap()
            .ends_with("\tsecond line"),
        "{read}"
    );
}

/// One line of `tests/attacks/terminal/approval.jsonl`: an `exec_command` call's arguments,
/// the text the prompt must show, whether it is too long to show at once, and the answer.
#[derive(Deserialize)]
struct ApprovalCase {
    name: String,
    arguments_gen: Vec<Part>,
    must_show: String,
    too_long: bool,
    answer: String,
    #[serde(default)]
    creates: Option<String>,
    #[serde(default)]
    no_file: Option<String>,
}

/// A pseudo-terminal: the child gets the far end as its controlling terminal (so the approval
/// prompt opens it as `/dev/tty`), the test reads and types on this end.
struct Pty {
    master: File,
    far_end: CString,
    /// The far end held open here too, so the terminal doesn't hang up (reads failing with
    /// `EIO`) before the child opens it or after it ends.
    _held: File,
}

impl Pty {
    fn open() -> Pty {
        // SAFETY: plain libc calls on a descriptor this function owns; `ptsname_r` writes at
        // most `name.len()` bytes, NUL included.
        unsafe {
            let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
            assert!(fd >= 0, "posix_openpt: {}", std::io::Error::last_os_error());
            let master = File::from_raw_fd(fd);
            assert_eq!(libc::grantpt(fd), 0);
            assert_eq!(libc::unlockpt(fd), 0);
            let mut name = [0 as libc::c_char; 128];
            assert_eq!(libc::ptsname_r(fd, name.as_mut_ptr(), name.len()), 0);
            let far_end = std::ffi::CStr::from_ptr(name.as_ptr()).to_owned();
            let held = libc::open(far_end.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
            assert!(held >= 0, "{}", std::io::Error::last_os_error());
            Pty {
                master,
                far_end,
                _held: File::from_raw_fd(held),
            }
        }
    }

    /// Makes the far end the controlling terminal of what `command` starts.
    fn attach(&self, command: &mut Command) {
        let far_end = self.far_end.clone();
        // SAFETY: only async-signal-safe calls (setsid, open, ioctl, close) between fork and
        // exec; the path was allocated before the fork.
        unsafe {
            command.pre_exec(move || {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                let fd = libc::open(far_end.as_ptr(), libc::O_RDWR);
                if fd < 0 || libc::ioctl(fd, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::close(fd);
                Ok(())
            });
        }
    }

    /// Reads what the terminal shows until it holds `needle` (carriage returns dropped),
    /// waiting at most 20 s.
    fn read_until(&mut self, seen: &mut String, needle: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut buf = [0u8; 4096];
        while !seen.contains(needle) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no {needle:?} on the terminal: {seen:?}");
            let mut poll = libc::pollfd {
                fd: self.master.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut poll, 1, 100) };
            if ready <= 0 {
                continue;
            }
            match self.master.read(&mut buf) {
                Ok(n @ 1..) => seen.push_str(&text(&buf[..n]).replace('\r', "")),
                _ => panic!("the terminal closed before {needle:?}: {seen:?}"),
            }
        }
    }

    fn type_line(&mut self, line: &str) {
        self.master
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }
}

/// The prompt's lines joined again where it folded them.
fn unfolded(shown: &str) -> String {
    shown.replace("\n  ↪ ", "")
}

/// Runs `chat`, whose model calls `exec_command` with `arguments`, on a terminal; `converse`
/// answers the prompt. The output, and the result the model was sent.
fn approve_on_a_terminal(
    root: &Path,
    arguments: &str,
    converse: impl FnOnce(&mut Pty, &mut String),
) -> (Output, String, String) {
    let upstream = Upstream::start([
        Scripted::json(chat_calls(&[("c1", "exec_command", arguments)])),
        Scripted::json(chat_text("Done.")),
    ]);
    let mut pty = Pty::open();
    let mut command = chat_command(root, &upstream, &["--prompt", "build it"]);
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    pty.attach(&mut command);
    let child = command.spawn().unwrap();
    let mut seen = String::new();
    converse(&mut pty, &mut seen);
    let out = child.wait_with_output().unwrap();
    let result = tool_results(&upstream.requests()[1].body).remove(0);
    (out, seen, result)
}

#[test]
fn the_approval_prompt_shows_a_command_whole_or_not_at_all() {
    let text = std::fs::read_to_string(corpus_dir().join("terminal/approval.jsonl")).unwrap();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: ApprovalCase = serde_json::from_str(line).unwrap();
        let root = tempfile::tempdir().unwrap();
        let arguments = expand(&case.arguments_gen);
        let (out, seen, result) = approve_on_a_terminal(root.path(), &arguments, |pty, seen| {
            if case.too_long {
                // Not asked to allow what it can't show: asked whether to show it all.
                pty.read_until(seen, "[s/N] ");
                assert!(!seen.contains("[y/N]"), "{}: {seen}", case.name);
                if case.answer == "n" {
                    pty.type_line("");
                    return;
                }
                pty.type_line("s");
            }
            pty.read_until(seen, "[y/N] ");
            pty.type_line(&case.answer);
        });
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: {stderr}", case.name);
        let shown = unfolded(&seen);
        assert!(
            shown.contains(&case.must_show),
            "{}: the prompt hid {:?}:\n{seen}",
            case.name,
            case.must_show
        );
        assert!(!shown.contains("characters cut"), "{}: {seen}", case.name);
        // Nothing the model wrote reaches the terminal raw: no carriage return but the
        // terminal's own, no invisible character.
        assert!(
            !seen.contains('\u{2060}') && !seen.contains('\u{e0041}'),
            "{seen:?}"
        );
        if case.answer == "y" {
            assert!(!result.contains("declined"), "{}: {result}", case.name);
        } else {
            assert!(result.contains("declined"), "{}: {result}", case.name);
        }
        if case.too_long && case.answer == "n" {
            assert!(
                result.contains("too long to show"),
                "{}: {result}",
                case.name
            );
        }
        if let Some(file) = &case.creates {
            assert!(root.path().join(file).exists(), "{}: {result}", case.name);
        }
        if let Some(file) = &case.no_file {
            assert!(!root.path().join(file).exists(), "{}: {result}", case.name);
        }
    }
}
