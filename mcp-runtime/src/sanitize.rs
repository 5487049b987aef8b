//! Cleaning text that came from outside a tool before it goes into a result.
//!
//! JSON escapes control characters on the wire, but the client decodes them again: a tool
//! result that passes on a subprocess's output, a file, a web page or a database row can
//! carry terminal escape sequences and control characters to the host, which may print it
//! in a terminal (where `ESC [2J` clears the screen, `ESC ]0;…` retitles the window, and
//! `ESC ]8;;…` plants a hyperlink) and hands it to the model (where they are noise, or
//! hide text from the human reading along).
//!
//! [`text`] (and [`Content::text_sanitized`](crate::Content::text_sanitized), which uses
//! it) makes such text inert:
//!
//! - ANSI / VT escape sequences are **removed**: colours and styles (`ESC [31m`), cursor and
//!   screen control (CSI), window titles and hyperlinks (OSC, up to BEL or `ESC \`), device
//!   strings (DCS, SOS, PM, APC) and two-character escapes (`ESC 7`, `ESC (B`), in their
//!   7-bit (`ESC [`) and 8-bit (U+009B) forms. A hyperlink's visible text stays.
//! - `\r\n` becomes `\n`.
//! - every other control character except `\n` and `\t` — the rest of U+0000–U+001F, DEL
//!   (U+007F) and U+0080–U+009F, including a lone `\r` or an `ESC` that starts no sequence —
//!   is **escaped** as visible text: `\u{7}` for BEL, `\u{0}` for NUL, `\r` for CR. The
//!   reader sees that something was there, and nothing acts on it.
//!
//! Everything else is kept as is, all of Unicode included (so Unicode format characters
//! such as bidirectional overrides are not touched: this is about terminals and control
//! characters, not about every way text can mislead). Text the tool writes itself needs
//! none of this.
//!
//! ```
//! use mcp_runtime::sanitize;
//!
//! let output = "\x1b[1;31mFAILED\x1b[0m 2 tests\r\n\x07done";
//! assert_eq!(sanitize::text(output), "FAILED 2 tests\n\\u{7}done");
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;

/// `input` with ANSI escape sequences removed, `\r\n` turned into `\n`, and every other
/// control character except `\n` and `\t` escaped as visible text (`\u{7}`, `\r`); see the
/// [module documentation](self). Borrows `input` when there is nothing to change.
pub fn text(input: &str) -> Cow<'_, str> {
    if !input.chars().any(is_control) {
        return Cow::Borrowed(input);
    }
    let mut output = String::with_capacity(input.len());
    let mut chars = input.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => output.push(c),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\u{1b}' => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    skip_csi(&mut chars);
                }
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    chars.next();
                    skip_string(&mut chars);
                }
                // nF escapes: intermediate bytes, then a final byte (`ESC ( B`).
                Some(' '..='/') => {
                    while chars.next_if(|c| matches!(c, ' '..='/')).is_some() {}
                    chars.next_if(|c| matches!(c, '0'..='~'));
                }
                // Fp, Fe and Fs escapes: one final byte (`ESC 7`, `ESC c`).
                Some('0'..='~') => {
                    chars.next();
                }
                _ => escape(c, &mut output),
            },
            '\u{9b}' => skip_csi(&mut chars),
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            c if is_control(c) => escape(c, &mut output),
            c => output.push(c),
        }
    }
    Cow::Owned(output)
}

/// Whether [`text`] changes `c` (alone): a control character other than `\n` and `\t`.
fn is_control(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

fn escape(c: char, output: &mut String) {
    match c {
        '\r' => output.push_str("\\r"),
        c => {
            let _ = write!(output, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// The rest of a control sequence after `ESC [`: parameter bytes, intermediate bytes, then
/// one final byte. A character that cannot be part of it ends it unfinished, and is kept.
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while chars.next_if(|c| matches!(c, '0'..='?')).is_some() {}
    while chars.next_if(|c| matches!(c, ' '..='/')).is_some() {}
    chars.next_if(|c| matches!(c, '@'..='~'));
}

/// The rest of a control string (OSC, DCS, SOS, PM, APC): everything up to and including
/// its terminator, BEL or ST (`ESC \` or U+009C), or to the end of the text.
fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' if chars.peek() == Some(&'\\') => {
                chars.next();
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for plain in [
            "",
            "hello",
            "tabs\tand\nnewlines\n",
            "ünïcödé 日本語 🦀 e\u{301}",
        ] {
            assert!(
                matches!(text(plain), Cow::Borrowed(same) if same == plain),
                "{plain:?}"
            );
        }
    }

    #[test]
    fn styles_and_cursor_control_are_removed() {
        assert_eq!(text("\x1b[31mred\x1b[0m"), "red");
        assert_eq!(text("\x1b[1;38;5;208mbold orange\x1b[m."), "bold orange.");
        assert_eq!(text("\x1b[2J\x1b[Hwiped"), "wiped");
        assert_eq!(text("up\x1b[1Aover\x1b[?25l"), "upover");
        assert_eq!(text("8-bit \u{9b}32mgreen\u{9b}0m"), "8-bit green");
    }

    #[test]
    fn titles_hyperlinks_and_device_strings_are_removed_keeping_visible_text() {
        assert_eq!(text("\x1b]0;pwned\x07title"), "title");
        assert_eq!(
            text("see \x1b]8;;https://evil.example\x1b\\the docs\x1b]8;;\x1b\\ now"),
            "see the docs now"
        );
        assert_eq!(text("\x1bPq#0;2;0;0;0\x1b\\after"), "after");
        assert_eq!(text("\u{9d}2;title\u{9c}kept"), "kept");
        assert_eq!(
            text("\x1b_hidden APC"),
            "",
            "an unterminated string runs to the end"
        );
    }

    #[test]
    fn two_character_escapes_are_removed() {
        assert_eq!(text("\x1b7saved\x1b8"), "saved");
        assert_eq!(text("\x1b(Bascii\x1bc"), "ascii");
    }

    #[test]
    fn other_control_characters_are_escaped_visibly() {
        assert_eq!(text("bell\x07"), "bell\\u{7}");
        assert_eq!(text("nul\0byte"), "nul\\u{0}byte");
        assert_eq!(text("del\x7f"), "del\\u{7f}");
        assert_eq!(text("c1\u{85}next line"), "c1\\u{85}next line");
        assert_eq!(text("back\x08space"), "back\\u{8}space");
        assert_eq!(text("lone\rreturn"), "lone\\rreturn");
        assert_eq!(text("a lone escape \x1b"), "a lone escape \\u{1b}");
        assert_eq!(text("\x1b\x1b[1mx"), "\\u{1b}x");
        assert_eq!(text("\x1b🦀"), "\\u{1b}🦀");
    }

    #[test]
    fn windows_line_endings_become_newlines() {
        assert_eq!(text("one\r\ntwo\r\n"), "one\ntwo\n");
    }

    #[test]
    fn an_unfinished_sequence_ends_at_a_character_it_cannot_contain() {
        assert_eq!(text("\x1b[31\nnext"), "\nnext");
        assert_eq!(text("\x1b[12;"), "");
    }

    /// Every output is free of control characters (but `\n` and `\t`), and cleaning it
    /// again changes nothing — over a deterministic spread of mixed inputs.
    #[test]
    fn the_output_is_inert_and_a_fixed_point() {
        let alphabet: Vec<char> =
            "\x1b[]();?0123456789mHJ\\PX^_ \x07\x08\r\n\t\0\x7fab€🦀\u{85}\u{9b}\u{9c}\u{9d}"
                .chars()
                .collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let length = (seed % 24) as usize;
            let input: String = (0..length)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            let once = text(&input).into_owned();
            assert!(!once.chars().any(is_control), "{input:?} -> {once:?}");
            assert_eq!(text(&once), once, "{input:?}");
        }
    }
}
