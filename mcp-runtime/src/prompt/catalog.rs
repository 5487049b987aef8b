//! The prompts a server offers, prepared once at start-up: sorted by name so `prompts/list`
//! is stable across connections and pages, checked for duplicates and for extractors that
//! cannot be supplied; each prompt's arguments read from its parameters.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use crate::error::Error;
use crate::icon::{Icon, icons_json};
use crate::json_schema::generator;
use crate::prompt::descriptor::PromptDescriptor;
use crate::protocol::version::ProtocolVersion;
use crate::tool::extract::States;

/// One argument of a prompt, as `prompts/list` shows it.
pub(crate) struct PromptArgument {
    pub name: &'static str,
    pub description: Option<&'static str>,
    pub required: bool,
}

/// One `#[mcp_prompt]`.
pub(crate) struct CatalogPrompt {
    pub descriptor: &'static PromptDescriptor,
    /// The parameters the client gives (those with a schema); extractors are left out.
    pub arguments: Vec<PromptArgument>,
}

impl CatalogPrompt {
    fn new(descriptor: &'static PromptDescriptor) -> Self {
        let mut generator = generator(SchemaSettings::draft2020_12().for_deserialize());
        let arguments = descriptor
            .params
            .iter()
            .filter(|param| (param.schema)(&mut generator).is_some())
            .map(|param| PromptArgument {
                name: param.name,
                description: param.description,
                required: param.required,
            })
            .collect();
        CatalogPrompt {
            descriptor,
            arguments,
        }
    }

    pub fn name(&self) -> &'static str {
        self.descriptor.name
    }

    /// The prompt's entry in `prompts/list`, shaped for `version`.
    pub fn listing(&self, version: ProtocolVersion) -> Value {
        let descriptor = self.descriptor;
        let mut listing = Map::new();
        listing.insert("name".into(), descriptor.name.into());
        if let (true, Some(title)) = (version.has_structured_output(), descriptor.title) {
            listing.insert("title".into(), title.into());
        }
        if let Some(description) = descriptor.description {
            listing.insert("description".into(), description.into());
        }
        let arguments: Vec<Value> = self
            .arguments
            .iter()
            .map(|argument| {
                let mut json = Map::new();
                json.insert("name".into(), argument.name.into());
                if let Some(description) = argument.description {
                    json.insert("description".into(), description.into());
                }
                json.insert("required".into(), argument.required.into());
                Value::Object(json)
            })
            .collect();
        if !arguments.is_empty() {
            listing.insert("arguments".into(), arguments.into());
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

/// Every `#[mcp_prompt]` linked into the binary, sorted by name.
#[derive(Default)]
pub(crate) struct PromptCatalog {
    prompts: Vec<CatalogPrompt>,
}

impl PromptCatalog {
    /// The catalog of these descriptors, refusing two of one name (naming both definitions)
    /// and parameters the server cannot supply.
    pub fn new(
        descriptors: impl IntoIterator<Item = &'static PromptDescriptor>,
        states: &States,
    ) -> Result<PromptCatalog, Error> {
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
        Ok(PromptCatalog {
            prompts: descriptors.into_iter().map(CatalogPrompt::new).collect(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.prompts.is_empty()
    }

    /// Every prompt, sorted by name.
    pub fn prompts(&self) -> &[CatalogPrompt] {
        &self.prompts
    }

    /// The prompt called `name`.
    pub fn get(&self, name: &str) -> Option<&CatalogPrompt> {
        self.prompts
            .binary_search_by(|prompt| prompt.name().cmp(name))
            .ok()
            .map(|index| &self.prompts[index])
    }

    /// Whether any prompt has a completion.
    pub fn has_completions(&self) -> bool {
        self.prompts
            .iter()
            .any(|prompt| !prompt.descriptor.completions.is_empty())
    }
}
