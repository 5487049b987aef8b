//! What the server enforces around a call or uses to manage the tool, rather than tells
//! clients: the `ToolPolicy` (timeout, concurrency limit, rate limit, task support) and the
//! tags; and the tool's MCP Apps view (`ToolUi`).

use proc_macro2::TokenStream;
use quote::quote;

use super::tokens::option;
use crate::attr::{Rate, RatePeriod, TaskSupport, Visibility};
use crate::model::Tool;

/// `ToolPolicy { ... }`: each limit `None` unless the attribute sets it; task support
/// `Forbidden` unless it does.
pub fn policy(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let timeout_ms = option(tool.timeout_ms);
    let max_concurrency = option(tool.max_concurrency);
    // The rate is built by the runtime's own constructor, so the macro needs to know
    // nothing of how a rate is stored.
    let rate = option(tool.rate.map(|Rate { calls, per }| {
        let constructor = match per {
            RatePeriod::Second => quote!(per_second),
            RatePeriod::Minute => quote!(per_minute),
            RatePeriod::Hour => quote!(per_hour),
        };
        quote!(#private::Rate::#constructor(#calls))
    }));
    let scopes = &tool.scopes;
    let task = match tool.task.unwrap_or(TaskSupport::Forbidden) {
        TaskSupport::Forbidden => quote!(Forbidden),
        TaskSupport::Optional => quote!(Optional),
        TaskSupport::Required => quote!(Required),
    };
    let input_before_task = tool.input_before_task;
    quote! {
        #private::ToolPolicy {
            timeout_ms: #timeout_ms,
            max_concurrency: #max_concurrency,
            rate: #rate,
            task: #private::TaskSupport::#task,
            input_before_task: #input_before_task,
            scopes: &[#(#scopes),*],
        }
    }
}

/// The tool's own layers: one function per `layer = ...`, which makes it when the server
/// builds the tool's chain. The expression is checked to be a layer where it is written.
pub fn layers(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let makers = tool.layers.iter().enumerate().map(|(index, layer)| {
        let name = quote::format_ident!("__mcp_layer_{}", index);
        let shared = quote::quote_spanned!(syn::spanned::Spanned::span(layer)=> #private::shared_layer(#layer));
        (name.clone(), quote! {
            fn #name() -> #private::SharedLayer {
                #shared
            }
        })
    });
    let (names, items): (Vec<_>, Vec<_>) = makers.unzip();
    if names.is_empty() {
        return quote!(&[]);
    }
    quote!({
        #(#items)*
        &[#(#names as fn() -> #private::SharedLayer),*]
    })
}

/// `ToolUi { ... }`: the tool's MCP Apps view and who may call it, which the runtime lists as
/// `_meta.ui`.
pub fn ui(tool: &Tool<'_>, private: &TokenStream) -> TokenStream {
    let resource_uri = option(tool.ui.as_deref());
    let visibility = match tool.visibility.unwrap_or(Visibility::ModelAndApp) {
        Visibility::ModelAndApp => quote!(ModelAndApp),
        Visibility::Model => quote!(Model),
        Visibility::App => quote!(App),
    };
    quote! {
        #private::ToolUi {
            resource_uri: #resource_uri,
            visibility: #private::Visibility::#visibility,
        }
    }
}

/// `&["admin", "files"]`: the tags, for enabling and disabling groups of tools at run time.
pub fn tags(tool: &Tool<'_>) -> TokenStream {
    let tags = &tool.tags;
    quote!(&[#(#tags),*])
}
