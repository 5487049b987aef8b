//! Code generation: the user's function, untouched but for parameter doc comments, and
//! beside it one `invoke` function (one `extract` per parameter) and one
//! `inventory::submit!` of the tool's descriptor.

use proc_macro2::TokenStream;
use proc_macro2::{Group, Span, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn};

use crate::attr::Options;
use crate::docs;
use crate::model::{Errors, Tool, return_type};

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

/// The function exactly as written, less the doc comments on its parameters (rustc rejects
/// those; the attribute has already read them).
fn without_param_docs(function: &ItemFn) -> ItemFn {
    let mut function = function.clone();
    for input in &mut function.sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed.attrs.retain(|attribute| !docs::is_doc(attribute));
        }
    }
    function
}

fn option_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_bool(value: Option<bool>) -> TokenStream {
    match value {
        Some(flag) => quote!(::core::option::Option::Some(#flag)),
        None => quote!(::core::option::Option::None),
    }
}

fn registration(tool: &Tool<'_>) -> TokenStream {
    let krate = &tool.krate;
    let private = quote!(#krate::__private);
    let function = &tool.function.sig.ident;

    // One `extract` per parameter, spanned at its type: "`T` cannot be a tool parameter"
    // underlines the user's type, not the attribute. Values are bound to generated names,
    // so a parameter named like its function cannot shadow the function.
    let values: Vec<_> = (0..tool.params.len())
        .map(|index| format_ident!("__mcp_arg_{index}"))
        .collect();
    let extractions = tool.params.iter().zip(&values).map(|(param, value)| {
        let name = &param.name;
        let ty = param.ty;
        quote_spanned! {ty.span()=>
            let #value = __mcp_call.extract::<#ty>(#name)?;
        }
    });
    // The runner's path is spanned at the return type (the function's name when there is
    // none): a return type that is not a tool result, or a future that is not `Send`, is
    // reported there rather than on the attribute.
    let output_span = match &tool.function.sig.output {
        syn::ReturnType::Default => function.span(),
        syn::ReturnType::Type(_, ty) => ty.span(),
    };
    let (runner, closure) = if tool.is_async() {
        let closure = quote! {
            |__mcp_call: &mut #private::ToolCall| {
                #(#extractions)*
                ::core::result::Result::Ok(#function(#(#values),*))
            }
        };
        (quote!(call_async), closure)
    } else if values.is_empty() {
        // The function itself, not `move || f()`, which clippy would flag in user code.
        let closure = quote! {
            |_: &mut #private::ToolCall| ::core::result::Result::Ok(#function)
        };
        (quote!(call_blocking), closure)
    } else {
        let closure = quote! {
            |__mcp_call: &mut #private::ToolCall| {
                #(#extractions)*
                ::core::result::Result::Ok(move || #function(#(#values),*))
            }
        };
        (quote!(call_blocking), closure)
    };
    // The whole call is spanned at the return type (the function's name when there is none):
    // rustc reports a failed bound of a call at the call's span, so a return type that is not
    // a tool result, or a future that is not `Send`, is reported there, not on the attribute.
    let run = respan(
        quote!(#private::#runner(__mcp_tool_call, __mcp_run)),
        output_span,
    );
    let body = quote! {
        let __mcp_run = #closure;
        #run
    };

    let params = tool.params.iter().map(|param| {
        let name = &param.name;
        let description = option_str(param.description.as_deref());
        let required = !param.optional;
        let ty = param.ty;
        let schema = quote_spanned!(ty.span()=> #private::param_schema::<#ty>);
        let check = quote_spanned!(ty.span()=> #private::param_check::<#ty>);
        quote! {
            #private::ParamDescriptor {
                name: #name,
                description: #description,
                required: #required,
                schema: #schema,
                check: #check,
            }
        }
    });

    let output = return_type(tool.function);
    let output_schema = quote_spanned!(output_span=> #private::output_schema::<#output>);

    let name = &tool.name;
    let title = option_str(tool.title.as_deref());
    let description = option_str(tool.description.as_deref());
    let read_only = option_bool(tool.read_only);
    let destructive = option_bool(tool.destructive);
    let idempotent = option_bool(tool.idempotent);
    let open_world = option_bool(tool.open_world);
    let timeout_ms = match tool.timeout_ms {
        Some(ms) => quote!(::core::option::Option::Some(#ms)),
        None => quote!(::core::option::Option::None),
    };
    let max_concurrency = match tool.max_concurrency {
        Some(limit) => quote!(::core::option::Option::Some(#limit)),
        None => quote!(::core::option::Option::None),
    };

    quote! {
        const _: () = {
            // `__mcp_` names cannot clash with the user's function or parameters.
            fn __mcp_invoke(__mcp_tool_call: #private::ToolCall) -> #private::ToolFuture {
                #body
            }

            #private::inventory::submit! {
                #private::ToolDescriptor {
                    name: #name,
                    title: #title,
                    description: #description,
                    hints: #private::ToolHints {
                        read_only: #read_only,
                        destructive: #destructive,
                        idempotent: #idempotent,
                        open_world: #open_world,
                    },
                    params: &[#(#params),*],
                    output_schema: #output_schema,
                    policy: #private::ToolPolicy {
                        timeout_ms: #timeout_ms,
                        max_concurrency: #max_concurrency,
                    },
                    invoke: __mcp_invoke,
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

/// The same tokens, every one carrying `span`: the span rustc reports a failed trait bound
/// of a call at.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                token =
                    TokenTree::Group(Group::new(group.delimiter(), respan(group.stream(), span)));
            }
            token.set_span(span);
            token
        })
        .collect()
}
