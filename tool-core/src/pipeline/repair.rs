//! Stage 2: repair of the harmless mistakes models make, under a [`RepairPolicy`], each
//! repair recorded.

use super::number_text::{self, InexactNumber};
use crate::pointer::push_segment;
use crate::schema_nav::{SchemaNav, Types};
use crate::violation::short;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How much the runtime fixes in a model's call before judging it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepairPolicy {
    /// No repairs: the call is judged as sent (a whole number written `5.0` for an integer is
    /// still read as `5`, which the schema accepts as it is).
    Off,
    /// Fixes that can't change what the model meant: empty or `null` arguments as `{}`,
    /// double-encoded arguments, `"5"` where a number is wanted, `"true"` where a boolean is,
    /// a lone value where an array is, a JSON string where an object or array is, and a tool
    /// name off by case, `-`/`_` or a `functions.`/namespace prefix.
    #[default]
    Safe,
    /// `Safe`, plus JSON with trailing commas, single quotes, unquoted keys, comments or a cut
    /// off end, and unknown properties dropped instead of rejected.
    Lenient,
}

/// One fix the runtime made to a call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Repair {
    /// What was fixed.
    pub kind: RepairKind,
    /// Where, as a JSON pointer into the arguments (`""` for the whole).
    pub pointer: String,
    /// What it was before, in short.
    pub detail: String,
}

/// The kinds of [`Repair`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RepairKind {
    /// Empty or `null` arguments read as `{}`.
    EmptyArguments,
    /// Arguments sent as a JSON string holding the JSON object.
    DoubleEncoded,
    /// Broken JSON parsed leniently.
    LenientJson,
    /// A string holding a number, read as the number.
    StringToNumber,
    /// A string holding `true`/`false`, read as the boolean.
    StringToBoolean,
    /// A string holding JSON, read as the object or array it holds.
    StringToJson,
    /// A lone value where an array is wanted, wrapped in one.
    WrappedInArray,
    /// A property the tool doesn't have, dropped.
    DroppedUnknown,
    /// A tool name matched after normalization.
    ToolName,
    /// A `null` sent for "use the default" (what strict-mode models send for a parameter
    /// they leave out) where the schema's default is unusable (its own schema refuses it:
    /// [`BuildNote::UnusableDefault`](crate::registry::BuildNote::UnusableDefault)) and `null`
    /// isn't allowed: the parameter is left out instead.
    NullForUnusableDefault,
    /// A whole number written as a float (`5.0`) where an integer is wanted. The schema
    /// accepts it, Rust's integer types don't: applied under every policy.
    WholeNumber,
}

impl RepairKind {
    /// Whether the repair put a container where the model sent none (a lone value wrapped in
    /// an array, a string read as the JSON it holds): places inside it are in the repaired
    /// value only, so a violation there is reported at the repair's place, the model's own
    /// value.
    pub(crate) fn reshapes(self) -> bool {
        matches!(self, RepairKind::WrappedInArray | RepairKind::StringToJson)
    }

    /// Whether the repair parsed text inside the arguments, which the limits stage saw only
    /// as a string.
    pub(crate) fn parses_nested_text(self) -> bool {
        matches!(
            self,
            RepairKind::DoubleEncoded | RepairKind::StringToJson | RepairKind::LenientJson
        )
    }
}

/// The arguments could not be read as JSON at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unparsable {
    /// Not JSON, not even leniently; why.
    Syntax(String),
    /// Text the lenient parser was not given: it may nest past the depth limit.
    TooDeep,
}

/// Parses the argument text into a value, applying the whole-text repairs the policy allows.
///
/// The numbers whose text is not an integer but whose float is whole go to `inexact`
/// (`number_text`).
pub(crate) fn parse_arguments(
    text: &str,
    policy: RepairPolicy,
    max_depth: usize,
    repairs: &mut Vec<Repair>,
    inexact: &mut Vec<InexactNumber>,
) -> Result<Value, Unparsable> {
    let trimmed = text.trim();
    if policy != RepairPolicy::Off && (trimmed.is_empty() || trimmed == "null") {
        repairs.push(repair(
            RepairKind::EmptyArguments,
            "",
            if trimmed.is_empty() { "empty" } else { "null" },
        ));
        return Ok(Value::Object(Map::new()));
    }
    let value = match parse_json(trimmed) {
        Ok(value) => {
            number_text::find_inexact(trimmed, &value, "", inexact);
            value
        }
        // A duplicate key (a data error) is refused under every policy, never "repaired".
        Err(e) if policy == RepairPolicy::Lenient && !e.is_data() => {
            match lenient(trimmed, max_depth, inexact) {
                Ok(value) => {
                    repairs.push(repair(RepairKind::LenientJson, "", &e.to_string()));
                    value
                }
                Err(refused) => {
                    return Err(refused.unwrap_or_else(|| Unparsable::Syntax(e.to_string())))
                }
            }
        }
        Err(e) => return Err(Unparsable::Syntax(e.to_string())),
    };
    if policy == RepairPolicy::Off {
        return Ok(value);
    }
    match value {
        Value::String(inner) => match parse_json(&inner) {
            Ok(object @ Value::Object(_)) => {
                repairs.push(repair(RepairKind::DoubleEncoded, "", "a JSON string"));
                number_text::find_inexact(&inner, &object, "", inexact);
                Ok(object)
            }
            _ => Ok(Value::String(inner)),
        },
        Value::Null => {
            repairs.push(repair(RepairKind::EmptyArguments, "", "null"));
            Ok(Value::Object(Map::new()))
        }
        other => Ok(other),
    }
}

/// Parses JSON text into a value like `serde_json::from_str`, but refuses an object with a
/// key written twice. serde_json keeps the last one, a typed struct refuses it, and an
/// approver reading the raw text may read the first one: the call would run with arguments
/// other than the ones approved. So a duplicate key is reported, never guessed at.
#[doc(hidden)]
pub fn parse_json(text: &str) -> Result<Value, serde_json::Error> {
    use serde::de::DeserializeSeed;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = NoDuplicates.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Builds a [`Value`], failing on a duplicate object key (see [`parse_json`]).
#[derive(Clone, Copy)]
struct NoDuplicates;

impl<'de> serde::de::DeserializeSeed<'de> for NoDuplicates {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicates {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "the key {key:?} appears twice in one object; send each argument once"
                )));
            }
            let value = map.next_value_seed(self)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// Lenient JSON through `llm_json`. It is third-party code fed hostile text, so a panic in it
/// is contained and treated as "not repairable" (`Err(None)`); `Err(Some(..))` is text
/// refused for a reason worth telling the model.
fn lenient(
    text: &str,
    max_depth: usize,
    inexact: &mut Vec<InexactNumber>,
) -> Result<Value, Option<Unparsable>> {
    // llm_json recurses once per level with no limit of its own: text that may nest past the
    // limit never reaches it (a stack overflow can't be caught, it aborts the process).
    if super::limits::brackets_exceed(text, max_depth) {
        return Err(Some(Unparsable::TooDeep));
    }
    // The repaired text, not llm_json's value: its value keeps the last of a key written
    // twice, and `parse_json` refuses that under every policy.
    let options = llm_json::RepairOptions {
        skip_json_loads: true,
        ..llm_json::RepairOptions::default()
    };
    let mut attempt = |text: &str| -> Result<Value, Option<Unparsable>> {
        let repaired = std::panic::catch_unwind(|| llm_json::repair_json(text, &options))
            .ok()
            .and_then(Result::ok)
            .ok_or(None)?;
        let value = parse_json(&repaired)
            .map_err(|e| e.is_data().then(|| Unparsable::Syntax(e.to_string())))?;
        number_text::find_inexact(&repaired, &value, "", inexact);
        Ok(value)
    };
    // llm_json handles each fault alone but can trip on comments mixed with others.
    let parsed = match attempt(text) {
        Err(None) => attempt(&strip_comments(text))?,
        other => other?,
    };
    // An empty string or a bare word "repaired" into a string is not a recovered call.
    if matches!(parsed, Value::Object(_) | Value::Array(_)) {
        Ok(parsed)
    } else {
        Err(None)
    }
}

/// Removes `//` and `/* */` comments that stand outside strings (either quote kind).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), _) => {
                out.push(c);
                if c == '\\' {
                    out.extend(chars.next());
                } else if c == q {
                    quote = None;
                }
            }
            (None, '"' | '\'') => {
                quote = Some(c);
                out.push(c);
            }
            (None, '/') if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            (None, '/') if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// Fixes values that don't have the type their schema wants, where the intent is certain,
/// and (under `Lenient`) drops properties a closed object doesn't have.
///
/// `inexact` holds the numbers whose text is not an integer (from `parse_arguments`): they are
/// never made integers, and those where only an integer is wanted are marked `refused`.
pub(crate) fn coerce(
    value: &mut Value,
    nav: SchemaNav<'_>,
    policy: RepairPolicy,
    repairs: &mut Vec<Repair>,
    inexact: &mut Vec<InexactNumber>,
) {
    let mut pointer = String::new();
    let index = inexact
        .iter()
        .enumerate()
        .map(|(i, n)| (n.pointer.clone(), i))
        .collect();
    let mut walk = Walk {
        nav,
        policy,
        repairs,
        inexact,
        index,
    };
    coerce_at(value, nav.root(), &mut walk, &mut pointer, 0);
}

/// What `coerce_at` carries down the walk.
struct Walk<'a, 'n> {
    nav: SchemaNav<'n>,
    policy: RepairPolicy,
    repairs: &'a mut Vec<Repair>,
    inexact: &'a mut Vec<InexactNumber>,
    /// Where each of `inexact` is: looked up per number, so a call full of them stays linear.
    index: std::collections::HashMap<String, usize>,
}

/// Deeper than this the walk stops: limits already cap input depth, this caps the schema's.
const MAX_WALK_DEPTH: usize = 128;

fn coerce_at(
    value: &mut Value,
    schema: &Value,
    walk: &mut Walk<'_, '_>,
    pointer: &mut String,
    depth: usize,
) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    let (nav, policy) = (walk.nav, walk.policy);
    let wanted = nav.types(schema);
    // A whole float whose text isn't an integer (`2.9999999999999999`) is not made one.
    let inexact = value.is_f64() && !walk.index.is_empty() && {
        match walk.index.get(pointer.as_str()) {
            Some(&i) => {
                walk.inexact[i].refused =
                    wanted.contains(Types::INTEGER) && !wanted.contains(Types::NUMBER);
                true
            }
            None => false,
        }
    };
    if inexact {
        // Left as the float it is: validation refuses it where only an integer is wanted.
    } else if let Some(whole) = whole_number(value, wanted) {
        walk.repairs
            .push(repair(RepairKind::WholeNumber, pointer, &value.to_string()));
        *value = whole;
    } else if policy != RepairPolicy::Off
        && !wanted.contains(Types::of(value))
        && !(wanted.contains(Types::NUMBER) && Types::of(value) == Types::INTEGER)
    {
        convert(value, wanted, walk, pointer);
    }
    let repairs = &mut *walk.repairs;
    match value {
        Value::Object(map) => {
            if policy == RepairPolicy::Lenient {
                if let Some(known) = nav.is_closed(schema) {
                    let unknown: Vec<String> = map
                        .keys()
                        .filter(|k| !known.contains_key(*k))
                        .cloned()
                        .collect();
                    for key in unknown {
                        map.shift_remove(&key);
                        repairs.push(repair(
                            RepairKind::DroppedUnknown,
                            &child(pointer, &key),
                            &key,
                        ));
                    }
                }
            }
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                // A listed property (in the branch the value's tag picks), or a map's value
                // (`HashMap<String, u32>`: `5.0` there is a whole number too).
                let child_schema = nav
                    .property_for(schema, &key, map)
                    .or_else(|| nav.map_values(schema));
                let Some(child_value) = map.get_mut(&key) else {
                    continue;
                };
                if let Some(child_schema) = child_schema {
                    let len = pointer.len();
                    push_segment(pointer, &key);
                    coerce_at(child_value, child_schema, walk, pointer, depth + 1);
                    pointer.truncate(len);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = nav.items(schema) {
                for (i, item) in items.iter_mut().enumerate() {
                    let len = pointer.len();
                    push_segment(pointer, &i.to_string());
                    coerce_at(item, item_schema, walk, pointer, depth + 1);
                    pointer.truncate(len);
                }
            }
        }
        _ => {}
    }
}

/// Converts `value` to one of the `wanted` types when that reading is unambiguous.
fn convert(value: &mut Value, wanted: Types, walk: &mut Walk<'_, '_>, pointer: &str) {
    let repairs = &mut *walk.repairs;
    if let Value::String(text) = value {
        let trimmed = text.trim();
        if wanted.contains(Types::INTEGER) || wanted.contains(Types::NUMBER) {
            if let Some(number) = parse_number(trimmed, wanted) {
                repairs.push(repair(
                    RepairKind::StringToNumber,
                    pointer,
                    &format!("{text:?}"),
                ));
                *value = number;
                return;
            }
        }
        if wanted.contains(Types::BOOLEAN) {
            let parsed = match trimmed.to_ascii_lowercase().as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            };
            if let Some(flag) = parsed {
                repairs.push(repair(
                    RepairKind::StringToBoolean,
                    pointer,
                    &format!("{text:?}"),
                ));
                *value = Value::Bool(flag);
                return;
            }
        }
        if wanted.contains(Types::OBJECT) || wanted.contains(Types::ARRAY) {
            // `parse_json`: a key written twice inside is refused here too.
            if let Ok(inner) = parse_json(trimmed) {
                if matches!(inner, Value::Object(_) | Value::Array(_))
                    && wanted.contains(Types::of(&inner))
                {
                    // The model's own value, in short: a violation inside is reported with it.
                    let sent = short(&Value::String(text.clone()));
                    repairs.push(repair(RepairKind::StringToJson, pointer, &sent));
                    let from = walk.inexact.len();
                    number_text::find_inexact(trimmed, &inner, pointer, walk.inexact);
                    for i in from..walk.inexact.len() {
                        walk.index.insert(walk.inexact[i].pointer.clone(), i);
                    }
                    *value = inner;
                    return;
                }
            }
        }
    }
    // `null` is never a one-item list: for a parameter with a default it means the default
    // (what strict-mode models send), which the resolver fills in.
    if wanted.contains(Types::ARRAY)
        && !wanted.contains(Types::of(value))
        && !value.is_array()
        && !value.is_null()
    {
        let single = std::mem::take(value);
        // The model's own value, in short: a violation inside the array is reported with it.
        repairs.push(repair(RepairKind::WrappedInArray, pointer, &short(&single)));
        *value = Value::Array(vec![single]);
    }
}

/// `5.0` as `5` where only an integer is wanted (JSON Schema counts it as an integer).
fn whole_number(value: &Value, wanted: Types) -> Option<Value> {
    let float = value.as_f64().filter(|_| value.is_f64())?;
    let integer_only = wanted.contains(Types::INTEGER) && !wanted.contains(Types::NUMBER);
    (integer_only && float.fract() == 0.0 && float.abs() < 9_007_199_254_740_992.0)
        .then(|| Value::from(float as i64))
}

fn parse_number(text: &str, wanted: Types) -> Option<Value> {
    if let Ok(int) = text.parse::<i64>() {
        return Some(Value::from(int));
    }
    if let Ok(int) = text.parse::<u64>() {
        return Some(Value::from(int));
    }
    let float: f64 = text.parse().ok().filter(|f: &f64| f.is_finite())?;
    // "5.0" for an integer is 5; "5.5" for an integer stays a string for validation to report,
    // and so does "2.9999999999999999": decided by the text, not the float it rounds to.
    if float.fract() == 0.0
        && number_text::is_integral_literal(text)
        && float.abs() < 9_007_199_254_740_992.0
        && !wanted.contains(Types::NUMBER)
    {
        return Some(Value::from(float as i64));
    }
    wanted
        .contains(Types::NUMBER)
        .then(|| serde_json::Number::from_f64(float).map(Value::Number))
        .flatten()
}

fn repair(kind: RepairKind, pointer: &str, detail: &str) -> Repair {
    Repair {
        kind,
        pointer: pointer.to_owned(),
        detail: detail.to_owned(),
    }
}

fn child(pointer: &str, key: &str) -> String {
    let mut out = pointer.to_owned();
    push_segment(&mut out, key);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str, policy: RepairPolicy) -> (Result<Value, Unparsable>, Vec<RepairKind>) {
        let mut repairs = Vec::new();
        let value = parse_arguments(text, policy, 64, &mut repairs, &mut Vec::new());
        (value, repairs.into_iter().map(|r| r.kind).collect())
    }

    #[test]
    fn duplicate_keys_are_refused_under_every_policy() {
        for policy in [RepairPolicy::Off, RepairPolicy::Safe, RepairPolicy::Lenient] {
            for text in [r#"{"a": 1, "a": 2}"#, r#"{"a": {"b": 1, "c": 2, "b": 3}}"#] {
                let err = parse_arguments(text, policy, 64, &mut Vec::new(), &mut Vec::new())
                    .unwrap_err();
                assert!(
                    matches!(&err, Unparsable::Syntax(reason) if reason.contains("appears twice")),
                    "{policy:?} {text}: {err:?}"
                );
            }
        }
        let value = parse_json(r#"{"a": [1, -2, 2.5, "x", null, true], "b": {"a": {}}}"#).unwrap();
        assert_eq!(
            value,
            json!({"a": [1, -2, 2.5, "x", null, true], "b": {"a": {}}})
        );
        assert!(parse_json("{} x").is_err());
        assert!(parse_json(r#"{"a": "\ud800"}"#).is_err());
    }

    #[test]
    fn empty_null_and_double_encoded() {
        assert_eq!(
            parse("", RepairPolicy::Safe),
            (Ok(json!({})), vec![RepairKind::EmptyArguments])
        );
        assert_eq!(
            parse(" null ", RepairPolicy::Safe),
            (Ok(json!({})), vec![RepairKind::EmptyArguments])
        );
        assert_eq!(
            parse(r#""{\"a\": 1}""#, RepairPolicy::Safe),
            (Ok(json!({"a": 1})), vec![RepairKind::DoubleEncoded])
        );
        assert!(parse("", RepairPolicy::Off).0.is_err());
        assert_eq!(
            parse(r#""{\"a\": 1}""#, RepairPolicy::Off).0,
            Ok(json!("{\"a\": 1}"))
        );
    }

    #[test]
    fn lenient_json_only_under_lenient() {
        let broken = "{'a': 1, b: [1, 2,], // note\n}";
        assert!(parse(broken, RepairPolicy::Safe).0.is_err());
        let (value, kinds) = parse(broken, RepairPolicy::Lenient);
        assert_eq!(value, Ok(json!({"a": 1, "b": [1, 2]})));
        assert_eq!(kinds, [RepairKind::LenientJson]);
        assert_eq!(
            parse(r#"{"a": "cut off"#, RepairPolicy::Lenient).0,
            Ok(json!({"a": "cut off"}))
        );
        assert!(parse("just words", RepairPolicy::Lenient).0.is_err());
    }

    fn coerce_with(value: Value, schema: Value, policy: RepairPolicy) -> (Value, Vec<Repair>) {
        let mut value = value;
        let mut repairs = Vec::new();
        coerce(
            &mut value,
            SchemaNav::new(&schema),
            policy,
            &mut repairs,
            &mut Vec::new(),
        );
        (value, repairs)
    }

    #[test]
    fn whole_numbers_in_map_values_are_integers() {
        let schema = json!({"type": "object", "properties": {
            "counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}});
        for policy in [RepairPolicy::Off, RepairPolicy::Safe] {
            let (value, _) = coerce_with(
                json!({"counts": {"a": 5.0, "b": 1}}),
                schema.clone(),
                policy,
            );
            assert_eq!(value, json!({"counts": {"a": 5, "b": 1}}), "{policy:?}");
        }
    }

    #[test]
    fn coercions_follow_the_schema() {
        let schema = json!({
            "type": "object",
            "properties": {
                "n": {"type": "integer"}, "f": {"type": "number"}, "b": {"type": ["boolean", "null"]},
                "s": {"type": "string"}, "tags": {"type": "array", "items": {"type": "integer"}},
                "obj": {"$ref": "#/$defs/O"}
            },
            "additionalProperties": false,
            "$defs": {"O": {"type": "object", "properties": {"x": {"type": "integer"}}, "additionalProperties": false}}
        });
        let (value, repairs) = coerce_with(
            json!({"n": " 5 ", "f": "2.5", "b": "TRUE", "s": "7", "tags": "3", "obj": "{\"x\": \"4\"}", "extra": 1}),
            schema.clone(),
            RepairPolicy::Safe,
        );
        assert_eq!(
            value,
            json!({"n": 5, "f": 2.5, "b": true, "s": "7", "tags": [3], "obj": {"x": 4}, "extra": 1})
        );
        let pointers: Vec<&str> = repairs.iter().map(|r| r.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            ["/n", "/f", "/b", "/tags", "/tags/0", "/obj", "/obj/x"]
        );

        let (value, repairs) =
            coerce_with(json!({"n": 1, "extra": 1}), schema, RepairPolicy::Lenient);
        assert_eq!(value, json!({"n": 1}));
        assert_eq!(repairs[0].kind, RepairKind::DroppedUnknown);
    }

    #[test]
    fn ambiguous_values_are_left_for_validation() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "b": {"type": "boolean"}}});
        let (value, repairs) =
            coerce_with(json!({"n": "5.5", "b": "yes"}), schema, RepairPolicy::Safe);
        assert_eq!(value, json!({"n": "5.5", "b": "yes"}));
        assert!(repairs.is_empty());
    }

    #[test]
    fn comments_outside_strings_are_stripped() {
        assert_eq!(
            strip_comments("{'a': '//x', /* c */ \"b\": 1 // end\n}"),
            "{'a': '//x',   \"b\": 1 \n}"
        );
        assert_eq!(strip_comments("/* unterminated"), " ");
    }
}
