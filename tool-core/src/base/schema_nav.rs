//! Reading a tool's input schema while walking the arguments: following `$ref`s, finding a
//! property's schema, and the JSON types and values a schema allows.

use serde_json::Value;

/// A tool's root schema, for resolving the `$ref`s found inside it.
#[derive(Clone, Copy)]
pub(crate) struct SchemaNav<'a> {
    root: &'a Value,
}

/// The JSON types a schema accepts, as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Types(u8);

impl Types {
    pub(crate) const NULL: Types = Types(1);
    pub(crate) const BOOLEAN: Types = Types(2);
    pub(crate) const INTEGER: Types = Types(4);
    pub(crate) const NUMBER: Types = Types(8);
    pub(crate) const STRING: Types = Types(16);
    pub(crate) const ARRAY: Types = Types(32);
    pub(crate) const OBJECT: Types = Types(64);
    /// No constraint was found: anything goes.
    pub(crate) const ANY: Types = Types(127);

    pub(crate) fn contains(self, other: Types) -> bool {
        self.0 & other.0 == other.0
    }

    fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    fn named(name: &str) -> Types {
        match name {
            "null" => Types::NULL,
            "boolean" => Types::BOOLEAN,
            "integer" => Types::INTEGER,
            // An integer is a number, so "number" admits both.
            "number" => Types(Types::NUMBER.0 | Types::INTEGER.0),
            "string" => Types::STRING,
            "array" => Types::ARRAY,
            "object" => Types::OBJECT,
            _ => Types::default(),
        }
    }

    /// The type of a JSON value.
    pub(crate) fn of(value: &Value) -> Types {
        match value {
            Value::Null => Types::NULL,
            Value::Bool(_) => Types::BOOLEAN,
            Value::Number(n) if n.is_f64() => Types::NUMBER,
            Value::Number(_) => Types::INTEGER,
            Value::String(_) => Types::STRING,
            Value::Array(_) => Types::ARRAY,
            Value::Object(_) => Types::OBJECT,
        }
    }
}

/// How deep `$ref` chains and combinators are followed, so a cyclic schema can't loop.
const MAX_HOPS: usize = 32;

impl<'a> SchemaNav<'a> {
    pub(crate) fn new(root: &'a Value) -> SchemaNav<'a> {
        SchemaNav { root }
    }

    pub(crate) fn root(&self) -> &'a Value {
        self.root
    }

    /// The schema a node stands for, with local `$ref`s followed.
    pub(crate) fn resolve(&self, mut node: &'a Value) -> &'a Value {
        for _ in 0..MAX_HOPS {
            match node
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix('#'))
            {
                Some(pointer) => match self.root.pointer(pointer) {
                    Some(target) => node = target,
                    None => return node,
                },
                None => return node,
            }
        }
        node
    }

    /// The branches of `anyOf`/`oneOf`, resolved; a node without them is its own only branch.
    pub(crate) fn branches(&self, node: &'a Value) -> Vec<&'a Value> {
        let mut out = Vec::new();
        self.collect_branches(node, &mut out, 0);
        out
    }

    fn collect_branches(&self, node: &'a Value, out: &mut Vec<&'a Value>, hops: usize) {
        let node = self.resolve(node);
        let combined = ["anyOf", "oneOf"]
            .iter()
            .find_map(|k| node.get(*k).and_then(Value::as_array));
        match combined {
            Some(list) if hops < MAX_HOPS => list
                .iter()
                .for_each(|b| self.collect_branches(b, out, hops + 1)),
            _ => out.push(node),
        }
    }

    /// The JSON types a schema accepts (through `$ref`, `anyOf`, `oneOf`, `const`, `enum`).
    pub(crate) fn types(&self, node: &'a Value) -> Types {
        self.branches(node)
            .into_iter()
            .fold(Types::default(), |acc, branch| acc.union(own_types(branch)))
    }

    /// The schema of property `key` of an object schema, if it names one.
    pub(crate) fn property(&self, node: &'a Value, key: &str) -> Option<&'a Value> {
        self.branches(node)
            .into_iter()
            .find_map(|b| b.get("properties").and_then(|p| p.get(key)))
    }

    /// The schema of property `key` in the branch an object `value` is written for: among
    /// several branches listing `key` (an adjacently tagged enum's `c`), the one whose
    /// constant properties (its tag) match the value; without a matching tag, the schema
    /// every listing branch gives `key`, if they agree (else none: a value valid in one
    /// branch must not be "repaired" to fit another).
    pub(crate) fn property_for(
        &self,
        node: &'a Value,
        key: &str,
        value: &serde_json::Map<String, Value>,
    ) -> Option<&'a Value> {
        let branches = self.branches(node);
        let listing = || {
            branches
                .iter()
                .filter_map(|b| b.get("properties")?.as_object())
                .filter_map(|p| p.get(key).map(|schema| (p, schema)))
        };
        let tagged = listing().find(|(properties, _)| self.tag_matches(properties, value));
        if let Some((_, schema)) = tagged {
            return Some(schema);
        }
        let mut schemas = listing().map(|(_, schema)| schema);
        let first = schemas.next()?;
        schemas.all(|other| other == first).then_some(first)
    }

    /// The properties of the branch of an object schema an object `value` is written for:
    /// the only branch with properties, or the only one whose constant properties (its tag)
    /// don't contradict the value.
    pub(crate) fn properties_for(
        &self,
        node: &'a Value,
        value: &serde_json::Map<String, Value>,
    ) -> Option<&'a serde_json::Map<String, Value>> {
        let mut candidates = self
            .branches(node)
            .into_iter()
            .filter_map(|b| b.get("properties")?.as_object())
            .filter(|properties| !self.tag_contradicts(properties, value));
        let only = candidates.next()?;
        candidates.next().is_none().then_some(only)
    }

    /// Whether one of a branch's constant properties has the value `value` gives it.
    fn tag_matches(
        &self,
        properties: &'a serde_json::Map<String, Value>,
        value: &serde_json::Map<String, Value>,
    ) -> bool {
        self.constants(properties)
            .any(|(name, constant)| value.get(name) == Some(constant))
    }

    /// Whether `value` gives one of a branch's constant properties another value.
    fn tag_contradicts(
        &self,
        properties: &'a serde_json::Map<String, Value>,
        value: &serde_json::Map<String, Value>,
    ) -> bool {
        self.constants(properties)
            .any(|(name, constant)| value.get(name).is_some_and(|given| given != constant))
    }

    /// A branch's constant properties (its tag), with their constants.
    fn constants(
        &self,
        properties: &'a serde_json::Map<String, Value>,
    ) -> impl Iterator<Item = (&'a String, &'a Value)> + '_ {
        properties
            .iter()
            .filter_map(|(name, schema)| Some((name, self.resolve(schema).get("const")?)))
    }

    /// The schema of the values of a map (`additionalProperties` as a schema), for keys the
    /// object schema doesn't list.
    pub(crate) fn map_values(&self, node: &'a Value) -> Option<&'a Value> {
        self.branches(node)
            .into_iter()
            .find_map(|b| b.get("additionalProperties").filter(|s| s.is_object()))
    }

    /// Whether an object schema says which properties it has and allows no others (a
    /// `patternProperties` allows the names it matches: not closed).
    pub(crate) fn is_closed(&self, node: &'a Value) -> Option<&'a serde_json::Map<String, Value>> {
        let node = self.resolve(node);
        let properties = node.get("properties")?.as_object()?;
        let closed = node.get("additionalProperties") == Some(&Value::Bool(false))
            && node.get("patternProperties").is_none();
        closed.then_some(properties)
    }

    /// The schema of an array's items.
    pub(crate) fn items(&self, node: &'a Value) -> Option<&'a Value> {
        self.branches(node)
            .into_iter()
            .find_map(|b| b.get("items").filter(|i| i.is_object()))
    }

    /// The values allowed, when the schema is a list of constants (`enum`, or `oneOf` of `const`).
    pub(crate) fn allowed_values(&self, node: &'a Value) -> Option<Vec<&'a Value>> {
        let mut values = Vec::new();
        for branch in self.branches(node) {
            if let Some(value) = branch.get("const") {
                values.push(value);
            } else if let Some(list) = branch.get("enum").and_then(Value::as_array) {
                values.extend(list);
            } else if own_types(branch) == Types::NULL {
                continue;
            } else {
                return None;
            }
        }
        (!values.is_empty()).then_some(values)
    }

    /// A schema's description, looking through a `$ref`.
    pub(crate) fn description(&self, node: &'a Value) -> Option<&'a str> {
        node.get("description")
            .or_else(|| self.resolve(node).get("description"))
            .and_then(Value::as_str)
    }
}

fn own_types(node: &Value) -> Types {
    match node.get("type") {
        Some(Value::String(name)) => Types::named(name),
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .fold(Types::default(), |acc, n| acc.union(Types::named(n))),
        _ => match (
            node.get("const"),
            node.get("enum").and_then(Value::as_array),
        ) {
            (Some(value), _) => Types::of(value),
            (None, Some(values)) => values
                .iter()
                .fold(Types::default(), |acc, v| acc.union(Types::of(v))),
            (None, None) => Types::ANY,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn follows_refs_and_unions() {
        let root = json!({
            "properties": {"c": {"anyOf": [{"$ref": "#/$defs/C"}, {"type": "null"}]}},
            "$defs": {"C": {"oneOf": [{"const": "a", "type": "string"}, {"const": "b", "type": "string"}]}}
        });
        let nav = SchemaNav::new(&root);
        let c = nav.property(&root, "c").unwrap();
        assert!(nav.types(c).contains(Types::STRING) && nav.types(c).contains(Types::NULL));
        assert_eq!(nav.allowed_values(c).unwrap(), [&json!("a"), &json!("b")]);
    }

    #[test]
    fn a_cyclic_ref_terminates() {
        let root = json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "properties": {"x": {"$ref": "#/$defs/A"}}});
        let nav = SchemaNav::new(&root);
        let x = nav.property(&root, "x").unwrap();
        assert_eq!(nav.types(x), Types::ANY);
    }
}
