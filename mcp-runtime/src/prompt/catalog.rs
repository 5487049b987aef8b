//! The prompts a server offers: sorted by name so `prompts/list` is stable across
//! connections and pages; those linked in checked at start-up for duplicates and for
//! extractors that cannot be supplied, their arguments read from their parameters.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use crate::completion::ArgumentCompletion;
use crate::context::Context;
use crate::error::Error;
use crate::icon::{Icon, icons_json};
use crate::json_schema::generator;
use crate::prompt::descriptor::PromptDescriptor;
use crate::prompt::dynamic::DynamicPrompt;
use crate::prompt::message::PromptFuture;
use crate::protocol::version::ProtocolVersion;
use crate::registry::{Entry, FromEntries};
use crate::tool::extract::{States, ToolCall};

/// One argument of a prompt, as `prompts/list` shows it.
pub(crate) struct PromptArgument {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// Where a prompt comes from.
pub(crate) enum PromptSource {
    /// An `#[mcp_prompt]` function linked into the binary.
    Static(&'static PromptDescriptor),
    /// A prompt added at run time through a [`PromptSet`](crate::PromptSet).
    Dynamic(DynamicPrompt),
}

/// One prompt of the catalog.
pub(crate) struct CatalogPrompt {
    pub source: PromptSource,
    /// The arguments the client gives: an `#[mcp_prompt]`'s parameters that have a schema
    /// (extractors are left out), or a dynamic prompt's declared arguments.
    pub arguments: Vec<PromptArgument>,
}

impl Entry for CatalogPrompt {
    fn key(&self) -> &str {
        self.name()
    }

    fn listing(&self, version: ProtocolVersion) -> Value {
        self.listing_json(version)
    }

    fn scopes(&self) -> impl Iterator<Item = &str> {
        match &self.source {
            PromptSource::Static(descriptor) => crate::access::required(descriptor.scopes, &[]),
            PromptSource::Dynamic(prompt) => crate::access::required(&[], &prompt.scopes),
        }
    }
}

impl CatalogPrompt {
    pub fn new(source: PromptSource) -> Self {
        let arguments = match &source {
            PromptSource::Static(descriptor) => {
                let mut generator = generator(SchemaSettings::draft2020_12().for_deserialize());
                descriptor
                    .params
                    .iter()
                    .filter(|param| (param.schema)(&mut generator).is_some())
                    .map(|param| PromptArgument {
                        name: param.name.to_owned(),
                        description: param.description.map(str::to_owned),
                        required: param.required,
                    })
                    .collect()
            }
            PromptSource::Dynamic(prompt) => prompt
                .arguments
                .iter()
                .map(|argument| PromptArgument {
                    name: argument.name.clone(),
                    description: argument.description.clone(),
                    required: argument.required,
                })
                .collect(),
        };
        CatalogPrompt { source, arguments }
    }

    pub fn name(&self) -> &str {
        match &self.source {
            PromptSource::Static(descriptor) => descriptor.name,
            PromptSource::Dynamic(prompt) => &prompt.name,
        }
    }

    fn title(&self) -> Option<&str> {
        match &self.source {
            PromptSource::Static(descriptor) => descriptor.title,
            PromptSource::Dynamic(prompt) => prompt.title.as_deref(),
        }
    }

    pub fn description(&self) -> Option<&str> {
        match &self.source {
            PromptSource::Static(descriptor) => descriptor.description,
            PromptSource::Dynamic(prompt) => prompt.description.as_deref(),
        }
    }

    /// `#[mcp(complete = f)]` on the arguments (none for a dynamic prompt).
    pub fn completions(&self) -> &[ArgumentCompletion] {
        match &self.source {
            PromptSource::Static(descriptor) => descriptor.completions,
            PromptSource::Dynamic(_) => &[],
        }
    }

    /// Starts rendering the prompt with these arguments (strings, already checked against
    /// the prompt's arguments).
    pub fn render(
        &self,
        arguments: Map<String, Value>,
        context: Context,
        states: Arc<States>,
    ) -> PromptFuture {
        match &self.source {
            PromptSource::Static(descriptor) => {
                (descriptor.invoke)(ToolCall::with_text_arguments(arguments, context, &states))
            }
            PromptSource::Dynamic(prompt) => {
                let arguments: BTreeMap<String, String> = arguments
                    .into_iter()
                    .filter_map(|(name, value)| match value {
                        Value::String(text) => Some((name, text)),
                        _ => None,
                    })
                    .collect();
                (prompt.render)(arguments, context)
            }
        }
    }

    /// The prompt's entry in `prompts/list`, shaped for `version`.
    fn listing_json(&self, version: ProtocolVersion) -> Value {
        let mut listing = Map::new();
        listing.insert("name".into(), self.name().into());
        if let (true, Some(title)) = (version.has_structured_output(), self.title()) {
            listing.insert("title".into(), title.into());
        }
        if let Some(description) = self.description() {
            listing.insert("description".into(), description.into());
        }
        let arguments: Vec<Value> = self
            .arguments
            .iter()
            .map(|argument| {
                let mut json = Map::new();
                json.insert("name".into(), argument.name.clone().into());
                if let Some(description) = &argument.description {
                    json.insert("description".into(), description.clone().into());
                }
                json.insert("required".into(), argument.required.into());
                Value::Object(json)
            })
            .collect();
        if !arguments.is_empty() {
            listing.insert("arguments".into(), arguments.into());
        }
        if let (true, PromptSource::Static(descriptor)) = (version.has_icons(), &self.source) {
            let icons: Vec<Icon> = descriptor.icons.iter().map(Icon::from).collect();
            if let Some(icons) = icons_json(&icons) {
                listing.insert("icons".into(), icons);
            }
        }
        Value::Object(listing)
    }
}

/// The prompts a server offers at one moment, sorted by name. A
/// [`PromptSet`](crate::PromptSet) replaces it as a whole on every change; requests already
/// holding the old one finish with it.
#[derive(Default)]
pub(crate) struct PromptCatalog {
    prompts: Vec<Arc<CatalogPrompt>>,
}

impl FromEntries<CatalogPrompt> for PromptCatalog {
    fn from_entries(prompts: Vec<Arc<CatalogPrompt>>) -> Self {
        PromptCatalog { prompts }
    }
}

impl PromptCatalog {
    /// Entries for every `#[mcp_prompt]` linked in, refusing two of one name (naming both
    /// definitions) and parameters the server cannot supply.
    pub fn static_prompts(
        descriptors: impl IntoIterator<Item = &'static PromptDescriptor>,
        states: &States,
    ) -> Result<Vec<Arc<CatalogPrompt>>, Error> {
        let mut descriptors: Vec<_> = descriptors.into_iter().collect();
        descriptors.sort_by_key(|prompt| (prompt.name, prompt.location.file, prompt.location.line));
        if let Some(pair) = descriptors
            .windows(2)
            .find(|pair| pair[0].name == pair[1].name)
        {
            return Err(Error::DuplicatePrompt {
                name: pair[0].name.to_owned(),
                first: pair[0].location,
                second: pair[1].location,
            });
        }
        for descriptor in &descriptors {
            for param in descriptor.params {
                if let Err(problem) = (param.check)(states) {
                    return Err(Error::Unservable {
                        what: format!("prompt `{}`", descriptor.name),
                        parameter: param.name.to_owned(),
                        location: descriptor.location,
                        problem,
                    });
                }
            }
        }
        Ok(descriptors
            .into_iter()
            .map(|descriptor| Arc::new(CatalogPrompt::new(PromptSource::Static(descriptor))))
            .collect())
    }

    /// Every prompt, sorted by name.
    pub fn prompts(&self) -> &[Arc<CatalogPrompt>] {
        &self.prompts
    }

    /// The prompt called `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<CatalogPrompt>> {
        self.prompts
            .binary_search_by(|prompt| prompt.name().cmp(name))
            .ok()
            .map(|index| &self.prompts[index])
    }

    /// Whether any prompt has a completion.
    pub fn has_completions(&self) -> bool {
        self.prompts
            .iter()
            .any(|prompt| !prompt.completions().is_empty())
    }
}
