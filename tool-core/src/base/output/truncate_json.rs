//! Cutting JSON to a byte budget while keeping it JSON the model (and a program) can parse.
//!
//! The value is shrunk in steps until its compact text fits:
//!
//! 1. long strings lose their middle ([`truncate_middle`], with its marker inside the string);
//! 2. long arrays keep their first and last items, with a marker item in between:
//!    `"[... 990 items truncated ...]"`;
//! 3. objects keep every key: only their values shrink;
//! 4. when strings and arrays are as short as they go, containers below some depth become a
//!    marker string (`"{... 12 keys truncated ...}"`, `"[... 40 items truncated ...]"`), the
//!    deepest first.
//!
//! Each step halves the string and array limits of the one before (from the whole budget
//! and a sixteenth of it in items, down to 64 bytes and 2 items), so a binary search over the
//! steps finds the gentlest one that fits in a handful of tries. JSON that fits at no step
//! (an object with more keys than the budget holds), or that isn't compact JSON nested at
//! most 128 deep, becomes marked text: the JSON text cut in the middle, as for a text output.
//!
//! Each try reads the JSON text once, in place ([`json_text`](super::json_text)), and writes
//! the shrunk text as it goes, stopping when it passes the budget: no `serde_json::Value` is
//! built, so a cut costs memory of the order of the budget, not of the output (a `Value`
//! is about ten times its text). What is kept is copied byte for byte, so integers past 64
//! bits and repeated keys stay exactly as the tool wrote them.

use super::json_text::{self, Invalid, Reader};
use super::truncate::{truncate_middle, Window};
use super::{JsonOutput, ToolOutput, Truncation};
use std::collections::VecDeque;

/// Strings are never cut shorter than this: the marker itself is about 50 bytes.
const MIN_STRING: usize = 64;
/// Arrays keep at least their first and last items.
const MIN_ITEMS: usize = 2;

/// Shrinks the JSON text `json` (longer than `max`) to fit `max` bytes: valid JSON if it can
/// be, marked text if not.
pub(crate) fn truncate(json: &str, max: usize) -> ToolOutput {
    let Some(depth) = json_text::depth(json) else {
        return marked_text(json, max);
    };
    let ladder = ladder(max, depth);
    let Some(Shrunk { text, added, lines }) =
        gentlest(&ladder, |limits| Shrink::new(json, limits, max).run())
    else {
        return marked_text(json, max);
    };
    let truncation = Truncation {
        original_bytes: json.len(),
        // The text lost what was removed and gained the markers.
        removed_bytes: (json.len() + added).saturating_sub(text.len()),
        removed_lines: lines,
    };
    ToolOutput::Json(JsonOutput {
        text,
        truncation: Some(Box::new(truncation)),
    })
}

fn marked_text(json: &str, max: usize) -> ToolOutput {
    match truncate_middle(json, max) {
        Some(cut) => ToolOutput::Text(cut.text),
        None => ToolOutput::Json(JsonOutput::new(json.to_owned())),
    }
}

/// How far one step shrinks a value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Limits {
    /// The longest a string may stay, in bytes.
    string: usize,
    /// The most items an array may keep.
    items: usize,
    /// Containers nested this deep or deeper (the root is 0) become a marker.
    depth: usize,
}

fn ladder(max: usize, depth: usize) -> Vec<Limits> {
    let mut steps = Vec::new();
    let mut string = max.max(MIN_STRING);
    let mut items = (max / 16).max(MIN_ITEMS);
    loop {
        steps.push(Limits {
            string,
            items,
            depth: usize::MAX,
        });
        if string == MIN_STRING && items == MIN_ITEMS {
            break;
        }
        string = (string / 2).max(MIN_STRING);
        items = (items / 2).max(MIN_ITEMS);
    }
    steps.extend((1..depth).rev().map(|depth| Limits {
        string: MIN_STRING,
        items: MIN_ITEMS,
        depth,
    }));
    steps
}

/// The result of the gentlest step of `ladder` whose try fits (`attempt` gives `None` when it
/// doesn't), by binary search: the steps only tighten, so a step that fits means every later
/// one does. `None` when not even the tightest fits.
fn gentlest<T>(ladder: &[Limits], attempt: impl Fn(Limits) -> Option<T>) -> Option<T> {
    // The tightest step first: if it doesn't fit, none does.
    let (mut low, mut high) = (0, ladder.len() - 1);
    let mut best = attempt(ladder[high])?;
    while low < high {
        let middle = (low + high) / 2;
        match attempt(ladder[middle]) {
            Some(fits) => {
                best = fits;
                high = middle;
            }
            None => low = middle + 1,
        }
    }
    Some(best)
}

/// A try that fit: the text, the bytes its markers added, the line breaks it removed.
struct Shrunk {
    text: String,
    added: usize,
    lines: usize,
}

/// Why a try stopped early.
enum Stop {
    /// The text isn't JSON the reader takes: no step will fit.
    Invalid,
    /// The shrunk text passed the budget.
    TooBig,
}

impl From<Invalid> for Stop {
    fn from(_: Invalid) -> Stop {
        Stop::Invalid
    }
}

/// Where a try writes: the output itself, or an array item that may yet be dropped.
struct Sink {
    text: String,
    max: usize,
    /// Past the budget: the text was let go.
    over: bool,
    /// The output itself: past the budget, the try stops.
    output: bool,
}

impl Sink {
    fn new(max: usize, output: bool) -> Sink {
        Sink {
            text: String::new(),
            max,
            over: false,
            output,
        }
    }

    fn push(&mut self, piece: &str) -> Result<(), Stop> {
        if self.over || self.text.len() + piece.len() > self.max {
            return self.overflow();
        }
        self.text.push_str(piece);
        Ok(())
    }

    /// Past the budget: the text is let go, and the try stops if this is the output.
    fn overflow(&mut self) -> Result<(), Stop> {
        self.over = true;
        self.text = String::new();
        if self.output {
            Err(Stop::TooBig)
        } else {
            Ok(())
        }
    }
}

/// An array item after the head: kept if it turns out to be among the last ones.
struct Pending {
    sink: Sink,
    /// Marker bytes and removed line breaks inside it, counted if it is kept.
    added: usize,
    lines: usize,
    /// Line breaks in the item as written, counted as removed if it is dropped.
    original_lines: usize,
}

/// One shrinking try, counting the bytes its markers add and the line breaks it removes.
struct Shrink<'a> {
    reader: Reader<'a>,
    limits: Limits,
    max: usize,
    /// Bytes of compact JSON the markers add (with their quotes and commas).
    added: usize,
    lines: usize,
    /// The string being read, seen through its ends.
    window: Window,
}

impl<'a> Shrink<'a> {
    fn new(json: &'a str, limits: Limits, max: usize) -> Shrink<'a> {
        Shrink {
            reader: Reader::new(json),
            limits,
            max,
            added: 0,
            lines: 0,
            window: Window::new(limits.string),
        }
    }

    fn run(mut self) -> Option<Shrunk> {
        let mut out = Sink::new(self.max, true);
        self.value(&mut out, 0).ok()?;
        (self.reader.at_end() && !out.over).then_some(Shrunk {
            text: out.text,
            added: self.added,
            lines: self.lines,
        })
    }

    fn value(&mut self, out: &mut Sink, depth: usize) -> Result<(), Stop> {
        if depth > json_text::MAX_DEPTH {
            return Err(Stop::Invalid);
        }
        match self.reader.peek() {
            Some(b'"') => self.string(out),
            Some(open @ (b'[' | b'{'))
                if depth >= self.limits.depth && !self.reader.empty_container_next() =>
            {
                self.summary(out, open, depth)
            }
            Some(b'[') => self.array(out, depth),
            Some(b'{') => self.object(out, depth),
            _ => {
                let span = self.reader.scalar()?;
                out.push(self.reader.slice(span))
            }
        }
    }

    fn string(&mut self, out: &mut Sink) -> Result<(), Stop> {
        let limit = self.limits.string;
        self.window.reset(limit);
        let window = &mut self.window;
        let span = self.reader.string(|piece| window.push(piece))?;
        match self.window.cut(limit) {
            // As written: serde_json escaped it as it escapes the cut one.
            None => out.push(self.reader.slice(span)),
            Some(cut) => {
                self.added += escaped_len(&cut.text[cut.inserted.clone()]);
                self.lines += cut.truncation.removed_lines;
                let quoted = serde_json::to_string(&cut.text).map_err(|_| Stop::Invalid)?;
                out.push(&quoted)
            }
        }
    }

    fn object(&mut self, out: &mut Sink, depth: usize) -> Result<(), Stop> {
        self.reader.expect(b'{')?;
        out.push("{")?;
        if !self.reader.eat(b'}') {
            loop {
                let key = self.reader.key()?;
                out.push(self.reader.slice(key))?;
                out.push(":")?;
                self.value(out, depth + 1)?;
                if !self.reader.eat(b',') {
                    self.reader.expect(b'}')?;
                    break;
                }
                out.push(",")?;
            }
        }
        out.push("}")
    }

    /// An array keeps its first items as they come and the last ones through a queue of
    /// `tail` shrunk items: when more come, the oldest is dropped, so the length need not be
    /// known before the end.
    fn array(&mut self, out: &mut Sink, depth: usize) -> Result<(), Stop> {
        self.reader.expect(b'[')?;
        out.push("[")?;
        if self.reader.eat(b']') {
            return out.push("]");
        }
        let tail = self.limits.items / 2;
        let head = self.limits.items - tail;
        let mut last: VecDeque<Pending> = VecDeque::with_capacity(tail + 1);
        let (mut dropped, mut dropped_lines) = (0usize, 0usize);
        let mut index = 0;
        loop {
            if index < head {
                if index > 0 {
                    out.push(",")?;
                }
                self.value(out, depth + 1)?;
            } else {
                let (added, lines, seen) = (self.added, self.lines, self.reader.lines);
                let mut sink = Sink::new(self.max, false);
                self.value(&mut sink, depth + 1)?;
                last.push_back(Pending {
                    sink,
                    added: self.added - added,
                    lines: self.lines - lines,
                    original_lines: self.reader.lines - seen,
                });
                // Counted once the item is known to be kept.
                (self.added, self.lines) = (added, lines);
                if last.len() > tail {
                    if let Some(gone) = last.pop_front() {
                        dropped += 1;
                        dropped_lines += gone.original_lines;
                    }
                }
            }
            index += 1;
            if !self.reader.eat(b',') {
                self.reader.expect(b']')?;
                break;
            }
        }
        if dropped > 0 {
            self.lines += dropped_lines;
            out.push(",")?;
            // The comma before the marker item is the markers' too.
            self.added += 1;
            self.marker(out, format!("[... {dropped} items truncated ...]"))?;
        }
        for kept in last {
            if kept.sink.over {
                // Over the budget alone: so is whatever holds it.
                return out.overflow();
            }
            self.added += kept.added;
            self.lines += kept.lines;
            out.push(",")?;
            out.push(&kept.sink.text)?;
        }
        out.push("]")
    }

    /// A container past the depth limit becomes a marker string saying what it held.
    fn summary(&mut self, out: &mut Sink, open: u8, depth: usize) -> Result<(), Stop> {
        let seen = self.reader.lines;
        let entries = self.reader.skip(depth)?.entries;
        self.lines += self.reader.lines - seen;
        let marker = if open == b'[' {
            format!("[... {entries} items truncated ...]")
        } else {
            format!("{{... {entries} keys truncated ...}}")
        };
        self.marker(out, marker)
    }

    /// Writes a marker string, counting it and its quotes as added.
    fn marker(&mut self, out: &mut Sink, marker: String) -> Result<(), Stop> {
        self.added += marker.len() + 2;
        out.push("\"")?;
        out.push(&marker)?;
        out.push("\"")
    }
}

/// The length of a string's contents once escaped in JSON, as serde_json escapes them.
fn escaped_len(text: &str) -> usize {
    text.bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 2,
            0..=0x1f => 6,
            _ => 1,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Truncates, checks the result is JSON within the budget, and returns it.
    fn shrunk(value: &Value, max: usize) -> (Value, Truncation) {
        let text = value.to_string();
        assert!(text.len() > max, "the test value must be over the budget");
        match truncate(&text, max) {
            ToolOutput::Json(json) => {
                assert!(
                    json.as_str().len() <= max,
                    "{} > {max}",
                    json.as_str().len()
                );
                let parsed: Value = serde_json::from_str(json.as_str()).expect("valid JSON");
                (parsed, json.truncation().expect("marked truncated"))
            }
            other => panic!("expected JSON, got {other:?}"),
        }
    }

    #[test]
    fn a_long_string_keeps_its_head_and_tail() {
        let long: String = (0..20_000).map(|i| format!("row {i}\n")).collect();
        let value = json!({"path": "log.txt", "content": long, "exit": 1});
        let (small, t) = shrunk(&value, 2048);
        assert_eq!(small["path"], "log.txt");
        assert_eq!(small["exit"], 1);
        let content = small["content"].as_str().unwrap();
        assert!(content.starts_with("row 0\nrow 1\n"));
        assert!(content.ends_with("row 19999\n"));
        assert!(content.contains("[... truncated "));
        // The counts are those of the JSON text.
        assert_eq!(t.original_bytes, value.to_string().len());
        let kept = content.lines().filter(|l| l.starts_with("row ")).count();
        assert_eq!(t.removed_lines, 20_000 - kept);
        let start = content.find("[... truncated ").unwrap();
        let end = content.find(" lines ...]\n").unwrap() + " lines ...]\n".len();
        let (head, tail) = (&content[..start], &content[end..]);
        let escaped_removed = escaped_len(&long) - escaped_len(head) - escaped_len(tail);
        assert_eq!(t.removed_bytes, escaped_removed);
    }

    #[test]
    fn a_long_array_keeps_its_ends_and_says_how_many_went() {
        let value = json!({"ids": (0..10_000).collect::<Vec<_>>()});
        let (small, t) = shrunk(&value, 1024);
        let ids = small["ids"].as_array().unwrap();
        assert_eq!(ids[0], 0);
        assert_eq!(ids[ids.len() - 1], 9999);
        let marker = ids.iter().find_map(Value::as_str).unwrap();
        let kept = ids.len() - 1;
        assert_eq!(
            marker,
            format!("[... {} items truncated ...]", 10_000 - kept)
        );
        assert_eq!(t.removed_lines, 0);
        // Removed: the dropped numbers and their commas.
        let dropped: usize = (0..10_000)
            .filter(|i| !ids.contains(&json!(i)))
            .map(|i: i32| i.to_string().len() + 1)
            .sum();
        assert_eq!(t.removed_bytes, dropped);
    }

    #[test]
    fn deep_objects_keep_their_top_and_lose_their_depths() {
        fn tree(depth: usize) -> Value {
            if depth == 0 {
                return json!("leaf");
            }
            json!({"left": tree(depth - 1), "right": tree(depth - 1), "depth": depth})
        }
        let value = tree(12);
        let (small, _) = shrunk(&value, 4096);
        assert_eq!(small["depth"], 12);
        assert_eq!(small["left"]["depth"], 11);
        let text = small.to_string();
        assert!(text.contains("keys truncated ...}"), "{text}");
    }

    #[test]
    fn deep_narrow_nesting_shrinks_its_leaves() {
        let mut value = json!("x".repeat(10_000));
        for i in 0..100 {
            value = json!({ format!("level{i}"): value });
        }
        let (small, _) = shrunk(&value, 2048);
        let mut inner = &small;
        for i in (0..100).rev() {
            inner = &inner[format!("level{i}")];
        }
        assert!(inner.as_str().unwrap().contains("[... truncated "));
    }

    #[test]
    fn too_many_keys_become_marked_text() {
        let map: serde_json::Map<String, Value> =
            (0..5000).map(|i| (format!("key{i}"), json!(i))).collect();
        let text = Value::Object(map).to_string();
        match truncate(&text, 1024) {
            ToolOutput::Text(marked) => {
                assert!(marked.len() <= 1024);
                assert!(marked.starts_with("{\"key0\":0,"));
                assert!(marked.ends_with("\"key4999\":4999}"));
                assert!(super::super::truncate::find(&marked).is_some());
            }
            other => panic!("expected text, got {other:?}"),
        }
    }

    #[test]
    fn json_nested_past_the_parser_limit_becomes_marked_text() {
        let text = format!(
            "{}{}{}",
            "[".repeat(200),
            "1,".repeat(2000) + "1",
            "]".repeat(200)
        );
        assert!(matches!(truncate(&text, 512), ToolOutput::Text(t) if t.len() <= 512));
    }

    #[test]
    fn every_budget_gives_valid_json_or_marked_text() {
        let value = json!({
            "name": "é🦀".repeat(200),
            "rows": (0..300).map(|i| json!({"i": i, "tags": ["a", "b\nc"]})).collect::<Vec<_>>(),
            "nested": {"deeper": {"deepest": [[[["x".repeat(500)]]]]}},
        });
        let text = value.to_string();
        for max in (0..text.len()).step_by(97) {
            match truncate(&text, max) {
                ToolOutput::Json(json) => {
                    assert!(json.as_str().len() <= max);
                    serde_json::from_str::<Value>(json.as_str()).unwrap();
                }
                ToolOutput::Text(marked) => {
                    assert!(super::super::truncate::find(&marked).is_some(), "{max}");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_ladder_ends_at_the_smallest_limits() {
        let steps = ladder(8192, 3);
        assert_eq!(steps[0].string, 8192);
        assert_eq!(steps[0].items, 512);
        let last_flat = steps.iter().rposition(|s| s.depth == usize::MAX).unwrap();
        assert_eq!(steps[last_flat].string, MIN_STRING);
        assert_eq!(steps[last_flat].items, MIN_ITEMS);
        assert_eq!(
            steps[last_flat + 1..]
                .iter()
                .map(|s| s.depth)
                .collect::<Vec<_>>(),
            [2, 1]
        );
    }

    /// The cut as it was made before it streamed: on a `serde_json::Value`. The streamed cut
    /// must give the same text and counts for every JSON serde_json writes.
    mod reference {
        use super::super::*;
        use serde_json::Value;

        pub(super) fn truncate(json: &str, max: usize) -> Option<(String, Truncation)> {
            let value: Value = serde_json::from_str(json).ok()?;
            let ladder = ladder(max, depth(&value));
            let attempt = |limits: Limits| {
                let mut shrink = Shrink {
                    limits,
                    added: 0,
                    lines: 0,
                };
                let text = serde_json::to_string(&shrink.value(&value, 0)).ok()?;
                (text.len() <= max).then_some((text, shrink))
            };
            let (text, shrink) = gentlest(&ladder, attempt)?;
            let truncation = Truncation {
                original_bytes: json.len(),
                removed_bytes: (json.len() + shrink.added).saturating_sub(text.len()),
                removed_lines: shrink.lines,
            };
            Some((text, truncation))
        }

        struct Shrink {
            limits: Limits,
            added: usize,
            lines: usize,
        }

        impl Shrink {
            fn value(&mut self, value: &Value, depth: usize) -> Value {
                match value {
                    Value::String(text) => match truncate_middle(text, self.limits.string) {
                        None => value.clone(),
                        Some(cut) => {
                            self.added += escaped_len(&cut.text[cut.inserted.clone()]);
                            self.lines += cut.truncation.removed_lines;
                            Value::String(cut.text)
                        }
                    },
                    Value::Array(items) if depth >= self.limits.depth && !items.is_empty() => {
                        self.summary(value, format!("[... {} items truncated ...]", items.len()))
                    }
                    Value::Object(map) if depth >= self.limits.depth && !map.is_empty() => {
                        self.summary(value, format!("{{... {} keys truncated ...}}", map.len()))
                    }
                    Value::Array(items) => self.array(items, depth),
                    Value::Object(map) => Value::Object(
                        map.iter()
                            .map(|(key, value)| (key.clone(), self.value(value, depth + 1)))
                            .collect(),
                    ),
                    scalar => scalar.clone(),
                }
            }

            fn array(&mut self, items: &[Value], depth: usize) -> Value {
                if items.len() <= self.limits.items {
                    return Value::Array(items.iter().map(|v| self.value(v, depth + 1)).collect());
                }
                let tail = self.limits.items / 2;
                let head = self.limits.items - tail;
                let dropped = &items[head..items.len() - tail];
                let marker = format!("[... {} items truncated ...]", dropped.len());
                self.added += marker.len() + 3;
                self.lines += dropped.iter().map(line_breaks).sum::<usize>();
                let mut kept: Vec<Value> = items[..head]
                    .iter()
                    .map(|v| self.value(v, depth + 1))
                    .collect();
                kept.push(Value::String(marker));
                kept.extend(
                    items[items.len() - tail..]
                        .iter()
                        .map(|v| self.value(v, depth + 1)),
                );
                Value::Array(kept)
            }

            fn summary(&mut self, replaced: &Value, marker: String) -> Value {
                self.added += marker.len() + 2;
                self.lines += line_breaks(replaced);
                Value::String(marker)
            }
        }

        fn depth(value: &Value) -> usize {
            match value {
                Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
                Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
                _ => 0,
            }
        }

        fn line_breaks(value: &Value) -> usize {
            let count = |text: &str| text.matches('\n').count();
            match value {
                Value::String(text) => count(text),
                Value::Array(items) => items.iter().map(line_breaks).sum(),
                Value::Object(map) => map.iter().map(|(k, v)| count(k) + line_breaks(v)).sum(),
                _ => 0,
            }
        }
    }

    /// A value of every kind, nested, with long strings, escapes and line breaks, drawn from
    /// a seed (a fixed generator: the cases are the same on every run). `nodes` bounds the
    /// values drawn, so one case stays small whatever the draws.
    fn generated(seed: &mut u64, depth: usize, nodes: &mut usize) -> Value {
        let mut next = |n: u64| {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 33) % n
        };
        *nodes = nodes.saturating_sub(1);
        let kind = if depth >= 5 || *nodes == 0 {
            next(4)
        } else {
            next(7)
        };
        match kind {
            0 => json!(next(1_000_000) as i64 - 500_000),
            1 => json!(next(3) == 0),
            2 => Value::Null,
            3 => {
                let unit = ["a", "line\n", "é🦀", "\"q\"\t", "\u{1}"][next(5) as usize];
                json!(unit.repeat(next(400) as usize))
            }
            4 | 5 => {
                let len = [0, 1, 2, 3, 10, 200][next(6) as usize];
                let mut items = Vec::with_capacity(len);
                for _ in 0..len {
                    items.push(generated(seed, depth + 1, nodes));
                }
                Value::Array(items)
            }
            _ => {
                let len = next(6) as usize;
                let mut map = serde_json::Map::new();
                for i in 0..len {
                    map.insert(format!("k{i}\n"), generated(seed, depth + 1, nodes));
                }
                Value::Object(map)
            }
        }
    }

    #[test]
    fn the_streamed_cut_is_the_cut_of_the_value() {
        let mut seed = 7;
        let mut compared = 0;
        for _ in 0..150 {
            let text = generated(&mut seed, 0, &mut 400).to_string();
            for max in [0, 64, 200, 1000, 5000] {
                if text.len() <= max {
                    continue;
                }
                let streamed = match truncate(&text, max) {
                    ToolOutput::Json(json) => {
                        Some((json.as_str().to_owned(), json.truncation().unwrap()))
                    }
                    _ => None,
                };
                assert_eq!(streamed, reference::truncate(&text, max), "{max}: {text}");
                compared += usize::from(streamed.is_some());
            }
        }
        assert!(compared > 100, "only {compared} cuts compared");
    }
}
