// The types exist for their schemas; most are never built.
#![allow(dead_code)]

use super::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// SEP-1034: a default for every primitive type.
#[derive(JsonSchema, Serialize, Deserialize)]
#[serde(default)]
struct Defaults {
    name: String,
    age: i64,
    score: f64,
    status: Status,
    verified: bool,
}

impl Default for Defaults {
    fn default() -> Defaults {
        Defaults {
            name: "John Doe".into(),
            age: 30,
            score: 95.5,
            status: Status::Active,
            verified: true,
        }
    }
}

#[derive(JsonSchema, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

#[test]
fn sep1034_every_primitive_keeps_its_default() {
    let form = elicitation_schema_for::<Defaults>().unwrap();
    let p = &form["properties"];
    assert_eq!(p["name"], json!({"type": "string", "default": "John Doe"}));
    assert_eq!(p["age"]["type"], "integer");
    assert_eq!(p["age"]["default"], 30);
    assert_eq!(p["score"], json!({"type": "number", "default": 95.5}));
    assert_eq!(
        p["status"],
        json!({"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"})
    );
    assert_eq!(p["verified"], json!({"type": "boolean", "default": true}));
    assert!(form.get("required").is_none(), "{form}");
    assert_eq!(form["type"], "object");
}

// A titled choice: each variant's doc comment is its title.
#[derive(JsonSchema, Serialize, Deserialize)]
enum Titled {
    /// First Option
    #[serde(rename = "value1")]
    One,
    /// Second Option
    #[serde(rename = "value2")]
    Two,
}

#[derive(JsonSchema, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Untitled {
    Option1,
    Option2,
}

/// SEP-1330: the five enum forms.
#[derive(JsonSchema, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Enums {
    untitled_single: Untitled,
    titled_single: Titled,
    #[schemars(extend("enumNames" = ["Option One", "Option Two"]))]
    legacy_enum: Legacy,
    untitled_multi: Vec<Untitled>,
    titled_multi: Option<Vec<Titled>>,
}

#[derive(JsonSchema, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    Opt1,
    Opt2,
}

#[test]
fn sep1330_every_enum_form() {
    let form = elicitation_schema_for::<Enums>().unwrap();
    let p = &form["properties"];
    assert_eq!(
        p["untitledSingle"],
        json!({"type": "string", "enum": ["option1", "option2"]})
    );
    assert_eq!(
        p["titledSingle"],
        json!({"type": "string", "oneOf": [
            {"const": "value1", "title": "First Option"},
            {"const": "value2", "title": "Second Option"}
        ]})
    );
    assert_eq!(
        p["legacyEnum"],
        json!({"type": "string", "enum": ["opt1", "opt2"], "enumNames": ["Option One", "Option Two"]})
    );
    assert_eq!(
        p["untitledMulti"],
        json!({"type": "array", "items": {"type": "string", "enum": ["option1", "option2"]}})
    );
    assert_eq!(
        p["titledMulti"],
        json!({"type": "array", "items": {"anyOf": [
            {"const": "value1", "title": "First Option"},
            {"const": "value2", "title": "Second Option"}
        ]}})
    );
    assert_eq!(
        form["required"],
        json!([
            "untitledSingle",
            "titledSingle",
            "legacyEnum",
            "untitledMulti"
        ])
    );
}

/// Strings with formats and lengths, bounded numbers, descriptions, optional fields.
#[derive(JsonSchema)]
struct Contact {
    /// Where to write.
    #[schemars(email)]
    email: String,
    #[schemars(length(min = 2, max = 40))]
    name: Option<String>,
    #[schemars(range(min = 1, max = 10))]
    rating: u8,
    #[schemars(url)]
    homepage: Option<String>,
    #[schemars(regex(pattern = "^[a-z]+$"))]
    nick: String,
}

#[test]
fn strings_and_numbers_keep_what_a_form_has() {
    let form = elicitation_schema_for::<Contact>().unwrap();
    let p = &form["properties"];
    assert_eq!(
        p["email"],
        json!({"type": "string", "format": "email", "description": "Where to write."})
    );
    assert_eq!(
        p["name"],
        json!({"type": "string", "minLength": 2, "maxLength": 40})
    );
    assert_eq!(
        p["rating"],
        json!({"type": "integer", "minimum": 1, "maximum": 10})
    );
    assert_eq!(p["homepage"], json!({"type": "string", "format": "uri"}));
    // A pattern is not in a form's string schema.
    assert_eq!(p["nick"], json!({"type": "string"}));
    assert_eq!(form["required"], json!(["email", "rating", "nick"]));
}

#[test]
fn a_flat_schema_comes_out_the_same() {
    let flat = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    });
    assert_eq!(elicitation_schema(&flat).unwrap(), flat);
    let again = elicitation_schema_for::<Enums>().unwrap();
    assert_eq!(elicitation_schema(&again).unwrap(), again);
}

#[derive(JsonSchema)]
struct Address {
    street: String,
}

#[derive(JsonSchema)]
struct Nested {
    address: Address,
}

#[derive(JsonSchema)]
struct ListOfObjects {
    addresses: Vec<Address>,
}

#[derive(JsonSchema)]
struct ListOfText {
    tags: Vec<String>,
}

#[derive(JsonSchema)]
enum Shape {
    Circle { radius: f64 },
    Square(f64),
}

#[derive(JsonSchema)]
struct Shapes {
    shape: Shape,
}

#[test]
fn what_a_form_cannot_hold_is_refused_with_its_path() {
    let nested = elicitation_schema_for::<Nested>().unwrap_err();
    assert_eq!(nested.path, "/properties/address");
    assert_eq!(nested.kind, SchemaErrorKind::NestedObject);
    let objects = elicitation_schema_for::<ListOfObjects>().unwrap_err();
    assert_eq!(objects.path, "/properties/addresses");
    assert_eq!(
        objects.kind,
        SchemaErrorKind::ArrayOfNonEnum("object".into())
    );
    let text = elicitation_schema_for::<ListOfText>().unwrap_err();
    assert_eq!(text.kind, SchemaErrorKind::ArrayOfNonEnum("string".into()));
    let shapes = elicitation_schema_for::<Shapes>().unwrap_err();
    assert_eq!(shapes.kind, SchemaErrorKind::UnsupportedChoice);
    let root = elicitation_schema_for::<String>().unwrap_err();
    assert_eq!(root.kind, SchemaErrorKind::NotAnObject);
    assert_eq!(
        root.to_string(),
        "not an elicitation schema at /: the root must be an object with `properties`"
    );
    let dangling = elicitation_schema(&json!({
        "type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}
    }))
    .unwrap_err();
    assert_eq!(
        dangling.kind,
        SchemaErrorKind::DanglingRef("\"#/$defs/missing\"".into())
    );
    let numbers = elicitation_schema(&json!({
        "type": "object", "properties": {"n": {"enum": [1, 2]}}
    }))
    .unwrap_err();
    assert_eq!(numbers.kind, SchemaErrorKind::NonStringEnum("1".into()));
}
