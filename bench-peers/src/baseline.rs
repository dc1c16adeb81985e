//! What a careful hand-written dispatcher does: `match` on the name, `serde_json::from_str`
//! into the argument struct, a direct call, `serde_json::to_string` of the result.

use crate::{run_search, SearchArgs};

/// One call, from `(name, args)` to the serialized output.
pub fn call(name: &str, args: &str) -> Result<String, String> {
    match name {
        "search" => {
            let a: SearchArgs = serde_json::from_str(args).map_err(|e| e.to_string())?;
            serde_json::to_string(&run_search(a.query, a.limit, a.exact, a.mode))
                .map_err(|e| e.to_string())
        }
        _ => Err(format!("unknown tool {name}")),
    }
}
