//! Where the generated code finds `tool-runtime`: under the name the user's `Cargo.toml`
//! gives it (`rt = { package = "tool-runtime" }` makes it `::rt`), read with
//! `proc-macro-crate` as rig-derive and others do.

use proc_macro2::{Span, TokenStream};
use proc_macro_crate::{crate_name, FoundCrate};
use quote::quote;

/// The runtime crate as the generated code names it.
pub(crate) struct Runtime {
    name: String,
}

impl Runtime {
    /// Looks the name up in the manifest of the crate being compiled.
    pub(crate) fn find() -> Runtime {
        let name = match crate_name("tool-runtime") {
            Ok(FoundCrate::Name(name)) => name,
            // `tool-runtime`'s own tests and doctests are crates of their own, which name it
            // `tool_runtime` (the library names itself so too, `extern crate self`); and when
            // the manifest can't be read, the usual name is the best guess.
            Ok(FoundCrate::Itself) | Err(_) => "tool_runtime".to_owned(),
        };
        Runtime { name }
    }

    /// `::name`, as tokens.
    pub(crate) fn path(&self) -> TokenStream {
        let ident = syn::Ident::new(&self.name, Span::call_site());
        quote!(::#ident)
    }

    /// `::name::__private::{item}`, as text, for attributes that take a path in a string
    /// (`#[serde(crate = "..")]`).
    pub(crate) fn private_path_text(&self, item: &str) -> String {
        format!("::{}::__private::{item}", self.name)
    }
}
