//! The call of the user's function: the descriptor's `invoke` closure, which extracts the
//! parameters and hands the call to the runtime's async or blocking runner, and the output
//! schema, which comes from the same return type.

use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::ReturnType;
use syn::spanned::Spanned;

use super::parameters::Parameters;
use crate::model::Tool;

/// The descriptor's `invoke`: a closure that runs the extractions, then gives the runtime a
/// closure calling the function (`call_async` for an `async fn`, `call_blocking`, which runs
/// it on a thread of its own, for a plain `fn`).
///
/// A closure in the descriptor rather than a function beside it: rustc then checks the
/// parameter types of the schema and of the extraction in one body, and reports a type that
/// is no parameter once.
pub fn invoke(tool: &Tool<'_>, private: &TokenStream, parameters: &Parameters) -> TokenStream {
    let function = &tool.function.sig.ident;
    let Parameters {
        extractions,
        values,
        ..
    } = parameters;
    let (runner, closure) = if tool.is_async() {
        let closure = quote! {
            |__mcp_call: &mut #private::ToolCall| {
                #extractions
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
                #extractions
                ::core::result::Result::Ok(move || #function(#(#values),*))
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

/// The descriptor's `output_schema`: the schema function for the declared return type
/// (`()` when there is none), spanned like the call, so a return type that is no tool
/// result is reported at the return type.
pub fn output_schema(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let output = match &tool.function.sig.output {
        ReturnType::Default => quote!(()),
        ReturnType::Type(_, ty) => quote!(#ty),
    };
    quote_spanned!(output_span(tool)=> #private::output_schema::<#output>)
}

/// Where errors about the result go: the return type, or the function's name when there
/// is none.
fn output_span(tool: &Tool<'_>) -> Span {
    match &tool.function.sig.output {
        ReturnType::Default => tool.function.sig.ident.span(),
        ReturnType::Type(_, ty) => ty.span(),
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
