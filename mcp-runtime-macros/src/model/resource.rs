//! The model of one `#[mcp_resource]`: its uri (fixed, or a template whose variables are
//! parameters of the function), its annotations, and the checks that bind each variable to
//! a parameter and leave every other parameter to an extractor.

use proc_macro2::Span;
use syn::{Attribute, LitStr, Signature, Type};

use super::{
    Completion, Function, Param, Place, check_signature, checked_name, completions, description,
    server_supplied,
};
use crate::attr::{Audience, Icon, Kind, Options};
use crate::errors::Errors;
use crate::uri_template::{self, Variable};

/// A resource's MIME type: the one its attribute gives, or an MCP Apps view's, which the
/// runtime names (`apps::MIME_TYPE`) so it is written in one place.
pub enum MimeType {
    Given(String),
    View,
}

/// A resource, or a resource template when its uri has variables.
pub struct Resource<'a> {
    pub function: Function<'a>,
    pub uri: String,
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<MimeType>,
    pub size: Option<u64>,
    pub audience: Vec<Audience>,
    pub priority: Option<f64>,
    pub last_modified: Option<String>,
    pub icons: Vec<Icon>,
    /// `scopes = [...]`: what a caller must hold.
    pub scopes: Vec<String>,
    /// The types of the parameters that are no variable of the uri and no extractor known
    /// by its name (`Context`, `State<T>`): the expansion checks at compile time that each
    /// is an extractor, since the client has no way to give it.
    pub extractor_checks: Vec<&'a Type>,
    pub completions: Vec<Completion>,
    /// `crate = "..."`: the runtime crate's path; `None` to find it in the `Cargo.toml`.
    pub krate: Option<syn::Path>,
}

impl<'a> Resource<'a> {
    /// Reads the resource from the function and the attribute's options, recording every
    /// problem.
    pub fn new(
        attributes: &'a [Attribute],
        signature: &'a Signature,
        options: Options,
        errors: &mut Errors,
    ) -> Resource<'a> {
        check_signature(Kind::Resource, signature, errors);
        let (name, _) = checked_name(Kind::Resource, &options, signature, errors);
        let (function, docs_description) =
            Function::new(Kind::Resource, attributes, signature, &Place::Free, errors);
        let description = description(&options, docs_description);
        // `None` when the uri is missing or invalid: its variables are then unknown, and
        // binding the parameters to them would only report the same mistake again.
        let variables = match &options.uri {
            Some(uri) => match uri_template::variables(&uri.value()) {
                Ok(variables) => Some((uri, variables)),
                Err(problem) => {
                    errors.push(syn::Error::new(uri.span(), problem));
                    None
                }
            },
            None => {
                errors.push(syn::Error::new(
                    Span::call_site(),
                    "#[mcp_resource] needs the resource's uri: `#[mcp_resource(uri = \
                     \"notes://today\")]`, or a template, `uri = \"notes://{id}\"`, whose \
                     variables are parameters of the function",
                ));
                None
            }
        };
        let mut extractor_checks = Vec::new();
        if let Some((uri, variables)) = &variables {
            bind_variables(uri, variables, &function, signature, errors);
            for param in &function.params {
                let variable = variables.iter().any(|variable| variable.name == param.name);
                check_param(param, variable, variables.is_empty(), errors);
                if !variable && server_supplied(param.ty).is_none() {
                    extractor_checks.push(param.ty);
                }
            }
            if let Some((_, span)) = options.size.filter(|_| !variables.is_empty()) {
                errors.push(syn::Error::new(
                    span,
                    "`size` is for a resource with a fixed uri: each uri of a template names \
                     a resource of its own size; remove `size`",
                ));
            }
        }
        let scopes = options.scope_names();
        let uri = options.uri.as_ref().map(LitStr::value).unwrap_or_default();
        // A `ui://` resource is an MCP Apps view, whose type the spec fixes.
        let mime_type = match &options.mime_type {
            Some(given) => Some(MimeType::Given(given.value())),
            None => uri.starts_with("ui://").then_some(MimeType::View),
        };
        Resource {
            completions: completions(&function.params),
            function,
            uri,
            name,
            title: options.title.as_ref().map(LitStr::value),
            description,
            mime_type,
            size: options.size.map(|(size, _)| size),
            audience: options.audience.unwrap_or_default(),
            priority: options.priority,
            last_modified: options.last_modified.as_ref().map(LitStr::value),
            icons: options.icons,
            scopes,
            extractor_checks,
            krate: options.krate,
        }
    }
}

/// Every variable of the uri is given to the parameter of its name; one without a parameter
/// is an error on the uri, naming the parameters there are.
fn bind_variables(
    uri: &LitStr,
    variables: &[Variable],
    function: &Function<'_>,
    signature: &Signature,
    errors: &mut Errors,
) {
    for variable in variables {
        if function
            .params
            .iter()
            .any(|param| param.name == variable.name)
        {
            continue;
        }
        let names: Vec<String> = function
            .params
            .iter()
            .map(|param| format!("`{}`", param.name))
            .collect();
        let listed = if names.is_empty() {
            "it has none".to_owned()
        } else {
            format!("its parameters are {}", names.join(", "))
        };
        let name = &variable.name;
        errors.push(syn::Error::new(
            uri.span(),
            format!(
                "the uri's variable `{name}` is no parameter of `{}` ({listed}); add a \
                 parameter `{name}: String` (or of any type its text parses into), or rename \
                 one with `#[mcp(rename = \"{name}\")]`",
                signature.ident
            ),
        ));
    }
}

/// What a parameter of a resource may not have: a default (a variable is always given, an
/// extractor is not the client's), an `Option` for a variable, a completion on anything but
/// a variable.
fn check_param(param: &Param<'_>, variable: bool, fixed: bool, errors: &mut Errors) {
    let name = &param.name;
    if let Some(default) = &param.default {
        errors.push(syn::Error::new(
            default.key,
            format!(
                "a resource's parameter cannot have a default: `{name}` is either a variable \
                 of the uri, always given when a uri matches, or an extractor the server \
                 supplies; remove `#[mcp(default ...)]`"
            ),
        ));
    }
    if variable && param.optional {
        errors.push(syn::Error::new_spanned(
            param.ty,
            format!(
                "a variable of the uri is always given when a requested uri matches the \
                 template, so `{name}` cannot be an `Option`: take the inner type"
            ),
        ));
    }
    if let Some(complete) = param.complete.as_ref().filter(|_| !variable) {
        let why = if fixed {
            "this resource's uri is fixed, so it has no variables to complete".to_owned()
        } else {
            format!("`{name}` is not a variable of the uri")
        };
        errors.push(syn::Error::new_spanned(
            complete,
            format!(
                "{why}; completions are for prompt arguments and resource template \
                 variables: remove `#[mcp(complete = ...)]`"
            ),
        ));
    }
}
