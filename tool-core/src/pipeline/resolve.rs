//! Stage 3: the ParamResolver fills what the model left out, from resolver functions that can
//! read injected state, from context defaults, and from the schema's `default`s. The model's
//! values are never overwritten, and every filled field is recorded.

use super::repair::{Repair, RepairKind};
use crate::context::CallContext;
use crate::context::{FilledBy, FilledField, ParamResolver, SharedResolver};
use crate::error::ToolError;
use crate::pointer::push_segment;
use crate::schema_nav::{SchemaNav, Types};
use serde_json::{Map, Value};

/// Where the ParamResolver's copy of a schema keeps a default it must not fill, so that a
/// `null` sent for "use the default" can still be told apart (it is dropped, not filled).
pub(crate) const UNUSABLE_DEFAULT: &str = "x-tool-runtime-unusable-default";

/// What the resolver stage runs for one tool.
pub(crate) struct ToolResolvers<'a> {
    pub resolvers: &'a [SharedResolver],
    pub context_defaults: &'a [(String, Value)],
    /// Whether `null` for a parameter that doesn't accept it, but has a default, means the
    /// default (what strict-mode models send). A repair: off under `RepairPolicy::Off`.
    pub null_means_default: bool,
}

/// Runs the stage: resolvers first (the most specific), then context defaults, then the
/// schema's defaults, each filling only what is still missing.
///
/// A `null` sent for "use the default" where the default is unusable (moved aside at build:
/// `registry::defaults`) and `null` isn't allowed is dropped, recorded in `dropped`.
pub(crate) fn resolve(
    args: &mut Value,
    nav: SchemaNav<'_>,
    cx: &CallContext<'_>,
    tool: &ToolResolvers<'_>,
    filled: &mut Vec<FilledField>,
    dropped: &mut Vec<Repair>,
) -> Result<(), ToolError> {
    let Value::Object(map) = args else {
        return Ok(());
    };
    for resolver in tool.resolvers {
        let mut handle = ParamResolver {
            args: map,
            nav,
            cx,
            filled,
            by: FilledBy::Resolver,
        };
        resolver(&mut handle)?;
    }
    for (name, value) in tool.context_defaults {
        if nav.property(nav.root(), name).is_some() {
            let mut handle = ParamResolver {
                args: map,
                nav,
                cx,
                filled,
                by: FilledBy::ContextDefault,
            };
            handle.fill(name, value);
        }
    }
    let mut pointer = String::new();
    let mut out = Filled { filled, dropped };
    fill_schema_defaults(
        map,
        nav.root(),
        nav,
        tool.null_means_default,
        &mut out,
        &mut pointer,
        0,
    );
    Ok(())
}

const MAX_WALK_DEPTH: usize = 128;

/// What filling schema defaults did: fields filled, and `null`s dropped.
struct Filled<'a> {
    filled: &'a mut Vec<FilledField>,
    dropped: &'a mut Vec<Repair>,
}

/// Fills missing properties that have a schema `default`, in this object and in every nested
/// object the model did send.
fn fill_schema_defaults(
    map: &mut Map<String, Value>,
    schema: &Value,
    nav: SchemaNav<'_>,
    null_means_default: bool,
    out: &mut Filled<'_>,
    pointer: &mut String,
    depth: usize,
) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    // Only the branch this object is written for: another branch's defaults would make a
    // valid value invalid.
    let Some(properties) = nav.properties_for(schema, map) else {
        return;
    };
    for (name, property) in properties {
        let len = pointer.len();
        push_segment(pointer, name);
        let usable = property.get("default");
        if usable.is_some() || property.get(UNUSABLE_DEFAULT).is_some() {
            let accepts_null = nav.types(property).contains(Types::NULL);
            let absent = match map.get(name) {
                None => true,
                Some(Value::Null) => null_means_default && !accepts_null,
                Some(_) => false,
            };
            match usable {
                Some(default) if absent => {
                    out.filled.push(FilledField {
                        pointer: pointer.clone(),
                        value: default.clone(),
                        by: FilledBy::SchemaDefault,
                    });
                    map.insert(name.clone(), default.clone());
                }
                // The default can't stand in for the `null`: the parameter is left out.
                None if absent && map.remove(name).is_some() => out.dropped.push(Repair {
                    kind: RepairKind::NullForUnusableDefault,
                    pointer: pointer.clone(),
                    detail: "null".to_owned(),
                }),
                _ => {}
            }
        }
        match map.get_mut(name) {
            Some(Value::Object(child)) => fill_schema_defaults(
                child,
                property,
                nav,
                null_means_default,
                out,
                pointer,
                depth + 1,
            ),
            Some(Value::Array(items)) => {
                if let Some(item_schema) = nav.items(property) {
                    for (i, item) in items.iter_mut().enumerate() {
                        if let Value::Object(child) = item {
                            let len = pointer.len();
                            push_segment(pointer, &i.to_string());
                            fill_schema_defaults(
                                child,
                                item_schema,
                                nav,
                                null_means_default,
                                out,
                                pointer,
                                depth + 1,
                            );
                            pointer.truncate(len);
                        }
                    }
                }
            }
            _ => {}
        }
        pointer.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::StateMap;
    use serde_json::json;
    use std::sync::Arc;

    fn run(
        args: Value,
        schema: &Value,
        resolvers: &[SharedResolver],
        context: &[(String, Value)],
    ) -> (Value, Vec<FilledField>) {
        let states = Arc::new(StateMap::default());
        let catalog: Arc<[Arc<crate::spec::ToolSpec>]> = Arc::from(Vec::new());
        let cx = CallContext {
            tool: "t",
            call_id: None,
            states: &states,
            catalog: &catalog,
            inline: true,
            held: None,
            calls: None,
        };
        let mut args = args;
        let mut filled = Vec::new();
        let tool = ToolResolvers {
            resolvers,
            context_defaults: context,
            null_means_default: true,
        };
        let mut dropped = Vec::new();
        resolve(
            &mut args,
            SchemaNav::new(schema),
            &cx,
            &tool,
            &mut filled,
            &mut dropped,
        )
        .unwrap();
        (args, filled)
    }

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "default": 10},
                "label": {"type": ["string", "null"], "default": "x"},
                "cwd": {"type": "string"},
                "opts": {"$ref": "#/$defs/Opts"}
            },
            "$defs": {"Opts": {"type": "object", "properties": {"depth": {"type": "integer", "default": 2}}}}
        })
    }

    #[test]
    fn schema_defaults_fill_absent_and_non_nullable_nulls() {
        let (args, filled) = run(
            json!({"limit": null, "label": null, "opts": {}}),
            &schema(),
            &[],
            &[],
        );
        assert_eq!(
            args,
            json!({"limit": 10, "label": null, "opts": {"depth": 2}})
        );
        let pointers: Vec<&str> = filled.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(pointers, ["/limit", "/opts/depth"]);
    }

    #[test]
    fn the_models_values_win_and_resolvers_come_first() {
        let resolver: SharedResolver = Arc::new(|r: &mut ParamResolver<'_>| {
            r.fill("cwd", "/from-resolver");
            r.fill("limit", &3);
            Ok(())
        });
        let context = [
            ("cwd".to_owned(), json!("/from-context")),
            ("nope".to_owned(), json!(1)),
        ];
        let (args, filled) = run(json!({"limit": 7}), &schema(), &[resolver], &context);
        assert_eq!(args["cwd"], "/from-resolver");
        assert_eq!(args["limit"], 7);
        assert!(args.get("nope").is_none());
        assert_eq!(filled[0].by, FilledBy::Resolver);

        let (args, filled) = run(json!({}), &schema(), &[], &context);
        assert_eq!(args["cwd"], "/from-context");
        assert_eq!(filled[0].by, FilledBy::ContextDefault);
    }
}
