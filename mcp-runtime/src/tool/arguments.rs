//! A call's `arguments`, decoded for its tool: the protocol layer hands them over as the
//! JSON text sent, and the tool's own shape says how they are read.
//!
//! The general path parses them into a `serde_json::Map`, drops the `null`s of optional
//! parameters, checks the map against the tool's `inputSchema` (`json_schema::validate`), then
//! decodes each parameter from its member. A tool whose every argument is of a type whose
//! serde decoding accepts exactly what its generated schema accepts — text, booleans,
//! numbers, and lists and options of them ([`kind_of_type`]) — has its arguments decoded
//! straight into those types instead: no `Value` is built, and a value they decode is one
//! the schema check would have let through and the extraction would have decoded the same.
//! Anything that decoding does not take (a member no parameter has, a repeated member, a
//! missing required argument, a value of the wrong type) is refused, not judged: the
//! general path then decodes the same text, so every refusal and its message stay its own.
//! A tool with an argument of any other type, or an extractor of the user's (which may read
//! the arguments itself), keeps the general path; so does a tool behind a layer, which sees
//! the arguments as a map.

use std::any::{Any, TypeId};
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::json_schema::{WithinBounds, within_bounds};
use crate::protocol::jsonrpc::{Arguments, RpcError};

/// The most parameters a tool may have to take the typed path.
const MAX_PARAMS: usize = 16;

/// A type arguments are decoded into here: a scalar, a list of them, and either in an
/// `Option`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedKind {
    scalar: Scalar,
    list: bool,
    /// An `Option`: it decodes `null`.
    nullable: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scalar {
    String,
    Bool,
    I8,
    I16,
    I32,
    I64,
    Isize,
    U8,
    U16,
    U32,
    U64,
    Usize,
    F32,
    F64,
}

/// Runs `$each!` on the scalar types, each with its `Scalar`.
macro_rules! for_each_scalar {
    ($each:ident) => {
        $each! {
            String => String, bool => Bool, i8 => I8, i16 => I16, i32 => I32, i64 => I64,
            isize => Isize, u8 => U8, u16 => U16, u32 => U32, u64 => U64, usize => Usize,
            f32 => F32, f64 => F64
        }
    };
}

/// The kind of argument type `T`, if it is one decoded here: its serde decoding from JSON
/// accepts exactly the values its generated schema accepts (with `Option`'s `null` dropped
/// as for any optional argument). Not `Vec<Option<_>>`: an item's `null` is refused by the
/// schema.
pub(crate) fn kind_of_type<T: 'static>() -> Option<TypedKind> {
    macro_rules! known {
        ($($ty:ty => $scalar:ident),*) => {
            [$(
                (TypeId::of::<$ty>(), Scalar::$scalar, false, false),
                (TypeId::of::<Vec<$ty>>(), Scalar::$scalar, true, false),
                (TypeId::of::<Option<$ty>>(), Scalar::$scalar, false, true),
                (TypeId::of::<Option<Vec<$ty>>>(), Scalar::$scalar, true, true),
            )*]
        };
    }
    let id = TypeId::of::<T>();
    for_each_scalar!(known)
        .into_iter()
        .find(|(known, ..)| *known == id)
        .map(|(_, scalar, list, nullable)| TypedKind {
            scalar,
            list,
            nullable,
        })
}

/// A tool's parameters as typed decoding sees them, worked out once per tool.
pub(crate) struct ArgumentShape {
    names: Box<[&'static str]>,
    /// Each parameter's type; `None` for one the runtime supplies (never an argument).
    kinds: Box<[Option<TypedKind>]>,
    /// The required arguments, by index.
    required: u16,
}

impl ArgumentShape {
    /// The shape of these parameters (name, kind, whether required), if they allow typed
    /// decoding: none that is required decodes `null` (its schema refuses it), and there
    /// are at most [`MAX_PARAMS`].
    pub fn new(
        params: impl ExactSizeIterator<Item = (&'static str, Option<TypedKind>, bool)>,
    ) -> Option<ArgumentShape> {
        if params.len() > MAX_PARAMS {
            return None;
        }
        let (mut names, mut kinds, mut required) = (Vec::new(), Vec::new(), 0_u16);
        for (index, (name, kind, is_required)) in params.enumerate() {
            if let Some(kind) = kind {
                if is_required && kind.nullable {
                    return None;
                }
                if is_required {
                    required |= 1 << index;
                }
            }
            names.push(name);
            kinds.push(kind);
        }
        Some(ArgumentShape {
            names: names.into(),
            kinds: kinds.into(),
            required,
        })
    }
}

impl fmt::Debug for ArgumentShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArgumentShape")
            .field("names", &self.names)
            .finish_non_exhaustive()
    }
}

/// A decoded argument, of its parameter's type, held as it is (no allocation of its own):
/// which scalar, and in which form.
macro_rules! decoded_enum {
    ($($ty:ty => $scalar:ident),*) => {
        #[derive(Debug)]
        enum Decoded {
            $($scalar(Form<$ty>),)*
        }

        impl Decoded {
            /// The value as a `T`, or itself back if it is not one.
            fn into_type<T: 'static>(self) -> Result<T, Decoded> {
                match self {
                    $(Decoded::$scalar(form) => form.into_type().map_err(Decoded::$scalar),)*
                }
            }
        }
    };
}
for_each_scalar!(decoded_enum);

/// The forms a parameter of scalar type `X` takes.
#[derive(Debug)]
enum Form<X> {
    Plain(X),
    List(Vec<X>),
    Optional(Option<X>),
    OptionalList(Option<Vec<X>>),
}

impl<X: 'static> Form<X> {
    /// The value as a `T`, or itself back if it is not one.
    fn into_type<T: 'static>(self) -> Result<T, Form<X>> {
        match self {
            Form::Plain(value) => cast(value).map_err(Form::Plain),
            Form::List(value) => cast(value).map_err(Form::List),
            Form::Optional(value) => cast(value).map_err(Form::Optional),
            Form::OptionalList(value) => cast(value).map_err(Form::OptionalList),
        }
    }
}

/// `value` as a `T`, if it is one (a type check, no conversion), or back.
fn cast<V: 'static, T: 'static>(value: V) -> Result<T, V> {
    let mut value = Some(value);
    match (&mut value as &mut dyn Any).downcast_mut::<Option<T>>() {
        Some(same) => Ok(same.take().expect("the value was just put there")),
        None => Err(value.expect("the value was not taken")),
    }
}

/// A call's arguments, decoded into its tool's parameters: one slot per parameter, in their
/// order, empty where the client left it out and for every supplied parameter.
pub(crate) struct TypedArguments {
    slots: Box<[Option<Decoded>]>,
}

impl TypedArguments {
    /// Takes the value of the parameter at `index` (`None` if the client left it out).
    pub fn take<T: 'static>(&mut self, index: usize) -> Option<T> {
        let slot = self.slots.get_mut(index)?;
        match slot.take()?.into_type::<T>() {
            Ok(value) => Some(value),
            Err(other) => {
                // Not the parameter's type: put it back for whoever asks with it.
                *slot = Some(other);
                None
            }
        }
    }
}

impl fmt::Debug for TypedArguments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedArguments").finish_non_exhaustive()
    }
}

impl ArgumentShape {
    /// The arguments decoded into the parameters; `None` if the general path must judge
    /// them: not an object, a member no argument has, a repeated member, a value its
    /// parameter does not decode, or a required argument missing.
    fn decode(&self, raw: &RawValue) -> Option<TypedArguments> {
        let mut text = serde_json::Deserializer::from_str(raw.get());
        let slots = text.deserialize_map(Members(self)).ok()?;
        Some(TypedArguments { slots })
    }
}

/// The arguments object, each member decoded into its parameter's slot.
struct Members<'s>(&'s ArgumentShape);

impl<'de> Visitor<'de> for Members<'_> {
    type Value = Box<[Option<Decoded>]>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an arguments object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let shape = self.0;
        let mut slots: Box<[Option<Decoded>]> = shape.names.iter().map(|_| None).collect();
        let mut given = 0_u16;
        while let Some(index) = map.next_key_seed(ParamIndex(&shape.names))? {
            if given & (1 << index) != 0 {
                return Err(de::Error::custom("a repeated member"));
            }
            given |= 1 << index;
            // A member named like a parameter the runtime supplies is for the general
            // path to judge.
            let kind =
                shape.kinds[index].ok_or_else(|| de::Error::custom("a supplied parameter"))?;
            let required = shape.required & (1 << index) != 0;
            slots[index] = map.next_value_seed(ParamValue { kind, required })?;
        }
        if shape.required & !given != 0 {
            return Err(de::Error::custom("a required argument is missing"));
        }
        Ok(slots)
    }
}

/// A member name, as the index of the parameter it names.
struct ParamIndex<'s>(&'s [&'static str]);

impl<'de> DeserializeSeed<'de> for ParamIndex<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for ParamIndex<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a parameter's name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|param| *param == name)
            .ok_or_else(|| E::custom("a member no parameter has"))
    }
}

/// A member's value, decoded by its parameter's type.
struct ParamValue {
    kind: TypedKind,
    required: bool,
}

impl<'de> DeserializeSeed<'de> for ParamValue {
    /// `None` for `null` given to an argument that is not required, which means "absent"
    /// as in the general path (its default, or `None`).
    type Value = Option<Decoded>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let ParamValue { kind, required } = self;
        macro_rules! decode {
            ($($ty:ty => $scalar:ident),*) => {
                match (kind.scalar, kind.list) {
                    $(
                        (Scalar::$scalar, false) => Ok(decode::<$ty, D>(deserializer, required, kind.nullable)?
                            .map(|value| Decoded::$scalar(value.either(Form::Plain, Form::Optional)))),
                        (Scalar::$scalar, true) => Ok(decode::<Vec<$ty>, D>(deserializer, required, kind.nullable)?
                            .map(|value| Decoded::$scalar(value.either(Form::List, Form::OptionalList)))),
                    )*
                }
            };
        }
        for_each_scalar!(decode)
    }
}

/// A member decoded as an `X`, as the parameter's type: `X`, or `Option<X>` if `nullable`.
/// A required argument is never nullable (see [`ArgumentShape::new`]). A value beyond the
/// published bounds is refused, as the schema check would.
fn decode<'de, X, D>(
    deserializer: D,
    required: bool,
    nullable: bool,
) -> Result<Option<AsParameter<X>>, D::Error>
where
    X: Deserialize<'de> + WithinBounds,
    D: Deserializer<'de>,
{
    if required {
        let value = within_bounds(X::deserialize(deserializer)?)?;
        return Ok(Some(AsParameter::Plain(value)));
    }
    let value = Option::<X>::deserialize(deserializer)?;
    Ok(match value.map(within_bounds).transpose()? {
        None => None,
        Some(value) if nullable => Some(AsParameter::Optional(value)),
        Some(value) => Some(AsParameter::Plain(value)),
    })
}

/// A decoded value, and whether its parameter is an `Option` of it.
enum AsParameter<X> {
    Plain(X),
    Optional(X),
}

impl<X> AsParameter<X> {
    fn either<F>(self, plain: impl FnOnce(X) -> F, optional: impl FnOnce(Option<X>) -> F) -> F {
        match self {
            AsParameter::Plain(value) => plain(value),
            AsParameter::Optional(value) => optional(Some(value)),
        }
    }
}

/// How a parameter's type takes part in typed decoding.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgumentKind {
    /// An argument whose decoding matches its schema.
    Typed(TypedKind),
    /// A value the runtime supplies (`Context`, `State<T>`, ...): never in the arguments.
    Supplied,
    /// Anything else: an argument of another type, or an extractor of the user's. Its tool
    /// takes the general path.
    Other,
}

/// A call's arguments as its tool takes them: a map, checked against the input schema, or
/// decoded straight into the tool's parameters.
pub(crate) enum ToolArguments {
    Map(Map<String, Value>),
    Typed(TypedArguments),
}

impl From<Map<String, Value>> for ToolArguments {
    fn from(arguments: Map<String, Value>) -> Self {
        ToolArguments::Map(arguments)
    }
}

impl ToolArguments {
    /// Decodes a call's `arguments` (absent, or as sent) for a tool of this shape (`None`:
    /// the general path): straight into its parameters when they take them, else as a map,
    /// which the caller checks against the tool's schema. Refused only when they are not
    /// an object (or `null`).
    #[inline]
    pub fn decode(
        shape: Option<&ArgumentShape>,
        arguments: Option<Arguments<'_>>,
    ) -> Result<ToolArguments, RpcError> {
        let value = match arguments {
            None => Value::Null,
            Some(Arguments::Raw(raw)) => {
                if let Some(typed) = shape.and_then(|shape| shape.decode(raw)) {
                    return Ok(ToolArguments::Typed(typed));
                }
                // Checked as a `Value` when decoded, so it parses (and what did not would
                // be no object either).
                serde_json::from_str(raw.get()).unwrap_or(Value::Bool(false))
            }
            Some(Arguments::Value(value)) => value,
        };
        match value {
            Value::Null => Ok(ToolArguments::Map(Map::new())),
            Value::Object(arguments) => Ok(ToolArguments::Map(arguments)),
            _ => Err(RpcError::invalid_params(
                "Invalid params: `arguments` must be an object.",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(shape: &ArgumentShape, json: &str) -> Option<TypedArguments> {
        let raw: Box<RawValue> = serde_json::from_str(json).expect("JSON");
        shape.decode(&raw)
    }

    #[test]
    fn only_types_whose_decoding_matches_their_schema_are_typed() {
        let kind = |scalar, list, nullable| {
            Some(TypedKind {
                scalar,
                list,
                nullable,
            })
        };
        assert_eq!(kind_of_type::<String>(), kind(Scalar::String, false, false));
        assert_eq!(kind_of_type::<Vec<u8>>(), kind(Scalar::U8, true, false));
        assert_eq!(
            kind_of_type::<Option<Vec<f64>>>(),
            kind(Scalar::F64, true, true)
        );
        assert_eq!(kind_of_type::<char>(), None);
        assert_eq!(kind_of_type::<Vec<Option<String>>>(), None);
        assert_eq!(kind_of_type::<serde_json::Value>(), None);
    }

    #[test]
    fn a_shape_refuses_a_required_option_and_too_many_parameters() {
        let optional = kind_of_type::<Option<String>>();
        assert!(ArgumentShape::new([("s", optional, true)].into_iter()).is_none());
        assert!(ArgumentShape::new([("s", optional, false)].into_iter()).is_some());
        let many = (0..MAX_PARAMS + 1).map(|_| ("n", kind_of_type::<i64>(), false));
        assert!(ArgumentShape::new(many).is_none());
    }

    #[test]
    fn arguments_land_in_their_slots_and_anything_else_is_refused() {
        let shape = ArgumentShape::new(
            [
                ("n", kind_of_type::<u8>(), true),
                ("context", None, true),
                ("tags", kind_of_type::<Option<Vec<String>>>(), false),
                ("limit", kind_of_type::<u32>(), false),
            ]
            .into_iter(),
        )
        .expect("a typed shape");
        let mut arguments = decode(&shape, r#"{"tags":["a"],"n":7,"limit":null}"#).expect("typed");
        assert_eq!(arguments.take::<u8>(0), Some(7));
        assert_eq!(arguments.take::<u8>(0), None, "taken once");
        assert_eq!(arguments.take::<u32>(3), None, "`null` is absent");
        assert_eq!(arguments.take::<u32>(2), None, "not the parameter's type");
        assert_eq!(
            arguments.take::<Option<Vec<String>>>(2),
            Some(Some(vec!["a".to_owned()]))
        );
        for refused in [
            r#"{"n":256}"#,
            r#"{"n":1.0}"#,
            r#"{"n":null}"#,
            r#"{"limit":1}"#,
            r#"{"n":1,"n":2}"#,
            r#"{"n":1,"other":2}"#,
            r#"{"n":1,"context":{}}"#,
            r#"{"n":1,"tags":[null]}"#,
            r#"[1]"#,
            r#"null"#,
        ] {
            assert!(decode(&shape, refused).is_none(), "{refused}");
        }
    }

    /// The general path for one parameter `v` of type `T`: `null` dropped when it is
    /// optional, the object checked against the schema the tool would publish, then `v`
    /// decoded from its member. `Some(None)` when accepted and absent.
    fn general<T: serde::de::DeserializeOwned + schemars::JsonSchema>(
        required: bool,
        arguments: &Value,
    ) -> Option<Option<T>> {
        use schemars::transform::Transform;
        let mut generator = crate::json_schema::generator(
            schemars::generate::SchemaSettings::draft2020_12().for_deserialize(),
        );
        let mut schema = generator.subschema_for::<T>();
        crate::json_schema::RemoveNull.transform(&mut schema);
        crate::json_schema::IntegerBounds.transform(&mut schema);
        let required: Vec<&str> = if required { vec!["v"] } else { vec![] };
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"v": schema.to_value()},
            "required": required,
            "additionalProperties": false,
        });
        let mut arguments = arguments.as_object()?.clone();
        if required.is_empty() && arguments.get("v").is_some_and(Value::is_null) {
            arguments.remove("v");
        }
        let arguments = Value::Object(arguments);
        if !crate::json_schema::validate::Schema::compile(&schema)
            .ok()?
            .is_valid(&arguments)
        {
            return None;
        }
        match arguments.get("v") {
            None => Some(None),
            Some(value) => serde_json::from_value(value.clone()).ok().map(Some),
        }
    }

    /// Every value typed decoding takes for a parameter of type `T` (required or not) is
    /// one the general path takes too, decoded to the same value; what it refuses goes the
    /// general way. Returns how many it took.
    fn typed_agrees_with_general<T>(required: bool) -> usize
    where
        T: serde::de::DeserializeOwned + schemars::JsonSchema + PartialEq + fmt::Debug + 'static,
    {
        let shape = ArgumentShape::new([("v", kind_of_type::<T>(), required)].into_iter())
            .expect("a typed shape");
        let values = [
            "null",
            "true",
            "false",
            "0",
            "1",
            "-1",
            "5.0",
            "5e0",
            "1.5",
            "-0.5",
            "127",
            "128",
            "-129",
            "255",
            "256",
            "65536",
            "4294967296",
            "-2147483649",
            "9223372036854775807",
            "9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "1e38",
            "1e39",
            "3.4e38",
            "1.7976931348623157e308",
            "\"\"",
            "\"a\"",
            "\"\\u00e9\"",
            "\"5\"",
            "\"true\"",
            "[]",
            "[1,2]",
            "[\"a\"]",
            "[null]",
            "[1,\"a\"]",
            "[[1]]",
            "{}",
            "{\"a\":1}",
        ];
        let mut taken = 0;
        let mut lines: Vec<String> = values.iter().map(|v| format!(r#"{{"v":{v}}}"#)).collect();
        lines.extend([r#"{}"#.to_owned(), r#"{"w":1}"#.to_owned()]);
        for line in &lines {
            let arguments: Value = serde_json::from_str(line).expect("JSON");
            let general = general::<T>(required, &arguments);
            if let Some(mut typed) = decode(&shape, line) {
                taken += 1;
                let value = typed.take::<T>(0);
                assert_eq!(
                    general,
                    Some(value),
                    "{} {line}",
                    std::any::type_name::<T>()
                );
            }
        }
        taken
    }

    #[test]
    fn typed_decoding_takes_only_what_the_general_path_takes_and_decodes_it_alike() {
        macro_rules! each_kind {
            ($($ty:ty),*) => {$(
                for required in [true, false] {
                    assert!(typed_agrees_with_general::<$ty>(required) > 0, "{}", stringify!($ty));
                    assert!(typed_agrees_with_general::<Vec<$ty>>(required) > 0);
                }
                assert!(typed_agrees_with_general::<Option<$ty>>(false) > 0);
                assert!(typed_agrees_with_general::<Option<Vec<$ty>>>(false) > 0);
            )*};
        }
        each_kind!(
            String, bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, f32, f64
        );
    }
}
