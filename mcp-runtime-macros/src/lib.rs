//! The `#[mcp_tool]`, `#[mcp_tools]`, `#[mcp_resource]` and `#[mcp_prompt]` attributes, and
//! `skill!`.
//!
//! **An implementation detail of [`mcp-runtime`](https://docs.rs/mcp-runtime)**: depend on
//! `mcp-runtime`, which re-exports the attributes. This crate's version is pinned by
//! `mcp-runtime`; nothing here is a stable API on its own. The reference is on
//! [`macro@mcp_tool`] (written in `docs/mcp_tool.md`); [`macro@mcp_tools`], which makes
//! methods tools, has a short page of its own (`docs/mcp_tools.md`), and so do
//! [`macro@mcp_resource`] (`docs/mcp_resource.md`) and [`macro@mcp_prompt`]
//! (`docs/mcp_prompt.md`).
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
//! | `attr` | parsing the options of each attribute (`attr::Kind` says which accepts what), `#[mcp_tool(read_only, name = "add", ...)]`, `#[mcp_resource(uri = "...", ...)]`, `#[mcp_prompt(...)]`, and each parameter's `#[mcp(default = ..., rename = "...", complete = f, header = "...")]`, with the checks that need only the option itself (`attr::icon` reads `icon`, `attr::annotations` a resource's `audience`, `priority`, `last_modified`, `attr::values` strings, tags, numbers, durations, rates and hints); taking each method's `#[mcp_tool]` off it for `#[mcp_tools]` |
//! | `docs` | reading doc comments: the description, and the `# Arguments` section's entries |
//! | `skill` | `skill!("folder")`: reading an Agent Skills folder and checking its `SKILL.md` (name, description, reserved metadata), the files' SHA-256 digests; a leaf, files and text |
//! | `uri_template` | a resource's uri: its scheme, and a template's `{var}` and `{+var}` variables; a leaf, pure text |
//! | `model` | `Function`, the function behind a tool, a resource or a prompt: signature, parameters (owned types, optional, defaults, published names, completions), a method's `&self`, and their checks; the typed `Tool` read from it and the options: name, description, hints, policy, icons; `ToolBlock`, the tools of a `#[mcp_tools]` impl block, and the checks of the block; `model::resource` (the uri's variables bound to parameters, the other parameters left to extractors), `model::prompt`, and `model::header` (arguments mirrored into HTTP headers) |
//! | `expand` | code generation: the function (or impl block) left as written, beside it the registration assembled from one step per part of the descriptor (`expand::runtime_path`, `expand::hints`, `expand::policy`, `expand::parameters`, `expand::invoke`, `expand::icons`, `expand::completions`, `expand::unique_name`); `expand::resource` and `expand::prompt` assemble the registrations of resources and prompts from the same steps |
//! | `snapshots` | tests only: the expansions of `tests/expand/*.rs` against their `.expanded.rs` golden files |
//!
//! Imports run one way, with no circle between files: `docs` and `uri_template` use no other
//! module, `attr` only `errors`; `model` uses those; `expand` uses `attr`, `docs`, `errors`
//! and `model`, and only the entry points below use `expand`. Within `expand`, `mod.rs` uses
//! its steps and the steps use `expand::tokens`, never `mod.rs`; `invoke` also takes the output of `parameters` (and the
//! name it binds `&self` to); `resource` and `prompt` use the steps they assemble.

mod attr;
mod docs;
mod errors;
mod expand;
mod model;
mod skill;
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

#[doc = include_str!("../docs/skill.md")]
#[proc_macro]
pub fn skill(input: TokenStream) -> TokenStream {
    expand::skill(input.into()).into()
}
