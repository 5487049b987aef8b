//! Unguessable identifiers: HTTP session ids, task ids, task owners of connections.

/// 128 random bits from the operating system's generator, in hex: unguessable, and
/// visible ASCII as the spec requires of session ids.
pub(crate) fn random_id() -> String {
    let mut bytes = [0_u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random number generator works");
    // By table, into one buffer: formatting each byte costs more than the rest of the id.
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut id = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        id.push(char::from(HEX[usize::from(byte >> 4)]));
        id.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    id
}

#[cfg(test)]
mod tests {
    use super::random_id;

    #[test]
    fn ids_are_32_lowercase_hex_digits_and_differ() {
        let (first, second) = (random_id(), random_id());
        for id in [&first, &second] {
            assert_eq!(id.len(), 32, "{id}");
            assert!(
                id.bytes()
                    .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f')),
                "{id}"
            );
        }
        assert_ne!(first, second);
    }
}
