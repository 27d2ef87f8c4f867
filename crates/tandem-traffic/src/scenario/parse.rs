//! Small parsers of field values: times (`"1.5s"`, `"+300ms"`, nanoseconds), MAC and IPv4
//! addresses, TCP flag letters, hex bytes; and their printed forms.

use super::packet::{ferr, FieldError};

pub(super) fn parse_time(v: &toml::Value) -> Result<(u64, bool), String> {
    match v {
        toml::Value::Integer(i) => u64::try_from(*i)
            .map(|t| (t, false))
            .map_err(|_| format!("{i} is negative")),
        toml::Value::String(s) => {
            let (rel, body) = match s.trim().strip_prefix('+') {
                Some(r) => (true, r.trim()),
                None => (false, s.trim()),
            };
            let split = body
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(body.len());
            let (num, unit) = body.split_at(split);
            let scale: f64 = match unit.trim() {
                "ns" | "" => 1.0,
                "us" => 1e3,
                "ms" => 1e6,
                "s" => 1e9,
                "min" => 60e9,
                "h" => 3600e9,
                u => {
                    return Err(format!(
                        "unknown unit `{u}` in \"{s}\" (use ns, us, ms, s, min or h)"
                    ))
                }
            };
            let n: f64 = num
                .parse()
                .map_err(|_| format!("\"{s}\" is not a time like \"1.5s\" or \"+300ms\""))?;
            let t = (n * scale).round();
            if !(0.0..1.8e19).contains(&t) {
                return Err(format!("\"{s}\" is out of range"));
            }
            Ok((t as u64, rel))
        }
        other => Err(format!(
            "expected nanoseconds or a string like \"1.5s\", found {}",
            other.type_str()
        )),
    }
}

pub(super) fn parse_mac(s: &str, field: &str) -> Result<[u8; 6], FieldError> {
    let parts: Vec<&str> = s.split(':').collect();
    let mut out = [0u8; 6];
    if parts.len() != 6 {
        return ferr(
            field,
            format!("\"{s}\" is not a MAC address like 02:00:00:00:00:01"),
        );
    }
    for (o, p) in out.iter_mut().zip(parts) {
        *o = u8::from_str_radix(p, 16).or_else(|_| {
            ferr(
                field,
                format!("\"{s}\" is not a MAC address like 02:00:00:00:00:01"),
            )
        })?;
    }
    Ok(out)
}

pub(super) fn parse_ip(s: &str, field: &str) -> Result<[u8; 4], FieldError> {
    match s.parse::<std::net::Ipv4Addr>() {
        Ok(a) => Ok(a.octets()),
        Err(_) => ferr(
            field,
            format!("\"{s}\" is not an IPv4 address like 10.0.0.1"),
        ),
    }
}

pub(super) fn parse_flags(s: &str, field: &str) -> Result<u8, FieldError> {
    let mut f = 0u8;
    for c in s.chars() {
        f |= match c.to_ascii_uppercase() {
            'F' => 0x01,
            'S' => 0x02,
            'R' => 0x04,
            'P' => 0x08,
            'A' => 0x10,
            'U' => 0x20,
            '.' | ' ' => 0,
            _ => {
                return ferr(
                    field,
                    format!("unknown TCP flag `{c}` in \"{s}\" (use F S R P A U)"),
                )
            }
        };
    }
    Ok(f)
}

pub(super) fn flags_text(f: u8) -> String {
    let mut s = String::new();
    for (bit, c) in [
        (0x02, 'S'),
        (0x10, 'A'),
        (0x01, 'F'),
        (0x04, 'R'),
        (0x08, 'P'),
        (0x20, 'U'),
    ] {
        if f & bit != 0 {
            s.push(c);
        }
    }
    s
}

pub(super) fn unhex(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = s
        .bytes()
        .filter(|b| !b.is_ascii_whitespace() && *b != b':')
        .collect();
    if digits.len() & 1 == 1 {
        return Err(format!("odd number of hex digits in \"{s}\""));
    }
    digits
        .chunks(2)
        .map(|c| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|t| u8::from_str_radix(t, 16).ok())
                .ok_or_else(|| format!("\"{s}\" is not hex"))
        })
        .collect()
}

pub(super) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
