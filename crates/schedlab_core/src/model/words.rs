//! How messages spell things as upstream does: Go's `%q` ([`go_quote`]), and "did you mean
//! …?" ([`nearest`]: the nearest known name by edit distance, case-insensitive).

/// Levenshtein distance over bytes, lower-cased.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<u8> = a.bytes().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<u8> = b.bytes().map(|c| c.to_ascii_lowercase()).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest candidate, if it is close enough to be a plausible typo.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (distance(name, c), c))
        .filter(|(d, c)| *d <= (c.len() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// serde's `unknown field `x`, expected one of `a`, `b`` with "; did you mean a?" added when a
/// known field is close; any other message as it is.
pub(crate) fn with_field_hint(message: String) -> String {
    let Some(rest) = message.strip_prefix("unknown field `") else {
        return message;
    };
    let Some((field, expected)) = rest.split_once('`') else {
        return message;
    };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    match nearest(field, known.iter().copied()) {
        Some(near) => match message.split_once(", expected") {
            Some((head, tail)) => format!("{head}; did you mean {near}? (expected{tail})"),
            None => message,
        },
        None => message,
    }
}

/// Quotes a string as Go's `strconv.Quote` does: control, format (bidirectional overrides,
/// zero-width characters) and non-ASCII space characters are escaped, so a message never
/// carries them raw.
pub(crate) fn go_quote(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`, for the characters that matter: controls, format characters,
/// separators other than the ASCII space, private use and non-characters are not printable.
fn go_printable(c: char) -> bool {
    let u = c as u32;
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(u,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB
        | 0xFFFE..=0xFFFF | 0xE000..=0xF8FF | 0x110BD | 0x110CD | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F
        | 0xF0000..=0x10FFFF)
}

#[cfg(test)]
mod tests {

    #[test]
    fn unknown_fields_name_the_nearest_known_one() {
        let m = super::with_field_hint(
            "unknown field `urlPrefx`, expected one of `apiVersion`, `urlPrefix`, `verbs`".into(),
        );
        assert_eq!(
            m,
            "unknown field `urlPrefx`; did you mean urlPrefix? (expected one of `apiVersion`, \
             `urlPrefix`, `verbs`)"
        );
        let far = "unknown field `zzz`, expected `calls`".to_string();
        assert_eq!(super::with_field_hint(far.clone()), far);
    }
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["PodFitsResources", "PodFitsHostPorts", "HostName"];
        assert_eq!(nearest("PodFitResources", names), Some("PodFitsResources"));
        assert_eq!(nearest("podfitsresources", names), Some("PodFitsResources"));
        assert_eq!(nearest("Hostname", names), Some("HostName"));
        assert_eq!(nearest("Completely", names), None);
    }

    #[test]
    fn go_quoting() {
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(go_quote("\u{0}\t\u{1b}\u{7f}"), "\"\\x00\\t\\x1b\\x7f\"");
        assert_eq!(
            go_quote("x\u{202e}\u{200b}\u{a0}\u{feff}é日"),
            "\"x\\u202e\\u200b\\u00a0\\ufeffé日\""
        );
        assert_eq!(go_quote("\u{e0041}"), "\"\\U000e0041\"");
    }
}

/// Who reads a message that tells the caller to set an option: the command line, whose
/// options are flags (`--max-cycles`), or the JavaScript API, whose options are fields of its
/// calls' option objects (`run({maxCycles})`). The core words such messages through
/// [`FrontEnd::option`], so each front end names its own options; the CLI is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrontEnd {
    /// `schedlab` on the command line.
    #[default]
    Cli,
    /// The JavaScript API (`schedlab_wasm`).
    Js,
}

/// An option that a message may tell the caller to set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionName {
    /// The bound on virtual time: `--until` / `run({until})`.
    Until,
    /// The bound on cycles: `--max-cycles` / `run({maxCycles})`.
    MaxCycles,
    /// The scheduler: `--scheduler` / `new Simulator(files, {scheduler})`.
    Scheduler,
    /// Upstream's extender NodeInfo bug switched off: `--fidelity extender-nodeinfo-fix` /
    /// `{extenderNodeinfoFix: true}`.
    ExtenderNodeinfoFix,
}

impl FrontEnd {
    /// The option as this front end spells it: `--max-cycles` on the command line, the
    /// `maxCycles` option for JavaScript.
    pub fn option(self, name: OptionName) -> &'static str {
        match (self, name) {
            (FrontEnd::Cli, OptionName::Until) => "--until",
            (FrontEnd::Cli, OptionName::MaxCycles) => "--max-cycles",
            (FrontEnd::Cli, OptionName::Scheduler) => "--scheduler",
            (FrontEnd::Cli, OptionName::ExtenderNodeinfoFix) => "--fidelity extender-nodeinfo-fix",
            (FrontEnd::Js, OptionName::Until) => "the `until` option",
            (FrontEnd::Js, OptionName::MaxCycles) => "the `maxCycles` option",
            (FrontEnd::Js, OptionName::Scheduler) => "the `scheduler` option",
            (FrontEnd::Js, OptionName::ExtenderNodeinfoFix) => "the `extenderNodeinfoFix` option",
        }
    }

    /// The option set to a value: `--scheduler v1.35`, or the `scheduler` option "v1.35".
    pub fn option_set_to(self, name: OptionName, value: &str) -> String {
        match self {
            FrontEnd::Cli => format!("{} {value}", self.option(name)),
            FrontEnd::Js => format!("{} \"{value}\"", self.option(name)),
        }
    }
}
