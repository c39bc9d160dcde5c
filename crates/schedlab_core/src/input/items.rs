//! A large JSON list read on several threads: its items are found by a scan of the text, parsed
//! and converted to their objects in chunks on the pool of [`crate::parallel`], and put back
//! together in item order, so the result is the one [`super::read_json_list`] gives on one
//! thread: the same objects in the same order, the same warnings and errors.
//!
//! Only a plain list takes this path: a top-level map whose `items` is a sequence of maps, each
//! item and the rest of the document valid on its own. Anything else, and every item that does
//! not parse (a syntax error, a repeated key), returns `None` and the caller reads the file on
//! one thread, which words the error with its line as before.

use super::parse::{self, Context, ItemSink, TreeSeed};
use super::tree::Tree;
use super::{find_either, read_item, Diagnostic, Inputs, Source, FLOW_BYTES, MAX_OBJECTS};
use serde::de::DeserializeSeed;
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

/// Reads a JSON list's items on the pool's threads; `None` when the file is not a plain list
/// (see the module documentation) or the pool has one thread, and the caller reads it alone.
pub(super) fn read_in_parallel(src: &Source) -> Option<(Inputs, Vec<Diagnostic>)> {
    let threads = crate::parallel::threads();
    if threads < 2 || src.text.len() > super::MAX_FILE_BYTES {
        return None;
    }
    let text = src.text.trim_start_matches('\u{feff}');
    let layout = items_layout(text)?;
    let n = layout.items.len();
    if !(MIN_ITEMS..=MAX_OBJECTS).contains(&n) {
        return None;
    }
    // The document around the items, with `items: []`: its kind and apiVersion.
    let outer = format!("{}{}", &text[..=layout.open], &text[layout.close..]);
    let ctx = Context::default();
    let mut sink = Streaming(false);
    let mut de = serde_json::Deserializer::from_str(&outer);
    let doc = parse::DocSeed {
        ctx: &ctx,
        sink: &mut sink,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v))
    .ok()?;
    let kind = doc.get("kind").and_then(Tree::as_str)?;
    if !sink.0 || (kind != "List" && !kind.ends_with("List")) {
        return None;
    }
    let item_kind = kind.strip_suffix("List").filter(|k| !k.is_empty());
    let api_version = doc.get("apiVersion").cloned();

    let chunk = n.div_ceil(threads * CHUNKS_PER_THREAD).max(1);
    let chunks: Vec<Range<usize>> = (0..n)
        .step_by(chunk)
        .map(|start| start..(start + chunk).min(n))
        .collect();
    let parts = crate::parallel::map(&chunks, |range| {
        let ctx = Context::default();
        let mut part = Part {
            inputs: Inputs::default(),
            errors: Vec::new(),
        };
        // Objects read (the limit is checked for the whole list, before sharing it out).
        let mut count = 0;
        for index in range.clone() {
            let item_text = &text[layout.items[index].clone()];
            let mut de = serde_json::Deserializer::from_str(item_text);
            let item = TreeSeed { ctx: &ctx }
                .deserialize(&mut de)
                .and_then(|v| de.end().map(|()| v))
                .ok()?;
            if index == range.start {
                make_room(&mut part.inputs, &item, range.end - index);
            }
            read_item(
                src.name,
                format!("items[{index}]"),
                item,
                item_kind,
                &api_version,
                &mut part.inputs,
                &mut part.errors,
                &mut count,
            );
        }
        Some(part)
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

/// Room for a chunk's pods or nodes, as the first item's kind suggests.
fn make_room(inputs: &mut Inputs, first: &Tree, items: usize) {
    match first.get("kind").and_then(Tree::as_str) {
        Some("Pod") => inputs.pods.reserve(items),
        Some("Node") => inputs.nodes.reserve(items),
        _ => {}
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

    /// `read_source` on `threads` threads, printed (objects, warnings and errors).
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
}
