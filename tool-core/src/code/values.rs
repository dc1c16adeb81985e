//! Values across the sandbox's edge: a call's Python arguments to the tool's JSON arguments,
//! and the tool's JSON result back to a Python value.

use super::signature::Param;
use monty_types::MontyObject;
use serde_json::{Map, Number, Value};

/// Why a call's arguments could not become JSON: raised in the code as a `TypeError`.
#[derive(Debug, PartialEq)]
pub(crate) struct ArgumentProblem(pub String);

/// The tool's JSON arguments from a call's positional and keyword arguments. Positional ones
/// fill the parameters in the signature's order; a keyword argument of `None` for a parameter
/// that doesn't take `null` is left out, as the signature's `= None` promises.
pub(crate) fn arguments(
    tool: &str,
    params: &[Param<'_>],
    args: &[MontyObject],
    kwargs: &[(MontyObject, MontyObject)],
) -> Result<String, ArgumentProblem> {
    if args.len() > params.len() {
        return Err(ArgumentProblem(format!(
            "{tool}() takes {} positional argument{} but {} were given",
            params.len(),
            if params.len() == 1 { "" } else { "s" },
            args.len()
        )));
    }
    let mut object = Map::new();
    for (param, arg) in params.iter().zip(args) {
        object.insert(param.name.to_owned(), to_json(arg)?);
    }
    for (key, value) in kwargs {
        let MontyObject::String(key) = key else {
            return Err(ArgumentProblem(format!(
                "{tool}() keywords must be strings"
            )));
        };
        if object.contains_key(key) {
            return Err(ArgumentProblem(format!(
                "{tool}() got multiple values for argument '{key}'"
            )));
        }
        let param = params.iter().find(|p| p.name == key);
        if matches!(value, MontyObject::None) && param.is_some_and(|p| !takes_null(p.schema)) {
            continue;
        }
        object.insert(key.clone(), to_json(value)?);
    }
    Ok(Value::Object(object).to_string())
}

/// Whether a parameter's schema lets `null` through, as far as a quick look can tell.
fn takes_null(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        _ => {
            ["anyOf", "oneOf"].iter().any(|key| {
                schema
                    .get(key)
                    .and_then(Value::as_array)
                    .is_some_and(|options| options.iter().any(takes_null))
            }) || schema.get("type").is_none() && schema.get("enum").is_none()
        }
    }
}

/// A Python value as JSON: what a tool can receive.
pub(crate) fn to_json(value: &MontyObject) -> Result<Value, ArgumentProblem> {
    Ok(match value {
        MontyObject::None => Value::Null,
        MontyObject::Bool(b) => Value::Bool(*b),
        MontyObject::Int(i) => Value::from(*i),
        MontyObject::BigInt(i) => match i.to_string().parse::<Number>() {
            Ok(n) => Value::Number(n),
            Err(_) => return Err(ArgumentProblem(format!("the integer {i} is too large"))),
        },
        MontyObject::Float(f) => match Number::from_f64(*f) {
            Some(n) => Value::Number(n),
            None => return Err(ArgumentProblem(format!("{f} is not a JSON number"))),
        },
        MontyObject::String(s) | MontyObject::Path(s) => Value::String(s.clone()),
        MontyObject::List(items)
        | MontyObject::Tuple(items)
        | MontyObject::Set(items)
        | MontyObject::FrozenSet(items) => {
            Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?)
        }
        MontyObject::NamedTuple {
            field_names,
            values,
            ..
        } => Value::Object(
            field_names
                .iter()
                .zip(values)
                .map(|(k, v)| Ok((k.clone(), to_json(v)?)))
                .collect::<Result<_, _>>()?,
        ),
        MontyObject::Dict(pairs) => {
            let mut object = Map::new();
            for (key, value) in pairs {
                let key = match key {
                    MontyObject::String(s) => s.clone(),
                    MontyObject::Int(i) => i.to_string(),
                    other => {
                        return Err(ArgumentProblem(format!(
                            "a dict key of type {} can't be sent to a tool: use str",
                            other.type_name()
                        )))
                    }
                };
                object.insert(key, to_json(value)?);
            }
            Value::Object(object)
        }
        other => {
            return Err(ArgumentProblem(format!(
                "a value of type {} can't be sent to a tool: use str, int, float, bool, None, list or dict",
                other.type_name()
            )))
        }
    })
}

/// A tool's JSON result as a Python value.
pub(crate) fn from_json(value: &Value) -> MontyObject {
    match value {
        Value::Null => MontyObject::None,
        Value::Bool(b) => MontyObject::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => MontyObject::Int(i),
            None => match n.as_u64() {
                Some(u) => MontyObject::BigInt(u.into()),
                None => MontyObject::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
        },
        Value::String(s) => MontyObject::String(s.clone()),
        Value::Array(items) => MontyObject::List(items.iter().map(from_json).collect()),
        Value::Object(map) => MontyObject::dict(
            map.iter()
                .map(|(k, v)| (MontyObject::String(k.clone()), from_json(v)))
                .collect::<Vec<_>>(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::signature::params;
    use serde_json::json;

    #[test]
    fn positional_then_keyword_arguments_fill_the_signature() {
        let schema = json!({
            "type": "object",
            "properties": {"limit": {"type": "integer"}, "query": {"type": "string"}},
            "required": ["query"]
        });
        let params = params(&schema);
        let args = [MontyObject::String("cats".into())];
        let kwargs = [(MontyObject::String("limit".into()), MontyObject::Int(3))];
        let json = arguments("search", &params, &args, &kwargs).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&json).unwrap(),
            json!({"query": "cats", "limit": 3})
        );
        let none = [(MontyObject::String("limit".into()), MontyObject::None)];
        assert_eq!(
            arguments("search", &params, &args, &none).unwrap(),
            r#"{"query":"cats"}"#
        );
        let twice = arguments(
            "search",
            &params,
            &args,
            &[(MontyObject::String("query".into()), MontyObject::Int(1))],
        );
        assert!(twice.unwrap_err().0.contains("multiple values"));
        let many = [
            MontyObject::Int(1),
            MontyObject::Int(2),
            MontyObject::Int(3),
        ];
        assert!(arguments("search", &params, &many, &[])
            .unwrap_err()
            .0
            .contains("takes 2"));
    }

    #[test]
    fn json_round_trips() {
        let value = json!({"a": [1, 2.5, "x", null, true], "b": {"c": -3}});
        assert_eq!(to_json(&from_json(&value)).unwrap(), value);
        assert!(to_json(&MontyObject::Float(f64::NAN)).is_err());
        assert!(to_json(&MontyObject::Bytes(vec![1])).is_err());
    }
}
