//! Code generation, the only phase that builds output tokens: the user's function, untouched
//! but for parameter doc comments and `#[mcp(...)]`, and beside it one `inventory::submit!`
//! of the tool's descriptor.
//!
//! This module runs the phases and assembles the descriptor; each part of it is built by a
//! step of its own:
//!
//! - `hints`: the behaviour hints (`read_only`, `destructive`, ...);
//! - `policy`: the timeout, concurrency and rate limits, and the tags;
//! - `parameters`: the parameter descriptors (schemas, defaults) and their extraction;
//! - `invoke`: the call of the function, async or blocking, and the output schema;
//! - `unique_name`: the guard against two tools of one name in one crate;
//! - `tokens`: helpers the steps share.

mod hints;
mod invoke;
mod parameters;
mod policy;
mod tokens;
mod unique_name;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::quote;
use syn::{FnArg, ItemFn};

use self::hints::hints;
use self::invoke::{invoke, output_schema};
use self::parameters::{Parameters, parameters};
use self::policy::{policy, tags};
use self::tokens::option;
use self::unique_name::unique_name_guard;
use crate::attr::{Options, is_param_attribute};
use crate::docs;
use crate::errors::Errors;
use crate::model::Tool;

/// The attribute's entry point.
pub fn mcp_tool(attribute: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let options = Options::parse(attribute, &mut errors);
    let function: ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            let error = syn::Error::new(
                first_token_span(&item),
                "#[mcp_tool] goes on a function: `async fn name(arg: Type, ...) -> Output` or a plain `fn`",
            );
            let error = error.to_compile_error();
            // Keep the item so the rest of the crate still type-checks.
            return quote!(#item #error);
        }
    };
    let tool = Tool::new(&function, options, &mut errors);
    let user_function = without_param_docs(&function);
    if !errors.is_empty() {
        let errors = errors.to_compile_errors();
        return quote!(#user_function #errors);
    }
    let registration = registration(&tool);
    quote! {
        #user_function
        #registration
    }
}

/// The span of the item's first token after its attributes (doc comments included), so
/// the error underlines `struct`/`enum`/... rather than a doc comment.
fn first_token_span(item: &TokenStream) -> Span {
    let mut tokens = item.clone().into_iter().peekable();
    while let Some(TokenTree::Punct(pound)) = tokens.peek() {
        if pound.as_char() != '#' {
            break;
        }
        tokens.next();
        tokens.next();
    }
    tokens
        .next()
        .map_or_else(Span::call_site, |token| token.span())
}

/// The function exactly as written, less the doc comments and `#[mcp(...)]` on its
/// parameters (rustc rejects those; the attribute has already read them).
fn without_param_docs(function: &ItemFn) -> ItemFn {
    let mut function = function.clone();
    for input in &mut function.sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed
                .attrs
                .retain(|attribute| !docs::is_doc(attribute) && !is_param_attribute(attribute));
        }
    }
    function
}

/// The registration beside the function: one `const _` block holding the default
/// functions, the unique-name guard and the `inventory::submit!` of the descriptor, each
/// field from the step that owns it.
fn registration(tool: &Tool<'_>) -> TokenStream {
    let krate = match &tool.krate {
        Some(path) => quote!(#path),
        None => quote!(::mcp_runtime),
    };
    let private = quote!(#krate::__private);

    let name = &tool.name;
    let title = option(tool.title.as_deref());
    let description = option(tool.description.as_deref());
    let hints = hints(tool, &private);
    let tags = tags(tool);
    let parameters = parameters(tool, &private);
    let output_schema = output_schema(tool, &private);
    let policy = policy(tool, &private);
    let invoke = invoke(tool, &private, &parameters);
    let unique_name = unique_name_guard(&tool.name, tool.name_span);
    let Parameters {
        default_fns,
        descriptors,
        ..
    } = &parameters;

    quote! {
        const _: () = {
            // `__mcp_` names cannot clash with the user's function or parameters.
            #default_fns
            #unique_name
            #private::inventory::submit! {
                #private::ToolDescriptor {
                    name: #name,
                    title: #title,
                    description: #description,
                    hints: #hints,
                    tags: #tags,
                    params: #descriptors,
                    output_schema: #output_schema,
                    policy: #policy,
                    invoke: #invoke,
                    location: #private::SourceLocation {
                        file: ::core::file!(),
                        line: ::core::line!(),
                        module_path: ::core::module_path!(),
                    },
                }
            }
        };
    }
}
