//! Checking JSON as a `serde_json::Value` would be refused (nesting depth, number range,
//! string escapes) without building one: for members the decoder does not keep, and for a
//! call's arguments, kept as raw text.

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Every visitor here accepts any JSON: scalars become this value.
macro_rules! scalars_are {
    ($value:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}
pub(super) use scalars_are;

/// The most arrays and objects `serde_json` lets enclose a value.
const MAX_DEPTH: u8 = 127;

/// Checks `raw`, a value that sits inside `depth` arrays and objects of its line and that
/// `serde_json` has skipped over, as a `Value` would be checked there.
pub(super) fn check_arguments(raw: &str, depth: u8) -> Result<(), serde_json::Error> {
    if plainly_valid(raw.as_bytes(), depth) {
        return Ok(());
    }
    Nested(depth).deserialize(&mut serde_json::Deserializer::from_str(raw))
}

/// Any JSON value, parsed and checked as a `serde_json::Value` would be (unlike
/// `serde::de::IgnoredAny`, which serde_json skips without checking nesting depth or number range),
/// and not kept.
pub(super) struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Anything;
        impl<'de> Visitor<'de> for Anything {
            type Value = Checked;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                check_seq(seq).map(|()| Checked)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                check_map(map).map(|()| Checked)
            }
            scalars_are!(Checked);
        }
        deserializer.deserialize_any(Anything)
    }
}

pub(super) fn check_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<Checked>()?.is_some() {}
    Ok(())
}

pub(super) fn check_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_key::<Checked>()?.is_some() {
        map.next_value::<Checked>()?;
    }
    Ok(())
}

/// [`Checked`], for a value inside this many arrays and objects of the line it was taken
/// from: parsed on its own, it must still be refused where the line would be too deep.
#[derive(Clone, Copy)]
struct Nested(u8);

impl<'de> DeserializeSeed<'de> for Nested {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Nested {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let inner = self.enter()?;
        while seq.next_element_seed(inner)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let inner = self.enter()?;
        while map.next_key::<Checked>()?.is_some() {
            map.next_value_seed(inner)?;
        }
        Ok(())
    }
    scalars_are!(());
}

/// Whether `text`, JSON that `serde_json` has skipped over (so its syntax is sound), is a
/// valid `Value` inside `depth` arrays and objects for want of anything that could make it
/// invalid: a `\u` escape (a lone surrogate is refused), a number with an exponent or of
/// more than [`PLAIN_NUMBER_LENGTH`] characters (it may be out of range), or nesting past
/// the limit. `false` only says that [`Nested`] must judge it, which is slower.
fn plainly_valid(text: &[u8], mut depth: u8) -> bool {
    // The common case at a glance: too short to nest too deep, with no escape and no digit
    // (so no number).
    let short = text.len() <= 2 * usize::from(MAX_DEPTH.saturating_sub(depth));
    if short && !has_escape_or_digit(text) {
        return true;
    }
    let mut at = 0;
    while let Some(&byte) = text.get(at) {
        match byte {
            b'"' => {
                at += 1;
                loop {
                    let Some(offset) = memchr::memchr2(b'"', b'\\', &text[at..]) else {
                        return false;
                    };
                    at += offset;
                    if text[at] == b'"' {
                        break;
                    }
                    if text.get(at + 1) == Some(&b'u') {
                        return false;
                    }
                    at += 2;
                }
                at += 1;
            }
            b'[' | b'{' => {
                if depth >= MAX_DEPTH {
                    return false;
                }
                depth += 1;
                at += 1;
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                at += 1;
            }
            b'-' | b'0'..=b'9' => {
                let length = text[at..]
                    .iter()
                    .position(|byte| {
                        !matches!(byte, b'-' | b'+' | b'.' | b'0'..=b'9' | b'e' | b'E')
                    })
                    .unwrap_or(text.len() - at);
                let number = &text[at..at + length];
                if length > PLAIN_NUMBER_LENGTH
                    || number.iter().any(|byte| matches!(byte, b'e' | b'E'))
                {
                    return false;
                }
                at += length;
            }
            // `true`, `false`, `null`, `,`, `:` and whitespace.
            _ => at += 1,
        }
    }
    true
}

/// Whether `text` holds a backslash or a digit. Sixteen bytes at a time, the short tail
/// padded to sixteen, so every byte goes through the same branch-free vector compare rather
/// than a byte-by-byte loop for the tail.
fn has_escape_or_digit(text: &[u8]) -> bool {
    fn any(chunk: &[u8; 16]) -> bool {
        chunk.iter().fold(0u8, |seen, &byte| {
            seen | u8::from(byte == b'\\') | u8::from(byte.wrapping_sub(b'0') < 10)
        }) != 0
    }
    let mut chunks = text.chunks_exact(16);
    let mut seen = false;
    for chunk in &mut chunks {
        seen |= any(chunk.try_into().expect("chunks of sixteen"));
    }
    let rest = chunks.remainder();
    let mut tail = [b' '; 16];
    tail[..rest.len()].copy_from_slice(rest);
    seen | any(&tail)
}

/// A number this long or shorter, without an exponent, is within `f64`'s range.
const PLAIN_NUMBER_LENGTH: usize = 300;

impl Nested {
    /// One array or object deeper, unless that is deeper than the line may be.
    fn enter<E: de::Error>(self) -> Result<Nested, E> {
        match self.0 {
            MAX_DEPTH.. => Err(E::custom("recursion limit exceeded")),
            depth => Ok(Nested(depth + 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::has_escape_or_digit;

    #[test]
    fn a_backslash_or_digit_is_seen_wherever_it_sits() {
        for length in 0..50 {
            let plain = vec![b'a'; length];
            assert!(!has_escape_or_digit(&plain), "{length} plain bytes");
            for at in 0..length {
                for odd in [b'\\', b'0', b'9'] {
                    let mut text = plain.clone();
                    text[at] = odd;
                    assert!(has_escape_or_digit(&text), "{odd} at {at} of {length}");
                }
            }
        }
        // Neighbours of the digits are not digits.
        assert!(!has_escape_or_digit(b"/:/:/:/:/:/:/:/:/:"));
    }
}
