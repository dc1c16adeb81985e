//! Realistic model outputs in every text format (`tests/fixtures/text/*.txt`), each with the
//! calls, prose and errors expected from it (`*.json`), parsed whole and streamed in random
//! pieces.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tool_runtime::text::{self, TextFormat, TextParse, TextStream};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    /// The formats the expectations hold for.
    formats: Vec<TextFormat>,
    text: String,
    calls: Vec<ExpectedCall>,
    errors: Vec<ExpectedError>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectedCall {
    name: String,
    arguments: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectedError {
    /// The start of the kind's `Debug` text.
    kind: String,
    raw_starts_with: String,
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/text")
}

fn tools() -> HashMap<String, Value> {
    let json = std::fs::read_to_string(dir().join("tools.json")).unwrap();
    serde_json::from_str(&json).unwrap()
}

fn fixtures() -> Vec<(String, String, Expected)> {
    let mut fixtures = Vec::new();
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let expected = std::fs::read_to_string(path.with_extension("json")).unwrap();
            let expected: Expected =
                serde_json::from_str(&expected).unwrap_or_else(|e| panic!("{name}.json: {e}"));
            fixtures.push((name, text, expected));
        }
    }
    fixtures.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(
        fixtures.len() >= 15,
        "fixtures missing from {}",
        dir().display()
    );
    fixtures
}

fn check(name: &str, format: TextFormat, parsed: &TextParse, expected: &Expected) {
    let context = format!("{name} as {format:?}: {parsed:#?}");
    assert_eq!(parsed.text, expected.text, "{context}");
    assert_eq!(parsed.calls.len(), expected.calls.len(), "{context}");
    for (n, (call, want)) in parsed.calls.iter().zip(&expected.calls).enumerate() {
        assert_eq!(call.id, format!("call_{n}"), "{context}");
        assert_eq!(call.name, want.name, "{context}");
        let arguments: Value = serde_json::from_str(&call.arguments).unwrap();
        assert_eq!(arguments, want.arguments, "{context}");
    }
    assert_eq!(parsed.errors.len(), expected.errors.len(), "{context}");
    for (error, want) in parsed.errors.iter().zip(&expected.errors) {
        assert!(
            format!("{:?}", error.kind).starts_with(&want.kind),
            "{context}"
        );
        assert!(error.raw.starts_with(&want.raw_starts_with), "{context}");
    }
}

#[test]
fn fixtures_parse_to_their_expected_calls() {
    let tools = tools();
    for (name, text, expected) in fixtures() {
        for &format in &expected.formats {
            let parsed = text::parse(&text, format, &tools);
            check(&name, format, &parsed, &expected);
            for error in &parsed.errors {
                assert_eq!(&text[error.span.clone()], error.raw, "{name}");
            }
        }
    }
}

#[test]
fn fixtures_stream_to_the_same_result_however_they_are_split() {
    let tools = tools();
    let mut seed = 0x1234_5678_9abc_def1_u64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for (name, text, expected) in fixtures() {
        for &format in &expected.formats {
            let whole = text::parse(&text, format, &tools);
            for round in 0..200 {
                // Token-sized pieces mostly, sometimes bigger ones.
                let longest = if round % 4 == 0 { 64 } else { 6 };
                let mut stream = TextStream::new(format, &tools);
                let mut events = Vec::new();
                let mut at = 0;
                while at < text.len() {
                    let mut end = (at + 1 + random(longest)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    events.extend(stream.push(&text[at..end]));
                    at = end;
                }
                events.extend(stream.finish());
                let streamed: TextParse = events.into_iter().collect();
                assert_eq!(streamed, whole, "{name} as {format:?}, round {round}");
            }
        }
    }
}

#[test]
fn every_prefix_of_a_fixture_is_handled() {
    let tools = tools();
    for (name, text, expected) in fixtures() {
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let prefix = &text[..end];
            for format in expected.formats.iter().copied().chain([TextFormat::Auto]) {
                let parsed = text::parse(prefix, format, &tools);
                for error in &parsed.errors {
                    assert_eq!(&prefix[error.span.clone()], error.raw, "{name}[..{end}]");
                }
                // Nothing found may vanish: what leaves the text is calls or errors (or, in the
                // envelope format, a `{"response": ..}` turned into its text; in harmony and
                // Command replies, the markup around the answer; Kimi K3's channel markers;
                // Functionary v3.2's `all` recipients; Muse's message headers).
                let found = parsed.calls.len() + parsed.errors.len();
                let markup = expected.formats.iter().any(|f| {
                    matches!(
                        f,
                        TextFormat::Harmony
                            | TextFormat::CommandR
                            | TextFormat::FunctionaryV32
                            | TextFormat::Muse
                    )
                });
                let kept = parsed.text == prefix
                    || format == TextFormat::Envelope
                    || markup
                    || parsed.text == without_k3_channels(prefix);
                assert!(
                    found > 0 || kept,
                    "{name}[..{end}] as {format:?}: {parsed:?}"
                );
            }
        }
    }
}

/// The text without Kimi K3's `response` channel markers, which the parser cuts.
fn without_k3_channels(text: &str) -> String {
    [
        "<|open|>response<|sep|>",
        "<|close|>response<|sep|>",
        "<|close|>message<|sep|>",
    ]
    .iter()
    .fold(text.to_owned(), |text, marker| text.replace(marker, ""))
}
