//! The registration of a `skill!("folder")`: the folder read and checked (`crate::skill`),
//! then a `SkillDescriptor` whose files are `include_bytes!` of their absolute paths, so
//! cargo builds the crate again when one of them changes.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

use super::linking::dependency_check;
use super::runtime_path::runtime_path;
use super::tokens::location;
use crate::skill::read_folder;

/// `"folder"`, then optionally `, prefix = "acme/billing"`.
struct SkillInput {
    folder: LitStr,
    prefix: Option<LitStr>,
}

impl Parse for SkillInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let folder: LitStr = input.parse().map_err(|error| {
            syn::Error::new(
                error.span(),
                "expected the skill's folder as a string literal, relative to the crate's \
                 directory: `skill!(\"skills/pdf-forms\")`",
            )
        })?;
        let mut prefix = None;
        if input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            if key != "prefix" {
                return Err(syn::Error::new(
                    key.span(),
                    "unknown option: `skill!` takes the folder and optionally `prefix = \"...\"`",
                ));
            }
            input.parse::<Token![=]>()?;
            prefix = Some(input.parse()?);
            input.parse::<Option<Token![,]>>()?;
        }
        if !input.is_empty() {
            return Err(input.error("unexpected input after the skill's folder"));
        }
        Ok(SkillInput { folder, prefix })
    }
}

/// `skill!`'s entry point.
pub fn skill(input: TokenStream) -> TokenStream {
    match expand(input) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let SkillInput { folder, prefix } = syn::parse2(input)?;
    if let Some(prefix) = &prefix {
        let value = prefix.value();
        let valid = value.split('/').all(|segment| {
            !segment.is_empty()
                && segment
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
        });
        if !valid {
            return Err(syn::Error::new(
                prefix.span(),
                "a skill prefix is `/`-separated segments of letters, digits, `-`, `.`, `_` \
                 and `~`, with no empty segment and no `/` first or last",
            ));
        }
    }
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let skill = read_folder(&manifest_dir, &folder.value())
        .map_err(|problem| syn::Error::new(folder.span(), problem))?;
    let path = match &prefix {
        Some(prefix) => format!("{}/{}", prefix.value(), skill.name),
        None => skill.name.clone(),
    };
    let krate = runtime_path(None);
    let private = quote!(#krate::__private);
    let files = skill.files.iter().map(|file| {
        let relative = &file.relative;
        let absolute = file.absolute.to_string_lossy().into_owned();
        let digest = &file.digest;
        quote! {
            #private::SkillFile {
                path: #relative,
                bytes: ::core::include_bytes!(#absolute),
                digest: #digest,
            }
        }
    });
    let location = location(&private, Span::call_site());
    let dependency_check = dependency_check(&private);
    Ok(quote! {
        #dependency_check
        #private::inventory::submit! {
            #private::SkillDescriptor {
                path: #path,
                files: &[#(#files),*],
                location: #location,
            }
        }
    })
}
