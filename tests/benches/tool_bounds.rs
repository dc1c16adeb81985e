//! The example tools on inputs made to cost more than what they return, at doubling sizes:
//! the time must grow with the input (linearly), never faster, and the memory stays bounded
//! (`tool-examples/tests/tool_bounds.rs` measures the peak).
//!
//! `cargo bench -p tool-tests --features bench --bench tool_bounds`
//!
//! - `csv_summary/{25,50,100}k_columns`: a CSV that wide, two rows;
//! - `csv_summary_named/{5,10,20}k_names`: `columns` naming that many (refused past 50, at
//!   once: it used to look each name up by scanning the header, 28 s for 20,000);
//! - `read_file/{32,64,128}MiB_line`: 8 KiB of lines, then one line that long.

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use std::io::Write;

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let registry = tool_examples::registry(dir.path().to_path_buf()).unwrap();
    let mut group = c.benchmark_group("tool_bounds");
    group.sample_size(10);

    for thousands in [25usize, 50, 100] {
        let columns = thousands * 1000;
        let header: Vec<String> = (0..columns).map(|i| format!("c{i}")).collect();
        let row: Vec<String> = (0..columns).map(|i| (i % 7).to_string()).collect();
        let name = format!("wide{thousands}.csv");
        std::fs::write(
            dir.path().join(&name),
            format!(
                "{}\n{}\n{}\n",
                header.join(","),
                row.join(","),
                row.join(",")
            ),
        )
        .unwrap();
        let args = format!(r#"{{"path": "{name}"}}"#);
        group.bench_function(format!("csv_summary/{thousands}k_columns"), |b| {
            b.iter(|| registry.call_blocking("csv_summary", &args))
        });
    }
    for thousands in [5usize, 10, 20] {
        let names: Vec<String> = (0..thousands * 1000).map(|i| format!("\"c{i}\"")).collect();
        let args = format!(
            r#"{{"path": "wide100.csv", "columns": [{}]}}"#,
            names.join(",")
        );
        group.bench_function(format!("csv_summary_named/{thousands}k_names"), |b| {
            b.iter(|| registry.call_blocking("csv_summary", &args))
        });
    }
    for mib in [32usize, 64, 128] {
        let name = format!("line{mib}.txt");
        let mut file = std::fs::File::create(dir.path().join(&name)).unwrap();
        for n in 0..1000 {
            writeln!(file, "line {n}").unwrap();
        }
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..mib {
            file.write_all(&chunk).unwrap();
        }
        file.write_all(b"\nafter\n").unwrap();
        let args = format!(r#"{{"path": "{name}", "offset": 990, "limit": 20}}"#);
        group.bench_function(format!("read_file/{mib}MiB_line"), |b| {
            b.iter(|| registry.call_blocking("read_file", &args))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
