//! How fast `text` gets through prose. Ignored by default: run it in release mode,
//! `cargo test --release -p tool-runtime --test text_throughput -- --ignored --nocapture`.
//! It prints; it asserts nothing about time.

use std::hint::black_box;
use std::time::Instant;
use tool_runtime::text::{self, TextFormat, TextStream};

const MB: usize = 1 << 20;

fn repeat_to(piece: &str, len: usize) -> String {
    let mut text = String::with_capacity(len + piece.len());
    while text.len() < len {
        text.push_str(piece);
    }
    text
}

fn report(label: &str, bytes: usize, run: impl Fn()) {
    run();
    let rounds = 20;
    let start = Instant::now();
    for _ in 0..rounds {
        run();
    }
    let seconds = start.elapsed().as_secs_f64() / rounds as f64;
    println!("{label:<48} {:>8.2} GB/s", bytes as f64 / seconds / 1e9);
}

#[test]
#[ignore]
fn throughput() {
    let plain = repeat_to(
        "The quick brown fox jumps over the lazy dog, then rests; nothing here looks like a call. ",
        MB,
    );
    let markdown = repeat_to(
        "See [the docs](https://example.com/a_(b)) and `code`, compare {a, b} with x < y. \n",
        MB,
    );
    let with_call = format!(
        "{plain}<tool_call>\n{{\"name\": \"f\", \"arguments\": {{\"a\": 1}}}}\n</tool_call>"
    );
    for (name, text) in [
        ("plain", &plain),
        ("markdown", &markdown),
        ("plain + 1 call", &with_call),
    ] {
        for format in [TextFormat::Auto, TextFormat::Hermes, TextFormat::Mistral] {
            report(&format!("parse {name}, {format:?}"), text.len(), || {
                black_box(text::parse(black_box(text), format, &()));
            });
        }
        report(
            &format!("stream {name} in 16-byte chunks, Auto"),
            text.len(),
            || {
                let mut stream = TextStream::new(TextFormat::Auto, &());
                for chunk in text.as_bytes().chunks(16) {
                    // The texts are ASCII, so every chunk is a str.
                    black_box(stream.push(std::str::from_utf8(chunk).unwrap()));
                }
                black_box(stream.finish());
            },
        );
    }
}
