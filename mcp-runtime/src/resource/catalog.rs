//! The resources and resource templates a server offers, prepared once at start-up: sorted
//! by URI so `resources/list` and `resources/templates/list` are stable across connections and
//! pages, checked for duplicates and for extractors that cannot be supplied, and found again
//! by the URI of a `resources/read`.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::completion::ArgumentCompletion;
use crate::content::Annotations;
use crate::context::Context;
use crate::error::Error;
use crate::icon::{Icon, icons_json};
use crate::protocol::version::ProtocolVersion;
use crate::registry::{Entry, FromEntries};
use crate::resource::contents::ResourceFuture;
use crate::resource::descriptor::ResourceDescriptor;
use crate::resource::dynamic::{DynamicResource, ReadRequest};
use crate::resource::template::UriTemplate;
use crate::tool::extract::{States, ToolCall};
use crate::tool::shape::annotations;

/// Where a resource comes from.
pub(crate) enum ResourceSource {
    /// An `#[mcp_resource]` function linked into the binary.
    Static(&'static ResourceDescriptor),
    /// A resource added at run time through a [`ResourceSet`](crate::ResourceSet).
    Dynamic(DynamicResource),
}

/// One resource or template of the catalog.
pub(crate) struct CatalogResource {
    pub source: ResourceSource,
    /// `None` for a fixed URI.
    pub template: Option<UriTemplate>,
}

impl Entry for CatalogResource {
    fn key(&self) -> &str {
        self.uri()
    }

    fn listing(&self, version: ProtocolVersion) -> Value {
        self.listing_json(version)
    }

    fn scopes(&self) -> impl Iterator<Item = &str> {
        match &self.source {
            ResourceSource::Static(descriptor) => crate::access::required(descriptor.scopes, &[]),
            ResourceSource::Dynamic(resource) => crate::access::required(&[], &resource.scopes),
        }
    }
}

impl CatalogResource {
    pub fn new(source: ResourceSource) -> Self {
        let uri = match &source {
            ResourceSource::Static(descriptor) => descriptor.uri,
            ResourceSource::Dynamic(resource) => resource.uri.as_str(),
        };
        CatalogResource {
            template: UriTemplate::parse(uri),
            source,
        }
    }

    /// The URI, or the URI template.
    pub fn uri(&self) -> &str {
        match &self.source {
            ResourceSource::Static(descriptor) => descriptor.uri,
            ResourceSource::Dynamic(resource) => &resource.uri,
        }
    }

    pub fn name(&self) -> &str {
        match &self.source {
            ResourceSource::Static(descriptor) => descriptor.name,
            ResourceSource::Dynamic(resource) => &resource.name,
        }
    }

    fn title(&self) -> Option<&str> {
        match &self.source {
            ResourceSource::Static(descriptor) => descriptor.title,
            ResourceSource::Dynamic(resource) => resource.title.as_deref(),
        }
    }

    fn description(&self) -> Option<&str> {
        match &self.source {
            ResourceSource::Static(descriptor) => descriptor.description,
            ResourceSource::Dynamic(resource) => resource.description.as_deref(),
        }
    }

    pub fn mime_type(&self) -> Option<&str> {
        match &self.source {
            ResourceSource::Static(descriptor) => descriptor.mime_type,
            ResourceSource::Dynamic(resource) => resource.mime_type.as_deref(),
        }
    }

    fn size(&self) -> Option<u64> {
        match &self.source {
            ResourceSource::Static(descriptor) => descriptor.size,
            ResourceSource::Dynamic(resource) => resource.size,
        }
    }

    /// `#[mcp(complete = f)]` on the template's variables (none for a dynamic resource).
    pub fn completions(&self) -> &[ArgumentCompletion] {
        match &self.source {
            ResourceSource::Static(descriptor) => descriptor.completions,
            ResourceSource::Dynamic(_) => &[],
        }
    }

    /// Starts reading `uri`, this resource's URI or an expansion of its template.
    pub fn read(
        &self,
        uri: &str,
        variables: Vec<(String, String)>,
        context: Context,
        states: Arc<States>,
    ) -> ResourceFuture {
        match &self.source {
            ResourceSource::Static(descriptor) => {
                let variables: Map<String, Value> = variables
                    .into_iter()
                    .map(|(name, value)| (name, Value::String(value)))
                    .collect();
                (descriptor.invoke)(ToolCall::with_text_arguments(variables, context, &states))
            }
            ResourceSource::Dynamic(resource) => {
                let request = ReadRequest::new(uri.to_owned(), variables.into_iter().collect());
                (resource.read)(request, context)
            }
        }
    }

    /// The resource's (or the template's) entry in a listing, shaped for `version`.
    fn listing_json(&self, version: ProtocolVersion) -> Value {
        let mut listing = Map::new();
        let uri_key = if self.template.is_some() {
            "uriTemplate"
        } else {
            "uri"
        };
        listing.insert(uri_key.into(), self.uri().into());
        listing.insert("name".into(), self.name().into());
        if let (true, Some(title)) = (version.has_structured_output(), self.title()) {
            listing.insert("title".into(), title.into());
        }
        if let Some(description) = self.description() {
            listing.insert("description".into(), description.into());
        }
        if let Some(mime_type) = self.mime_type() {
            listing.insert("mimeType".into(), mime_type.into());
        }
        if let (None, Some(size)) = (&self.template, self.size()) {
            listing.insert("size".into(), size.into());
        }
        let ResourceSource::Static(descriptor) = &self.source else {
            return Value::Object(listing);
        };
        let stated = &descriptor.annotations;
        let stated = Annotations {
            audience: (!stated.audience.is_empty()).then(|| stated.audience.to_vec()),
            priority: stated.priority,
            last_modified: stated.last_modified.map(str::to_owned),
        };
        if let Some(annotations) = annotations(stated, version) {
            listing.insert("annotations".into(), annotations);
        }
        if version.has_icons() {
            let icons: Vec<Icon> = descriptor.icons.iter().map(Icon::from).collect();
            if let Some(icons) = icons_json(&icons) {
                listing.insert("icons".into(), icons);
            }
        }
        Value::Object(listing)
    }
}

/// What a URI names: a resource, or a template with the values of its variables.
pub(crate) struct Found<'a> {
    pub resource: &'a CatalogResource,
    /// The template's variables and their decoded values; empty for a fixed URI.
    pub variables: Vec<(String, String)>,
}

/// The resources and templates a server offers at one moment. A
/// [`ResourceSet`](crate::ResourceSet) replaces it as a whole on every change; requests
/// already holding the old one finish with it.
#[derive(Default)]
pub(crate) struct ResourceCatalog {
    /// Fixed URIs, sorted by URI.
    resources: Vec<Arc<CatalogResource>>,
    /// Templates, sorted by their URI template.
    templates: Vec<Arc<CatalogResource>>,
    /// Indexes into `templates` in the order a URI is tried against them: the most literal
    /// text first, so `notes://{id}/raw` wins over `notes://{+path}` for `notes://1/raw`.
    match_order: Vec<usize>,
}

impl FromEntries<CatalogResource> for ResourceCatalog {
    fn from_entries(entries: Vec<Arc<CatalogResource>>) -> Self {
        let (templates, resources): (Vec<_>, Vec<_>) = entries
            .into_iter()
            .partition(|resource| resource.template.is_some());
        let mut match_order: Vec<usize> = (0..templates.len()).collect();
        match_order.sort_by_key(|&index| {
            let template = templates[index]
                .template
                .as_ref()
                .map_or(0, UriTemplate::literal_len);
            std::cmp::Reverse(template)
        });
        ResourceCatalog {
            resources,
            templates,
            match_order,
        }
    }
}

impl ResourceCatalog {
    /// Entries for every `#[mcp_resource]` linked in, refusing two of one URI (naming both
    /// definitions) and parameters the server cannot supply.
    pub fn static_resources(
        descriptors: impl IntoIterator<Item = &'static ResourceDescriptor>,
        states: &States,
    ) -> Result<Vec<Arc<CatalogResource>>, Error> {
        let mut descriptors: Vec<_> = descriptors.into_iter().collect();
        descriptors
            .sort_by_key(|resource| (resource.uri, resource.location.file, resource.location.line));
        if let Some(pair) = descriptors
            .windows(2)
            .find(|pair| pair[0].uri == pair[1].uri)
        {
            return Err(Error::DuplicateResource {
                uri: pair[0].uri.to_owned(),
                first: pair[0].location,
                second: pair[1].location,
            });
        }
        for descriptor in &descriptors {
            for param in descriptor.params {
                if let Err(problem) = (param.check)(states) {
                    return Err(Error::Unservable {
                        what: format!("resource `{}`", descriptor.uri),
                        parameter: param.name.to_owned(),
                        location: descriptor.location,
                        problem,
                    });
                }
            }
        }
        Ok(descriptors
            .into_iter()
            .map(|descriptor| Arc::new(CatalogResource::new(ResourceSource::Static(descriptor))))
            .collect())
    }

    /// The fixed resources, sorted by URI.
    pub fn resources(&self) -> &[Arc<CatalogResource>] {
        &self.resources
    }

    /// The templates, sorted by URI template.
    pub fn templates(&self) -> &[Arc<CatalogResource>] {
        &self.templates
    }

    /// The resource `uri` names: a fixed resource of that URI, else the most specific
    /// template it expands.
    pub fn find(&self, uri: &str) -> Option<Found<'_>> {
        if let Ok(index) = self
            .resources
            .binary_search_by(|resource| resource.uri().cmp(uri))
        {
            return Some(Found {
                resource: &self.resources[index],
                variables: Vec::new(),
            });
        }
        self.match_order.iter().find_map(|&index| {
            let resource = &self.templates[index];
            let variables = resource.template.as_ref()?.matches(uri)?;
            Some(Found {
                resource,
                variables,
            })
        })
    }

    /// The template of this URI template, for completions (`ref/resource`).
    pub fn template(&self, uri_template: &str) -> Option<&Arc<CatalogResource>> {
        self.templates
            .binary_search_by(|resource| resource.uri().cmp(uri_template))
            .ok()
            .map(|index| &self.templates[index])
    }

    /// Whether any template has a completion.
    pub fn has_completions(&self) -> bool {
        self.templates
            .iter()
            .any(|resource| !resource.completions().is_empty())
    }
}
