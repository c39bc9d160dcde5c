//! apimachinery's string formats (`k8s.io/apimachinery/pkg/util/validation`): DNS-1123
//! subdomains and labels, qualified names (label keys) and label values. Each function returns
//! upstream's messages, none when the string is valid; an empty list allocates nothing.

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case \
     alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case \
     alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and \
     must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of \
     alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric \
     character";

/// A DNS-1123 subdomain is at most this long.
pub(crate) const DNS1123_SUBDOMAIN_MAX: usize = 253;
/// A DNS-1123 label, a label value and a label key's name part are at most this long.
pub(crate) const DNS1123_LABEL_MAX: usize = 63;

/// How `MaxLenError` words a length limit: v1.17's apimachinery counts "characters", v1.35's
/// "bytes" (the same limit, a byte count both times).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// `must be no more than 63 characters` (v1.17).
    Characters,
    /// `must be no more than 63 bytes` (v1.35).
    Bytes,
}

/// `MaxLenError`, as v1.17 words it.
pub(crate) fn max_len_error(n: usize) -> String {
    max_len_error_in(n, Unit::Characters)
}

/// `MaxLenError`, worded in `unit`.
pub(crate) fn max_len_error_in(n: usize, unit: Unit) -> String {
    match unit {
        Unit::Characters => format!("must be no more than {n} characters"),
        Unit::Bytes => format!("must be no more than {n} bytes"),
    }
}

/// `RegexError`: the message, its examples and the regex, spelled as upstream spells them
/// (including the double space before each further ` or `).
pub(crate) fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    let mut out = msg.to_string();
    if examples.is_empty() {
        out.push_str(" (regex used for validation is '");
    } else {
        out.push_str(" (e.g. ");
        for (i, e) in examples.iter().enumerate() {
            if i > 0 {
                out.push_str(" or ");
            }
            out.push('\'');
            out.push_str(e);
            out.push_str("', ");
        }
        out.push_str("regex used for validation is '");
    }
    out.push_str(fmt);
    out.push_str("')");
    out
}

/// Matches `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn is_label(s: &str) -> bool {
    let b = s.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty()
        && alnum(b[0])
        && alnum(b[b.len() - 1])
        && b.iter().all(|&c| alnum(c) || c == b'-')
}

/// Matches the DNS-1123 subdomain regex (labels joined by dots).
fn is_subdomain(s: &str) -> bool {
    s.split('.').all(is_label)
}

/// Matches `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
fn is_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsDNS1123Subdomain`: object names (Node, Pod, PersistentVolume, ...).
pub(crate) fn dns1123_subdomain(s: &str) -> Vec<String> {
    dns1123_subdomain_in(s, Unit::Characters)
}

/// [`dns1123_subdomain`], its length limit worded in `unit`.
pub(crate) fn dns1123_subdomain_in(s: &str, unit: Unit) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_SUBDOMAIN_MAX {
        errs.push(max_len_error_in(DNS1123_SUBDOMAIN_MAX, unit));
    }
    if !is_subdomain(s) {
        errs.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `IsDNS1123Label`: namespaces, volume names.
pub(crate) fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !is_label(s) {
        if is_subdomain(s) {
            // A valid subdomain that is not a label: it has dots.
            errs.push("must not contain dots".to_string());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsQualifiedName` (`IsLabelKey`): label keys, taint and toleration keys, topology keys.
pub(crate) fn qualified_name(s: &str) -> Vec<String> {
    qualified_name_in(s, Unit::Characters)
}

/// [`qualified_name`], its length limits worded in `unit`.
pub(crate) fn qualified_name_in(s: &str, unit: Unit) -> Vec<String> {
    const EXAMPLES: [&str; 3] = ["MyName", "my.name", "123-abc"];
    let mut errs = Vec::new();
    let mut parts = s.split('/');
    let first = parts.next().unwrap_or("");
    let name = match (parts.next(), parts.next()) {
        (None, _) => first,
        (Some(name), None) => {
            if first.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                for m in dns1123_subdomain_in(first, unit) {
                    errs.push(format!("prefix part {m}"));
                }
            }
            name
        }
        (Some(_), Some(_)) => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. \
                 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &EXAMPLES)
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > DNS1123_LABEL_MAX {
        errs.push(format!(
            "name part {}",
            max_len_error_in(DNS1123_LABEL_MAX, unit)
        ));
    }
    if !is_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &EXAMPLES)
        ));
    }
    errs
}

/// `IsValidLabelValue`: label values (empty is valid), taint and toleration values, selector
/// values.
pub(crate) fn label_value(s: &str) -> Vec<String> {
    label_value_in(s, Unit::Characters)
}

/// [`label_value`], its length limit worded in `unit`.
pub(crate) fn label_value_in(s: &str, unit: Unit) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > DNS1123_LABEL_MAX {
        errs.push(max_len_error_in(DNS1123_LABEL_MAX, unit));
    }
    if !s.is_empty() && !is_label_key_name(s) {
        errs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// A fast hash for short strings: eight bytes per multiply-rotate step (FxHash's), then
/// MurmurHash3's 64-bit finalizer so that every input bit reaches the low bits the table uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct NameHash(u64);

impl NameHash {
    fn step(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for NameHash {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.step(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.step(u64::from_le_bytes(w));
        }
    }
}
