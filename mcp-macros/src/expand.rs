//! Code generation: the user's function, untouched but for parameter doc comments and
//! `#[mcp(...)]`, and beside it one `inventory::submit!` of the tool's descriptor, whose
//! `invoke` closure makes one `extract` per parameter and calls the function.

use proc_macro2::TokenStream;
use proc_macro2::{Group, Ident, Span, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn};

use crate::attr::{Options, Rate, RatePeriod, is_param_attribute};
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
    // A parameter's default is one function, so a default of the wrong type is one error,
    // on the expression.
    let default_fns: Vec<_> = tool
        .params
        .iter()
        .enumerate()
        .map(|(index, param)| {
            let default = param.default.as_ref()?;
            let ident = format_ident!("__mcp_default_{index}");
            let ty = param.ty;
            let body = match &default.expr {
                Some(expr) => quote!(#expr),
                None => quote_spanned!(default.key=> ::core::default::Default::default()),
            };
            let function = quote_spanned! {ty.span()=>
                fn #ident() -> #ty {
                    #body
                }
            };
            Some((ident, function))
        })
        .collect();
    let extractions =
        tool.params
            .iter()
            .zip(&values)
            .zip(&default_fns)
            .map(|((param, value), default)| {
                let name = &param.name;
                let ty = param.ty;
                match default {
                    Some((default, _)) => quote_spanned! {ty.span()=>
                        let #value = __mcp_call.extract_or_else::<#ty>(#name, #default)?;
                    },
                    None => quote_spanned! {ty.span()=>
                        let #value = __mcp_call.extract::<#ty>(#name)?;
                    },
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
    // A closure in the descriptor rather than a function beside it: rustc then checks the
    // parameter types of the schema and of the extraction in one body, and reports a type
    // that is no parameter once.
    let invoke = quote! {
        |__mcp_tool_call| {
            let __mcp_run = #closure;
            #run
        }
    };

    let params = tool
        .params
        .iter()
        .zip(&default_fns)
        .map(|(param, default)| {
            let name = &param.name;
            let description = option_str(param.description.as_deref());
            let required = param.required();
            let ty = param.ty;
            let schema = quote_spanned!(ty.span()=> #private::param_schema::<#ty>);
            let check = quote_spanned!(ty.span()=> #private::param_check::<#ty>);
            let default = match default {
                Some((default, _)) => quote_spanned! {ty.span()=>
                    ::core::option::Option::Some(|| #private::default_json::<#ty>(#default()))
                },
                None => quote!(::core::option::Option::None),
            };
            quote! {
                #private::ParamDescriptor {
                    name: #name,
                    description: #description,
                    required: #required,
                    default: #default,
                    schema: #schema,
                    check: #check,
                }
            }
        });
    let default_fns = default_fns.iter().flatten().map(|(_, function)| function);

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
    let rate = match tool.rate {
        Some(Rate { calls, per }) => {
            let constructor = match per {
                RatePeriod::Second => quote!(per_second),
                RatePeriod::Minute => quote!(per_minute),
                RatePeriod::Hour => quote!(per_hour),
            };
            quote!(::core::option::Option::Some(#private::Rate::#constructor(#calls)))
        }
        None => quote!(::core::option::Option::None),
    };
    let tags = &tool.tags;
    let unique_name = unique_name_guard(&tool.name, tool.name_span);

    quote! {
        const _: () = {
            // `__mcp_` names cannot clash with the user's function or parameters.
            #(#default_fns)*
            #unique_name
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
                    tags: &[#(#tags),*],
                    params: &[#(#params),*],
                    output_schema: #output_schema,
                    policy: #private::ToolPolicy {
                        timeout_ms: #timeout_ms,
                        max_concurrency: #max_concurrency,
                        rate: #rate,
                    },
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

/// Two tools with one name in one crate are a compile error: each tool exports a macro named
/// for its tool name, and `#[macro_export]` puts every one in the crate root, wherever the
/// tool is, so a second one is "defined multiple times", underlined at both names. The
/// macro's name says what to do. Tools of different crates export into different roots:
/// the server catches those duplicates at start-up.
fn unique_name_guard(name: &str, span: Span) -> TokenStream {
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    // Names with `.` or `-` are escaped, with a prefix of their own so that no escaped name
    // can equal a plain one.
    let (prefix, name) = if plain {
        ("__mcp_tool_", name.to_owned())
    } else {
        let escaped = name
            .chars()
            .map(|c| match c {
                '_' => "_u_".to_owned(),
                '.' => "_dot_".to_owned(),
                '-' => "_dash_".to_owned(),
                other => other.to_string(),
            })
            .collect();
        ("__mcp_escaped_tool_", escaped)
    };
    let guard = Ident::new(
        &format!("{prefix}{name}__is_used_twice__rename_one_with_the_name_option"),
        span,
    );
    // `non_local_definitions` warns about exported macros inside function bodies; a tool
    // defined in one must stay warning-free.
    quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(non_local_definitions)]
        #[macro_export]
        macro_rules! #guard {
            () => {};
        }
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
