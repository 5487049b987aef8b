//! The call of the user's function: the descriptor's `invoke` closure, which extracts the
//! parameters and hands the call to the runtime's async or blocking runner, and the output
//! schema, which comes from the same return type.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ReturnType;
use syn::spanned::Spanned;

use super::parameters::{Parameters, self_value};
use super::tokens::{respan, type_path_prefix, without_self};
use crate::model::Function;

/// The runtime's runners of one kind of function: `call_async` and `call_blocking` for
/// tools, `read_*` for resources, `prompt_*` for prompts.
pub struct Runners {
    pub run_async: &'static str,
    pub run_blocking: &'static str,
}

pub const TOOL_RUNNERS: Runners = Runners {
    run_async: "call_async",
    run_blocking: "call_blocking",
};

/// The descriptor's `invoke`: a closure that runs the extractions, then gives the runtime a
/// closure calling the function (`runners.run_async` for an `async fn`; for a plain `fn`,
/// `runners.run_blocking`, which runs it on a thread of its own).
///
/// A closure in the descriptor rather than a function beside it: rustc then checks the
/// parameter types of the schema and of the extraction in one body, and reports a type that
/// is no parameter once.
pub fn invoke(
    function: &Function<'_>,
    private: &TokenStream,
    parameters: &Parameters,
    runners: &Runners,
) -> TokenStream {
    let path = function_path(function);
    let Parameters {
        extractions,
        values,
        ..
    } = parameters;
    // A method's `&self` is lent from the `State<Self>` extracted first.
    let receiver = function.receiver.map(|_| {
        let value = self_value();
        quote!(&#value)
    });
    let arguments: Vec<TokenStream> = receiver
        .into_iter()
        .chain(values.iter().map(|value| quote!(#value)))
        .collect();
    let (runner, closure) = if function.is_async() {
        let call = if function.receiver.is_some() {
            // The method's future borrows the state: one async block owns both.
            quote!(async move { #path(#(#arguments),*).await })
        } else {
            quote!(#path(#(#arguments),*))
        };
        let closure = quote! {
            |__mcp_call: &mut #private::ToolCall| {
                #extractions
                ::core::result::Result::Ok(#call)
            }
        };
        (format_ident!("{}", runners.run_async), closure)
    } else if arguments.is_empty() {
        // The function itself, not `move || f()`, which clippy would flag in user code.
        let closure = quote! {
            |_: &mut #private::ToolCall| ::core::result::Result::Ok(#path)
        };
        (format_ident!("{}", runners.run_blocking), closure)
    } else {
        let closure = quote! {
            |__mcp_call: &mut #private::ToolCall| {
                #extractions
                ::core::result::Result::Ok(move || #path(#(#arguments),*))
            }
        };
        (format_ident!("{}", runners.run_blocking), closure)
    };
    // The whole call is spanned at the return type: rustc reports a failed bound of a call
    // at the call's span, so a return type that is not a tool result, or a future that is
    // not `Send`, is reported there, not on the attribute.
    let run = respan(
        quote!(#private::#runner(__mcp_tool_call, __mcp_run)),
        output_span(function),
    );
    quote! {
        |__mcp_tool_call| {
            let __mcp_run = #closure;
            #run
        }
    }
}

/// How the registration names the function: by its name beside a free function; through
/// the impl block's type for a method (`Notes::add`).
fn function_path(function: &Function<'_>) -> TokenStream {
    let name = &function.signature.ident;
    match function.self_ty {
        None => quote!(#name),
        Some(self_ty) => {
            let self_ty = type_path_prefix(self_ty);
            quote!(#self_ty::#name)
        }
    }
}

/// The descriptor's `output_schema`: the schema function for the declared return type
/// (`()` when there is none), spanned like the call, so a return type that is no tool
/// result is reported at the return type.
pub fn output_schema(function: &Function<'_>, private: &TokenStream) -> TokenStream {
    let output = match &function.signature.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => without_self(ty, function.self_ty),
    };
    quote_spanned!(output_span(function)=> #private::output_schema::<#output>)
}

/// Where errors about the result go: the return type, or the function's name when there
/// is none.
fn output_span(function: &Function<'_>) -> Span {
    match &function.signature.output {
        ReturnType::Default => function.signature.ident.span(),
        ReturnType::Type(_, ty) => ty.span(),
    }
}
