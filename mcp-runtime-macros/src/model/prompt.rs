//! The model of one `#[mcp_prompt]`: its function, whose parameters are the prompt's
//! arguments (and extractors) exactly as a tool's are, and what the attribute says of it.

use proc_macro2::Span;
use syn::{Attribute, LitStr, Signature};

use super::{Completion, Function, Place, check_signature, checked_name, completions, description};
use crate::attr::{Icon, Kind, Options};
use crate::errors::Errors;

/// A prompt: the function and everything the attribute says about it.
pub struct Prompt<'a> {
    pub function: Function<'a>,
    pub name: String,
    /// The name's literal, or the function's name: where a duplicate name is reported.
    pub name_span: Span,
    pub title: Option<String>,
    pub description: Option<String>,
    pub icons: Vec<Icon>,
    /// `scopes = [...]`: what a caller must hold.
    pub scopes: Vec<String>,
    pub completions: Vec<Completion>,
    /// `crate = "..."`: the runtime crate's path; `None` to find it in the `Cargo.toml`.
    pub krate: Option<syn::Path>,
}

impl<'a> Prompt<'a> {
    /// Reads the prompt from the function and the attribute's options, recording every
    /// problem.
    pub fn new(
        attributes: &'a [Attribute],
        signature: &'a Signature,
        options: Options,
        errors: &mut Errors,
    ) -> Prompt<'a> {
        check_signature(Kind::Prompt, signature, errors);
        let (name, name_span) = checked_name(Kind::Prompt, &options, signature, errors);
        let (function, docs_description) =
            Function::new(Kind::Prompt, attributes, signature, &Place::Free, errors);
        let description = description(&options, docs_description);
        Prompt {
            completions: completions(&function.params),
            function,
            name,
            name_span,
            title: options.title.as_ref().map(LitStr::value),
            description,
            scopes: options.scope_names(),
            icons: options.icons,
            krate: options.krate,
        }
    }
}
