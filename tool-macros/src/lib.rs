//! The `#[tool]` attribute macro. Use it through `tool_runtime::tool`, which re-exports it.
//!
//! The macro works in three stages, one file each:
//! - **parse** (`attr`, `docs`, `model`): the fn and its attributes become a small model;
//! - **check** (`checks`): every mistake is collected, so the user sees them all at once;
//! - **expand** (`expand`): the model becomes tokens that wire the fn to generic runtime code,
//!   under the name the user's `Cargo.toml` gives the runtime (`runtime_path`).

mod attr;
mod checks;
mod docs;
mod expand;
mod model;
mod runtime_path;
mod types;

use proc_macro::TokenStream;

/// Turns an ordinary `fn` (sync or `async`) into a tool an LLM can call.
///
/// See the `tool_runtime` crate documentation for the full reference.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    let input_fn = syn::parse_macro_input!(input as syn::ItemFn);
    match model::ToolFn::parse(args.into(), input_fn.clone()) {
        Ok(model) => expand::expand(model).into(),
        Err(error) => {
            // Keep the fn itself in the output, and a stand-in for its `TOOL`, so one mistake
            // in the attribute doesn't cascade into "cannot find" errors at every call site
            // and every `f::TOOL` (thiserror's fallback, for a tool).
            let mut tokens = error.to_compile_error();
            tokens.extend(expand::fallback(&input_fn));
            tokens.extend(model::strip_param_attrs(input_fn));
            tokens.into()
        }
    }
}
