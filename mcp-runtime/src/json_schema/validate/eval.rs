//! Evaluating an instance against compiled nodes: errors in the order `jsonschema` gives
//! them, and — when a schema has `unevaluatedProperties` or `unevaluatedItems` — which
//! properties and items each subschema evaluated (2020-12's annotations), dropped with any
//! subschema that fails.

use serde_json::Value;

use super::compile::{Bound, Keyword, Node, NodeId};
use super::error::{self, ErrorKind, ValidationError};
use super::refs::{MAX_DEPTH, escape};
use super::types::{compare, equal, is_multiple_of};

/// Where errors go: `None` when only the verdict matters, so evaluation stops at the
/// first failure.
type Errors<'e> = Option<&'e mut Vec<ValidationError>>;

/// A subschema's verdict and what it evaluated.
pub(super) struct Outcome<'v> {
    pub valid: bool,
    properties: Vec<&'v str>,
    items: Vec<usize>,
}

impl<'v> Outcome<'v> {
    fn valid() -> Self {
        Outcome {
            valid: true,
            properties: Vec::new(),
            items: Vec::new(),
        }
    }

    fn invalid() -> Self {
        Outcome {
            valid: false,
            ..Outcome::valid()
        }
    }

    /// Takes in what a valid in-place subschema evaluated.
    fn absorb(&mut self, other: Outcome<'v>) {
        if other.valid {
            self.properties.extend(other.properties);
            self.items.extend(other.items);
        }
    }
}

/// The `properties` and `patternProperties` beside an `additionalProperties`.
type Declared<'k> = (&'k [(String, NodeId)], &'k [(regex_lite::Regex, NodeId)]);

/// One evaluation of an instance.
pub(super) struct Eval<'s> {
    nodes: &'s [Node],
    annotates: bool,
    /// The instance path of what is being evaluated, as a JSON pointer.
    path: String,
    /// The nodes being evaluated and the instance each is at: meeting one again means a
    /// `$ref` cycle that makes no progress through the instance.
    stack: Vec<(NodeId, usize)>,
}

impl<'s> Eval<'s> {
    pub fn new(nodes: &'s [Node], annotates: bool) -> Self {
        Eval {
            nodes,
            annotates,
            path: String::new(),
            stack: Vec::new(),
        }
    }

    fn fail(
        &self,
        errors: &mut Errors<'_>,
        keyword: &'static str,
        kind: ErrorKind,
        message: impl FnOnce() -> String,
    ) -> bool {
        if let Some(errors) = errors {
            errors.push(ValidationError::new(&self.path, keyword, kind, message()));
        }
        false
    }

    /// Evaluates `id` at a child of the current instance.
    fn below(&mut self, segment: &str, id: NodeId, instance: &Value, errors: Errors<'_>) -> bool {
        let length = self.path.len();
        self.path.push('/');
        self.path.push_str(&escape(segment));
        let valid = self.node(id, instance, errors).valid;
        self.path.truncate(length);
        valid
    }

    pub fn node<'v>(
        &mut self,
        id: NodeId,
        instance: &'v Value,
        mut errors: Errors<'_>,
    ) -> Outcome<'v> {
        let key = (id, std::ptr::from_ref(instance) as usize);
        if self.stack.contains(&key) {
            return Outcome::valid();
        }
        if self.stack.len() >= MAX_DEPTH {
            self.fail(&mut errors, "$ref", ErrorKind::Other, || {
                format!("the value nests deeper than {MAX_DEPTH} levels of the schema")
            });
            return Outcome::invalid();
        }
        let nodes = self.nodes;
        self.stack.push(key);
        let outcome = match &nodes[id] {
            Node::Bool(true) => Outcome::valid(),
            Node::Bool(false) => {
                self.fail(&mut errors, "falseSchema", ErrorKind::Other, || {
                    error::false_schema(instance)
                });
                Outcome::invalid()
            }
            Node::Keywords(keywords) => {
                let mut outcome = Outcome::valid();
                // Unevaluated keywords come last (compile.rs orders them so), after `$ref`,
                // whose annotations they need; their errors go where `jsonschema` puts them,
                // before the `$ref`'s.
                let mut refs_start = None;
                for keyword in keywords {
                    let before = errors.as_ref().map_or(0, |errors| errors.len());
                    if matches!(keyword, Keyword::Ref(_)) && refs_start.is_none() {
                        refs_start = Some(before);
                    }
                    if !self.keyword(keyword, instance, errors.as_deref_mut(), &mut outcome) {
                        outcome.valid = false;
                        if errors.is_none() {
                            break;
                        }
                    }
                    if let (Some(start), Some(errors), true) = (
                        refs_start,
                        errors.as_deref_mut(),
                        matches!(
                            keyword,
                            Keyword::UnevaluatedProperties(_) | Keyword::UnevaluatedItems(_)
                        ),
                    ) {
                        let added: Vec<ValidationError> = errors.drain(before..).collect();
                        let count = added.len();
                        errors.splice(start..start, added);
                        refs_start = Some(start + count);
                    }
                }
                if !outcome.valid {
                    outcome.properties.clear();
                    outcome.items.clear();
                }
                outcome
            }
        };
        self.stack.pop();
        outcome
    }

    #[allow(clippy::too_many_lines)]
    fn keyword<'v>(
        &mut self,
        keyword: &Keyword,
        instance: &'v Value,
        mut errors: Errors<'_>,
        outcome: &mut Outcome<'v>,
    ) -> bool {
        match keyword {
            Keyword::Ref(target) => {
                let inner = self.node(*target, instance, errors);
                let valid = inner.valid;
                outcome.absorb(inner);
                valid
            }
            Keyword::Type(types) => {
                types.allows(instance)
                    || self.fail(&mut errors, "type", ErrorKind::Other, || {
                        error::type_error(instance, *types)
                    })
            }
            Keyword::Enum(options) => {
                options.iter().any(|option| equal(option, instance))
                    || self.fail(&mut errors, "enum", ErrorKind::Other, || {
                        error::enum_error(instance, options)
                    })
            }
            Keyword::Const(expected) => {
                equal(expected, instance)
                    || self.fail(&mut errors, "const", ErrorKind::Other, || {
                        error::const_error(expected)
                    })
            }
            Keyword::MultipleOf(multiple) => {
                let Value::Number(number) = instance else {
                    return true;
                };
                is_multiple_of(number, multiple)
                    || self.fail(&mut errors, "multipleOf", ErrorKind::Other, || {
                        error::multiple_of(instance, multiple.as_f64().unwrap_or(f64::NAN))
                    })
            }
            Keyword::Bound(bound, limit) => {
                let (Value::Number(number), Value::Number(limit_number)) = (instance, limit) else {
                    return true;
                };
                let Some(order) = compare(number, limit_number) else {
                    return true;
                };
                use std::cmp::Ordering::{Greater, Less};
                let (valid, name, message): (bool, _, fn(&Value, &Value) -> String) = match bound {
                    Bound::Minimum => (order != Less, "minimum", error::minimum),
                    Bound::Maximum => (order != Greater, "maximum", error::maximum),
                    Bound::ExclusiveMinimum => (
                        order == Greater,
                        "exclusiveMinimum",
                        error::exclusive_minimum,
                    ),
                    Bound::ExclusiveMaximum => {
                        (order == Less, "exclusiveMaximum", error::exclusive_maximum)
                    }
                };
                valid
                    || self.fail(&mut errors, name, ErrorKind::Other, || {
                        message(instance, limit)
                    })
            }
            Keyword::MinLength(limit) => {
                let Value::String(text) = instance else {
                    return true;
                };
                text.chars().count() as u64 >= *limit
                    || self.fail(&mut errors, "minLength", ErrorKind::Other, || {
                        error::min_length(instance, *limit)
                    })
            }
            Keyword::MaxLength(limit) => {
                let Value::String(text) = instance else {
                    return true;
                };
                text.chars().count() as u64 <= *limit
                    || self.fail(&mut errors, "maxLength", ErrorKind::Other, || {
                        error::max_length(instance, *limit)
                    })
            }
            Keyword::Pattern(regex, pattern) => {
                let Value::String(text) = instance else {
                    return true;
                };
                regex.is_match(text)
                    || self.fail(&mut errors, "pattern", ErrorKind::Other, || {
                        error::pattern(instance, pattern)
                    })
            }
            Keyword::MinItems(limit) => {
                let Value::Array(items) = instance else {
                    return true;
                };
                items.len() as u64 >= *limit
                    || self.fail(&mut errors, "minItems", ErrorKind::Other, || {
                        error::min_items(instance, *limit)
                    })
            }
            Keyword::MaxItems(limit) => {
                let Value::Array(items) = instance else {
                    return true;
                };
                items.len() as u64 <= *limit
                    || self.fail(&mut errors, "maxItems", ErrorKind::Other, || {
                        error::max_items(instance, *limit)
                    })
            }
            Keyword::UniqueItems => {
                let Value::Array(items) = instance else {
                    return true;
                };
                let unique = items
                    .iter()
                    .enumerate()
                    .all(|(at, item)| !items[at + 1..].iter().any(|other| equal(item, other)));
                unique
                    || self.fail(&mut errors, "uniqueItems", ErrorKind::Other, || {
                        error::unique_items(instance)
                    })
            }
            Keyword::PrefixItems(schemas) => {
                let Value::Array(items) = instance else {
                    return true;
                };
                let mut valid = true;
                for (at, (item, id)) in items.iter().zip(schemas).enumerate() {
                    outcome.items.push(at);
                    if !self.below(&at.to_string(), *id, item, errors.as_deref_mut()) {
                        valid = false;
                        if errors.is_none() {
                            break;
                        }
                    }
                }
                valid
            }
            Keyword::Items { skip, schema } => {
                let Value::Array(items) = instance else {
                    return true;
                };
                let mut valid = true;
                for (at, item) in items.iter().enumerate().skip(*skip) {
                    outcome.items.push(at);
                    if !self.below(&at.to_string(), *schema, item, errors.as_deref_mut()) {
                        valid = false;
                        if errors.is_none() {
                            break;
                        }
                    }
                }
                valid
            }
            Keyword::Contains { schema, min, max } => {
                let Value::Array(items) = instance else {
                    return true;
                };
                let mut matched = 0u64;
                for (at, item) in items.iter().enumerate() {
                    if self.below(&at.to_string(), *schema, item, None) {
                        matched += 1;
                        outcome.items.push(at);
                    }
                }
                (matched >= *min && max.is_none_or(|max| matched <= max))
                    || self.fail(&mut errors, "contains", ErrorKind::Other, || {
                        error::contains(instance)
                    })
            }
            Keyword::MinProperties(limit) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                object.len() as u64 >= *limit
                    || self.fail(&mut errors, "minProperties", ErrorKind::Other, || {
                        error::min_properties(instance, *limit)
                    })
            }
            Keyword::MaxProperties(limit) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                object.len() as u64 <= *limit
                    || self.fail(&mut errors, "maxProperties", ErrorKind::Other, || {
                        error::max_properties(instance, *limit)
                    })
            }
            Keyword::Required(names) => self.required(names, instance, errors),
            Keyword::DependentRequired(dependencies) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                let mut valid = true;
                for (name, required) in dependencies {
                    if object.contains_key(name)
                        && !self.required(required, instance, errors.as_deref_mut())
                    {
                        valid = false;
                        if errors.is_none() {
                            break;
                        }
                    }
                }
                valid
            }
            Keyword::Properties(properties) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                let mut valid = true;
                for (name, id) in properties {
                    let Some((key, value)) = object.get_key_value(name) else {
                        continue;
                    };
                    outcome.properties.push(key);
                    if !self.below(key, *id, value, errors.as_deref_mut()) {
                        valid = false;
                        if errors.is_none() {
                            break;
                        }
                    }
                }
                valid
            }
            Keyword::PatternProperties(patterns) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                let mut valid = true;
                for (key, value) in object {
                    for (regex, id) in patterns {
                        if regex.is_match(key) {
                            outcome.properties.push(key);
                            if !self.below(key, *id, value, errors.as_deref_mut()) {
                                valid = false;
                                if errors.is_none() {
                                    return false;
                                }
                            }
                        }
                    }
                }
                valid
            }
            Keyword::AdditionalProperties {
                properties,
                patterns,
                schema,
                forbids,
                declares,
                required,
            } => {
                let declared = (*declares).then_some((properties.as_slice(), patterns.as_slice()));
                let valid = self.additional(
                    instance,
                    declared,
                    *schema,
                    *forbids,
                    errors.as_deref_mut(),
                    outcome,
                );
                // Checked after the walk, where `jsonschema` reports it.
                let has_required = required
                    .as_ref()
                    .is_none_or(|name| self.required(std::slice::from_ref(name), instance, errors));
                valid && has_required
            }
            Keyword::PropertyNames(id) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                if matches!(self.nodes[*id], Node::Bool(false)) {
                    // `jsonschema` names the object, once, for `propertyNames: false`.
                    return object.is_empty()
                        || self.fail(&mut errors, "falseSchema", ErrorKind::Other, || {
                            error::false_schema(instance)
                        });
                }
                let mut valid = true;
                for key in object.keys() {
                    let name = Value::String(key.clone());
                    let mut inner = Vec::new();
                    let sink = errors.is_some().then_some(&mut inner);
                    if !self.node(*id, &name, sink).valid {
                        valid = false;
                        match (&mut errors, inner.into_iter().next()) {
                            (Some(errors), Some(first)) => errors.push(ValidationError::new(
                                &self.path,
                                "propertyNames",
                                ErrorKind::Other,
                                first.to_string(),
                            )),
                            (None, _) => return false,
                            _ => {}
                        }
                    }
                }
                valid
            }
            Keyword::DependentSchemas(dependencies) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                let mut valid = true;
                for (name, id) in dependencies {
                    if object.contains_key(name) {
                        let inner = self.node(*id, instance, errors.as_deref_mut());
                        if !inner.valid {
                            valid = false;
                            if errors.is_none() {
                                break;
                            }
                        }
                        outcome.absorb(inner);
                    }
                }
                valid
            }
            Keyword::AllOf(schemas) => {
                let mut valid = true;
                for id in schemas {
                    let inner = self.node(*id, instance, errors.as_deref_mut());
                    if !inner.valid {
                        valid = false;
                        if errors.is_none() {
                            break;
                        }
                    }
                    outcome.absorb(inner);
                }
                valid
            }
            Keyword::AnyOf(schemas) => {
                let mut valid = false;
                for id in schemas {
                    let inner = self.node(*id, instance, None);
                    valid |= inner.valid;
                    outcome.absorb(inner);
                    if valid && !self.annotates {
                        break;
                    }
                }
                valid
                    || self.fail(&mut errors, "anyOf", ErrorKind::Other, || {
                        error::any_of(instance)
                    })
            }
            Keyword::OneOf(schemas) => {
                let mut passed = Vec::new();
                for id in schemas {
                    let inner = self.node(*id, instance, None);
                    if inner.valid {
                        passed.push(inner);
                        if passed.len() > 1 {
                            break;
                        }
                    }
                }
                match passed.len() {
                    1 => {
                        outcome.absorb(passed.remove(0));
                        true
                    }
                    0 => self.fail(&mut errors, "oneOf", ErrorKind::Other, || {
                        error::one_of_none(instance)
                    }),
                    _ => self.fail(&mut errors, "oneOf", ErrorKind::Other, || {
                        error::one_of_many(instance)
                    }),
                }
            }
            Keyword::Not(id, schema) => {
                !self.node(*id, instance, None).valid
                    || self.fail(&mut errors, "not", ErrorKind::Other, || {
                        error::not(schema, instance)
                    })
            }
            Keyword::If {
                condition,
                then,
                otherwise,
            } => {
                let test = self.node(*condition, instance, None);
                let branch = if test.valid { then } else { otherwise };
                outcome.absorb(test);
                let Some(branch) = branch else {
                    return true;
                };
                let inner = self.node(*branch, instance, errors);
                let valid = inner.valid;
                outcome.absorb(inner);
                valid
            }
            Keyword::EvaluatesAllProperties => {
                if let Value::Object(object) = instance {
                    outcome.properties.extend(object.keys().map(String::as_str));
                }
                true
            }
            Keyword::UnevaluatedProperties(id) => {
                let Value::Object(object) = instance else {
                    return true;
                };
                let mut unexpected = Vec::new();
                let mut evaluated = Vec::new();
                for (key, value) in object {
                    if outcome.properties.contains(&key.as_str()) {
                        continue;
                    }
                    if self.below(key, *id, value, None) {
                        evaluated.push(key.as_str());
                    } else {
                        unexpected.push(key.clone());
                    }
                }
                outcome.properties.extend(evaluated);
                unexpected.is_empty()
                    || self.fail(
                        &mut errors,
                        "unevaluatedProperties",
                        ErrorKind::UnevaluatedProperties(unexpected.clone()),
                        || error::unexpected("Unevaluated properties", &unexpected),
                    )
            }
            Keyword::UnevaluatedItems(id) => {
                let Value::Array(items) = instance else {
                    return true;
                };
                let mut unexpected = Vec::new();
                let mut evaluated = Vec::new();
                for (at, item) in items.iter().enumerate() {
                    if outcome.items.contains(&at) {
                        continue;
                    }
                    if self.below(&at.to_string(), *id, item, None) {
                        evaluated.push(at);
                    } else {
                        unexpected.push(item.to_string());
                    }
                }
                outcome.items.extend(evaluated);
                unexpected.is_empty()
                    || self.fail(&mut errors, "unevaluatedItems", ErrorKind::Other, || {
                        error::unexpected("Unevaluated items", &unexpected)
                    })
            }
        }
    }

    fn required(&self, names: &[String], instance: &Value, mut errors: Errors<'_>) -> bool {
        let Value::Object(object) = instance else {
            return true;
        };
        let mut valid = true;
        for name in names {
            if !object.contains_key(name) {
                valid = self.fail(
                    &mut errors,
                    "required",
                    ErrorKind::Required(name.clone()),
                    || error::required(name),
                );
                if errors.is_none() {
                    break;
                }
            }
        }
        valid
    }

    /// `additionalProperties`, with the `properties` and `patternProperties` beside it.
    fn additional<'v>(
        &mut self,
        instance: &'v Value,
        declared: Option<Declared<'_>>,
        schema: NodeId,
        forbids: bool,
        mut errors: Errors<'_>,
        outcome: &mut Outcome<'v>,
    ) -> bool {
        let Value::Object(object) = instance else {
            return true;
        };
        if forbids && declared.is_none() {
            // `jsonschema` reports a closed object with nothing declared as its first value
            // meeting the `false` schema.
            return match object.values().next() {
                None => true,
                Some(first) => self.fail(&mut errors, "falseSchema", ErrorKind::Other, || {
                    error::false_schema(first)
                }),
            };
        }
        let (properties, patterns) = declared.unwrap_or((&[], &[]));
        let mut valid = true;
        let mut unexpected = Vec::new();
        for (key, value) in object {
            outcome.properties.push(key);
            let mut declared = false;
            if let Some((_, id)) = properties.iter().find(|(name, _)| name == key) {
                declared = true;
                valid &= self.below(key, *id, value, errors.as_deref_mut());
            }
            for (regex, id) in patterns {
                if regex.is_match(key) {
                    declared = true;
                    valid &= self.below(key, *id, value, errors.as_deref_mut());
                }
            }
            if !declared {
                if forbids {
                    unexpected.push(key.clone());
                    valid = false;
                } else {
                    valid &= self.below(key, schema, value, errors.as_deref_mut());
                }
            }
            if !valid && errors.is_none() {
                return false;
            }
        }
        if !unexpected.is_empty() {
            self.fail(
                &mut errors,
                "additionalProperties",
                ErrorKind::AdditionalProperties(unexpected.clone()),
                || error::unexpected("Additional properties", &unexpected),
            );
        }
        valid
    }
}
