//! The form an elicitation asks the user to fill in: a JSON schema flattened to what MCP
//! allows (2025-11-25): an object of primitive properties (strings with a format, numbers and
//! integers with bounds, booleans, single- and multi-select enums, titled or not, SEP-1330),
//! each with its default (SEP-1034).

use super::error::{SchemaError, SchemaErrorKind};
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{Map, Value};

/// The string formats a form may ask for.
const STRING_FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

/// The elicitation form for `T`: its schemars schema, flattened (see [`elicitation_schema`]).
///
/// ```
/// use tool_runtime::client::elicitation_schema_for;
///
/// #[derive(schemars::JsonSchema)]
/// #[serde(rename_all = "camelCase")]
/// struct Contact {
///     /// Your name.
///     full_name: String,
///     /// How old you are.
///     age: Option<u8>,
/// }
///
/// let form = elicitation_schema_for::<Contact>().unwrap();
/// assert_eq!(form["properties"]["fullName"]["type"], "string");
/// assert_eq!(form["properties"]["age"]["maximum"], 255);
/// assert_eq!(form["required"], serde_json::json!(["fullName"]));
/// ```
///
/// # Errors
///
/// A [`SchemaError`] when `T` has a property a form can't hold (a nested object, an array of
/// anything but enum values).
pub fn elicitation_schema_for<T: JsonSchema>() -> Result<Value, SchemaError> {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    elicitation_schema(&schema.to_value())
}

/// A JSON schema flattened to an elicitation form: `$ref`s resolved, `null` taken out of
/// optional properties, and only the keywords MCP's primitive schemas have kept (`type`,
/// `title`, `description`, `default`, string `format`/`minLength`/`maxLength`, number
/// `minimum`/`maximum`, `enum`/`enumNames`/`oneOf` for single-select, `items` with
/// `enum`/`anyOf` and `minItems`/`maxItems` for multi-select). A constant choice's title comes
/// from its `title`, else its `description` (a documented Rust enum variant). A schema already
/// in this form comes out the same.
///
/// # Errors
///
/// A [`SchemaError`], with the path, when the schema is not an object of such properties.
pub fn elicitation_schema(schema: &Value) -> Result<Value, SchemaError> {
    let root = resolve(schema, schema, "")?;
    let properties = match root.get("properties") {
        Some(Value::Object(properties)) => properties,
        _ if root.get("type").and_then(Value::as_str) == Some("object") => &Map::new(),
        _ => return Err(error("", SchemaErrorKind::NotAnObject)),
    };
    let mut flat = Map::new();
    for (name, property) in properties {
        let path = format!("/properties/{}", escape(name));
        flat.insert(
            name.clone(),
            Value::Object(primitive(property, schema, &path)?),
        );
    }
    let required: Vec<Value> = root
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|name| name.as_str().is_some_and(|name| flat.contains_key(name)))
        .cloned()
        .collect();
    let mut out = Map::new();
    out.insert("type".into(), "object".into());
    out.insert("properties".into(), Value::Object(flat));
    if !required.is_empty() {
        out.insert("required".into(), Value::Array(required));
    }
    Ok(Value::Object(out))
}

/// One property as a primitive schema.
fn primitive(schema: &Value, root: &Value, path: &str) -> Result<Map<String, Value>, SchemaError> {
    let schema = non_null(resolve(schema, root, path)?, root, path)?;
    let mut out = Map::new();
    copy(&schema, &mut out, &["title", "description"]);
    if let Some(choice) = single_select(&schema, root, path)? {
        out.insert("type".into(), "string".into());
        out.extend(choice);
        copy_default(&schema, &mut out);
        return Ok(out);
    }
    let kind = type_name(&schema);
    match kind.as_deref() {
        Some("string") => {
            out.insert("type".into(), "string".into());
            copy(&schema, &mut out, &["minLength", "maxLength"]);
            if let Some(format) = schema.get("format").and_then(Value::as_str) {
                // Other formats (`uuid`, `ipv4`) are dropped: the answer is still checked when
                // it is read into the tool's type.
                if STRING_FORMATS.contains(&format) {
                    out.insert("format".into(), format.into());
                }
            }
        }
        Some(number @ ("integer" | "number")) => {
            out.insert("type".into(), number.into());
            copy(&schema, &mut out, &["minimum", "maximum"]);
        }
        Some("boolean") => {
            out.insert("type".into(), "boolean".into());
        }
        Some("array") => {
            let items_path = format!("{path}/items");
            let items = schema.get("items").unwrap_or(&Value::Null);
            let items = non_null(resolve(items, root, &items_path)?, root, &items_path)?;
            let Some(choice) = single_select(&items, root, &items_path)? else {
                let what = type_name(&items).unwrap_or_else(|| "anything".to_owned());
                return Err(error(path, SchemaErrorKind::ArrayOfNonEnum(what)));
            };
            let items = match choice.get("oneOf") {
                // A titled multi-select lists its choices under `anyOf`, not `oneOf`.
                Some(titled) => Map::from_iter([("anyOf".to_owned(), titled.clone())]),
                None => {
                    let mut untitled = Map::from_iter([("type".to_owned(), "string".into())]);
                    untitled.extend(choice);
                    untitled
                }
            };
            out.insert("type".into(), "array".into());
            out.insert("items".into(), Value::Object(items));
            copy(&schema, &mut out, &["minItems", "maxItems", "uniqueItems"]);
        }
        Some("object") => return Err(error(path, SchemaErrorKind::NestedObject)),
        Some(other) => return Err(error(path, SchemaErrorKind::UnsupportedType(other.into()))),
        None if schema.get("oneOf").is_some() || schema.get("anyOf").is_some() => {
            return Err(error(path, SchemaErrorKind::UnsupportedChoice))
        }
        None => {
            return Err(error(
                path,
                SchemaErrorKind::UnsupportedType("of any value".into()),
            ))
        }
    }
    copy_default(&schema, &mut out);
    Ok(out)
}

/// The choice keywords of an enum of strings (`enum`, with `enumNames` if given; or `oneOf`
/// of `{const, title}`), or `None` if the schema is not one.
fn single_select(
    schema: &Map<String, Value>,
    root: &Value,
    path: &str,
) -> Result<Option<Map<String, Value>>, SchemaError> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let values = strings(values.iter().filter(|v| !v.is_null()), path)?;
        let mut out = Map::from_iter([("enum".to_owned(), Value::Array(values))]);
        copy(schema, &mut out, &["enumNames"]);
        return Ok(Some(out));
    }
    if let Some(value) = schema.get("const") {
        let values = strings(std::iter::once(value), path)?;
        return Ok(Some(Map::from_iter([(
            "enum".to_owned(),
            Value::Array(values),
        )])));
    }
    let Some(choices) = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)
    else {
        return Ok(None);
    };
    let mut titled = Vec::new();
    for (at, choice) in choices.iter().enumerate() {
        let choice_path = format!("{path}/oneOf/{at}");
        let choice = resolve(choice, root, &choice_path)?;
        if type_name(&choice).as_deref() == Some("null")
            || choice.get("const") == Some(&Value::Null)
        {
            continue;
        }
        let Some(value) = choice.get("const") else {
            return Ok(None);
        };
        let Some(text) = value.as_str() else {
            return Err(error(
                path,
                SchemaErrorKind::NonStringEnum(value.to_string()),
            ));
        };
        let title = ["title", "description"]
            .iter()
            .find_map(|key| choice.get(*key).and_then(Value::as_str))
            .unwrap_or(text);
        titled.push(serde_json::json!({"const": text, "title": title.trim()}));
    }
    Ok(Some(Map::from_iter([(
        "oneOf".to_owned(),
        Value::Array(titled),
    )])))
}

/// Enum values, all strings.
fn strings<'a>(
    values: impl Iterator<Item = &'a Value>,
    path: &str,
) -> Result<Vec<Value>, SchemaError> {
    values
        .map(|value| match value {
            Value::String(_) => Ok(value.clone()),
            other => Err(error(
                path,
                SchemaErrorKind::NonStringEnum(other.to_string()),
            )),
        })
        .collect()
}

/// The schema with its `$ref` (and a lone `allOf`) replaced by what they point to, the
/// schema's own keywords (a description, a default) kept over the target's.
fn resolve(schema: &Value, root: &Value, path: &str) -> Result<Map<String, Value>, SchemaError> {
    let mut own = match schema {
        Value::Object(map) => map.clone(),
        // `true`: anything.
        _ => Map::new(),
    };
    for _ in 0..32 {
        let target = if let Some(reference) = own.remove("$ref") {
            let pointer = reference
                .as_str()
                .and_then(|r| r.strip_prefix('#'))
                .unwrap_or("\0");
            match root.pointer(pointer) {
                Some(Value::Object(target)) => target.clone(),
                _ => {
                    return Err(error(
                        path,
                        SchemaErrorKind::DanglingRef(reference.to_string()),
                    ))
                }
            }
        } else if let Some(Value::Array(all)) = own
            .get("allOf")
            .filter(|a| a.as_array().is_some_and(|a| a.len() == 1))
        {
            let first = all[0].as_object().cloned().unwrap_or_default();
            own.remove("allOf");
            first
        } else {
            break;
        };
        for (key, value) in target {
            own.entry(key).or_insert(value);
        }
    }
    Ok(own)
}

/// An optional property's schema without its `null`: `type: [T, "null"]` is `T`, and
/// `anyOf: [S, {type: null}]` is `S` (with the outer title, description and default).
fn non_null(
    mut schema: Map<String, Value>,
    root: &Value,
    path: &str,
) -> Result<Map<String, Value>, SchemaError> {
    if let Some(Value::Array(types)) = schema.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let one = match rest.as_slice() {
            [one] => one.clone(),
            _ => Value::Array(rest),
        };
        schema.insert("type".into(), one);
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(choices)) = schema.get(key) else {
            continue;
        };
        let is_null = |choice: &Value| choice.get("type").and_then(Value::as_str) == Some("null");
        if choices.len() == 2 && choices.iter().any(is_null) {
            let Some(other) = choices.iter().find(|c| !is_null(c)).cloned() else {
                continue;
            };
            schema.remove(key);
            let inner = non_null(resolve(&other, root, path)?, root, path)?;
            for (key, value) in inner {
                schema.entry(key).or_insert(value);
            }
        }
    }
    Ok(schema)
}

/// The schema's single type, if it has one.
fn type_name(schema: &Map<String, Value>) -> Option<String> {
    match schema.get("type") {
        Some(Value::String(name)) => Some(name.clone()),
        Some(Value::Array(names)) => Some(
            names
                .iter()
                .map(|n| n.as_str().unwrap_or("?"))
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        _ => None,
    }
}

fn copy(from: &Map<String, Value>, to: &mut Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(value) = from.get(*key) {
            to.insert((*key).to_owned(), value.clone());
        }
    }
}

/// The default, unless it is `null` (an `Option` field's): a form's default is a value.
fn copy_default(from: &Map<String, Value>, to: &mut Map<String, Value>) {
    if let Some(value) = from.get("default").filter(|v| !v.is_null()) {
        to.insert("default".into(), value.clone());
    }
}

fn error(path: &str, kind: SchemaErrorKind) -> SchemaError {
    SchemaError {
        path: if path.is_empty() {
            "/".into()
        } else {
            path.into()
        },
        kind,
    }
}

/// A JSON-pointer segment.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
