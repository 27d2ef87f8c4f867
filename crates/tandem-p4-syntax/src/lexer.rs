//! Tokeniser for P4-16. Never panics; bad input becomes a [`SyntaxError`].

use crate::ast::Span;
use crate::SyntaxError;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Int {
        value: u128,
        width: Option<u32>,
        signed: bool,
    },
    Str(String),
    /// A whole preprocessor line (`#include <x>`), without the newline.
    Preproc(String),
    /// Punctuation / operator.
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    /// True if whitespace or a comment precedes this token (used to tell `>>` from `> >`).
    pub space_before: bool,
}

const PUNCTS: &[&str] = &[
    "&&&", "|+|", "|-|", "...", "<<", "&&", "||", "==", "!=", "<=", ">=", "++", "..", "(", ")",
    "{", "}", "[", "]", "<", ">", ";", ":", ",", ".", "=", "+", "-", "*", "/", "%", "&", "|", "^",
    "~", "!", "?", "@",
];

/// Splits `src` into tokens. The last token is always [`Tok::Eof`].
pub fn tokenize(src: &str) -> Result<Vec<Token>, SyntaxError> {
    let bytes = src.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0usize;
    let mut line = 1u32;
    let mut col = 1u32;
    let mut space = true;
    let mut at_line_start = true;
    macro_rules! adv {
        ($n:expr) => {{
            for _ in 0..$n {
                if i < bytes.len() {
                    if bytes[i] == b'\n' {
                        line += 1;
                        col = 1;
                    } else {
                        col += 1;
                    }
                    i += 1;
                }
            }
        }};
    }
    while i < bytes.len() {
        let c = bytes[i];
        let span = Span { line, col };
        if c == b'\n' {
            adv!(1);
            space = true;
            at_line_start = true;
            continue;
        }
        if c.is_ascii_whitespace() {
            adv!(1);
            space = true;
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                adv!(1);
            }
            space = true;
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            adv!(2);
            loop {
                if i >= bytes.len() {
                    return Err(SyntaxError::new(span, "unterminated block comment"));
                }
                if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    adv!(2);
                    break;
                }
                adv!(1);
            }
            space = true;
            continue;
        }
        if c == b'#' && at_line_start {
            let start = i;
            while i < bytes.len() && bytes[i] != b'\n' {
                adv!(1);
            }
            let text = src.get(start..i).unwrap_or("").trim_end().to_string();
            toks.push(Token {
                tok: Tok::Preproc(text),
                span,
                space_before: true,
            });
            space = true;
            continue;
        }
        at_line_start = false;
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                adv!(1);
            }
            toks.push(Token {
                tok: Tok::Ident(src[start..i].to_string()),
                span,
                space_before: space,
            });
            space = false;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                adv!(1);
            }
            let text = &src[start..i];
            let tok = parse_int(text).ok_or_else(|| {
                SyntaxError::new(span, format!("malformed integer literal `{text}`"))
            })?;
            toks.push(Token {
                tok,
                span,
                space_before: space,
            });
            space = false;
            continue;
        }
        if c == b'"' {
            adv!(1);
            let mut s = String::new();
            loop {
                if i >= bytes.len() || bytes[i] == b'\n' {
                    return Err(SyntaxError::new(span, "unterminated string literal"));
                }
                if bytes[i] == b'"' {
                    adv!(1);
                    break;
                }
                if bytes[i] == b'\\' && i + 1 < bytes.len() {
                    s.push('\\');
                    adv!(1);
                }
                // Copy one UTF-8 character.
                let ch_len = utf8_len(bytes[i]);
                let end = (i + ch_len).min(bytes.len());
                s.push_str(src.get(i..end).unwrap_or(""));
                adv!(end - i);
            }
            toks.push(Token {
                tok: Tok::Str(s),
                span,
                space_before: space,
            });
            space = false;
            continue;
        }
        let rest = &bytes[i..];
        let mut matched = None;
        for p in PUNCTS {
            if rest.starts_with(p.as_bytes()) {
                matched = Some(*p);
                break;
            }
        }
        match matched {
            Some(p) => {
                adv!(p.len());
                toks.push(Token {
                    tok: Tok::Punct(p),
                    span,
                    space_before: space,
                });
                space = false;
            }
            None => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(SyntaxError::new(
                    span,
                    format!("unexpected character `{ch}`"),
                ));
            }
        }
    }
    toks.push(Token {
        tok: Tok::Eof,
        span: Span { line, col },
        space_before: true,
    });
    Ok(toks)
}

fn utf8_len(b: u8) -> usize {
    match b {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xff => 4,
        _ => 1,
    }
}

fn parse_int(text: &str) -> Option<Tok> {
    let t: String = text.chars().filter(|c| *c != '_').collect();
    let (width, signed, body) = match t.find(['w', 's']) {
        Some(p) if p > 0 && t[..p].bytes().all(|b| b.is_ascii_digit()) => {
            let w: u32 = t[..p].parse().ok()?;
            let signed = t.as_bytes()[p] == b's';
            (Some(w), signed, &t[p + 1..])
        }
        _ => (None, false, &t[..]),
    };
    let value = parse_unsigned(body)?;
    Some(Tok::Int {
        value,
        width,
        signed,
    })
}

fn parse_unsigned(s: &str) -> Option<u128> {
    let lower = s.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0d") {
        (10, d)
    } else {
        (10, &lower[..])
    };
    if digits.is_empty() {
        return None;
    }
    u128::from_str_radix(digits, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints() {
        assert_eq!(
            parse_int("16w0x800"),
            Some(Tok::Int {
                value: 0x800,
                width: Some(16),
                signed: false
            })
        );
        assert_eq!(
            parse_int("0x0800"),
            Some(Tok::Int {
                value: 0x800,
                width: None,
                signed: false
            })
        );
        assert_eq!(
            parse_int("8s3"),
            Some(Tok::Int {
                value: 3,
                width: Some(8),
                signed: true
            })
        );
        assert_eq!(parse_int("0xzz"), None);
        assert_eq!(parse_int("12abc"), None);
    }
}
