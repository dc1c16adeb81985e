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
//! (an object with more keys than the budget holds), that doesn't parse back, or that a
//! `serde_json::Value` can't hold exactly (an integer past 64 bits) becomes marked text: the
//! compact JSON text cut in the middle, as for a text output.

use super::truncate::truncate_middle;
use super::{JsonOutput, ToolOutput, Truncation};
use serde_json::Value;

/// Strings are never cut shorter than this: the marker itself is about 50 bytes.
const MIN_STRING: usize = 64;
/// Arrays keep at least their first and last items.
const MIN_ITEMS: usize = 2;

/// Shrinks the JSON text `json` (longer than `max`) to fit `max` bytes: valid JSON if it can
/// be, marked text if not.
pub(crate) fn truncate(json: &str, max: usize) -> ToolOutput {
    let Ok(value) = serde_json::from_str::<Value>(json) else {
        return marked_text(json, max);
    };
    // A value the parse changed (an integer past 64 bits read as a float, a repeated key)
    // would be written back changed: such JSON is cut as text, which keeps what it keeps exact.
    if serde_json::to_string(&value).map_or(true, |text| text != json) {
        return marked_text(json, max);
    }
    let ladder = ladder(max, depth(&value));
    let attempt = |limits: Limits| {
        let mut shrink = Shrink {
            limits,
            added: 0,
            lines: 0,
        };
        let small = shrink.value(&value, 0);
        let text = serde_json::to_string(&small).ok()?;
        (text.len() <= max).then_some((text, shrink))
    };
    // The tightest step first: if it doesn't fit, none does.
    let (mut low, mut high) = (0, ladder.len() - 1);
    let Some(mut best) = attempt(ladder[high]) else {
        return marked_text(json, max);
    };
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
    let (text, shrink) = best;
    let truncation = Truncation {
        original_bytes: json.len(),
        // The text lost what was removed and gained the markers.
        removed_bytes: (json.len() + shrink.added).saturating_sub(text.len()),
        removed_lines: shrink.lines,
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

/// One shrinking pass, counting the bytes its markers add and the line breaks it removes.
struct Shrink {
    limits: Limits,
    /// Bytes of compact JSON the markers add (with their quotes and commas).
    added: usize,
    lines: usize,
}

impl Shrink {
    fn value(&mut self, value: &Value, depth: usize) -> Value {
        match value {
            Value::String(text) => self.string(text),
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

    fn string(&mut self, text: &str) -> Value {
        match truncate_middle(text, self.limits.string) {
            None => Value::String(text.to_owned()),
            Some(cut) => {
                self.added += escaped_len(&cut.text[cut.inserted.clone()]);
                self.lines += cut.truncation.removed_lines;
                Value::String(cut.text)
            }
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
        // The marker item: its text, two quotes, one comma.
        self.added += marker.len() + 3;
        self.lines += dropped.iter().map(line_breaks).sum::<usize>();
        let mut kept = Vec::with_capacity(self.limits.items + 1);
        kept.extend(items[..head].iter().map(|v| self.value(v, depth + 1)));
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

/// How deep containers nest: 0 for a scalar, 1 for a flat array or object.
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Line breaks in a value's strings and keys: the lines a reader loses with it.
fn line_breaks(value: &Value) -> usize {
    let count = |text: &str| memchr::memchr_iter(b'\n', text.as_bytes()).count();
    match value {
        Value::String(text) => count(text),
        Value::Array(items) => items.iter().map(line_breaks).sum(),
        Value::Object(map) => map.iter().map(|(k, v)| count(k) + line_breaks(v)).sum(),
        _ => 0,
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
    use serde_json::json;

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
}
