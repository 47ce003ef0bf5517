//! A small JSON reader for the match records (`wuzi-match --jsonl`): one object per line, read
//! into a [`Value`] tree. The engine has no JSON dependency; records are small and flat, so a
//! recursive reader of the whole grammar (strings with every escape, numbers, nesting) does.

use anyhow::{anyhow, bail, Result};

/// A JSON value. Objects keep their members in order; numbers are `f64`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// Any number.
    Number(f64),
    /// A string, escapes resolved.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object's members in the order written.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object (the first of that name), if there is one.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number as a whole number from 0 up, if it is one.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::Number(n) if n >= 0.0 && n.fract() == 0.0 && n < 2f64.powi(53) => Some(n as u64),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// Reads one JSON value filling all of `text` (white space around it allowed).
pub fn parse(text: &str) -> Result<Value> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.skip_space();
    if reader.at != reader.bytes.len() {
        bail!("text after the value at byte {}", reader.at);
    }
    Ok(value)
}

/// Nesting deeper than this is refused (the records nest three levels).
const MAX_DEPTH: usize = 64;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Result<()> {
        self.skip_space();
        if self.peek() != Some(byte) {
            bail!("expected {:?} at byte {}", byte as char, self.at);
        }
        self.at += 1;
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            bail!("nested deeper than {MAX_DEPTH}");
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => bail!("no value at byte {}", self.at),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Result<Value> {
        if !self.bytes[self.at..].starts_with(word.as_bytes()) {
            bail!("bad literal at byte {}", self.at);
        }
        self.at += word.len();
        Ok(value)
    }

    fn number(&mut self) -> Result<Value> {
        let start = self.at;
        while let Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at])?;
        let n: f64 = text
            .parse()
            .map_err(|_| anyhow!("bad number {text:?} at byte {start}"))?;
        Ok(Value::Number(n))
    }

    fn array(&mut self, depth: usize) -> Result<Value> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => bail!("expected ',' or ']' at byte {}", self.at),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value> {
        self.expect(b'{')?;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(members));
        }
        loop {
            self.skip_space();
            let key = self.string()?;
            self.expect(b':')?;
            members.push((key, self.value(depth + 1)?));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(members));
                }
                _ => bail!("expected ',' or '}}' at byte {}", self.at),
            }
        }
    }

    /// Four hex digits of a `\u` escape.
    fn hex4(&mut self) -> Result<u32> {
        let digits = self
            .bytes
            .get(self.at..self.at + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| anyhow!("bad \\u escape at byte {}", self.at))?;
        self.at += 4;
        Ok(digits)
    }

    fn string(&mut self) -> Result<String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                bail!("unterminated string");
            };
            self.at += 1;
            match byte {
                b'"' => return Ok(String::from_utf8(out)?),
                b'\\' => {
                    let Some(escape) = self.peek() else {
                        bail!("unterminated escape");
                    };
                    self.at += 1;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let high = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&high)
                                && self.bytes[self.at..].starts_with(b"\\u")
                            {
                                self.at += 2;
                                let low = self.hex4()?;
                                0x10000
                                    + ((high - 0xd800) << 10)
                                    + (low.wrapping_sub(0xdc00) & 0x3ff)
                            } else {
                                high
                            };
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => bail!("bad escape at byte {}", self.at - 1),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                byte => out.push(byte),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_record_shaped_object() {
        let v = parse(
            r#" {"game":3,"black":"a \"b\"\\ \u00e9\n","opening":["7,7","8,8"],
               "winner":null,"x":-1.5e2,"ok":true,"messages":[{"ply":6,"text":"t"}]} "#,
        )
        .expect("valid");
        assert_eq!(v.get("game").and_then(Value::as_u64), Some(3));
        assert_eq!(
            v.get("black").and_then(Value::as_str),
            Some("a \"b\"\\ é\n")
        );
        let opening = v.get("opening").and_then(Value::as_array).expect("array");
        assert_eq!(opening[1].as_str(), Some("8,8"));
        assert_eq!(v.get("winner"), Some(&Value::Null));
        assert_eq!(v.get("x"), Some(&Value::Number(-150.0)));
        assert_eq!(v.get("ok"), Some(&Value::Bool(true)));
        let messages = v.get("messages").and_then(Value::as_array).expect("array");
        assert_eq!(messages[0].get("ply").and_then(Value::as_u64), Some(6));
        assert_eq!(v.get("missing"), None);
    }

    #[test]
    fn writer_escapes_read_back() {
        let text = "tab\t quote\" back\\ ctl\u{1} line\u{2028} \u{1F600}";
        let written = crate::arena::record::json_string(text);
        assert_eq!(parse(&written).expect("valid"), Value::String(text.into()));
        assert_eq!(
            parse(r#""\ud83d\ude00""#).expect("valid"),
            Value::String("\u{1F600}".into())
        );
    }

    #[test]
    fn refuses_broken_text() {
        for bad in [
            "",
            "{",
            "[1,]",
            r#"{"a" 1}"#,
            r#""abc"#,
            "tru",
            "[1] 2",
            r#""\x""#,
            "-",
            "{1:2}",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&deep).is_err());
    }
}
