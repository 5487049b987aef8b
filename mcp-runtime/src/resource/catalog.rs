//! The resources and resource templates a server offers, prepared once at start-up: sorted
//! by URI so `resources/list` and `resources/templates/list` are stable across connections and
//! pages, checked for duplicates and for extractors that cannot be supplied, and found again
//! by the URI of a `resources/read`.

use serde_json::{Map, Value, json};

use crate::content::Annotations;
use crate::error::Error;
use crate::icon::{Icon, icons_json};
use crate::protocol::version::ProtocolVersion;
use crate::resource::descriptor::ResourceDescriptor;
use crate::resource::template::UriTemplate;
use crate::tool::extract::States;
use crate::tool::shape::annotations;

/// One `#[mcp_resource]`: a resource (fixed URI) or a template.
pub(crate) struct CatalogResource {
    pub descriptor: &'static ResourceDescriptor,
    /// `None` for a fixed URI.
    pub template: Option<UriTemplate>,
}

impl CatalogResource {
    fn new(descriptor: &'static ResourceDescriptor) -> Self {
        CatalogResource {
            template: UriTemplate::parse(descriptor.uri),
            descriptor,
        }
    }

    /// The resource's (or the template's) entry in a listing, shaped for `version`.
    pub fn listing(&self, version: ProtocolVersion) -> Value {
        let descriptor = self.descriptor;
        let mut listing = Map::new();
        let uri_key = if self.template.is_some() {
            "uriTemplate"
        } else {
            "uri"
        };
        listing.insert(uri_key.into(), descriptor.uri.into());
        listing.insert("name".into(), descriptor.name.into());
        if let (true, Some(title)) = (version.has_structured_output(), descriptor.title) {
            listing.insert("title".into(), title.into());
        }
        if let Some(description) = descriptor.description {
            listing.insert("description".into(), description.into());
        }
        if let Some(mime_type) = descriptor.mime_type {
            listing.insert("mimeType".into(), mime_type.into());
        }
        if let (None, Some(size)) = (&self.template, descriptor.size) {
            listing.insert("size".into(), size.into());
        }
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

/// Every `#[mcp_resource]` linked into the binary.
#[derive(Default)]
pub(crate) struct ResourceCatalog {
    /// Fixed URIs, sorted by URI.
    resources: Vec<CatalogResource>,
    /// Templates, sorted by their URI template.
    templates: Vec<CatalogResource>,
    /// Indexes into `templates` in the order a URI is tried against them: the most literal
    /// text first, so `notes://{id}/raw` wins over `notes://{+path}` for `notes://1/raw`.
    match_order: Vec<usize>,
}

impl ResourceCatalog {
    /// The catalog of these descriptors, refusing two of one URI (naming both definitions)
    /// and parameters the server cannot supply.
    pub fn new(
        descriptors: impl IntoIterator<Item = &'static ResourceDescriptor>,
        states: &States,
    ) -> Result<ResourceCatalog, Error> {
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
        let (templates, resources): (Vec<_>, Vec<_>) = descriptors
            .into_iter()
            .map(CatalogResource::new)
            .partition(|resource| resource.template.is_some());
        let mut match_order: Vec<usize> = (0..templates.len()).collect();
        match_order.sort_by_key(|&index| {
            let template = templates[index]
                .template
                .as_ref()
                .map_or(0, UriTemplate::literal_len);
            std::cmp::Reverse(template)
        });
        Ok(ResourceCatalog {
            resources,
            templates,
            match_order,
        })
    }

    /// Whether the server offers no resource and no template.
    pub fn is_empty(&self) -> bool {
        self.resources.is_empty() && self.templates.is_empty()
    }

    /// The fixed resources, sorted by URI.
    pub fn resources(&self) -> &[CatalogResource] {
        &self.resources
    }

    /// The templates, sorted by URI template.
    pub fn templates(&self) -> &[CatalogResource] {
        &self.templates
    }

    /// The resource `uri` names: a fixed resource of that URI, else the most specific
    /// template it expands.
    pub fn find(&self, uri: &str) -> Option<Found<'_>> {
        if let Ok(index) = self
            .resources
            .binary_search_by(|resource| resource.descriptor.uri.cmp(uri))
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
    pub fn template(&self, uri_template: &str) -> Option<&CatalogResource> {
        self.templates
            .binary_search_by(|resource| resource.descriptor.uri.cmp(uri_template))
            .ok()
            .map(|index| &self.templates[index])
    }

    /// Whether any template has a completion.
    pub fn has_completions(&self) -> bool {
        self.templates
            .iter()
            .any(|resource| !resource.descriptor.completions.is_empty())
    }
}

/// The `contents` item of one embedded resource, as `resources/read` returns it.
pub(crate) fn contents_json(resource: &crate::content::EmbeddedResource) -> Value {
    serde_json::to_value(resource).unwrap_or_else(|_| json!({ "uri": resource.uri }))
}
