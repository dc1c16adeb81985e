//! A process swapping a workspace entry between a file (or directory) and a symbolic link to
//! a secret outside the workspace, while the tools read it: no read may ever return the
//! secret. (The tools open a path once, beneath the root, with `openat2(RESOLVE_BENEATH)`;
//! a check-then-open by name lost this race hundreds of times in 30,000 calls.)

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const SECRET: &str = "TOP-SECRET-4242";

/// A workspace and, beside it, a secret file and a secret directory holding it.
fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(dir.path().join("secret.txt"), SECRET).unwrap();
    std::fs::create_dir(dir.path().join("secret_dir")).unwrap();
    std::fs::write(dir.path().join("secret_dir/notes.txt"), SECRET).unwrap();
    (dir, ws)
}

/// Swaps `entry` between what `make_real` makes and a link to `target`, until stopped.
fn swapper(
    entry: std::path::PathBuf,
    target: std::path::PathBuf,
    make_real: fn(&std::path::Path),
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<u64> {
    std::thread::spawn(move || {
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            let _ = std::fs::remove_file(&entry).or_else(|_| std::fs::remove_dir_all(&entry));
            let _ = std::os::unix::fs::symlink(&target, &entry);
            let _ = std::fs::remove_file(&entry);
            make_real(&entry);
            swaps += 1;
        }
        swaps
    })
}

#[test]
fn a_swapped_file_never_leads_out() {
    let (dir, ws) = setup();
    let registry = tool_examples::registry(ws.clone()).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(
        ws.join("entry"),
        dir.path().join("secret.txt"),
        |p| std::fs::write(p, "harmless\n").unwrap(),
        Arc::clone(&stop),
    );
    let mut escapes = 0;
    for _ in 0..10_000 {
        for (tool, args) in [
            ("read_file", r#"{"path": "entry"}"#),
            ("csv_summary", r#"{"path": "entry"}"#),
        ] {
            let output = registry.call_blocking(tool, args).to_model_text();
            escapes += usize::from(output.contains(SECRET));
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swaps.join().unwrap();
    assert!(swaps > 100, "the swapper barely ran ({swaps} swaps)");
    assert_eq!(escapes, 0, "the secret was read {escapes} times");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swapped_directory_never_leads_out() {
    let (dir, ws) = setup();
    let registry = tool_examples::registry(ws.clone()).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = swapper(
        ws.join("sub"),
        dir.path().join("secret_dir"),
        |p| {
            let _ = std::fs::create_dir(p);
            let _ = std::fs::write(p.join("notes.txt"), "harmless\n");
        },
        Arc::clone(&stop),
    );
    let mut escapes = 0;
    for _ in 0..2_000 {
        for (tool, args) in [
            ("search_files", format!(r#"{{"query": "{SECRET}"}}"#)),
            ("list_dir", r#"{"path": "sub"}"#.to_owned()),
            ("read_file", r#"{"path": "sub/notes.txt"}"#.to_owned()),
        ] {
            let output = registry.call(tool, &args).await.to_model_text();
            escapes += usize::from(output.contains(SECRET));
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swaps.join().unwrap();
    assert!(swaps > 100, "the swapper barely ran ({swaps} swaps)");
    assert_eq!(escapes, 0, "the secret was read {escapes} times");
}
