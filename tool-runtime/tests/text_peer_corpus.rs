//! The peers' own tool-parser tests, replayed on the text router.
//!
//! `tests/fixtures/peer_corpus/*.jsonl` holds the cases `scripts/peer-corpus.py` extracts from
//! vLLM's, llama.cpp's and SGLang's test suites (see the README there): a model output, the
//! parser the peer reads it with, and what the peer expects from it. Every case whose parser
//! name [`TextFormat::from_str`] knows (a format's name or one of its vLLM/SGLang aliases) is
//! parsed in that format and under [`TextFormat::Auto`], and the calls (name, arguments as JSON
//! values) and prose (trimmed) are compared with the peer's expectation. Cases whose parser no
//! format knows yet are counted, not failed: the test follows the formats as they land, it
//! names none of them.
//!
//! A case may carry a recorded difference (`differences.jsonl`: `{"id", "reason"}`, and
//! `"scope": "auto"` when only the `Auto` parse differs); it is counted apart. A difference
//! whose case now passes fails the test, so the list stays true. Any other mismatch fails.
//! Every case is also streamed in random pieces, which must give what the whole text gives.
//!
//! `cargo test -p tool-runtime --test text_peer_corpus -- --nocapture` prints the table.

// A test: an unwrap that fails is the failure report.
#![allow(clippy::unwrap_used)]

use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use tool_runtime::text::{self, TextFormat, TextParse, TextStream};

/// One case of the corpus (the fields the replay reads; see `scripts/peer-corpus.py`).
#[derive(Debug, Deserialize)]
struct Case {
    id: String,
    peer: String,
    source: String,
    parser: String,
    /// The dialect (`tool_format`) of an SGLang detector that reads several.
    #[serde(default)]
    dialect: Option<String>,
    model_output: String,
    #[serde(default)]
    tools: Option<HashMap<String, Value>>,
    calls: Vec<ExpectedCall>,
    count: Count,
    content: Option<String>,
    content_checked: bool,
    #[serde(default)]
    reasoning: Option<String>,
    #[serde(default)]
    notes: String,
}

#[derive(Debug, Deserialize)]
struct ExpectedCall {
    /// `None`: the peer doesn't check it.
    name: Option<String>,
    /// `None`: the peer doesn't check them all (maybe some, in `checks`).
    arguments: Option<Value>,
    /// Single values the peer checks: `{"path": [..], "equals" | "type" | "present" |
    /// "nonempty": ..}` (kept as JSON: an expected `null` must stay one).
    #[serde(default)]
    checks: Vec<Value>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Count {
    /// Exactly as many calls as listed.
    Exact,
    /// At least as many.
    AtLeast,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Difference {
    id: String,
    reason: String,
    /// `Some("auto")`: the format itself agrees with the peer, only `Auto` differs.
    #[serde(default)]
    scope: Option<String>,
}

/// The dialects of SGLang's `multi_format` detector (ported from LLM360's vLLM fork, chosen by
/// a request's `tool_format`) that are a format here: `default` is its Hermes delegate, `qwen3`
/// its Qwen3-Coder one, `glm` GLM's key/value tags, and `json`, `xml`, `xml_typed` K2 Horizon's
/// `<ifm|tool_call>` modes. Its other dialects (`minimax` and `dsv32`: `<tool_calls><invoke>`
/// without MiniMax's or DSML's prefix; `gptoss`: `to=functions.NAME json` inside
/// `<tool_call>`; `python`: a Python call inside `<tool_call>`) are no model family's
/// documented markup, so no format reads them.
const MULTI_FORMAT_DIALECTS: [(&str, &str); 6] = [
    ("default", "hermes"),
    ("qwen3", "qwen_xml"),
    ("glm", "glm"),
    ("json", "k2_horizon"),
    ("xml", "k2_horizon"),
    ("xml_typed", "k2_horizon"),
];

/// The format a case is replayed in: its parser's (a name or alias `TextFormat` knows), or
/// for SGLang's `multi_format` its dialect's.
fn case_format(case: &Case) -> Result<TextFormat, String> {
    let name = match (case.parser.as_str(), case.dialect.as_deref()) {
        ("multi_format", Some(dialect)) => MULTI_FORMAT_DIALECTS
            .iter()
            .find(|(d, _)| *d == dialect)
            .map_or(case.parser.as_str(), |(_, format)| format),
        (parser, _) => parser,
    };
    TextFormat::from_str(name).map_err(|e| e.to_string())
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/peer_corpus")
}

/// The corpus, by file (one file per peer parser), in file order.
fn corpus() -> Vec<(String, Vec<Case>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension().is_some_and(|e| e == "jsonl")
                && path.file_name().is_some_and(|n| n != "differences.jsonl")
        })
        .collect();
    files.sort();
    let corpus: Vec<(String, Vec<Case>)> = files
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let cases = std::fs::read_to_string(path)
                .unwrap()
                .lines()
                .filter(|line| !line.trim().is_empty())
                .enumerate()
                .map(|(n, line)| {
                    serde_json::from_str(line)
                        .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), n + 1))
                })
                .collect();
            (name, cases)
        })
        .collect();
    assert!(
        corpus.iter().map(|(_, cases)| cases.len()).sum::<usize>() >= 100,
        "the corpus is missing from {}",
        dir().display()
    );
    corpus
}

fn differences() -> HashMap<String, Difference> {
    let text = std::fs::read_to_string(dir().join("differences.jsonl")).unwrap_or_default();
    let mut out = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let difference: Difference = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("differences.jsonl:{}: {e}", n + 1));
        assert!(
            !difference.reason.trim().is_empty(),
            "differences.jsonl:{}: a difference needs its reason",
            n + 1
        );
        assert!(
            matches!(difference.scope.as_deref(), None | Some("auto")),
            "differences.jsonl:{}: scope is \"auto\" or absent",
            n + 1
        );
        let id = difference.id.clone();
        assert!(
            out.insert(id.clone(), difference).is_none(),
            "differences.jsonl: {id} twice"
        );
    }
    out
}

fn parse(case: &Case, format: TextFormat) -> TextParse {
    match &case.tools {
        Some(tools) => text::parse(&case.model_output, format, tools),
        None => text::parse(&case.model_output, format, &()),
    }
}

/// The text streamed in random pieces (token-sized mostly, sometimes bigger).
fn stream(case: &Case, format: TextFormat, seed: u64) -> TextParse {
    let text = &case.model_output;
    let mut seed = seed | 1;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let longest = if random(4) == 0 { 64 } else { 6 };
    let mut events = Vec::new();
    let mut push = |stream: &mut dyn FnMut(&str) -> Vec<text::TextEvent>| {
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + 1 + random(longest)).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            events.extend(stream(&text[at..end]));
            at = end;
        }
    };
    match &case.tools {
        Some(tools) => {
            let mut s = TextStream::new(format, tools);
            push(&mut |chunk| s.push(chunk));
            events.extend(s.finish());
        }
        None => {
            let mut s = TextStream::new(format, &());
            push(&mut |chunk| s.push(chunk));
            events.extend(s.finish());
        }
    }
    events.into_iter().collect()
}

/// The value at `path` (keys and indexes) in `value`.
fn at_path<'a>(value: &'a Value, path: &[Value]) -> Option<&'a Value> {
    path.iter().try_fold(value, |value, step| match step {
        Value::String(key) => value.get(key.as_str()),
        Value::Number(n) => value.get(usize::try_from(n.as_u64()?).ok()?),
        _ => None,
    })
}

/// Whether `value` has the JSON type a Python test checks with `type(x) is T`/`isinstance`.
fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "float" => value.is_f64(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}

fn check(arguments: &Value, check: &Value) -> Result<(), String> {
    let path = check
        .get("path")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let found = at_path(arguments, path);
    let ok = if let Some(want) = check.get("equals") {
        found == Some(want)
    } else if let Some(name) = check.get("type").and_then(Value::as_str) {
        found.is_some_and(|v| has_type(v, name))
    } else if check.get("present").is_some() {
        found.is_some()
    } else if check.get("nonempty").is_some() {
        found.is_some_and(|v| match v {
            Value::Object(map) => !map.is_empty(),
            Value::Array(items) => !items.is_empty(),
            Value::String(s) => !s.is_empty(),
            _ => true,
        })
    } else {
        return Err(format!("unknown check {check}"));
    };
    if ok {
        Ok(())
    } else {
        Err(format!("check {check} fails: found {found:?}"))
    }
}

/// Whether our parse gives what the peer expects; if not, what differs.
fn compare(case: &Case, parsed: &TextParse) -> Result<(), String> {
    let (want, got) = (case.calls.len(), parsed.calls.len());
    let count_ok = match case.count {
        Count::Exact => got == want,
        Count::AtLeast => got >= want,
    };
    if !count_ok {
        return Err(format!(
            "{got} calls, the peer expects {}{want}",
            if case.count == Count::AtLeast {
                "at least "
            } else {
                ""
            }
        ));
    }
    for (n, (want, call)) in case.calls.iter().zip(&parsed.calls).enumerate() {
        if let Some(name) = &want.name {
            if &call.name != name {
                return Err(format!(
                    "call {n} is `{}`, the peer expects `{name}`",
                    call.name
                ));
            }
        }
        let arguments: Value = serde_json::from_str(&call.arguments)
            .map_err(|e| format!("call {n}'s arguments are not JSON: {e}"))?;
        if let Some(expected) = &want.arguments {
            if &arguments != expected {
                return Err(format!(
                    "call {n}'s arguments are {arguments}, the peer expects {expected}"
                ));
            }
        }
        for c in &want.checks {
            check(&arguments, c).map_err(|e| format!("call {n}: {e}"))?;
        }
    }
    if case.content_checked {
        let ours = parsed.text.trim();
        match &case.content {
            Some(content) if ours != content.trim() => {
                return Err(format!(
                    "prose {ours:?}, the peer expects {:?}",
                    content.trim()
                ));
            }
            None if !ours.is_empty() => {
                return Err(format!("prose {ours:?}, the peer expects none"));
            }
            _ => {}
        }
    }
    Ok(())
}

/// What happened to one case.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    Pass,
    Difference,
    NoFormat,
    Fail,
}

#[derive(Default)]
struct Row {
    format: String,
    total: usize,
    pass: usize,
    differences: usize,
    no_format: usize,
    auto_pass: usize,
    fail: usize,
}

#[test]
fn the_peers_own_tests_pass_or_their_difference_is_recorded() {
    let corpus = corpus();
    let differences = differences();
    let mut seen = BTreeMap::new();
    let mut failures = Vec::new();
    let mut rows: Vec<(String, Row)> = Vec::new();
    for (file, cases) in &corpus {
        let mut row = Row::default();
        let mut formats = Vec::new();
        for case in cases {
            assert!(
                seen.insert(case.id.clone(), file.clone()).is_none(),
                "{}: id twice in the corpus",
                case.id
            );
            row.total += 1;
            let difference = differences.get(&case.id);
            let outcome = match case_format(case) {
                Ok(TextFormat::Auto) | Err(_) => {
                    if let Some(d) = difference {
                        failures.push(format!(
                            "{}: a difference is recorded ({}) but no format reads `{}`",
                            case.id, d.reason, case.parser
                        ));
                    }
                    Outcome::NoFormat
                }
                Ok(format) => {
                    if !formats.contains(&format.name()) {
                        formats.push(format.name());
                    }
                    let own = compare(case, &parse(case, format));
                    let auto = compare(case, &parse(case, TextFormat::Auto));
                    if auto.is_ok() {
                        row.auto_pass += 1;
                    }
                    // Where we differ from the peer: nowhere, only under Auto, or in the
                    // format itself.
                    let differs = match (&own, &auto) {
                        (Ok(()), Ok(())) => None,
                        (Ok(()), Err(e)) => Some((true, e.clone(), TextFormat::Auto)),
                        (Err(e), _) => Some((false, e.clone(), format)),
                    };
                    match (differs, difference) {
                        (None, None) => Outcome::Pass,
                        (None, Some(d)) => {
                            failures.push(format!(
                                "{}: recorded difference ({}) but the case now passes: remove it from differences.jsonl",
                                case.id, d.reason
                            ));
                            Outcome::Fail
                        }
                        (Some((only_auto, _, _)), Some(d))
                            if only_auto == (d.scope.as_deref() == Some("auto")) =>
                        {
                            Outcome::Difference
                        }
                        (Some((only_auto, why, parsed_as)), d) => {
                            let mut text = report(case, parsed_as, &Err(why));
                            if let Some(d) = d {
                                text.push_str(&format!(
                                    "\n  a difference is recorded ({}), but for {}",
                                    d.reason,
                                    if only_auto {
                                        "the format itself, which now agrees"
                                    } else {
                                        "auto only"
                                    }
                                ));
                            }
                            failures.push(text);
                            Outcome::Fail
                        }
                    }
                }
            };
            match outcome {
                Outcome::Pass => row.pass += 1,
                Outcome::Difference => row.differences += 1,
                Outcome::NoFormat => row.no_format += 1,
                Outcome::Fail => row.fail += 1,
            }
        }
        row.format = if formats.is_empty() {
            "-".to_owned()
        } else {
            formats.join(", ")
        };
        rows.push((file.clone(), row));
    }
    for id in differences.keys() {
        if !seen.contains_key(id) {
            failures.push(format!("differences.jsonl: {id} is no case of the corpus"));
        }
    }
    print_table(&rows);
    assert!(
        failures.is_empty(),
        "{} unexplained mismatch(es) with the peers' tests:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

fn report(case: &Case, format: TextFormat, result: &Result<(), String>) -> String {
    let parsed = parse(case, format);
    let calls: Vec<String> = parsed
        .calls
        .iter()
        .map(|c| format!("{}({})", c.name, c.arguments))
        .collect();
    let errors: Vec<String> = parsed
        .errors
        .iter()
        .map(|e| format!("{:?} at {:?}", e.kind, e.span))
        .collect();
    format!(
        "{id} [{peer} `{parser}` as {format}]\n  {why}\n  source: {source}\n  model output: {output:?}\n  ours: calls {calls:?}, text {text:?}, errors {errors:?}\n  peer: calls {want:?} ({count:?}), content {content:?}{checked}{reasoning}{notes}",
        id = case.id,
        peer = case.peer,
        parser = case.parser,
        why = result.as_ref().err().map_or("", String::as_str),
        source = case.source,
        output = case.model_output,
        text = parsed.text,
        want = case
            .calls
            .iter()
            .map(|c| format!(
                "{}({})",
                c.name.as_deref().unwrap_or("?"),
                c.arguments
                    .as_ref()
                    .map_or_else(|| format!("checks {}", Value::from(c.checks.clone())), Value::to_string)
            ))
            .collect::<Vec<_>>(),
        count = case.count,
        content = case.content,
        checked = if case.content_checked { "" } else { " (not checked)" },
        reasoning = case
            .reasoning
            .as_ref()
            .map(|r| format!(", reasoning {r:?}"))
            .unwrap_or_default(),
        notes = if case.notes.is_empty() {
            String::new()
        } else {
            format!("\n  notes: {}", case.notes)
        },
    )
}

fn print_table(rows: &[(String, Row)]) {
    println!(
        "\n{:<48} {:<16} {:>6} {:>6} {:>6} {:>13} {:>10} {:>6}",
        "peer parser", "our format", "cases", "pass", "diff", "no format yet", "auto pass", "fail"
    );
    let mut sum = Row::default();
    for (file, row) in rows {
        println!(
            "{:<48} {:<16} {:>6} {:>6} {:>6} {:>13} {:>10} {:>6}",
            file,
            row.format,
            row.total,
            row.pass,
            row.differences,
            row.no_format,
            row.auto_pass,
            row.fail
        );
        sum.total += row.total;
        sum.pass += row.pass;
        sum.differences += row.differences;
        sum.no_format += row.no_format;
        sum.auto_pass += row.auto_pass;
        sum.fail += row.fail;
    }
    println!(
        "{:<48} {:<16} {:>6} {:>6} {:>6} {:>13} {:>10} {:>6}\n",
        "total", "", sum.total, sum.pass, sum.differences, sum.no_format, sum.auto_pass, sum.fail
    );
}

#[test]
fn every_case_streams_to_what_the_whole_text_gives() {
    let mut mismatches = Vec::new();
    for (_, cases) in corpus() {
        for (n, case) in cases.iter().enumerate() {
            let mut formats = vec![TextFormat::Auto];
            if let Ok(format) = case_format(case) {
                if format != TextFormat::Auto {
                    formats.push(format);
                }
            }
            for format in formats {
                let whole = parse(case, format);
                for round in 0..24u64 {
                    let seed = 0x9e37_79b9_7f4a_7c15 ^ ((n as u64) << 20) ^ round;
                    let streamed = stream(case, format, seed);
                    if streamed != whole {
                        mismatches.push(format!(
                            "{} as {format}, round {round}:\n  whole {whole:?}\n  streamed {streamed:?}",
                            case.id
                        ));
                        break;
                    }
                }
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
