//! The `#[mcp_tool]` attribute.
//!
//! **An implementation detail of [`mcp-runtime`](https://docs.rs/mcp-runtime)**: depend on
//! `mcp-runtime`, which re-exports the attribute and documents it. This crate's version is
//! pinned by `mcp-runtime`; nothing here is a stable API on its own.
//!
//! The expansion has three phases, each in its own module: `attr` parses the attribute's
//! options, `model` reads the function into a typed model (collecting every error rather
//! than stopping at the first), and `expand` generates the registration beside the
//! untouched function.

mod attr;
mod docs;
mod expand;
mod model;
#[cfg(test)]
mod snapshots;

use proc_macro::TokenStream;

/// Turns a function into an MCP tool. See `mcp_runtime::mcp_tool` for the options.
#[proc_macro_attribute]
pub fn mcp_tool(attribute: TokenStream, item: TokenStream) -> TokenStream {
    expand::mcp_tool(attribute.into(), item.into()).into()
}
