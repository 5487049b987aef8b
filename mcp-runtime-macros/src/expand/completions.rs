//! The completion functions of prompt arguments and template variables:
//! `&[ArgumentCompletion { argument, complete }, ...]`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::Completion;

/// The descriptor's `completions`. Each `complete` is a closure that captures nothing, so it
/// coerces to the `fn(Completing) -> CompletionFuture` the descriptor holds; the call of
/// `complete_with` is spanned at the user's path, so a function that is no completion
/// source is reported there, with `CompletionSource`'s message.
pub fn completions(completions: &[Completion], private: &TokenStream) -> TokenStream {
    let completions = completions.iter().map(|completion| {
        let argument = &completion.argument;
        let function = &completion.function;
        let call = quote_spanned! {function.span()=>
            #private::complete_with(__mcp_request, #function)
        };
        quote! {
            #private::ArgumentCompletion {
                argument: #argument,
                complete: |__mcp_request| #call,
            }
        }
    });
    quote!(&[#(#completions),*])
}
