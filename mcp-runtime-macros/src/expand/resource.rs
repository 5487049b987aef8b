//! The registration of a `#[mcp_resource]`: the checks that its parameters other than the
//! uri's variables are extractors, and the `ResourceDescriptor`, from the shared steps
//! (`parameters`, `invoke`, `icons`, `completions`) and its own fields.

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

use super::completions::completions;
use super::icons::icons;
use super::invoke::{Runners, invoke};
use super::linking::dependency_check;
use super::parameters::parameters;
use super::runtime_path::runtime_path;
use super::tokens::{location, option, respan};
use crate::attr::Audience;
use crate::model::resource::{MimeType, Resource};

/// Resources run through `read_async` and `read_blocking`, which take the return type's
/// `IntoResourceContents`.
const RUNNERS: Runners = Runners {
    run_async: "read_async",
    run_blocking: "read_blocking",
};

/// The registration's items: one extractor check per parameter that needs one, and the
/// `inventory::submit!` of the descriptor.
pub fn registration(resource: &Resource<'_>) -> TokenStream {
    let krate = runtime_path(resource.krate.as_ref());
    let private = quote!(#krate::__private);

    let uri = &resource.uri;
    let name = &resource.name;
    let title = option(resource.title.as_deref());
    let description = option(resource.description.as_deref());
    let mime_type = match &resource.mime_type {
        Some(MimeType::Given(given)) => option(Some(given)),
        Some(MimeType::View) => option(Some(quote!(#krate::apps::MIME_TYPE))),
        None => option(None::<&str>),
    };
    let size = option(resource.size);
    let annotations = annotations(resource, &private);
    let icons = icons(&resource.icons, &private);
    let parameters = parameters(&resource.function, &private);
    let scopes = &resource.scopes;
    let completions = completions(&resource.completions, &private);
    let invoke = invoke(&resource.function, &private, &parameters, &RUNNERS);
    let location = location(&private, Span::call_site());
    let params = &parameters.descriptors;
    // Spanned at the parameter's type: the failed assertion's note points there.
    let extractor_checks = resource.extractor_checks.iter().map(|ty| {
        respan(
            quote!(const _: () = #private::require_extractor::<#ty>();),
            ty.span(),
        )
    });

    let dependency_check = dependency_check(&private);

    quote! {
        #(#extractor_checks)*
        #dependency_check
        #private::inventory::submit! {
            #private::ResourceDescriptor {
                uri: #uri,
                name: #name,
                title: #title,
                description: #description,
                mime_type: #mime_type,
                size: #size,
                annotations: #annotations,
                icons: #icons,
                params: #params,
                completions: #completions,
                scopes: &[#(#scopes),*],
                invoke: #invoke,
                location: #location,
            }
        }
    }
}

/// `ResourceAnnotations { ... }`: the audience (`&[]` when unstated), the priority and the
/// last modification, each as the attribute states it.
fn annotations(resource: &Resource<'_>, private: &TokenStream) -> TokenStream {
    let audience = resource.audience.iter().map(|role| match role {
        Audience::User => quote!(#private::Role::User),
        Audience::Assistant => quote!(#private::Role::Assistant),
    });
    let priority = option(resource.priority.map(Literal::f64_unsuffixed));
    let last_modified = option(resource.last_modified.as_deref());
    quote! {
        #private::ResourceAnnotations {
            audience: &[#(#audience),*],
            priority: #priority,
            last_modified: #last_modified,
        }
    }
}
