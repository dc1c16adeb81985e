//! `read_file` on files made to cost more than what it returns: a text head and then an
//! enormous line, or NUL bytes past the first 8 KiB. Memory stays near what is shown, and
//! binary content is found wherever it starts. (Its own test binary: the peak resident memory
//! measured is this process's.)

use std::io::Write;
use tool_runtime::ToolOutput;

/// The process's peak resident memory so far, in KiB (`VmHWM`).
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// 8 KiB of short lines.
fn text_head() -> Vec<u8> {
    let mut head = Vec::new();
    let mut n = 0;
    while head.len() < 8 * 1024 {
        n += 1;
        head.extend_from_slice(format!("line {n}\n").as_bytes());
    }
    head
}

fn call(root: &std::path::Path, args: &str) -> ToolOutput {
    let registry = tool_examples::registry(root.to_path_buf()).unwrap();
    registry.call_blocking("read_file", args)
}

#[test]
fn an_enormous_line_costs_what_is_shown() {
    const LINE_MIB: usize = 256;
    let dir = tempfile::tempdir().unwrap();
    let mut file = std::fs::File::create(dir.path().join("big.txt")).unwrap();
    file.write_all(&text_head()).unwrap();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..LINE_MIB {
        file.write_all(&chunk).unwrap();
    }
    file.write_all(b"\nafter\n").unwrap();
    drop((file, chunk));

    let before = peak_kib();
    let output = call(
        dir.path(),
        r#"{"path": "big.txt", "offset": 900, "limit": 300}"#,
    );
    let grown_mib = (peak_kib().saturating_sub(before)) / 1024;
    let text = output.to_model_text();
    assert!(!output.is_error(), "{text}");
    // The enormous line is shown cut, and the line after it is still read.
    let long = text.lines().find(|l| l.contains("xxxx")).unwrap();
    assert!(
        long.ends_with('…') && long.len() < 1_000,
        "{}",
        &long[..100]
    );
    assert!(
        text.contains(": after"),
        "{}",
        &text[text.len().saturating_sub(200)..]
    );
    // Held at once: a few KiB of the line, not its 256 MiB.
    assert!(grown_mib < 32, "read_file grew the peak by {grown_mib} MiB");
}

#[test]
fn nul_bytes_anywhere_make_a_file_binary() {
    let dir = tempfile::tempdir().unwrap();
    // Past the first 8 KiB, inside a line.
    let mut bytes = text_head();
    bytes.extend_from_slice(b"text then \0\0 more\n");
    std::fs::write(dir.path().join("late.txt"), &bytes).unwrap();
    // A sparse file: the text head, then a gigabyte of zeros that takes no disk.
    let sparse = std::fs::File::create(dir.path().join("sparse.txt")).unwrap();
    (&sparse).write_all(&text_head()).unwrap();
    sparse.set_len(1 << 30).unwrap();
    for name in ["late.txt", "sparse.txt"] {
        let output = call(
            dir.path(),
            &format!(r#"{{"path": "{name}", "offset": 1, "limit": 2000}}"#),
        );
        assert!(output.is_error(), "{name}: {}", output.to_model_text());
        assert!(
            output.to_model_text().contains("binary"),
            "{name}: {}",
            output.to_model_text()
        );
    }
}
