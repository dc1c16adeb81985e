//! Running a program with bytes on its standard input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `command` with `input` on its stdin and returns what it printed. The input is written
/// from a thread: the program may answer, or stop at a usage error, before reading all of it,
/// so a broken pipe is not an error here.
pub fn output_with_stdin(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child
        .wait_with_output()
        .expect("the program's output is read");
    let _ = writer.join();
    output
}
