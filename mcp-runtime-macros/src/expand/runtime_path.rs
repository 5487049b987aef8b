//! Where the generated code finds `mcp-runtime`.
//!
//! A leaf of `expand`: the steps take its path as `#krate::__private`.

use proc_macro_crate::{FoundCrate, crate_name};
use proc_macro2::TokenStream;
use quote::quote;

/// The runtime crate's path: `crate = "..."` when the attribute gives one; otherwise the
/// name the compiled crate's `Cargo.toml` gives the `mcp-runtime` dependency (`::mcp` for
/// `mcp = { package = "mcp-runtime", ... }`), read as `proc-macro-crate` reads it, from
/// `CARGO_MANIFEST_DIR`.
///
/// `::mcp_runtime` when the manifest does not list it: inside `mcp-runtime` itself (its
/// tests and doc tests name it `mcp_runtime`), in a crate that reaches the attribute through
/// another crate's re-export, or with no manifest to read. (The expansion snapshots run the
/// macro in `mcp-runtime-macros`' own tests, whose manifest names the runtime `mcp_runtime` too.)
pub fn runtime_path(explicit: Option<&syn::Path>) -> TokenStream {
    if let Some(path) = explicit {
        return quote!(#path);
    }
    let renamed = match crate_name("mcp-runtime") {
        Ok(FoundCrate::Name(name)) => syn::parse_str::<syn::Ident>(&name).ok(),
        Ok(FoundCrate::Itself) | Err(_) => None,
    };
    match renamed {
        Some(name) => quote!(::#name),
        None => quote!(::mcp_runtime),
    }
}
