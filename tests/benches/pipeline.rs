//! One call through the whole pipeline, beside a hand-written baseline in the same run.
//!
//! `cargo bench -p tool-tests --features bench --bench pipeline`
//!
//! The tool has four parameters (a string, an integer with a default, an optional bool, an
//! enum). The baseline is what a careful hand-written dispatcher does: `match` on the name,
//! `serde_json::from_str` into the same argument struct, a direct call, `serde_json::to_string`
//! of the result. Both sides start from `(name, args_json)` and end with the serialized output.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tool_runtime::pipeline::RepairPolicy;

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

use search_tool::{baseline, payloads, registry};

fn bench(c: &mut Criterion) {
    let validated = registry(|b| b);
    let unvalidated = registry(|b| b.validation(false));
    let lenient = registry(|b| b.repair(RepairPolicy::Lenient));
    let runtime = search_tool::runtime();

    for (size, args) in payloads() {
        // Every path must produce the baseline's bytes, or the comparison means nothing.
        let expected = baseline("search", &args).expect("baseline");
        assert_eq!(
            validated.call_blocking("search", &args).to_model_text(),
            expected
        );
        assert_eq!(
            validated
                .call_blocking("search_ranged", &args)
                .to_model_text(),
            expected
        );
        assert_eq!(
            unvalidated.call_blocking("search", &args).to_model_text(),
            expected
        );

        let mut group = c.benchmark_group(format!("pipeline/{size}"));
        group.throughput(Throughput::Bytes(args.len() as u64));
        group.bench_function("baseline_hand_written", |b| {
            b.iter(|| baseline(black_box("search"), black_box(&args)))
        });
        group.bench_function("exact_schema_validation_on", |b| {
            b.iter(|| validated.call_blocking(black_box("search"), black_box(&args)))
        });
        group.bench_function("validation_off", |b| {
            b.iter(|| unvalidated.call_blocking(black_box("search"), black_box(&args)))
        });
        group.bench_function("range_checked_validation_on", |b| {
            b.iter(|| validated.call_blocking(black_box("search_ranged"), black_box(&args)))
        });
        group.bench_function("range_checked_lenient", |b| {
            b.iter(|| lenient.call_blocking(black_box("search_ranged"), black_box(&args)))
        });
        // A sync tool through `call().await` goes to the blocking pool (never the executor's
        // threads): this measures that hand-off.
        group.bench_function("sync_tool_async_call_blocking_pool", |b| {
            b.to_async(&runtime)
                .iter(|| validated.call(black_box("search"), black_box(&args)))
        });
        group.bench_function("async_tool_async_call", |b| {
            b.to_async(&runtime)
                .iter(|| validated.call(black_box("search_async"), black_box(&args)))
        });
        group.bench_function("full_path_with_report", |b| {
            b.to_async(&runtime)
                .iter(|| validated.call_with_report(black_box("search"), black_box(&args)))
        });
        group.finish();
    }

    // A call that needs a repair ("5" for 5) always takes the full path.
    let repaired = r#"{"query":"rust tools","limit":"5","mode":"fast"}"#;
    let mut group = c.benchmark_group("pipeline/repaired");
    group.bench_function("string_to_number_repair", |b| {
        b.iter(|| validated.call_blocking(black_box("search"), black_box(repaired)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
