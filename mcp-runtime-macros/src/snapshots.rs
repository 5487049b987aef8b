//! Golden expansions: each `tests/expand/<case>.rs` holds `#[mcp_tool]`, `#[mcp_resource]`
//! and `#[mcp_prompt]` functions and `#[mcp_tools]` impl blocks; the file with every attribute expanded and formatted as
//! `cargo expand` does (prettyplease) must equal `tests/expand/<case>.expanded.rs`, so a
//! change to what the macro emits shows in review as a diff of those files. Refresh them with
//! `MCP_SNAPSHOTS=overwrite cargo test -p mcp-runtime-macros` and read the diff.
//!
//! The macro runs here as a function, not in a compilation; where a compilation reads the
//! compiled crate's `Cargo.toml` for the runtime's name, this reads `mcp-runtime-macros`' own (cargo
//! sets `CARGO_MANIFEST_DIR` for tests too), whose dev-dependency names it `mcp_runtime`, the
//! name the expansions show.

use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Ident, Span, TokenStream};
use quote::ToTokens;
use syn::{Attribute, Expr, Item, Meta, Stmt, parse_quote};

use crate::expand;

#[test]
fn expansions_match_the_golden_files() {
    let overwrite = std::env::var_os("MCP_SNAPSHOTS").is_some_and(|value| value == "overwrite");
    let mut changed = Vec::new();
    for case in cases() {
        let expanded = expand_file(&fs::read_to_string(&case).expect("a readable case"));
        let golden = case.with_extension("expanded.rs");
        if overwrite {
            fs::write(&golden, &expanded).expect("a writable golden file");
        } else if fs::read_to_string(&golden).ok().as_deref() != Some(expanded.as_str()) {
            changed.push(golden.display().to_string());
        }
    }
    assert!(
        changed.is_empty(),
        "the expansion differs from {changed:?}; if the change is intended, run \
         `MCP_SNAPSHOTS=overwrite cargo test -p mcp-runtime-macros` and review the diff"
    );
}

fn cases() -> Vec<PathBuf> {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let mut cases: Vec<PathBuf> = fs::read_dir(directory)
        .expect("tests/expand")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| !path.to_string_lossy().ends_with(".expanded.rs"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in tests/expand");
    cases
}

/// `source` with each attributed function and `#[mcp_tools]` impl block replaced by
/// the attribute's output, as rustc would: the macro gets the item without the attribute
/// itself.
fn expand_file(source: &str) -> String {
    let file: syn::File = syn::parse_str(source).expect("a case parses");
    let mut expanded = TokenStream::new();
    for item in file.items {
        match item {
            Item::Fn(mut function) => {
                let attributes: [(&str, Expansion); 3] = [
                    ("mcp_tool", expand::mcp_tool),
                    ("mcp_resource", expand::mcp_resource),
                    ("mcp_prompt", expand::mcp_prompt),
                ];
                let found = attributes.iter().find_map(|(name, expand)| {
                    Some((take_attribute(&mut function.attrs, name)?, expand))
                });
                match found {
                    Some((args, expand)) => {
                        expanded.extend(expand(args, function.into_token_stream()));
                    }
                    None => function.to_tokens(&mut expanded),
                }
            }
            Item::Impl(mut block) => match take_attribute(&mut block.attrs, "mcp_tools") {
                Some(args) => expanded.extend(expand::mcp_tools(args, block.into_token_stream())),
                None => block.to_tokens(&mut expanded),
            },
            item => item.to_tokens(&mut expanded),
        }
    }
    unparse(syn::parse2(expanded).expect("the expansion parses as a file"))
}

/// An attribute's expansion: its arguments and the item to the output.
type Expansion = fn(TokenStream, TokenStream) -> TokenStream;

/// Takes `#[name]` or `#[name(...)]` off an item, returning what is in its parentheses.
fn take_attribute(attributes: &mut Vec<Attribute>, name: &str) -> Option<TokenStream> {
    let index = attributes
        .iter()
        .position(|attribute| attribute.path().is_ident(name))?;
    Some(match attributes.remove(index).meta {
        Meta::List(list) => list.tokens,
        _ => TokenStream::new(),
    })
}

/// prettyplease, which `cargo expand` uses, prints macro bodies as they come; print the
/// `submit!` body, one expression, formatted like the rest.
fn unparse(mut file: syn::File) -> String {
    const PLACEHOLDER: &str = "__submitted_descriptor";
    let mut descriptors = Vec::new();
    for item in &mut file.items {
        let Item::Const(constant) = item else {
            continue;
        };
        let Expr::Block(block) = &mut *constant.expr else {
            continue;
        };
        for statement in &mut block.block.stmts {
            let Stmt::Macro(statement) = statement else {
                continue;
            };
            if statement
                .mac
                .path
                .segments
                .last()
                .is_some_and(|last| last.ident == "submit")
            {
                let descriptor: Expr = statement.mac.parse_body().expect("an expression");
                descriptors.push(descriptor);
                statement.mac.tokens =
                    Ident::new(PLACEHOLDER, Span::call_site()).into_token_stream();
            }
        }
    }
    let mut text = prettyplease::unparse(&file);
    for descriptor in descriptors {
        let alone = prettyplease::unparse(&parse_quote!(const _: () = #descriptor;));
        let alone = alone
            .strip_prefix("const _: () = ")
            .and_then(|rest| rest.strip_suffix(";\n"));
        let indented = alone.expect("a const item").replace('\n', "\n        ");
        text = text.replacen(PLACEHOLDER, &indented, 1);
    }
    text
}
