//! A large JSON or YAML list read on several threads: its items are found by a scan of the
//! text, parsed and converted to their objects in chunks on the pool of [`crate::parallel`],
//! and put back together in item order, so the result is the one the file gives on one thread
//! (`read_json_list`, or `split_documents` and `read_document`): the same objects in the same
//! order, the same warnings and errors. A YAML item written as kubectl writes it is read by
//! [`block_yaml`], any other by libyaml; a YAML list takes this path on one thread too.
//!
//! Only a plain list takes this path: a top-level map whose `items` is a sequence of maps (in
//! YAML, a block sequence in one document without aliases), each item and the rest of the
//! document valid on its own. Anything else, and every item that does not parse (a syntax
//! error, a repeated key), returns `None` and the caller reads the file on one thread, which
//! words the error with its line as before.

use super::block_yaml;
use super::parse::{self, Context, ItemSink};
use super::tree::Tree;
use super::{
    find_either, make_room, read_item, Diagnostic, Inputs, Source, FLOW_BYTES, MAX_OBJECTS,
};
use std::ops::Range;

/// Fewest items worth sharing out (below, one thread reads the list as it parses it).
pub(super) const MIN_ITEMS: usize = 2_000;

/// Chunks per thread, so that a thread that finishes early takes another.
const CHUNKS_PER_THREAD: usize = 4;

/// Deepest nesting this path takes; deeper files go the sequential way, whose parser counts
/// the whole document's depth (an item parsed alone starts two levels higher).
const MAX_DEPTH: usize = 100;

/// Where a JSON document's top-level `items` sequence and its items are.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ItemsLayout {
    /// The `[` of `items`.
    pub open: usize,
    /// The `]` of `items`.
    pub close: usize,
    /// Each item, `{` to `}`.
    pub items: Vec<Range<usize>>,
}

/// Finds the top-level `items` sequence and its items, when the document is a map whose
/// `items` holds only maps, separated by commas. `None` for anything else (which the
/// sequential reader then reads, or refuses with its own message).
pub(super) fn items_layout(text: &str) -> Option<ItemsLayout> {
    let bytes = text.as_bytes();
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[first] != b'{' {
        return None;
    }
    let mut depth = 0usize;
    let mut open = None;
    let mut close = None;
    let mut items = Vec::new();
    let mut item_start = 0;
    let mut i = first;
    while let Some(&b) = bytes.get(i) {
        let inside = open.is_some() && close.is_none();
        match b {
            b'"' => {
                if inside && depth == 2 {
                    return None; // a string item
                }
                i += 1;
                loop {
                    let rest = bytes.get(i..).unwrap_or_default();
                    match find_either(rest, b'"', b'\\') {
                        None => return None,
                        Some(k) if rest[k] == b'\\' => i += k + 2,
                        Some(k) => {
                            i += k + 1;
                            break;
                        }
                    }
                }
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return None;
                }
                if depth == 2 && b == b'[' && open.is_none() && follows_items_key(bytes, i) {
                    open = Some(i);
                } else if inside && depth == 3 {
                    if b != b'{' {
                        return None; // a sequence item
                    }
                    item_start = i;
                }
            }
            b']' | b'}' => {
                if inside && depth == 3 {
                    if b != b'}' {
                        return None;
                    }
                    items.push(item_start..i + 1);
                } else if inside && depth == 2 {
                    if b != b']' {
                        return None;
                    }
                    close = Some(i);
                }
                depth = depth.checked_sub(1)?;
            }
            b'\'' => {}
            _ => {
                let rest = &bytes[i..];
                i += rest
                    .iter()
                    .position(|&c| FLOW_BYTES[usize::from(c)] && c != b'\'')
                    .unwrap_or(rest.len());
                continue;
            }
        }
        i += 1;
    }
    let (open, close) = (open?, close?);
    // Between the items: blanks and one comma each, nothing else (no scalars, no trailing
    // comma); the parsers check the rest.
    let mut from = open + 1;
    for (k, item) in items.iter().enumerate() {
        let gap = text.get(from..item.start)?.trim_matches(is_json_blank);
        if gap != if k == 0 { "" } else { "," } {
            return None;
        }
        from = item.end;
    }
    if !text
        .get(from..close)?
        .trim_matches(is_json_blank)
        .is_empty()
    {
        return None;
    }
    Some(ItemsLayout { open, close, items })
}

/// JSON's whitespace (space, tab, line feed, carriage return).
fn is_json_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// Whether the `[` at `at` opens the value of a key `"items"` that follows `{` or `,`.
fn follows_items_key(bytes: &[u8], at: usize) -> bool {
    let before = |end: usize| bytes[..end].iter().rposition(|b| !b.is_ascii_whitespace());
    let Some(colon) = before(at).filter(|&k| bytes[k] == b':') else {
        return false;
    };
    let Some(quote) = before(colon) else {
        return false;
    };
    let key = b"\"items\"";
    if quote + 1 < key.len() || &bytes[quote + 1 - key.len()..=quote] != key {
        return false;
    }
    matches!(
        before(quote + 1 - key.len()).map(|k| bytes[k]),
        Some(b'{' | b',')
    )
}

/// What one thread read of a chunk of items.
struct Part {
    inputs: Inputs,
    errors: Vec<Diagnostic>,
}

/// Where a plain list's items are, in JSON or in YAML.
enum Layout {
    Json(ItemsLayout),
    Yaml(YamlLayout),
}

/// What a plain list says of its items: the kind they take when they have none (a `PodList`'s
/// items are pods), and the apiVersion that comes with it.
struct Head {
    item_kind: Option<String>,
    api_version: Option<Tree<'static>>,
}

/// A file's text without its byte-order mark, the offsets of a [`Layout`] count from; `None`
/// for a file past the size limit (which the sequential reader refuses).
fn body(text: &str) -> Option<&str> {
    (text.len() <= super::MAX_FILE_BYTES).then(|| text.trim_start_matches('\u{feff}'))
}

/// A plain list's items and head; `None` for anything else (see the module documentation).
fn plan(text: &str) -> Option<(Layout, Head)> {
    if super::looks_like_json(text) {
        let layout = items_layout(text)?;
        if !(MIN_ITEMS..=MAX_OBJECTS).contains(&layout.items.len()) {
            return None;
        }
        // The document around the items, with `items: []`: its kind and apiVersion.
        let outer = format!("{}{}", &text[..=layout.open], &text[layout.close..]);
        let ctx = Context::default();
        let mut sink = Streaming(false);
        let doc = parse::json_document(&outer, &ctx, &mut sink).ok()?;
        if !sink.0 {
            return None;
        }
        Some((Layout::Json(layout), head(&doc)?))
    } else {
        let layout = yaml_items_layout(text)?;
        if !(MIN_ITEMS..=MAX_OBJECTS).contains(&layout.items.len())
            || super::flow_depth(text) > super::MAX_NESTING
        {
            return None;
        }
        let outer = format!("{}items: []\n{}", &text[..layout.key], &text[layout.end..]);
        let doc = parse::yaml_tree(&outer, &Context::default())?;
        if doc.get("items") != Some(&Tree::Seq(Vec::new())) {
            return None;
        }
        Some((Layout::Yaml(layout), head(&doc)?))
    }
}

/// The head of a list document; `None` when its kind is not a list's.
fn head(doc: &Tree) -> Option<Head> {
    let kind = doc.get("kind").and_then(Tree::as_str)?;
    if kind != "List" && !kind.ends_with("List") {
        return None;
    }
    Some(Head {
        item_kind: kind
            .strip_suffix("List")
            .filter(|k| !k.is_empty())
            .map(str::to_string),
        api_version: doc.get("apiVersion").cloned().map(Tree::into_owned),
    })
}

impl Layout {
    fn len(&self) -> usize {
        match self {
            Layout::Json(layout) => layout.items.len(),
            Layout::Yaml(layout) => layout.items.len(),
        }
    }

    /// Parses item `index` of `text` and hands its tree to `read`; `None` when it does not
    /// parse (the sequential reader words the error).
    fn parse_item(&self, text: &str, index: usize, ctx: &Context, read: Reader) -> Option<()> {
        match self {
            Layout::Json(layout) => {
                read(parse::json_tree(&text[layout.items[index].clone()], ctx).ok()?);
            }
            Layout::Yaml(layout) => {
                let range = layout.items[index].clone();
                if let Some(Tree::Seq(mut one)) = block_yaml::parse(&text[range.clone()]) {
                    if let (1, Some(item @ Tree::Map(_))) = (one.len(), one.pop()) {
                        read(item);
                        return Some(());
                    }
                }
                // The item as a document of its own: its dash made a space, so that its lines
                // keep their columns.
                let mut item = String::with_capacity(range.len() + layout.indent + 1);
                item.extend(std::iter::repeat_n(' ', layout.indent + 1));
                item.push_str(&text[range.start + layout.indent + 1..range.end]);
                let tree = parse::yaml_tree(&item, ctx)?;
                if !matches!(tree, Tree::Map(_)) || depth(&tree) > MAX_DEPTH {
                    return None;
                }
                read(tree);
            }
        }
        Some(())
    }

    /// Reads items `range` of the list in `text` into a part of their own.
    fn read_chunk(&self, file: &str, text: &str, head: &Head, range: Range<usize>) -> Option<Part> {
        let ctx = Context::default();
        let mut part = Part {
            inputs: Inputs::default(),
            errors: Vec::new(),
        };
        // Objects read (the limit is checked for the whole list, before sharing it out).
        let mut count = 0;
        for index in range.clone() {
            let mut read = |item: Tree| {
                if index == range.start {
                    make_room(&mut part.inputs, &item, range.end - index);
                }
                read_item(
                    file,
                    format!("items[{index}]"),
                    item,
                    head.item_kind.as_deref(),
                    &head.api_version,
                    &mut part.inputs,
                    &mut part.errors,
                    &mut count,
                );
            };
            self.parse_item(text, index, &ctx, &mut read)?;
        }
        Some(part)
    }
}

/// Reads a list's items on the pool's threads; `None` when the file is not a plain list (see
/// the module documentation), or is JSON and the pool has one thread (the streaming reader is
/// as quick then), and the caller reads it alone. A YAML list takes this path on one thread
/// too, for [`block_yaml`]'s quick reading of each item.
pub(super) fn read_in_parallel(src: &Source) -> Option<(Inputs, Vec<Diagnostic>)> {
    let threads = crate::parallel::threads();
    let text = body(src.text)?;
    if threads < 2 && super::looks_like_json(text) {
        return None;
    }
    let (layout, head) = plan(text)?;
    let n = layout.len();
    let chunk = n.div_ceil(threads * CHUNKS_PER_THREAD).max(1);
    let chunks: Vec<Range<usize>> = (0..n)
        .step_by(chunk)
        .map(|start| start..(start + chunk).min(n))
        .collect();
    let parts = crate::parallel::map(&chunks, |range| {
        layout.read_chunk(src.name, text, &head, range.clone())
    });
    let mut parts = parts
        .into_iter()
        .collect::<Option<Vec<Part>>>()?
        .into_iter();
    let Part {
        mut inputs,
        mut errors,
    } = parts.next()?;
    let rest: Vec<Part> = parts.collect();
    // Room for all at once, so the first part's vectors are not copied again as they grow.
    inputs
        .pods
        .reserve(rest.iter().map(|p| p.inputs.pods.len()).sum());
    inputs
        .nodes
        .reserve(rest.iter().map(|p| p.inputs.nodes.len()).sum());
    for part in rest {
        inputs.append(part.inputs);
        errors.extend(part.errors);
    }
    Some((inputs, errors))
}

/// A large plain list read a few items at a time, for a caller that must not stop for long
/// (the page reads between frames). The result is [`super::read_source`]'s for the same text.
pub struct ListReader {
    name: String,
    text: String,
    layout: Layout,
    head: Head,
    /// The next item to read.
    next: usize,
    inputs: Inputs,
    errors: Vec<Diagnostic>,
}

impl ListReader {
    /// A reader of `text`, when it is a plain list of 2000 items or more; `None` for anything
    /// else, which [`super::read_source`] reads at once.
    pub fn new(name: &str, text: &str) -> Option<ListReader> {
        let (layout, head) = plan(body(text)?)?;
        Some(ListReader {
            name: name.to_string(),
            text: text.to_string(),
            layout,
            head,
            next: 0,
            inputs: Inputs::default(),
            errors: Vec::new(),
        })
    }

    /// The file's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The items read so far, and how many the list has.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.layout.len())
    }

    /// Reads up to `items` more items: `Some(true)` once all are read, `None` when one does not
    /// parse (then read the text with [`super::read_source`], which words the error).
    pub fn read_some(&mut self, items: usize) -> Option<bool> {
        let end = (self.next + items.max(1)).min(self.layout.len());
        let part =
            self.layout
                .read_chunk(&self.name, body(&self.text)?, &self.head, self.next..end)?;
        self.inputs.append(part.inputs);
        self.errors.extend(part.errors);
        self.next = end;
        Some(end == self.layout.len())
    }

    /// What the list read to: its objects, or its errors (with their lines).
    pub fn finish(self) -> Result<Inputs, Vec<Diagnostic>> {
        let src = Source {
            name: &self.name,
            text: &self.text,
        };
        super::finish(&src, self.inputs, self.errors)
    }
}

/// Notes whether the document's `items` was a sequence (it holds none here: they were cut out).
struct Streaming(bool);

impl<'t> ItemSink<'t> for Streaming {
    fn item(&mut self, _: usize, _: Tree<'t>) {}
    fn streaming(&mut self) {
        self.0 = true;
    }
}

/// How deeply a tree nests (a scalar is 0).
fn depth(tree: &Tree) -> usize {
    match tree {
        Tree::Seq(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Tree::Map(entries) => 1 + entries.iter().map(|(_, v)| depth(v)).max().unwrap_or(0),
        _ => 0,
    }
}

/// Where a YAML list's `items` and its items are (see [`yaml_items_layout`]).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct YamlLayout {
    /// The start of the `items:` line.
    pub key: usize,
    /// The end of the last item (the start of the line after it).
    pub end: usize,
    /// The column of the items' dashes.
    pub indent: usize,
    /// Each item, from the start of its dash's line to the start of the next item's.
    pub items: Vec<Range<usize>>,
}

/// Finds the items of a YAML document's top-level `items:` block sequence, in a file of one
/// document without directives, document markers or aliases (`*`), where `items:` starts a
/// line and is alone on it. An item runs from a line whose first character at the dashes'
/// column is `-` to the next such line; the sequence ends at the first other line (not blank,
/// not a comment) that is not indented past the dashes.
pub(super) fn yaml_items_layout(text: &str) -> Option<YamlLayout> {
    if text.contains('*') {
        return None;
    }
    let mut key = None;
    let mut indent = None;
    let mut items = Vec::new();
    let mut end = None;
    // The end of the last line that belongs to the sequence (where it ends at the file's end).
    let mut last_line_end = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.starts_with("---") || content.starts_with("...") || content.starts_with('%') {
            return None;
        }
        let trimmed = content.trim_start_matches(' ');
        let blank = trimmed.is_empty() || trimmed.starts_with('#');
        if key.is_none() {
            if let Some(rest) = content.strip_prefix("items:") {
                let rest = rest.trim_start_matches(' ');
                if !(rest.is_empty() || rest.starts_with('#')) {
                    return None;
                }
                key = Some(start);
            }
            continue;
        }
        if end.is_some() {
            if content.starts_with("items:") {
                return None; // given twice: the reader on one thread says so
            }
            continue;
        }
        if blank {
            continue;
        }
        let column = content.len() - trimmed.len();
        let dash = trimmed == "-" || trimmed.starts_with("- ");
        match indent {
            None if dash => {
                indent = Some(column);
                items.push(start..start);
            }
            None => return None,
            Some(k) if column == k && dash => items.push(start..start),
            Some(k) if column > k => {}
            Some(_) => {
                end = Some(start);
                continue;
            }
        }
        last_line_end = at;
    }
    let key = key?;
    let end = end.unwrap_or(last_line_end);
    // An item runs to the next one's start (blank lines and comments between are its own).
    for k in 1..items.len() {
        items[k - 1].end = items[k].start;
    }
    if let Some(last) = items.last_mut() {
        last.end = end;
    }
    Some(YamlLayout {
        key,
        end,
        indent: indent?,
        items,
    })
}

/// What an item's tree is handed to once parsed.
type Reader<'r> = &'r mut dyn for<'a> FnMut(Tree<'a>);

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(text: &str) -> Option<Vec<&str>> {
        let layout = items_layout(text)?;
        assert_eq!(&text[layout.open..=layout.open], "[");
        assert_eq!(&text[layout.close..=layout.close], "]");
        Some(layout.items.into_iter().map(|r| &text[r]).collect())
    }

    #[test]
    fn finds_the_items_of_a_plain_list() {
        let text = r#" {"kind": "List", "items" : [ {"a": "}]"}, {"b": [1, {"c": 2}]} ], "x": [{"d": 1}]}"#;
        assert_eq!(
            ranges(text),
            Some(vec![r#"{"a": "}]"}"#, r#"{"b": [1, {"c": 2}]}"#])
        );
        assert_eq!(ranges(r#"{"items": []}"#), Some(vec![]));
        // Escaped quotes inside strings do not end them.
        assert_eq!(
            ranges(r#"{"items": [{"a": "\"}"}]}"#),
            Some(vec![r#"{"a": "\"}"}"#])
        );
    }

    #[test]
    fn anything_but_a_plain_list_is_left_to_the_sequential_reader() {
        for text in [
            r#"[{"items": [{"a": 1}]}]"#,             // not a map
            r#"{"metadata": {"items": [{"a": 1}]}}"#, // not top-level
            r#"{"xitems": [{"a": 1}]}"#,              // another key
            r#"{"items": [{"a": 1}, "s"]}"#,          // a string item
            r#"{"items": [{"a": 1}, 3]}"#,            // a number item
            r#"{"items": [{"a": 1}, [2]]}"#,          // a sequence item
            r#"{"items": [{"a": 1},, {"b": 2}]}"#,    // two commas
            r#"{"items": [{"a": 1} {"b": 2}]}"#,      // no comma
            r#"{"items": [{"a": 1},]}"#,              // a trailing comma
            r#"{"items": [{"a": 1}"#,                 // unterminated
            r#"{"items": [{"a": "1}]}"#,              // unterminated string
            r#"{"items": [{"a": 1]}]}"#,              // mismatched brackets
        ] {
            assert_eq!(items_layout(text), None, "{text}");
        }
    }

    /// A list of `n` items: pods with their own kind, and at the indices given, the odd ones.
    #[cfg(feature = "parallel")]
    fn list(n: usize, odd: &[(usize, &str)], tail: &str) -> String {
        let items: Vec<String> = (0..n)
            .map(|i| match odd.iter().find(|(at, _)| *at == i) {
                Some((_, item)) => item.to_string(),
                None => format!(
                    r#"{{"apiVersion": "v1", "kind": "Pod", "metadata": {{"name": "p{i}", "namespace": null}},
  "spec": {{"containers": [{{"name": "c", "resources": {{"requests": {{"cpu": "100m"}}}}}}]}}}}"#
                ),
            })
            .collect();
        format!(
            "{{\"kind\": \"List\", \"items\": [\n{}\n]{tail}}}",
            items.join(",\n")
        )
    }

    /// `read_source` on `threads` threads, printed (objects, warnings and errors), and whether
    /// it took this module's path.
    #[cfg(feature = "parallel")]
    fn read(text: &str, threads: usize) -> (bool, String) {
        let src = Source {
            name: "pods.json",
            text,
        };
        crate::parallel::with_threads(threads, || {
            let shared = read_in_parallel(&src).is_some();
            (shared, format!("{:?}", super::super::read_source(&src)))
        })
        .expect("a pool")
    }

    /// What a [`ListReader`] gives reading `step` items at a time, printed as [`read`] prints
    /// it; `None` when it does not take the text, or stops at an item that does not parse.
    #[cfg(feature = "parallel")]
    fn in_steps(text: &str, step: usize) -> Option<String> {
        let mut reader = ListReader::new("pods.json", text)?;
        let mut steps = 0;
        while !reader.read_some(step)? {
            steps += 1;
            assert_eq!(reader.progress().0, steps * step);
        }
        Some(format!("{:?}", reader.finish()))
    }

    /// What the sequential reader gives, printed as [`read`] prints it.
    #[cfg(feature = "parallel")]
    fn sequential(text: &str) -> String {
        let src = Source {
            name: "pods.json",
            text,
        };
        let (inputs, errors) = super::super::read_one_thread(&src);
        format!("{:?}", super::super::finish(&src, inputs, errors))
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_list_read_on_two_threads_is_the_list_read_on_one() {
        let odd = [
            (
                7,
                r#"{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n7"}}"#,
            ),
            (
                900,
                r#"{"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "cm"}}"#,
            ),
            (
                1500,
                r#"{"kind": "ReplicaSet", "apiVersion": "extensions/v1beta1", "metadata": {"name": "rs"}, "spec": {"selector": {"matchLabels": {"a": "b"}}}}"#,
            ),
            (
                2999,
                r#"{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "last"}, "spec": {"containers": [{"name": "c"}]}}"#,
            ),
        ];
        let text = list(3000, &odd, "");
        let (shared, two) = read(&text, 2);
        assert!(shared, "a plain list of 3000 items is shared out");
        let (alone, one) = read(&text, 1);
        assert!(!alone);
        assert_eq!(one, two);
        assert_eq!(in_steps(&text, 333).as_ref(), Some(&two));
        // Worked out from the list: 2997 pods (3000 less the node, the ConfigMap and the
        // ReplicaSet), in input order; the ConfigMap skipped and the ReplicaSet's apiVersion
        // noted, in that order.
        let Ok(inputs) = super::super::read_source(&Source {
            name: "pods.json",
            text: &text,
        }) else {
            panic!("the list reads");
        };
        assert_eq!(inputs.pods.len(), 2997);
        assert_eq!(inputs.pods[7].1.path, "items[8]");
        assert_eq!(
            inputs.pods.last().map(|(p, _)| p.metadata.name.as_str()),
            Some("last")
        );
        assert_eq!(inputs.nodes.len(), 1);
        assert_eq!(inputs.replica_sets.len(), 1);
        let warned: Vec<&str> = inputs.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(warned, ["items[900]", "items[1500]"]);
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn errors_found_on_two_threads_are_those_found_on_one() {
        let bad_cpu = r#"{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "x"}, "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "12x"}}}]}}"#;
        let no_kind = r#"{"apiVersion": "v1", "metadata": {"name": "y"}}"#;
        let text = list(2500, &[(3, bad_cpu), (2400, no_kind)], "");
        let (shared, two) = read(&text, 2);
        assert!(shared);
        assert_eq!(read(&text, 1).1, two);
        assert_eq!(in_steps(&text, 1000).as_ref(), Some(&two));
        assert!(
            two.contains(r#"items[3].spec.containers[0].resources.requests.cpu"#),
            "{two}"
        );
        assert!(two.contains(r#"invalid quantity \"12x\""#));
        assert!(two.contains("items[2400]") && two.contains("missing kind"));
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn lists_that_are_not_plain_are_read_on_one_thread_with_the_same_result() {
        let dup = r#"{"kind": "Pod", "kind": "Pod", "metadata": {"name": "d"}}"#;
        let syntax = r#"{"kind": "Pod", "metadata": {"name": "s",}}"#;
        let kindless = r#"{"apiVersion": "v1", "metadata": {"name": "k"}, "spec": {"containers": [{"name": "c"}]}}"#;
        for (why, text) in [
            (
                "a key given twice in an item",
                list(2500, &[(2100, dup)], ""),
            ),
            (
                "a syntax error in an item",
                list(2500, &[(2100, syntax)], ""),
            ),
            (
                "a key given twice around the items",
                list(2500, &[], r#", "kind": "List""#),
            ),
            ("fewer items than are worth sharing", list(100, &[], "")),
        ] {
            let (shared, two) = read(&text, 2);
            assert!(!shared, "{why}");
            assert_eq!(read(&text, 1).1, two, "{why}");
            assert_eq!(in_steps(&text, 500), None, "{why}");
        }
        // A PodList whose items take its kind, and its apiVersion given after them.
        let text = list(2500, &[(5, kindless)], "")
            .replacen(r#""kind": "List""#, r#""kind": "PodList""#, 1)
            .replace("\n]}", "\n], \"apiVersion\": \"v1\"}");
        let (shared, two) = read(&text, 2);
        assert!(shared);
        assert_eq!(read(&text, 1).1, two);
        assert!(two.contains("name: \"k\""));
    }

    /// A YAML list of `n` pods, kubectl's way (dashes at `indent`), with the odd items given.
    #[cfg(feature = "parallel")]
    fn yaml_list(n: usize, indent: usize, odd: &[(usize, &str)], tail: &str) -> String {
        let pad = " ".repeat(indent);
        let items: String = (0..n)
            .map(|i| match odd.iter().find(|(at, _)| *at == i) {
                Some((_, item)) => item.lines().map(|l| format!("{pad}{l}\n")).collect(),
                // Every other item in flow style, which only libyaml reads.
                None if i % 2 == 1 => format!(
                    "{pad}- apiVersion: v1\n{pad}  kind: Pod\n{pad}  metadata:\n{pad}    name: p{i}\n{pad}    labels: {{app: \"x\"}}\n{pad}  spec:\n{pad}    containers:\n{pad}    - name: c\n{pad}      resources:\n{pad}        requests: {{cpu: 100m}}\n"
                ),
                None => format!(
                    "{pad}- apiVersion: v1\n{pad}  kind: Pod\n{pad}  metadata:\n{pad}    name: p{i}\n{pad}    labels:\n{pad}      app: 'x'\n{pad}  spec:\n{pad}    containers:\n{pad}    - name: c\n{pad}      resources:\n{pad}        requests:\n{pad}          cpu: 100m\n"
                ),
            })
            .collect();
        format!("apiVersion: v1\nitems:\n{items}{tail}")
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn a_yaml_list_read_on_two_threads_is_the_yaml_list_read_on_one() {
        let odd = [
            (5, "- kind: Node\n  apiVersion: v1\n  metadata: {name: n5}\n# a comment between items\n"),
            (900, "- {kind: ConfigMap, apiVersion: v1, metadata: {name: cm}}"),
            (1500, "- kind: Pod\n  apiVersion: v1\n  metadata:\n    name: bad\n  spec:\n    containers:\n    - name: c\n      resources: {requests: {cpu: 12x}}"),
            (1700, "- kind: Pod\n  apiVersion: v1\n  metadata:\n    name: bad-block\n  spec:\n    containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12x\n"),
            (2000, "-\n  kind: Pod\n  metadata:\n    name: dash-alone\n    annotations:\n      note: |\n        - not an item\n        items: neither\n  spec: {containers: [{name: c}]}"),
        ];
        for (indent, tail) in [
            (0, "kind: List\nmetadata: {resourceVersion: \"\"}\n"),
            (2, "kind: PodList\n"),
        ] {
            let text = yaml_list(2500, indent, &odd, tail);
            let (shared, two) = read(&text, 2);
            assert!(shared, "dashes at column {indent}");
            // On one thread too, for the quick reading of each item.
            assert_eq!(read(&text, 1), (true, two.clone()));
            assert_eq!(sequential(&text), two);
            assert_eq!(in_steps(&text, 700).as_ref(), Some(&two));
            assert!(two.contains("items[1500].spec.containers[0].resources.requests.cpu"));
            assert!(two.contains(r#"invalid quantity \"12x\""#));
            assert!(two.contains("items[1700].spec.containers[0].resources.requests.cpu"));
        }
        // Worked out from the list: 2498 pods, one node, the ConfigMap skipped with a warning;
        // a block item and a flow item read alike.
        let text = yaml_list(2500, 0, &odd[..2], "kind: List\n");
        let Ok(inputs) = super::super::read_source(&Source {
            name: "pods.yaml",
            text: &text,
        }) else {
            panic!("the list reads");
        };
        assert_eq!((inputs.pods.len(), inputs.nodes.len()), (2498, 1));
        for (k, name) in [(0, "p0"), (1, "p1")] {
            let pod = &inputs.pods[k].0;
            assert_eq!(pod.metadata.name, name);
            assert_eq!(
                pod.metadata.labels.get("app").map(String::as_str),
                Some("x")
            );
            assert_eq!(pod.spec.containers[0].resources.requests.0.get("cpu"), 100);
        }
        assert_eq!(inputs.warnings.len(), 1);
        assert_eq!(inputs.warnings[0].path, "items[900]");
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn yaml_lists_that_are_not_plain_are_read_on_one_thread_with_the_same_result() {
        let anchored = "- &a\n  kind: Pod\n  metadata: {name: anchored}\n- *a";
        let dup = "- kind: Pod\n  kind: Pod\n  metadata: {name: d}";
        let scalar = "- just a string";
        let tab = "- kind: Pod\n\tmetadata: {name: t}";
        for (why, text) in [
            (
                "an alias",
                yaml_list(2500, 0, &[(10, anchored)], "kind: List\n"),
            ),
            (
                "a key given twice",
                yaml_list(2500, 0, &[(10, dup)], "kind: List\n"),
            ),
            (
                "a scalar item",
                yaml_list(2500, 0, &[(10, scalar)], "kind: List\n"),
            ),
            ("a tab", yaml_list(2500, 0, &[(10, tab)], "kind: List\n")),
            (
                "two documents",
                yaml_list(2500, 0, &[], "kind: List\n---\nkind: Node\n"),
            ),
            (
                "items twice",
                yaml_list(2500, 0, &[], "kind: List\nitems: []\n"),
            ),
            ("not a list", yaml_list(2500, 0, &[], "kind: Pod\n")),
        ] {
            let (shared, two) = read(&text, 2);
            assert!(!shared, "{why}");
            assert_eq!(read(&text, 1), (false, two.clone()), "{why}");
            assert_eq!(sequential(&text), two, "{why}");
            assert_eq!(in_steps(&text, 700), None, "{why}");
        }
    }

    #[test]
    fn finds_the_items_of_a_yaml_list() {
        let text = "kind: List\nitems:\n- a: 1\n  b: |\n    - x\n\n# c\n-   d: 2\nmetadata: {}\n";
        let layout = yaml_items_layout(text).expect("a plain list");
        let items: Vec<&str> = layout.items.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(items, ["- a: 1\n  b: |\n    - x\n\n# c\n", "-   d: 2\n"]);
        assert_eq!(&text[layout.key..layout.end], &text[11..text.len() - 13]);
        assert_eq!(layout.indent, 0);
        for text in [
            "items: [1, 2]\n",
            "kind: List\n---\nitems:\n- a: 1\n",
            "items:\n  a: 1\n",
            "items:\n- a: *x\n",
        ] {
            assert_eq!(yaml_items_layout(text), None, "{text}");
        }
    }
}
