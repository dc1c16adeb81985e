//! A GBNF grammar for llama.cpp's `grammar` request field: the model may write only a call of
//! one of the tools, in the format's own markup, so that a model too small to follow the
//! prompt still writes a call the parser reads.

use crate::format::TextFormat;
use crate::ToolSpec;
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// JSON, as llama.cpp's `grammars/json.gbnf` writes it, with whitespace bounded so that a
/// small model can't spend its tokens on it: what a schema the grammar can't follow allows.
const JSON_RULES: &str = r#"object ::= "{" ws ( string ":" ws value ( "," ws string ":" ws value )* )? "}" ws
array ::= "[" ws ( value ( "," ws value )* )? "]" ws
value ::= object | array | string | number | ( "true" | "false" | "null" ) ws
string ::= "\"" ( [^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} ) )* "\"" ws
number ::= "-"? ( [0-9] | [1-9] [0-9]{0,15} ) ( "." [0-9]{1,16} )? ( [eE] [-+]? [0-9]{1,3} )? ws
integer ::= "-"? ( [0-9] | [1-9] [0-9]{0,15} ) ws
boolean ::= ( "true" | "false" ) ws
null ::= "null" ws
ws ::= | " " | "\n" [ \t]{0,8}
"#;

/// How deep the grammar follows a schema; below, any JSON value.
const MAX_DEPTH: usize = 6;

/// A GBNF grammar (llama.cpp's `grammar` field) that lets the model write exactly one call of
/// one of `specs`, in `format`'s markup, and nothing else: the tool's name is one of theirs,
/// and its arguments follow that tool's JSON Schema (properties in the schema's order, the
/// required ones always, types, enums and constants, arrays, nested objects, `anyOf`/`oneOf`
/// and type lists; what the grammar doesn't follow, such as `$ref` or bounds, is any JSON
/// value there, and the pipeline validates every call against the schema as usual). `None`
/// for a format without a grammar yet: Hermes (and [`TextFormat::Auto`], which prompts with
/// Hermes tags) has one.
///
/// A grammar forces a call on every reply it is sent with: send it on the requests where the
/// model must call.
pub fn call_grammar<'a>(
    format: TextFormat,
    specs: impl IntoIterator<Item = &'a ToolSpec>,
) -> Option<String> {
    let (open, close) = match format {
        TextFormat::Hermes | TextFormat::Auto => ("<tool_call>\n", "\n</tool_call>"),
        _ => return None,
    };
    let mut rules = Rules::default();
    let calls: Vec<String> = specs
        .into_iter()
        .map(|spec| {
            let arguments = rules.schema(spec.input_schema(), 0);
            format!(
                "{} {arguments} \"}}\"",
                literal(&format!("{{\"name\": \"{}\", \"arguments\": ", spec.name()))
            )
        })
        .collect();
    if calls.is_empty() {
        return None;
    }
    let mut grammar = String::new();
    let _ = writeln!(
        grammar,
        "root ::= {} call {}",
        literal(open),
        literal(close)
    );
    let _ = writeln!(grammar, "call ::= {}", calls.join(" | "));
    for (name, body) in &rules.rules {
        let _ = writeln!(grammar, "{name} ::= {body}");
    }
    grammar.push_str(JSON_RULES);
    Some(grammar)
}

/// The rules written so far, one per schema that needs one.
#[derive(Default)]
struct Rules {
    rules: Vec<(String, String)>,
}

impl Rules {
    /// A rule for `body`, by a name of its own.
    fn add(&mut self, body: String) -> String {
        let name = format!("s{}", self.rules.len());
        self.rules.push((name.clone(), body));
        name
    }

    /// The expression for a value that `schema` allows.
    fn schema(&mut self, schema: &Value, depth: usize) -> String {
        if depth > MAX_DEPTH {
            return "value".to_owned();
        }
        let Some(schema) = schema.as_object() else {
            return "value".to_owned();
        };
        if let Some(constant) = schema.get("const") {
            return format!("{} ws", literal(&constant.to_string()));
        }
        if let Some(Value::Array(choices)) = schema.get("enum") {
            let alternatives: Vec<String> = choices
                .iter()
                .map(|choice| literal(&choice.to_string()))
                .collect();
            if !alternatives.is_empty() {
                return format!("( {} ) ws", alternatives.join(" | "));
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(choices)) = schema.get(key) {
                let alternatives: Vec<String> = choices
                    .iter()
                    .map(|choice| self.schema(choice, depth + 1))
                    .collect();
                if !alternatives.is_empty() {
                    return self.add(alternatives.join(" | "));
                }
            }
        }
        match schema.get("type") {
            Some(Value::String(kind)) => self.typed(kind, schema, depth),
            Some(Value::Array(kinds)) => {
                let alternatives: Vec<String> = kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|kind| self.typed(kind, schema, depth))
                    .collect();
                if alternatives.is_empty() {
                    "value".to_owned()
                } else {
                    self.add(alternatives.join(" | "))
                }
            }
            _ => "value".to_owned(),
        }
    }

    fn typed(&mut self, kind: &str, schema: &Map<String, Value>, depth: usize) -> String {
        match kind {
            "string" => "string".to_owned(),
            "integer" => "integer".to_owned(),
            "number" => "number".to_owned(),
            "boolean" => "boolean".to_owned(),
            "null" => "null".to_owned(),
            "array" => match schema.get("items") {
                Some(items) => {
                    let item = self.schema(items, depth + 1);
                    self.add(format!(
                        "\"[\" ws ( {item} ( \",\" ws {item} )* )? \"]\" ws"
                    ))
                }
                None => "array".to_owned(),
            },
            "object" => self.object(schema, depth),
            _ => "value".to_owned(),
        }
    }

    /// An object: its required properties in the schema's order, then each optional one that
    /// may follow. Without a required property, an empty object or any object.
    fn object(&mut self, schema: &Map<String, Value>, depth: usize) -> String {
        let Some(Value::Object(properties)) = schema.get("properties") else {
            return "object".to_owned();
        };
        let required: Vec<&str> = match schema.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let mut first = Vec::new();
        let mut optional = Vec::new();
        for (name, property) in properties {
            let pair = format!(
                "{} ws \":\" ws {}",
                literal(&Value::String(name.clone()).to_string()),
                self.schema(property, depth + 1)
            );
            if required.contains(&name.as_str()) {
                first.push(pair);
            } else {
                optional.push(pair);
            }
        }
        if first.is_empty() {
            return "object".to_owned();
        }
        let mut body = format!("\"{{\" ws {}", first.join(" \",\" ws "));
        for pair in optional {
            let _ = write!(body, " ( \",\" ws {pair} )?");
        }
        body.push_str(" \"}\" ws");
        self.add(body)
    }
}

/// `text` as a GBNF string literal (llama.cpp's `grammars/README.md`: `\"`, `\\`, `\n`, `\r`,
/// `\t`, and `\uXXXX` for any other control character).
/// Not JSON's escaping (`serde_json` writes `\b` and `\f`, which GBNF doesn't read) nor
/// TOML's (the TensorZero config's).
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DynamicTool, Registry, ToolOutput};
    use serde_json::json;

    fn registry(tools: &[(&str, Value)]) -> Registry {
        tools
            .iter()
            .fold(
                Registry::builder().without_inventory(),
                |builder, (name, schema)| {
                    builder.dynamic(DynamicTool::new(
                        *name,
                        "A tool.",
                        schema.clone(),
                        |_, _| async { ToolOutput::text("") },
                    ))
                },
            )
            .build()
            .unwrap()
    }

    fn empty() -> Value {
        json!({"type": "object", "properties": {}})
    }

    #[test]
    fn hermes_wraps_one_call_of_each_tool_in_its_tags() {
        let tools = registry(&[("list_dir", empty()), ("read_file", empty())]);
        let grammar = call_grammar(TextFormat::Hermes, tools.specs()).unwrap();
        assert!(
            grammar.starts_with("root ::= \"<tool_call>\\n\" call \"\\n</tool_call>\"\n"),
            "{grammar}"
        );
        assert!(grammar.contains(
            "call ::= \"{\\\"name\\\": \\\"list_dir\\\", \\\"arguments\\\": \" object \"}\" | \"{\\\"name\\\": \\\"read_file\\\""
        ), "{grammar}");
        assert_eq!(call_grammar(TextFormat::Auto, tools.specs()), Some(grammar));
    }

    #[test]
    fn arguments_follow_the_schema() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "unit": {"enum": ["c", "f"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "note": {"type": ["string", "null"]}
            },
            "required": ["city", "unit"]
        });
        let grammar = call_grammar(TextFormat::Hermes, registry(&[("w", schema)]).specs()).unwrap();
        // Required first, in order; then each optional one.
        let object = grammar.lines().find(|l| l.starts_with("s2 ::= ")).unwrap();
        assert_eq!(
            object,
            r#"s2 ::= "{" ws "\"city\"" ws ":" ws string "," ws "\"unit\"" ws ":" ws ( "\"c\"" | "\"f\"" ) ws ( "," ws "\"days\"" ws ":" ws integer )? ( "," ws "\"tags\"" ws ":" ws s0 )? ( "," ws "\"note\"" ws ":" ws s1 )? "}" ws"#
        );
        assert!(grammar.contains("s0 ::= \"[\" ws ( string ( \",\" ws string )* )? \"]\" ws\n"));
        assert!(grammar.contains("s1 ::= string | null\n"));
    }

    #[test]
    fn no_tools_or_a_format_without_a_grammar_gives_none() {
        assert_eq!(
            call_grammar(TextFormat::Hermes, registry(&[]).specs()),
            None
        );
        assert_eq!(
            call_grammar(TextFormat::Mistral, registry(&[("a", empty())]).specs()),
            None
        );
    }
}
