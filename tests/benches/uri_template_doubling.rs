//! Matching a URI against the template shape `docs/mcp.md` shows, three variables between
//! literals (`team://{org}-{team}-{user}/profile`), at doubling URI lengths: a URI made of
//! `-` separators that never ends in `/profile` (the worst case for a matcher that tries each
//! place a literal occurs), and one that matches. The time must double with the length.
//!
//! `cargo bench -p tool-tests --features bench --bench uri_template_doubling`
//! (`-- 'miss/(256|512|1024)$'` picks lengths).

// A benchmark: an unwrap that fails stops it, which is the report.
#![allow(clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tool_runtime::resources::UriTemplate;

/// A URI of `bytes` bytes that the template can't match: `a-` repeated, no `/profile`.
fn miss(bytes: usize) -> String {
    let mut uri = String::from("team://");
    while uri.len() + 2 <= bytes {
        uri.push_str("a-");
    }
    uri.truncate(bytes);
    uri
}

/// A URI of about `bytes` bytes that the template matches: the user's name is long.
fn hit(bytes: usize) -> String {
    let mut uri = String::from("team://acme-eng-");
    while uri.len() + "/profile".len() < bytes {
        uri.push('u');
    }
    uri.push_str("/profile");
    uri
}

fn bench(c: &mut Criterion) {
    let template = UriTemplate::parse("team://{org}-{team}-{user}/profile").unwrap();
    let mut group = c.benchmark_group("uri_template");
    group.sample_size(10);
    for bytes in [256, 512, 1024, 2048, 4096, 8192] {
        let uri = miss(bytes);
        group.bench_function(format!("miss/{bytes}"), |b| {
            b.iter(|| assert!(template.matches(black_box(&uri)).is_none()))
        });
        let uri = hit(bytes);
        group.bench_function(format!("hit/{bytes}"), |b| {
            b.iter(|| assert!(template.matches(black_box(&uri)).is_some()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
