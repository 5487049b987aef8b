//! The registration of a `#[mcp_prompt]`: the `PromptDescriptor`, from the shared steps
//! (`parameters`, `invoke`, `icons`, `completions`), and the guard against two prompts of
//! one name in one crate.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::completions::completions;
use super::icons::icons;
use super::invoke::{Runners, invoke};
use super::linking::dependency_check;
use super::parameters::parameters;
use super::runtime_path::runtime_path;
use super::tokens::{location, option};
use super::unique_name::unique_name_guard;
use crate::attr::Kind;
use crate::model::prompt::Prompt;

/// Prompts run through `prompt_async` and `prompt_blocking`, which take the return type's
/// `IntoPromptMessages`.
const RUNNERS: Runners = Runners {
    run_async: "prompt_async",
    run_blocking: "prompt_blocking",
};

/// The registration's items: the default functions, the unique-name guard and the
/// `inventory::submit!` of the descriptor.
pub fn registration(prompt: &Prompt<'_>) -> TokenStream {
    let krate = runtime_path(prompt.krate.as_ref());
    let private = quote!(#krate::__private);

    let name = &prompt.name;
    let title = option(prompt.title.as_deref());
    let description = option(prompt.description.as_deref());
    let icons = icons(&prompt.icons, &private);
    let parameters = parameters(&prompt.function, &private);
    let scopes = &prompt.scopes;
    let completions = completions(&prompt.completions, &private);
    let invoke = invoke(&prompt.function, &private, &parameters, &RUNNERS);
    let unique_name = unique_name_guard(Kind::Prompt, &prompt.name, prompt.name_span);
    let location = location(&private, Span::call_site());
    let default_fns = &parameters.default_fns;
    let params = &parameters.descriptors;
    let dependency_check = dependency_check(&private);

    quote! {
        // `__mcp_` names cannot clash with the user's function or parameters.
        #default_fns
        #unique_name
        #dependency_check
        #private::inventory::submit! {
            #private::PromptDescriptor {
                name: #name,
                title: #title,
                description: #description,
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
