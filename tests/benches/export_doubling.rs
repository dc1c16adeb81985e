//! Exports of a schema whose definitions each use the next twice (inlined, it doubles with
//! every level), at 8, 16 and 32 levels: the cost must grow with the schema's size, not with
//! what inlining it would make (2^32 copies at 32 levels).
//!
//! `cargo bench -p tool-tests --features bench --bench export_doubling`

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::hint::black_box;
use tool_runtime::{DynamicTool, Provider, Registry, ToolOutput};

fn doubling(levels: usize) -> serde_json::Value {
    let mut defs = serde_json::Map::new();
    for level in 0..levels {
        let next = format!("#/$defs/D{}", level + 1);
        defs.insert(
            format!("D{level}"),
            json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}},
                   "required": ["a", "b"], "additionalProperties": false}),
        );
    }
    defs.insert(format!("D{levels}"), json!({"type": "string"}));
    json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/D0"}},
           "required": ["root"], "additionalProperties": false, "$defs": defs})
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("export_doubling");
    group.sample_size(10);
    for levels in [8, 16, 32] {
        let schema = doubling(levels);
        // Gemini inlines; the other two lower to strict form.
        for provider in [Provider::Gemini, Provider::Anthropic, Provider::OpenAiChat] {
            group.bench_function(format!("{}/{levels}_levels", provider.as_str()), |b| {
                b.iter(|| {
                    // A fresh registry each time: exports are cached per registry.
                    let tool = DynamicTool::new("d", "Doubles.", schema.clone(), |_, _| async {
                        ToolOutput::text("ok")
                    });
                    let registry = Registry::builder()
                        .without_inventory()
                        .dynamic(tool)
                        .build()
                        .unwrap();
                    black_box(registry.export(provider).strict(true).to_value())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
