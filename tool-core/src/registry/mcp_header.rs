//! Every `x-mcp-header` annotation of a tool's input schema checked, once, at build.
//!
//! MCP 2026-07-28 (SEP-2243) lets a tool mark a parameter with `"x-mcp-header": "Region"`: a
//! client then sends the argument as the HTTP header `Mcp-Param-Region` too, so a load
//! balancer can route on it, and the server refuses a call whose header and body disagree.
//! The spec restricts where the annotation may stand, and a client drops a tool that breaks
//! the rules (rmcp's `validate_param_header_annotations`, the TypeScript SDK's
//! `getMCPToolHeaderBindings`): a tool served that way would vanish from its clients' lists
//! without a word. These are the same rules, so the registry says so at build instead:
//!
//! - on a property reached from the root through `properties` alone (not the root, not inside
//!   `items`, `anyOf`, `$defs`, ...), whose `type` is `string`, `integer` or `boolean`;
//! - a name that is an HTTP token (RFC 9110 `tchar`s), unique in the tool ignoring case.

use serde_json::{Map, Value};
use std::fmt;

/// The keyword.
pub(crate) const KEYWORD: &str = "x-mcp-header";

/// An `x-mcp-header` annotation that MCP clients refuse, and where it is.
///
/// ```
/// use serde_json::json;
/// use tool_runtime::registry::{BuildError, McpHeaderProblem};
/// use tool_runtime::{DynamicTool, Registry, ToolOutput};
///
/// let schema = json!({"type": "object", "properties": {
///     "ratio": {"type": "number", "x-mcp-header": "Ratio"}
/// }});
/// let tool = DynamicTool::new("scale", "Scale a picture.", schema, |args, _cx| async move {
///     ToolOutput::json(&args)
/// });
/// let error = Registry::builder().without_inventory().dynamic(tool).strict_build(true)
///     .build().unwrap_err();
/// let BuildError::McpHeader { tool, problem } = &error else { panic!("{error}") };
/// assert_eq!(tool, "scale");
/// assert_eq!(problem.pointer, "/properties/ratio");
/// assert!(matches!(problem.kind, McpHeaderProblem::NotPrimitive { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the `x-mcp-header` at {} {kind}", at(.pointer))]
#[non_exhaustive]
pub struct McpHeaderError {
    /// Where the annotated schema is, as a JSON pointer into the input schema
    /// (`/properties/region`; empty for the root).
    pub pointer: String,
    /// What is wrong with it.
    pub kind: McpHeaderProblem,
}

/// What is wrong with an `x-mcp-header` annotation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpHeaderProblem {
    /// It annotates the schema's root, which is no argument.
    OnRoot,
    /// It stands below a keyword other than `properties` (`items`, `anyOf`, `$defs`, ...):
    /// the spec only lets it name a property reached from the root through `properties`.
    OffPath {
        /// The first keyword on the way that is not `properties`.
        keyword: String,
    },
    /// Its value is not a string.
    NotAString,
    /// Its value is the empty string.
    Empty,
    /// Its value has characters no header name may have.
    NotAToken {
        /// The name given.
        name: String,
        /// The characters that can't be in it, each once.
        characters: Vec<char>,
    },
    /// An earlier property of the same tool already takes the name (header names ignore
    /// case).
    Duplicate {
        /// The name given.
        name: String,
        /// Where the first one is, as a JSON pointer.
        first: String,
    },
    /// The property's `type` is not one of `string`, `integer`, `boolean` (a `number`, an
    /// object, a union with `null`, a `$ref`, or none).
    NotPrimitive {
        /// The property's `type`, as written (`None` when it has none).
        found: Option<Value>,
    },
}

impl fmt::Display for McpHeaderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McpHeaderProblem::OnRoot => {
                f.write_str("annotates the schema's root: put it on one of its properties")
            }
            McpHeaderProblem::OffPath { keyword } => write!(
                f,
                "stands inside `{keyword}`: it may only annotate a property reached from the root through `properties`"
            ),
            McpHeaderProblem::NotAString => f.write_str("is not a string: write the header's name"),
            McpHeaderProblem::Empty => f.write_str("is empty: write the header's name"),
            McpHeaderProblem::NotAToken { name, characters } => {
                let listed: Vec<String> = characters.iter().map(|c| format!("{c:?}")).collect();
                write!(
                    f,
                    "names {name:?}, which contains {}: a header name is ASCII letters, digits and any of !#$%&'*+-.^_`|~",
                    listed.join(", ")
                )
            }
            McpHeaderProblem::Duplicate { name, first } => write!(
                f,
                "names {name:?}, which the one at {} already takes (header names ignore case)",
                at(first)
            ),
            McpHeaderProblem::NotPrimitive { found } => {
                let found = found
                    .as_ref()
                    .map_or_else(|| "no `type`".to_owned(), |t| format!("type {t}"));
                write!(
                    f,
                    "is on a property of {found}: MCP allows it only on a `string`, `integer` or `boolean` (for a #[tool] parameter: an integer, `bool` or `String`, not an `Option` or a float)"
                )
            }
        }
    }
}

/// `/properties/region`, or `the root` for an empty pointer.
fn at(pointer: &str) -> &str {
    if pointer.is_empty() {
        "the root"
    } else {
        pointer
    }
}

/// Every annotation of `schema` that MCP clients refuse (none for a schema without any).
pub(crate) fn check(schema: &Value) -> Vec<McpHeaderError> {
    schema
        .as_object()
        .map(|root| walk(root).1)
        .unwrap_or_default()
}

/// The annotations of `schema` when MCP clients take them all: each the header's name (in
/// lower case) and the property names leading from the root to its argument; the problems
/// otherwise.
pub(crate) fn bindings(
    schema: &Map<String, Value>,
) -> Result<Vec<(String, Vec<String>)>, Vec<McpHeaderError>> {
    let (taken, found) = walk(schema);
    if !found.is_empty() {
        return Err(found);
    }
    Ok(taken
        .into_iter()
        .map(|(name, pointer)| {
            // `/properties/a/properties/b`: every second segment is a property's name.
            let path = pointer
                .split('/')
                .skip(2)
                .step_by(2)
                .map(|segment| segment.replace("~1", "/").replace("~0", "~"))
                .collect();
            (name, path)
        })
        .collect())
}

/// The good annotations (lower-case name, pointer) and the problems of the schema `root`.
fn walk(root: &Map<String, Value>) -> (Vec<(String, String)>, Vec<McpHeaderError>) {
    let (mut taken, mut found) = (Vec::new(), Vec::new());
    // Most schemas have no annotation at all: one scan of the text-free tree says so.
    if !root
        .iter()
        .any(|(key, child)| key == KEYWORD || mentions(child))
    {
        return (taken, found);
    }
    if root.contains_key(KEYWORD) {
        found.push(McpHeaderError {
            pointer: String::new(),
            kind: McpHeaderProblem::OnRoot,
        });
    }
    let mut pointer = String::new();
    off_path(root, &mut pointer, None, &mut found);
    on_path(root, &mut pointer, &mut taken, &mut found);
    (taken, found)
}

/// Whether the keyword appears as a key anywhere in `value`.
fn mentions(value: &Value) -> bool {
    match value {
        Value::Object(map) => map
            .iter()
            .any(|(key, child)| key == KEYWORD || mentions(child)),
        Value::Array(items) => items.iter().any(mentions),
        _ => false,
    }
}

/// The annotations below the first keyword other than `properties` on the way from the root
/// (`outside`: that keyword, once passed). The values of `default`, `const`, `enum`,
/// `examples` and `dependentRequired` are data or names, not schemas, and are not looked in.
fn off_path(
    schema: &Map<String, Value>,
    pointer: &mut String,
    outside: Option<&str>,
    found: &mut Vec<McpHeaderError>,
) {
    for (key, value) in schema {
        let len = pointer.len();
        push(pointer, key);
        match key.as_str() {
            KEYWORD => {
                if let Some(keyword) = outside {
                    let at = pointer[..len].to_owned();
                    found.push(McpHeaderError {
                        pointer: at,
                        kind: McpHeaderProblem::OffPath {
                            keyword: keyword.to_owned(),
                        },
                    });
                }
            }
            "default" | "const" | "enum" | "examples" | "dependentRequired" => {}
            "properties" => {
                for (name, property) in value.as_object().into_iter().flatten() {
                    let inner = pointer.len();
                    push(pointer, name);
                    if let Some(property) = property.as_object() {
                        off_path(property, pointer, outside, found);
                    }
                    pointer.truncate(inner);
                }
            }
            "$defs" | "definitions" | "dependencies" | "dependentSchemas" | "patternProperties" => {
                for (name, sub) in value.as_object().into_iter().flatten() {
                    let inner = pointer.len();
                    push(pointer, name);
                    subschemas(sub, pointer, outside.or(Some(key.as_str())), found);
                    pointer.truncate(inner);
                }
            }
            _ => subschemas(value, pointer, outside.or(Some(key.as_str())), found),
        }
        pointer.truncate(len);
    }
}

/// [`off_path`] of a value that may be a schema or a list of them.
fn subschemas(
    value: &Value,
    pointer: &mut String,
    outside: Option<&str>,
    found: &mut Vec<McpHeaderError>,
) {
    match value {
        Value::Object(schema) => off_path(schema, pointer, outside, found),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = pointer.len();
                push(pointer, &i.to_string());
                subschemas(item, pointer, outside, found);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

/// The annotations on properties reached through `properties` alone, nested ones included:
/// each a token, unique in the tool, on a primitive.
fn on_path(
    schema: &Map<String, Value>,
    pointer: &mut String,
    taken: &mut Vec<(String, String)>,
    found: &mut Vec<McpHeaderError>,
) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        let Some(property) = property.as_object() else {
            continue;
        };
        let len = pointer.len();
        push(pointer, "properties");
        push(pointer, name);
        if let Some(header) = property.get(KEYWORD) {
            if let Err(kind) = annotation(header, property, taken, pointer) {
                found.push(McpHeaderError {
                    pointer: pointer.clone(),
                    kind,
                });
            }
        }
        on_path(property, pointer, taken, found);
        pointer.truncate(len);
    }
}

/// One annotation's own rules; a good one's name is added to `taken`.
fn annotation(
    header: &Value,
    property: &Map<String, Value>,
    taken: &mut Vec<(String, String)>,
    pointer: &str,
) -> Result<(), McpHeaderProblem> {
    let Value::String(name) = header else {
        return Err(McpHeaderProblem::NotAString);
    };
    if name.is_empty() {
        return Err(McpHeaderProblem::Empty);
    }
    let mut characters: Vec<char> = Vec::new();
    for c in name.chars().filter(|c| !is_tchar(*c)) {
        if !characters.contains(&c) {
            characters.push(c);
        }
    }
    if !characters.is_empty() {
        return Err(McpHeaderProblem::NotAToken {
            name: name.clone(),
            characters,
        });
    }
    let lower = name.to_ascii_lowercase();
    if let Some((_, first)) = taken.iter().find(|(taken, _)| *taken == lower) {
        return Err(McpHeaderProblem::Duplicate {
            name: name.clone(),
            first: first.clone(),
        });
    }
    taken.push((lower, pointer.to_owned()));
    match property.get("type") {
        Some(Value::String(t)) if matches!(t.as_str(), "string" | "integer" | "boolean") => Ok(()),
        other => Err(McpHeaderProblem::NotPrimitive {
            found: other.cloned(),
        }),
    }
}

/// RFC 9110 §5.6.2 `tchar`: the characters of an HTTP token, such as a header name.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Appends `/segment` to a JSON pointer, escaped.
fn push(pointer: &mut String, segment: &str) {
    pointer.push('/');
    pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problems(schema: Value) -> Vec<(String, McpHeaderProblem)> {
        check(&schema)
            .into_iter()
            .map(|e| (e.pointer, e.kind))
            .collect()
    }

    fn with(properties: Value) -> Value {
        json!({"type": "object", "properties": properties})
    }

    #[test]
    fn primitives_with_token_names_pass() {
        let schema = with(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "verbose": {"type": "boolean", "x-mcp-header": "X-Verbose_1.0~!"},
            "location": {"type": "object", "properties": {
                "zone": {"type": "string", "x-mcp-header": "Zone"}
            }},
            "query": {"type": "string"}
        }));
        assert_eq!(problems(schema), []);
        assert_eq!(problems(json!({"type": "object"})), []);
    }

    #[test]
    fn names_are_tokens_and_unique_ignoring_case() {
        let schema = with(json!({
            "a": {"type": "string", "x-mcp-header": "Region"},
            "b": {"type": "string", "x-mcp-header": "REGION"},
            "c": {"type": "string", "x-mcp-header": "Ré gion"},
            "d": {"type": "string", "x-mcp-header": ""},
            "e": {"type": "string", "x-mcp-header": 7}
        }));
        assert_eq!(
            problems(schema),
            [
                (
                    "/properties/b".to_owned(),
                    McpHeaderProblem::Duplicate {
                        name: "REGION".into(),
                        first: "/properties/a".into()
                    }
                ),
                (
                    "/properties/c".to_owned(),
                    McpHeaderProblem::NotAToken {
                        name: "Ré gion".into(),
                        characters: vec!['é', ' ']
                    }
                ),
                ("/properties/d".to_owned(), McpHeaderProblem::Empty),
                ("/properties/e".to_owned(), McpHeaderProblem::NotAString),
            ]
        );
    }

    #[test]
    fn only_strings_integers_and_booleans_carry_one() {
        let schema = with(json!({
            "ratio": {"type": "number", "x-mcp-header": "Ratio"},
            "maybe": {"type": ["string", "null"], "x-mcp-header": "Maybe"},
            "unit": {"$ref": "#/$defs/Unit", "x-mcp-header": "Unit"}
        }));
        let found = problems(schema);
        assert_eq!(
            found[0].1,
            McpHeaderProblem::NotPrimitive {
                found: Some(json!("number"))
            }
        );
        assert_eq!(
            found[1].1,
            McpHeaderProblem::NotPrimitive {
                found: Some(json!(["string", "null"]))
            }
        );
        assert_eq!(found[2].1, McpHeaderProblem::NotPrimitive { found: None });
    }

    #[test]
    fn annotations_off_the_properties_path_are_refused() {
        let schema = json!({
            "type": "object",
            "x-mcp-header": "Root",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string", "x-mcp-header": "Tag"}},
                "pick": {"anyOf": [{"type": "string", "x-mcp-header": "Pick"}]}
            },
            "$defs": {"Zone": {"type": "object", "properties": {
                "name": {"type": "string", "x-mcp-header": "Zone"}
            }}}
        });
        let found = problems(schema);
        let at: Vec<(&str, String)> = found
            .iter()
            .map(|(pointer, kind)| (pointer.as_str(), kind.to_string()))
            .collect();
        assert_eq!(at[0], ("", McpHeaderProblem::OnRoot.to_string()));
        let off = |keyword: &str| {
            McpHeaderProblem::OffPath {
                keyword: keyword.into(),
            }
            .to_string()
        };
        assert!(
            at.contains(&("/properties/tags/items", off("items"))),
            "{at:#?}"
        );
        assert!(
            at.contains(&("/properties/pick/anyOf/0", off("anyOf"))),
            "{at:#?}"
        );
        assert!(
            at.contains(&("/$defs/Zone/properties/name", off("$defs"))),
            "{at:#?}"
        );
        assert_eq!(found.len(), 4, "{at:#?}");
    }

    #[test]
    fn data_that_looks_like_the_keyword_is_not_an_annotation() {
        let schema = json!({
            "type": "object",
            "properties": {
                "x-mcp-header": {"type": "string"},
                "config": {"type": "object", "default": {"x-mcp-header": "not a schema"}}
            },
            "dependentRequired": {"x-mcp-header": ["config"]}
        });
        assert_eq!(problems(schema), []);
    }

    #[test]
    fn the_message_says_where_and_what_to_write() {
        let error = check(&with(
            json!({"ratio": {"type": "number", "x-mcp-header": "Ratio"}}),
        ))
        .remove(0);
        assert_eq!(
            error.to_string(),
            "the `x-mcp-header` at /properties/ratio is on a property of type \"number\": MCP allows it only on a `string`, `integer` or `boolean` (for a #[tool] parameter: an integer, `bool` or `String`, not an `Option` or a float)"
        );
    }
}
