//! The output cap on JSON at doubling sizes: cutting must cost time linear in the output and
//! memory of the order of the budget (`tool-runtime/tests/output_memory.rs` measures the
//! peak: it used to be about thirteen times the output, when the cut built a `Value`).
//!
//! `cargo bench -p tool-tests --features bench --bench output_bounds`
//!
//! - `json/{4,8,16}MiB`: `{"rows": [[i, "row i\n", {"ok": true}], …], "log": "…"}` cut to
//!   8 KiB (arrays shortened, the long string cut in the middle).

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use tool_runtime::ToolOutput;

use big_json::big_json;
use tool_test_support::big_json;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("output_bounds");
    group.sample_size(10);
    for mib in [4usize, 8, 16] {
        let text = big_json(mib << 20);
        let raw: Box<serde_json::value::RawValue> = serde_json::from_str(&text).unwrap();
        let output = ToolOutput::json(&raw);
        group.bench_function(format!("json/{mib}MiB"), |b| {
            b.iter(|| output.clone().bounded(8192))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
