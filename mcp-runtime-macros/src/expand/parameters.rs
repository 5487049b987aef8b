//! The parameters' share of the expansion: one `ParamDescriptor` each (name, description,
//! whether required, default, schema, whether its type is decoded straight from the
//! arguments), the functions that produce the defaults, and the statements of the `invoke`
//! closure that extract each parameter from the call. A method's `&self` comes first: a
//! parameter named `self`, the value of the type the server holds.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{LitStr, Type};

use super::tokens::{option, respan, without_self};
use crate::attr::DefaultValue;
use crate::model::{Function, Param};

/// The parameters' tokens, each for its place in the expansion.
pub struct Parameters {
    /// One `fn __mcp_default_N() -> T` per parameter with a default, for the `const` block
    /// beside the descriptor.
    pub default_fns: TokenStream,
    /// `&[ParamDescriptor { ... }, ...]`, the descriptor's `params`.
    pub descriptors: TokenStream,
    /// One `let __mcp_arg_N = __mcp_call.extract...?;` per parameter (after
    /// `let __mcp_self = ...?;` for `&self`), for the body of the `invoke` closure.
    pub extractions: TokenStream,
    /// The names the extractions bind, in order: the arguments of the call of the function
    /// (after `&__mcp_self` for a method with `&self`).
    pub values: Vec<Ident>,
}

/// The name the `State<Self>` of a method's `&self` is bound to.
pub fn self_value() -> Ident {
    format_ident!("__mcp_self")
}

/// Every parameter's descriptor, default function and extraction.
pub fn parameters(function: &Function<'_>, private: &TokenStream) -> Parameters {
    // Values are bound to generated names, so a parameter named like its function cannot
    // shadow the function.
    let values: Vec<Ident> = (0..function.params.len())
        .map(|index| format_ident!("__mcp_arg_{index}"))
        .collect();
    // The name of each parameter's default function, `None` for a parameter without one.
    let defaults: Vec<Option<Ident>> = function
        .params
        .iter()
        .enumerate()
        .map(|(index, param)| param.default.as_ref().map(|_| default_fn_name(index)))
        .collect();

    let default_fns = function
        .params
        .iter()
        .zip(&defaults)
        .filter_map(|(param, name)| Some((param.ty, name.as_ref()?, param.default.as_ref()?)))
        .map(|(ty, name, default)| default_fn(function, name, ty, default));
    let descriptors = function
        .params
        .iter()
        .zip(&defaults)
        .map(|(param, default)| descriptor(function, param, default.as_ref(), private));
    let extractions = function
        .params
        .iter()
        .zip(&values)
        .zip(&defaults)
        .map(|((param, value), default)| extraction(function, param, value, default.as_ref()));
    let (receiver_descriptor, receiver_extraction) = receiver(function, private).unzip();
    let receiver_descriptor = receiver_descriptor.into_iter();

    Parameters {
        default_fns: quote!(#(#default_fns)*),
        descriptors: quote!(&[#(#receiver_descriptor,)* #(#descriptors),*]),
        extractions: quote!(#receiver_extraction #(#extractions)*),
        values,
    }
}

/// A method's `&self`: the descriptor of a parameter named `self`, served from the value of
/// the type registered with `Server::state` (checked at start-up as a `State<Self>` is), and
/// its extraction. The runtime's functions for it require the type to be shareable between
/// calls; they are spanned at `&self`, so that a type that is not is reported there.
fn receiver(function: &Function<'_>, private: &TokenStream) -> Option<(TokenStream, TokenStream)> {
    let receiver = function.receiver?;
    let self_ty = function.self_ty?;
    let span = receiver.span();
    let schema = respan(quote!(#private::self_schema::<#self_ty>), span);
    let check = respan(quote!(#private::self_check::<#self_ty>), span);
    let extract = respan(quote!(#private::extract_self::<#self_ty>), span);
    let descriptor = quote! {
        #private::ParamDescriptor {
            name: "self",
            description: ::core::option::Option::None,
            required: true,
            default: ::core::option::Option::None,
            header: ::core::option::Option::None,
            schema: #schema,
            check: #check,
            typed: #private::TypedParam::RECEIVER,
        }
    };
    let value = self_value();
    let extraction = quote! {
        let #value = #extract(__mcp_call)?;
    };
    Some((descriptor, extraction))
}

/// `__mcp_default_N`, the default function of parameter `N`: `__mcp_` names cannot clash
/// with the user's function or parameters.
fn default_fn_name(index: usize) -> Ident {
    format_ident!("__mcp_default_{index}")
}

/// The function a parameter's default comes from. One function, spanned at the parameter's
/// type, so a default of the wrong type is one error, on the expression, and the runtime
/// can evaluate the default both for the schema and for a call.
fn default_fn(
    function: &Function<'_>,
    name: &Ident,
    ty: &Type,
    default: &DefaultValue,
) -> TokenStream {
    let body = match &default.expr {
        Some(expr) => without_self(expr, function.self_ty),
        None => quote_spanned!(default.key=> ::core::default::Default::default()),
    };
    let span = ty.span();
    let ty = without_self(ty, function.self_ty);
    quote_spanned! {span=>
        fn #name() -> #ty {
            #body
        }
    }
}

/// `ParamDescriptor { ... }` for one parameter. The schema and check functions are spanned
/// at the parameter's type, so "`T` cannot be a tool parameter" underlines the user's type,
/// not the attribute.
fn descriptor(
    function: &Function<'_>,
    param: &Param<'_>,
    default: Option<&Ident>,
    private: &TokenStream,
) -> TokenStream {
    let name = &param.name;
    let description = option(param.description.as_deref());
    let header = option(param.header.as_ref().map(LitStr::value).as_deref());
    let required = param.required();
    let span = param.ty.span();
    let ty = without_self(param.ty, function.self_ty);
    let schema = quote_spanned!(span=> #private::param_schema::<#ty>);
    let check = quote_spanned!(span=> #private::param_check::<#ty>);
    let typed = quote_spanned!(span=> #private::TypedParam::of::<#ty>());
    let default = match default {
        Some(default) => quote_spanned! {span=>
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
            header: #header,
            schema: #schema,
            check: #check,
            typed: #typed,
        }
    }
}

/// `let __mcp_arg_N = ...?;`: one `extract` (or `extract_or_else` with the default
/// function), spanned at the parameter's type for the same reason as the descriptor's.
fn extraction(
    function: &Function<'_>,
    param: &Param<'_>,
    value: &Ident,
    default: Option<&Ident>,
) -> TokenStream {
    let name = &param.name;
    let span = param.ty.span();
    let ty = without_self(param.ty, function.self_ty);
    match default {
        Some(default) => quote_spanned! {span=>
            let #value = __mcp_call.extract_or_else::<#ty>(#name, #default)?;
        },
        None => quote_spanned! {span=>
            let #value = __mcp_call.extract::<#ty>(#name)?;
        },
    }
}
