//! The example tools on files made to cost more than what they return: `read_file` on a text
//! head and then an enormous line, or NUL bytes past the first 8 KiB; `csv_summary` on a
//! CSV 100,000 columns wide. Memory stays near what is shown, the result's size is bounded
//! before it is built, and binary content is found wherever it starts. (Its own test binary:
//! the peak resident memory measured is this process's.)

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use tool_runtime::ToolOutput;

/// The process's peak resident memory so far, in KiB (`VmHWM`).
fn peak_kib() -> u64 {
    tool_test_support::memory::peak_kib().expect("Linux's /proc/self/status")
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
    call_tool(root, "read_file", args)
}

fn call_tool(root: &std::path::Path, tool: &str, args: &str) -> ToolOutput {
    let registry = tool_examples::registry(root.to_path_buf()).unwrap();
    registry.call_blocking(tool, args)
}

/// The memory tests run one at a time: the peak they read is the whole process's.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn an_enormous_line_costs_what_is_shown() {
    let _alone = ALONE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
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

/// A CSV 100,000 columns wide (1.3 MB): the summary covers the first 50 and counts the rest,
/// a request naming 20,000 columns is refused at once, and naming 50 of them is a lookup
/// each, not a scan of the header per name.
#[test]
fn a_wide_csv_costs_its_size_not_more() {
    let _alone = ALONE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    const COLUMNS: usize = 100_000;
    let dir = tempfile::tempdir().unwrap();
    let header: Vec<String> = (0..COLUMNS).map(|i| format!("c{i}")).collect();
    let row: Vec<String> = (0..COLUMNS).map(|i| (i % 7).to_string()).collect();
    let csv = format!(
        "{}\n{}\n{}\n",
        header.join(","),
        row.join(","),
        row.join(",")
    );
    std::fs::write(dir.path().join("wide.csv"), csv).unwrap();

    let before = peak_kib();
    let output = call_tool(dir.path(), "csv_summary", r#"{"path": "wide.csv"}"#);
    let grown_mib = (peak_kib().saturating_sub(before)) / 1024;
    assert!(!output.is_error(), "{}", output.to_model_text());
    let summary: serde_json::Value = serde_json::from_str(&output.to_model_text()).unwrap();
    // At most 50 summarized (the output cap may show fewer), the rest counted.
    let shown = summary["columns"].as_array().unwrap().len();
    assert!((1..=50).contains(&shown), "{shown}");
    assert_eq!(summary["columns_left_out"], COLUMNS as u64 - 50);
    assert!(output.to_model_text().len() < 100_000);
    assert!(
        grown_mib < 64,
        "csv_summary grew the peak by {grown_mib} MiB"
    );

    let many: Vec<String> = (0..20_000).map(|i| format!("\"c{i}\"")).collect();
    let output = call_tool(
        dir.path(),
        "csv_summary",
        &format!(r#"{{"path": "wide.csv", "columns": [{}]}}"#, many.join(",")),
    );
    assert!(
        output.to_model_text().contains("at most 50"),
        "{}",
        output.to_model_text()
    );

    let last: Vec<String> = (COLUMNS - 50..COLUMNS)
        .map(|i| format!("\"c{i}\""))
        .collect();
    let output = call_tool(
        dir.path(),
        "csv_summary",
        &format!(r#"{{"path": "wide.csv", "columns": [{}]}}"#, last.join(",")),
    );
    let summary: serde_json::Value = serde_json::from_str(&output.to_model_text()).unwrap();
    assert_eq!(summary["columns"][0]["name"], format!("c{}", COLUMNS - 50));
    assert_eq!(summary["rows"], 2);
}
