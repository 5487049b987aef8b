//! The `#[mcp_tool]` and `#[mcp_tools]` attributes.
//!
//! **An implementation detail of [`mcp-runtime`](https://docs.rs/mcp-runtime)**: depend on
//! `mcp-runtime`, which re-exports the attributes. This crate's version is pinned by
//! `mcp-runtime`; nothing here is a stable API on its own. The reference is on
//! [`macro@mcp_tool`] (written in `docs/mcp_tool.md`); [`macro@mcp_tools`], which makes
//! methods tools, has a short page of its own (`docs/mcp_tools.md`).
//!
//! # Modules
//!
//! The expansion runs in three phases, parse, model and expand; only the last builds
//! output tokens. Every phase records its errors and carries on, so one compile reports
//! every mistake.
//!
//! | module | what it holds |
//! |---|---|
//! | `errors` | `Errors`, the collector every phase records into; a leaf, importing nothing of the crate |
//! | `attr` | parsing the attribute's options, `#[mcp_tool(read_only, name = "add", ...)]`, and each parameter's `#[mcp(default = ..., rename = "...")]`, with the checks that need only the option itself; taking each method's `#[mcp_tool]` off it for `#[mcp_tools]` |
//! | `docs` | reading doc comments: the description, and the `# Arguments` section's entries |
//! | `model` | the typed `Tool` read from the function and the options: name, description, hints, parameters (owned types, optional, defaults, published names), a method's `&self`, policy; the checks of the signature; `ToolBlock`, the tools of a `#[mcp_tools]` impl block, and the checks of the block |
//! | `expand` | code generation: the function (or impl block) left as written, beside it the registration assembled from one step per part of the descriptor (`expand::runtime_path`, `expand::hints`, `expand::policy`, `expand::parameters`, `expand::invoke`, `expand::unique_name`) |
//! | `snapshots` | tests only: the expansions of `tests/expand/*.rs` against their `.expanded.rs` golden files |
//!
//! Imports run one way, with no circle between files: `docs` uses no other module, `attr`
//! only `errors`; `model` uses those three; `expand` uses all four, and only the entry point
//! below uses `expand`. Within `expand`, `mod.rs` uses its steps and the steps use
//! `expand::tokens`, never `mod.rs`; `invoke` also takes the output of `parameters` (and the
//! name it binds `&self` to).

mod attr;
mod docs;
mod errors;
mod expand;
mod model;
#[cfg(test)]
mod snapshots;
mod uri_template;

use proc_macro::TokenStream;

#[doc = include_str!("../docs/mcp_tool.md")]
#[proc_macro_attribute]
pub fn mcp_tool(attribute: TokenStream, item: TokenStream) -> TokenStream {
    expand::mcp_tool(attribute.into(), item.into()).into()
}

#[doc = include_str!("../docs/mcp_resource.md")]
#[proc_macro_attribute]
pub fn mcp_resource(attribute: TokenStream, item: TokenStream) -> TokenStream {
    expand::mcp_resource(attribute.into(), item.into()).into()
}

#[doc = include_str!("../docs/mcp_prompt.md")]
#[proc_macro_attribute]
pub fn mcp_prompt(attribute: TokenStream, item: TokenStream) -> TokenStream {
    expand::mcp_prompt(attribute.into(), item.into()).into()
}

#[doc = include_str!("../docs/mcp_tools.md")]
#[proc_macro_attribute]
pub fn mcp_tools(attribute: TokenStream, item: TokenStream) -> TokenStream {
    expand::mcp_tools(attribute.into(), item.into()).into()
}
