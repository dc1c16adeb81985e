//! A registry of 1,000 tools: building it (schema generation and validator compilation for
//! every tool) and exporting its tool list in each dialect.
//!
//! `cargo bench -p tool-tests --features bench --bench registry_scale`
//!
//! The 1,000 tools are copies of the real `#[tool]` definition of the benchmark `search` tool
//! (4 parameters, one an enum in `$defs`), each under its own leaked name. A copy keeps every
//! per-tool cost of a real `#[tool]` fn: the build calls the tool's schemars fn, closes its
//! objects, checks exactness and compiles its validator, once per tool, with nothing shared
//! between tools. `DynamicTool`s would skip the schemars generation (their schema is given),
//! so they would measure less than a user's 1,000 `#[tool]` fns cost.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::hint::black_box;
use tool_runtime::Provider;

// The bench tools, defined once (`search_tool.rs` is a bench of its own too).
#[allow(unreachable_pub)]
#[path = "search_tool.rs"]
mod search_tool;

use search_tool::builder_of as builder;

const TOOLS: usize = 1_000;

fn bench(c: &mut Criterion) {
    let defs = search_tool::search_copies(TOOLS);
    let registry = builder(&defs).build().expect("1,000 tools build");
    assert_eq!(registry.len(), TOOLS);

    let mut group = c.benchmark_group("registry_1000");
    group.sample_size(20);
    // What a program pays at startup: the builder and the build (dropping the registry is
    // not counted).
    group.bench_function("build", |b| {
        b.iter_with_large_drop(|| builder(black_box(&defs)).build().expect("it builds"))
    });
    group.bench_function("build_validation_off", |b| {
        b.iter_with_large_drop(|| {
            builder(black_box(&defs))
                .validation(false)
                .build()
                .expect("it builds")
        })
    });
    // The build without the builder's own cost, to tell the two apart.
    group.bench_function("build_only", |b| {
        b.iter_batched(
            || builder(&defs),
            |builder| builder.build().expect("it builds"),
            BatchSize::LargeInput,
        )
    });
    let shapes = Provider::ALL.into_iter().map(|p| (p, false)).chain(
        Provider::ALL
            .into_iter()
            .filter(|p| p.has_strict_mode())
            .map(|p| (p, true)),
    );
    for (provider, strict) in shapes {
        let label = format!(
            "export_{}{}",
            provider.as_str(),
            if strict { "_strict" } else { "" }
        );
        // Repeated exports (what an agent pays per request): the registry's cached export,
        // copied, and shared without a copy.
        group.bench_function(&label, |b| {
            b.iter_with_large_drop(|| {
                registry
                    .export(black_box(provider))
                    .strict(strict)
                    .to_value()
            })
        });
        group.bench_function(format!("{label}_shared"), |b| {
            b.iter_with_large_drop(|| registry.export(black_box(provider)).strict(strict).shared())
        });
        // The first export of a fresh registry: the dialect's lowering of every schema.
        group.bench_function(format!("{label}_first"), |b| {
            b.iter_batched(
                || builder(&defs).build().expect("it builds"),
                |fresh| {
                    let _ = fresh.export(black_box(provider)).strict(strict).shared();
                    fresh
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();

    // What each request pays to put the tool list in its body: the shared `Value` serialized
    // again, or the text `Export::raw_json` wrote once, copied; into a fresh `Vec` (as
    // `serde_json::to_vec` does), and into a buffer kept from request to request.
    let export = registry.export(Provider::OpenAiChat).strict(true);
    let mut group = c.benchmark_group("request_body_1000_tools");
    group.sample_size(20);
    group.bench_function("tools_as_value", |b| {
        b.iter_with_large_drop(|| write_body(Vec::new(), &*export.shared()))
    });
    group.bench_function("tools_as_json", |b| {
        b.iter_with_large_drop(|| write_body(Vec::new(), &*export.raw_json()))
    });
    let mut kept = Some(Vec::with_capacity(1 << 20));
    group.bench_function("tools_as_value_reused_buffer", |b| {
        b.iter(|| {
            let body = reuse(&mut kept);
            kept = Some(write_body(body, &*export.shared()));
        })
    });
    group.bench_function("tools_as_json_reused_buffer", |b| {
        b.iter(|| {
            let body = reuse(&mut kept);
            kept = Some(write_body(body, &*export.raw_json()));
        })
    });
    group.finish();

    // Where the build's time goes, per 1,000 schemas: what lazy validator compilation would
    // save (the compile) and what a cheap check at build would cost instead (the meta-schema).
    let schemas: Vec<serde_json::Value> =
        registry.specs().map(|s| s.input_schema().clone()).collect();
    let mut group = c.benchmark_group("registry_1000_parts");
    group.sample_size(20);
    group.bench_function("compile_validators", |b| {
        b.iter_with_large_drop(|| {
            schemas
                .iter()
                .map(|s| {
                    jsonschema::options()
                        .with_draft(jsonschema::Draft::Draft202012)
                        .build(s)
                        .expect("it compiles")
                })
                .collect::<Vec<_>>()
        })
    });
    group.bench_function("meta_schema_check", |b| {
        b.iter(|| schemas.iter().all(jsonschema::meta::is_valid))
    });
    group.bench_function("clone_schemas", |b| {
        b.iter_with_large_drop(|| schemas.clone())
    });
    group.finish();
}

/// `{"model": ..., "tools": ...}` written into `body`.
fn write_body<T: serde::Serialize + ?Sized>(mut body: Vec<u8>, tools: &T) -> Vec<u8> {
    #[derive(serde::Serialize)]
    struct Request<'a, T: ?Sized> {
        model: &'a str,
        tools: &'a T,
    }
    let request = Request {
        model: "gpt-5",
        tools,
    };
    serde_json::to_writer(&mut body, &request).expect("it serializes");
    body
}

/// The kept buffer, emptied.
fn reuse(kept: &mut Option<Vec<u8>>) -> Vec<u8> {
    let mut body = kept.take().unwrap_or_default();
    body.clear();
    body
}

criterion_group!(benches, bench);
criterion_main!(benches);
