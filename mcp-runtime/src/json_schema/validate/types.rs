//! JSON values as JSON Schema sees them: the seven types, equality where `1` equals `1.0`,
//! and numbers compared exactly whether they arrived as integers or as floats.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// The type names in the order `jsonschema` lists them in a message.
const NAMES: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];

/// The types a `type` keyword allows; `single` when it was written as one string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Types {
    bits: u8,
    pub single: bool,
}

impl Types {
    pub fn parse(value: &Value) -> Option<Types> {
        let bit = |name: &str| NAMES.iter().position(|n| *n == name).map(|i| 1u8 << i);
        match value {
            Value::String(name) => Some(Types {
                bits: bit(name)?,
                single: true,
            }),
            Value::Array(names) if !names.is_empty() => {
                let mut bits = 0;
                for name in names {
                    let one = bit(name.as_str()?)?;
                    if bits & one != 0 {
                        return None;
                    }
                    bits |= one;
                }
                Some(Types {
                    bits,
                    single: names.len() == 1,
                })
            }
            _ => None,
        }
    }

    pub fn allows(self, value: &Value) -> bool {
        let has = |name: &str| {
            let index = NAMES.iter().position(|n| *n == name).unwrap_or(0);
            self.bits & (1 << index) != 0
        };
        match value {
            Value::Null => has("null"),
            Value::Bool(_) => has("boolean"),
            Value::Number(number) => has("number") || (has("integer") && is_integer(number)),
            Value::String(_) => has("string"),
            Value::Array(_) => has("array"),
            Value::Object(_) => has("object"),
        }
    }

    pub fn names(self) -> impl Iterator<Item = &'static str> {
        NAMES
            .iter()
            .enumerate()
            .filter(move |(index, _)| self.bits & (1 << index) != 0)
            .map(|(_, name)| *name)
    }
}

/// Whether `number` is a whole number (`1.0` is).
pub(super) fn is_integer(number: &Number) -> bool {
    number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// An integer as `i128` (every `i64` and `u64` fits).
fn integer(number: &Number) -> Option<i128> {
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
}

/// Compares an integer with a float exactly, without rounding the integer to a float.
fn compare_integer_float(integer: i128, float: f64) -> Option<Ordering> {
    if float.is_nan() {
        return None;
    }
    // Beyond ±2^100 no i128 made from an i64 or u64 can reach.
    if float >= 1e30 {
        return Some(Ordering::Less);
    }
    if float <= -1e30 {
        return Some(Ordering::Greater);
    }
    let whole = float.trunc();
    #[allow(clippy::cast_possible_truncation)]
    let whole_int = whole as i128;
    match integer.cmp(&whole_int) {
        Ordering::Equal => 0.0f64.partial_cmp(&(float - whole)),
        other => Some(other),
    }
}

/// Orders two JSON numbers by value, exactly.
pub(super) fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (integer(a), integer(b)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        (Some(a), None) => compare_integer_float(a, b.as_f64()?),
        (None, Some(b)) => compare_integer_float(b, a.as_f64()?).map(Ordering::reverse),
        (None, None) => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// JSON equality: numbers by value (`1 == 1.0`), arrays item by item, objects key by key.
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => compare(a, b) == Some(Ordering::Equal),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| equal(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, value)| b.get(key).is_some_and(|other| equal(value, other)))
        }
        _ => a == b,
    }
}

/// A number as `mantissa × 10^-decimals`, in the shortest decimal that reads back as it;
/// `None` when the mantissa leaves `i128`.
fn decimal_parts(number: &Number) -> Option<(i128, i32)> {
    if let Some(integer) = integer(number) {
        return Some((integer, 0));
    }
    let text = format!("{:e}", number.as_f64()?);
    let (digits, exponent) = text.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    let negative = digits.starts_with('-');
    let digits = digits.trim_start_matches('-');
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let mut mantissa: i128 = 0;
    for byte in whole.bytes().chain(fraction.bytes()) {
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(i128::from(byte - b'0'))?;
    }
    let decimals = i32::try_from(fraction.len()).ok()? - exponent;
    Some((if negative { -mantissa } else { mantissa }, decimals))
}

/// Whether `number / multiple` is an integer, read as the decimals both print as (so
/// `0.3` is a multiple of `0.1`), as `jsonschema` does; `multiple` is positive.
pub(super) fn is_multiple_of(number: &Number, multiple: &Number) -> bool {
    let (Some(value), Some(divisor)) = (number.as_f64(), multiple.as_f64()) else {
        return true;
    };
    if value == 0.0 {
        return true;
    }
    if integer(multiple).is_none() && value.abs() < divisor {
        return false;
    }
    if let (Some((value_mantissa, value_decimals)), Some((multiple_mantissa, multiple_decimals))) =
        (decimal_parts(number), decimal_parts(multiple))
    {
        let shared = value_decimals.min(multiple_decimals);
        let scale = |mantissa: i128, decimals: i32| {
            let places = u32::try_from(decimals - shared).ok()?;
            mantissa.checked_mul(10_i128.checked_pow(places)?)
        };
        if let (Some(value), Some(divisor)) = (
            scale(value_mantissa, multiple_decimals),
            scale(multiple_mantissa, value_decimals),
        ) && divisor != 0
        {
            return value % divisor == 0;
        }
    }
    let quotient = value / divisor;
    quotient.is_finite() && quotient.fract() == 0.0
}
