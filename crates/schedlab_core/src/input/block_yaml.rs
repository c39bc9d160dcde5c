//! A quick reader for the block YAML that `kubectl get -o yaml` writes: block maps and block
//! sequences, one scalar per line, and nothing else.
//!
//! libyaml (behind serde_yaml_ng) scans every character through a general state machine and
//! builds a list of events before the tree is made; on a 50 000-pod list that is most of the
//! reading time. This reader walks the lines once and builds the [`Tree`] directly, borrowing
//! every scalar from the text. It gives exactly the tree that serde_yaml_ng and
//! [`super::parse::TreeSeed`] give for the same text, or `None`: whatever it is not sure of
//! (a non-ASCII or control character, a tab, a comment after a value, a multi-line or escaped
//! scalar, a block scalar, an anchor or tag, a flow collection other than `{}` and `[]`, a
//! quoted key, a key given twice, a scalar that may be a float or a non-decimal integer, a
//! malformed indentation) it leaves to libyaml, which reads it, or words its error.
//!
//! The scalars are resolved as serde_yaml_ng resolves plain scalars (YAML 1.2's core schema):
//! `~`, `null`, `Null`, `NULL` and the empty value are null; `true`/`True`/`TRUE` and the
//! `false` forms are booleans; decimal integers without a leading zero are numbers; every other
//! plain scalar that no number parser accepts is a string.

use super::parse::Keys;
use super::tree::Tree;
use std::borrow::Cow;

/// Deepest nesting read here (the sequential reader's limit is checked on the tree after).
const MAX_DEPTH: usize = 100;

/// Longest key read here: YAML lets an implicit key run to 1024 characters at most, and libyaml
/// refuses a longer one ("could not find expected ':'"), so longer keys are left to it.
const MAX_KEY: usize = 1000;

/// The tree of `text`, one document holding one block map or block sequence; `None` when the
/// text is anything else, or anything this reader leaves to libyaml (see the module docs).
pub(super) fn parse(text: &str) -> Option<Tree<'_>> {
    let mut lines = Vec::new();
    for line in text.split('\n') {
        if !line.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return None; // tabs, carriage returns, control and non-ASCII characters
        }
        let content = line.trim_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent == 0 && (content.starts_with("---") || content.starts_with("...")) {
            return None;
        }
        lines.push(Line { indent, content });
    }
    let indent = lines.first()?.indent;
    let mut reader = Reader {
        lines,
        at: 0,
        depth: 0,
    };
    let tree = reader.node(indent)?;
    (reader.at == reader.lines.len()).then_some(tree)
}

/// `None` when this reader leaves `text` to libyaml; else whether it reads it as libyaml's
/// path does (the `block_yaml` fuzz target and the real-world tests hold it to `true`).
pub(super) fn matches_libyaml(text: &str) -> Option<bool> {
    parse(text).map(|quick| libyaml(text) == Some(quick))
}

/// The tree libyaml's path gives; `None` for an error, or for other than one document.
fn libyaml(text: &str) -> Option<Tree<'_>> {
    super::parse::yaml_tree(text, &super::parse::Context::default())
}

/// A line that holds something: its indentation, and its text without it or trailing spaces.
struct Line<'t> {
    indent: usize,
    content: &'t str,
}

struct Reader<'t> {
    lines: Vec<Line<'t>>,
    /// The next line to read.
    at: usize,
    depth: usize,
}

impl<'t> Reader<'t> {
    /// The block node starting at the current line, whose indentation is `indent`.
    fn node(&mut self, indent: usize) -> Option<Tree<'t>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let content = self.lines.get(self.at)?.content;
        let tree = if is_dash(content) {
            self.sequence(indent)
        } else {
            self.map(indent)
        };
        self.depth -= 1;
        tree
    }

    /// A block sequence whose dashes are at column `indent`.
    fn sequence(&mut self, indent: usize) -> Option<Tree<'t>> {
        let mut items = Vec::new();
        while let Some(line) = self.lines.get(self.at) {
            if line.indent < indent {
                break;
            }
            if line.indent > indent {
                return None;
            }
            if !is_dash(line.content) {
                break; // the parent map's next key (checked there)
            }
            let rest = line.content[1..].trim_start_matches(' ');
            if rest.is_empty() {
                self.at += 1;
                items.push(self.nested(indent, false)?);
                continue;
            }
            if is_dash(rest) {
                return None; // a sequence in a sequence, on one line
            }
            if entry(rest).is_some() {
                // A map that starts on the dash's line: its keys are at the first key's column.
                let column = indent + (line.content.len() - rest.len());
                self.lines[self.at] = Line {
                    indent: column,
                    content: rest,
                };
                items.push(self.node(column)?);
            } else {
                items.push(scalar(rest)?);
                self.at += 1;
                self.ends_line(indent)?;
            }
        }
        Some(Tree::Seq(items))
    }

    /// A block map whose keys are at column `indent`.
    fn map(&mut self, indent: usize) -> Option<Tree<'t>> {
        let mut keys = Keys::merging(true);
        while let Some(line) = self.lines.get(self.at) {
            if line.indent < indent {
                break;
            }
            if line.indent > indent || is_dash(line.content) {
                return None;
            }
            let (key, rest) = entry(line.content)?;
            if keys.seen(key) {
                return None; // libyaml's path words the error
            }
            self.at += 1;
            let value = if rest.is_empty() {
                self.nested(indent, true)?
            } else {
                let value = scalar(rest)?;
                self.ends_line(indent)?;
                value
            };
            keys.push(Cow::Borrowed(key), value);
        }
        // A null member is absent, as the reader drops it.
        Some(keys.into_map())
    }

    /// The value of a key or dash with nothing after it on its line, at `indent`: a node on
    /// the lines below, indented further (or, for a key, a sequence at the key's own column),
    /// else null.
    fn nested(&mut self, indent: usize, sequence_here: bool) -> Option<Tree<'t>> {
        match self.lines.get(self.at) {
            Some(line) if line.indent > indent => self.node(line.indent),
            Some(line) if sequence_here && line.indent == indent && is_dash(line.content) => {
                self.sequence(indent)
            }
            _ => Some(Tree::Null),
        }
    }

    /// After a scalar that ended a line: the next line must not be indented past `indent`
    /// (it would continue the scalar, or be an error).
    fn ends_line(&self, indent: usize) -> Option<()> {
        match self.lines.get(self.at) {
            Some(line) if line.indent > indent => None,
            _ => Some(()),
        }
    }
}

/// Whether a line's content is a sequence entry (`-` alone, or `- ` and more).
fn is_dash(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// `key: rest` or `key:` split into the key and what follows it (without leading spaces); `None`
/// for anything that is not a plain key this reader takes.
fn entry(content: &str) -> Option<(&str, &str)> {
    let bytes = content.as_bytes();
    let colon = (0..bytes.len())
        .find(|&i| bytes[i] == b':' && bytes.get(i + 1).is_none_or(|&b| b == b' '))?;
    let key = &content[..colon];
    let plain_key = key
        .bytes()
        .next()
        .is_some_and(|b| !is_indicator(b) && b != b'-')
        && key.len() <= MAX_KEY
        && !key.ends_with(' ')
        && !key.bytes().any(|b| matches!(b, b'#' | b'"' | b'\''));
    plain_key.then(|| (key, content[colon + 1..].trim_start_matches(' ')))
}

/// Characters that start something other than a plain scalar, or that this reader leaves to
/// libyaml when they start one (`?` and `:` followed by a character, `<` of a merge key).
fn is_indicator(b: u8) -> bool {
    matches!(
        b,
        b'?' | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
            | b'<'
    )
}

/// The value written on a line after a key or a dash (not empty, no trailing spaces).
fn scalar(text: &str) -> Option<Tree<'_>> {
    match text.as_bytes()[0] {
        b'"' => {
            let inner = text.strip_prefix('"')?.strip_suffix('"')?;
            (!inner.contains(['"', '\\'])).then_some(Tree::Str(Cow::Borrowed(inner)))
        }
        b'\'' => single_quoted(text.strip_prefix('\'')?.strip_suffix('\'')?),
        b'{' => (text == "{}").then(|| Tree::Map(Vec::new())),
        b'[' => (text == "[]").then(|| Tree::Seq(Vec::new())),
        b if is_indicator(b) => None,
        _ if is_dash(text) => None,
        _ => plain(text),
    }
}

/// The inside of a single-quoted scalar on one line: `''` is a quote; a lone quote would end
/// the scalar before the line's end (left to libyaml).
fn single_quoted(inner: &str) -> Option<Tree<'_>> {
    if !inner.contains('\'') {
        return Some(Tree::Str(Cow::Borrowed(inner)));
    }
    let mut out = String::with_capacity(inner.len());
    for (k, part) in inner.split("''").enumerate() {
        if part.contains('\'') {
            return None;
        }
        if k > 0 {
            out.push('\'');
        }
        out.push_str(part);
    }
    Some(Tree::Str(Cow::Owned(out)))
}

/// A plain scalar, resolved as serde_yaml_ng resolves it; `None` for one this reader leaves to
/// libyaml (one that holds a comment, a `: `, flow indicators, or may be a float or a
/// non-decimal integer).
fn plain(text: &str) -> Option<Tree<'_>> {
    if text.ends_with(':') || text.contains(": ") || text.contains(['#', ',', '[', ']', '{', '}']) {
        return None;
    }
    match text {
        "~" | "null" | "Null" | "NULL" => return Some(Tree::Null),
        "true" | "True" | "TRUE" => return Some(Tree::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Tree::Bool(false)),
        _ => {}
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // A decimal integer (`-0` is 0). YAML 1.2 reads a leading zero as a string, and
        // serde_yaml_ng reads one past 64 bits as a wider number; both are left to libyaml.
        if digits.len() > 1 && digits.starts_with('0') {
            return None;
        }
        return if negative {
            text.parse::<i64>().ok().map(Tree::int)
        } else {
            text.parse::<u64>().ok().map(Tree::U64)
        };
    }
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let maybe_number = unsigned.starts_with('.')
        || ["0x", "0o", "0b"].iter().any(|p| unsigned.starts_with(p))
        || text.parse::<f64>().is_ok()
        || text
            .strip_prefix('+')
            .is_some_and(|rest| rest.parse::<f64>().is_ok());
    (!maybe_number).then_some(Tree::Str(Cow::Borrowed(text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn s(v: &str) -> Tree<'_> {
        Tree::Str(Cow::Borrowed(v))
    }

    fn map<'t>(entries: Vec<(&'t str, Tree<'t>)>) -> Tree<'t> {
        Tree::Map(
            entries
                .into_iter()
                .map(|(k, v)| (Cow::Borrowed(k), v))
                .collect(),
        )
    }

    #[test]
    fn reads_a_kubectl_pod_item_as_worked_out_by_hand() {
        let text = "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web-0\n    labels: {}\n    annotations:\n      note: 'it''s \"fine\"'\n      empty: \"\"\n    generation: 3\n    uid: ~\n  spec:\n    containers:\n    - image: registry.k8s.io/pause:3.1\n      name: pause\n      args:\n      - --v=-1\n      - -7\n      - 0\n      resources:\n        requests:\n          cpu: 100m\n          memory: 1e3Mi\n    hostNetwork: false\n    tolerations: []\n\n    # a comment\n    priority: 1000000000\n";
        let expected = Tree::Seq(vec![map(vec![
            ("apiVersion", s("v1")),
            ("kind", s("Pod")),
            (
                "metadata",
                map(vec![
                    ("name", s("web-0")),
                    ("labels", Tree::Map(Vec::new())),
                    (
                        "annotations",
                        map(vec![("note", s("it's \"fine\"")), ("empty", s(""))]),
                    ),
                    ("generation", Tree::U64(3)),
                ]),
            ),
            (
                "spec",
                map(vec![
                    (
                        "containers",
                        Tree::Seq(vec![map(vec![
                            ("image", s("registry.k8s.io/pause:3.1")),
                            ("name", s("pause")),
                            (
                                "args",
                                Tree::Seq(vec![s("--v=-1"), Tree::I64(-7), Tree::U64(0)]),
                            ),
                            (
                                "resources",
                                map(vec![(
                                    "requests",
                                    map(vec![("cpu", s("100m")), ("memory", s("1e3Mi"))]),
                                )]),
                            ),
                        ])]),
                    ),
                    ("hostNetwork", Tree::Bool(false)),
                    ("tolerations", Tree::Seq(Vec::new())),
                    ("priority", Tree::U64(1_000_000_000)),
                ]),
            ),
        ])]);
        assert_eq!(parse(text), Some(expected.clone()));
        assert_eq!(libyaml(text), Some(expected));
    }

    #[test]
    fn block_layouts_read_as_libyaml_reads_them() {
        for text in [
            // A sequence under a key at the key's own column, then the next key.
            "a:\n- x\n- y\nb: 1\n",
            // A dash alone, with its map below, and a dash alone with nothing: null.
            "-\n  a: 1\n-\n- b\n",
            // A compact map whose keys sit past the dash by more than one space.
            "-   a: 1\n    b:\n    - c\n-   d: -x\n",
            // A key with nothing under it is null, and dropped from its map.
            "a:\nb: 2\nc:\n",
            "- a:\n- x\n",
            // Scalars: colons inside, quotes inside, the special words.
            "a: x:y\nb: it's\nc: ~\nd: Null\ne: TRUE\nf: yes\ng: 'no'\nh: \"0755\"\ni: -0\nk: 1.2.3\n",
            "top:\n  nested:\n    deeper:\n      - 1\n      - two\n  back: here\n",
        ] {
            let fast = parse(text);
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast, libyaml(text), "{text}");
        }
    }

    #[test]
    fn a_key_is_read_here_up_to_its_limit_only() {
        // Found by the block_yaml fuzz target: libyaml refuses a key past 1024 characters.
        let short = format!("{}: 1\n", "k".repeat(MAX_KEY));
        assert!(parse(&short).is_some());
        assert_eq!(parse(&short), libyaml(&short));
        let long = format!("a:\n-\n{}:\n  b: 1\n", "k".repeat(1100));
        assert_eq!(libyaml(&long), None);
        assert_eq!(parse(&long), None);
    }

    #[test]
    fn anything_unsure_is_left_to_libyaml() {
        for text in [
            "a: 1 # a comment\n",        // a comment after a value
            "a: &x 1\n",                 // an anchor
            "a: !!str 1\n",              // a tag
            "a: |\n  text\n",            // a block scalar
            "a: >-\n  text\n",           // a folded scalar
            "a: one\n  two\n",           // a plain scalar on two lines
            "a: \"one\n  two\"\n",       // a quoted one on two lines
            "a: \"\\t\"\n",              // an escape
            "a: {b: 1}\n",               // a flow map
            "a: [1, 2]\n",               // a flow sequence
            "\"a\": 1\n",                // a quoted key
            "? a\n: 1\n",                // a complex key
            "a: 1\na: 2\n",              // a key given twice
            "a:\tb\n",                   // a tab
            "a: b\r\n",                  // a carriage return
            "a: caf\u{e9}\n",            // non-ASCII
            "a: 1.5\n",                  // a float
            "a: .inf\n",                 // an infinity
            "a: 0x1F\n",                 // a hexadecimal integer
            "a: 007\n",                  // a leading zero (a string, left to libyaml)
            "a: +5\n",                   // a sign
            "a: 1e3\n",                  // an exponent
            "a: inf\n",                  // a float to Rust, a string to serde_yaml_ng
            "a: 99999999999999999999\n", // past 64 bits
            "a: b: c\n",                 // an error
            "a: b:\n",                   // an error
            "a:\n    b: 1\n  c: 2\n",    // a dedent to no column in use
            "a: 1\n- b\n",               // a dash where a key is expected
            "- - a\n",                   // a sequence in a sequence on one line
            "a:\n  just text\n",         // a scalar below its key
            "---\na: 1\n",               // a document marker
            "",                          // nothing
        ] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }

    /// A value to write as block YAML.
    #[derive(Clone, Debug)]
    enum Value {
        Scalar(String),
        Map(Vec<(String, Value)>),
        Seq(Vec<Value>),
    }

    fn value() -> impl Strategy<Value = Value> {
        let scalar = "[a-z0-9 ._/:#'\"~+-]{0,7}".prop_map(Value::Scalar);
        scalar.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(("[a-z0-9._/:'-]{1,4}", inner.clone()), 1..4)
                    .prop_map(Value::Map),
                prop::collection::vec(inner, 1..4).prop_map(Value::Seq),
            ]
        })
    }

    /// How a value is written: quoting of each scalar (plain, single, double, by the scalar's
    /// position), the indentation step, and whether a sequence under a key is indented.
    #[derive(Clone, Copy, Debug)]
    struct Style {
        quoting: u8,
        step: usize,
        indent_sequences: bool,
    }

    fn write_scalar(v: &str, style: Style, at: usize) -> String {
        match (style.quoting as usize + at) % 3 {
            0 => v.to_string(),
            1 => format!("'{}'", v.replace('\'', "''")),
            _ => format!("\"{v}\""),
        }
    }

    /// Writes `value` as the content of a node at column `col`, `out` holding the start of its
    /// line (a key and colon, or a dash) or nothing.
    fn write(value: &Value, col: usize, style: Style, out: &mut String, inline: bool) {
        let pad = |n: usize| " ".repeat(n);
        match value {
            Value::Scalar(v) => {
                out.push_str(if inline { " " } else { "" });
                out.push_str(&write_scalar(v, style, col + v.len()));
                out.push('\n');
            }
            Value::Map(entries) => {
                for (k, (key, v)) in entries.iter().enumerate() {
                    if k > 0 || !inline {
                        out.push_str(&pad(col));
                    } else {
                        out.push(' ');
                    }
                    out.push_str(key);
                    out.push(':');
                    match v {
                        Value::Scalar(_) => write(v, col, style, out, true),
                        Value::Map(_) => {
                            out.push('\n');
                            write(v, col + style.step, style, out, false);
                        }
                        Value::Seq(_) => {
                            out.push('\n');
                            let at = col
                                + if style.indent_sequences {
                                    style.step
                                } else {
                                    0
                                };
                            write(v, at, style, out, false);
                        }
                    }
                }
            }
            Value::Seq(items) => {
                if inline {
                    out.push('\n');
                }
                for item in items {
                    out.push_str(&pad(col));
                    out.push('-');
                    match item {
                        Value::Seq(_) => {
                            out.push('\n');
                            write(item, col + style.step, style, out, false);
                        }
                        _ => write(item, col + 2, style, out, true),
                    }
                }
            }
        }
    }

    fn style() -> impl Strategy<Value = Style> {
        (0u8..3, 1usize..4, any::<bool>()).prop_map(|(quoting, step, indent_sequences)| Style {
            quoting,
            step,
            indent_sequences,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Whatever this reader takes, libyaml takes too and reads as the same tree.
        #[test]
        fn what_it_reads_is_what_libyaml_reads(value in value(), style in style()) {
            let mut text = String::new();
            write(&value, 0, style, &mut text, false);
            if let Some(fast) = parse(&text) {
                prop_assert_eq!(Some(fast), libyaml(&text), "{}", text);
            }
        }

        /// The same for a written value with one character inserted or removed somewhere:
        /// what this reader takes, libyaml reads the same; what libyaml refuses, this reader
        /// refuses too.
        #[test]
        fn a_damaged_text_is_read_as_libyaml_reads_it(
            value in value(),
            style in style(),
            at in any::<prop::sample::Index>(),
            insert in prop::option::of(prop::sample::select(
                vec![' ', '\n', ':', '-', '#', '\'', '"', '{', '}', '[', ']', '&', '*', '|', '>', '?', 'a', '0', '.'],
            )),
        ) {
            let mut text = String::new();
            write(&value, 0, style, &mut text, false);
            let k = at.index(text.len() + 1).min(text.len());
            match insert {
                Some(c) => text.insert(k, c),
                None if k < text.len() => {
                    text.remove(k);
                }
                None => {}
            }
            if let Some(fast) = parse(&text) {
                prop_assert_eq!(Some(fast), libyaml(&text), "{}", text);
            }
        }
    }

    #[test]
    fn written_values_of_plain_words_are_read_here() {
        // The writer above, on words no rule sends to libyaml: this reader must take them
        // (else the properties above would hold for a reader that takes nothing).
        let value = Value::Map(vec![
            ("a".into(), Value::Scalar("x".into())),
            (
                "b".into(),
                Value::Seq(vec![
                    Value::Scalar("y".into()),
                    Value::Map(vec![
                        ("c".into(), Value::Scalar("z:w".into())),
                        ("d".into(), Value::Seq(vec![Value::Scalar("v".into())])),
                    ]),
                    Value::Seq(vec![Value::Scalar("u".into())]),
                ]),
            ),
        ]);
        for quoting in 0..3 {
            for step in 1..4 {
                for indent_sequences in [false, true] {
                    let style = Style {
                        quoting,
                        step,
                        indent_sequences,
                    };
                    let mut text = String::new();
                    write(&value, 0, style, &mut text, false);
                    let fast = parse(&text);
                    assert!(fast.is_some(), "{text}");
                    assert_eq!(fast, libyaml(&text), "{text}");
                }
            }
        }
    }
}
