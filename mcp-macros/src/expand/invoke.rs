//! The call of the user's function: the descriptor's `invoke` closure, which extracts the
//! parameters and hands the call to the runtime's async or blocking runner, and the output
//! schema, which comes from the same return type.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ReturnType;
use syn::spanned::Spanned;

use super::parameters::{Parameters, self_value};
use super::tokens::{respan, type_path_prefix, without_self};
use crate::model::Tool;

/// The descriptor's `invoke`: a closure that runs the extractions, then gives the runtime a
/// closure calling the function (`call_async` for an `async fn`, `call_blocking`, which runs
/// it on a thread of its own, for a plain `fn`).
///
/// A closure in the descriptor rather than a function beside it: rustc then checks the
/// parameter types of the schema and of the extraction in one body, and reports a type that
/// is no parameter once.
pub fn invoke(tool: &Tool<'_>, private: &TokenStream, parameters: &Parameters) -> TokenStream {
    let function = function_path(tool);
    let Parameters {
        extractions,
        values,
        ..
    } = parameters;
    // A method's `&self` is lent from the `State<Self>` extracted first.
    let receiver = tool.receiver.map(|_| {
        let value = self_value();
        quote!(&#value)
    });
    let arguments: Vec<TokenStream> = receiver
        .into_iter()
        .chain(values.iter().map(|value| quote!(#value)))
        .collect();
    let (runner, closure) = if tool.is_async() {
        let call = if tool.receiver.is_some() {
            // The method's future borrows the state: one async block owns both.
            quote!(async move { #function(#(#arguments),*).await })
        } else {
            quote!(#function(#(#arguments),*))
        };
        let closure = quote! {
            |__mcp_call: &mut #private::ToolCall| {
                #extractions
                ::core::result::Result::Ok(#call)
            }
        };
        (quote!(call_async), closure)
    } else if arguments.is_empty() {
        // The function itself, not `move || f()`, which clippy would flag in user code.
        let closure = quote! {
            |_: &mut #private::ToolCall| ::core::result::Result::Ok(#function)
        };
        (quote!(call_blocking), closure)
    } else {
        let closure = quote! {
            |__mcp_call: &mut #private::ToolCall| {
                #extractions
                ::core::result::Result::Ok(move || #function(#(#arguments),*))
            }
        };
        (quote!(call_blocking), closure)
    };
    // The whole call is spanned at the return type: rustc reports a failed bound of a call
    // at the call's span, so a return type that is not a tool result, or a future that is
    // not `Send`, is reported there, not on the attribute.
    let run = respan(
        quote!(#private::#runner(__mcp_tool_call, __mcp_run)),
        output_span(tool),
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
fn function_path(tool: &Tool<'_>) -> TokenStream {
    let function = &tool.signature.ident;
    match tool.self_ty {
        None => quote!(#function),
        Some(self_ty) => {
            let self_ty = type_path_prefix(self_ty);
            quote!(#self_ty::#function)
        }
    }
}

/// The descriptor's `output_schema`: the schema function for the declared return type
/// (`()` when there is none), spanned like the call, so a return type that is no tool
/// result is reported at the return type.
pub fn output_schema(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let output = match &tool.signature.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => without_self(ty, tool.self_ty),
    };
    quote_spanned!(output_span(tool)=> #private::output_schema::<#output>)
}

/// Where errors about the result go: the return type, or the function's name when there
/// is none.
fn output_span(tool: &Tool<'_>) -> Span {
    match &tool.signature.output {
        ReturnType::Default => tool.signature.ident.span(),
        ReturnType::Type(_, ty) => ty.span(),
    }
}
