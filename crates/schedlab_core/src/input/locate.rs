//! Finds the line of a value from its error path (`items[3].spec.containers[0].resources`), so an
//! editor can put a type error on its line. Works for YAML and JSON (JSON is YAML flow style)
//! by walking `saphyr-parser`'s positioned events; it is only run for files that have errors.
//!
//! JSON text is walked by [`JsonWalk`] instead, a scan that keeps nothing but the current path:
//! the YAML scanner holds back every token of a line while a simple key may still begin on it,
//! so a 55 MB JSON file on one line cost it over 900 MB.

use saphyr_parser::{Event, Parser, Span};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

type Events<'a> = Parser<'a, saphyr_parser::StrInput<'a>>;

/// The 1-based line of the value at `path` (as `Diagnostic::path` spells it), if found.
#[cfg(test)]
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    lines_of(text, &[path])[0]
}

/// The 1-based line of the value at each of `paths`, in one pass over the text however many
/// paths there are. A path is `document N: ` (for any document but the first) followed by
/// keys and indices as `Diagnostic::path` spells them (`items[3].spec.containers[0]`); the
/// line of a mapping's value is its key's line.
pub(crate) fn lines_of(text: &str, paths: &[&str]) -> Vec<Option<usize>> {
    let mut found = vec![None; paths.len()];
    // (document, path within it) → the indices of `paths` that ask for it.
    let mut wanted: HashMap<(usize, &str), Vec<usize>> = HashMap::new();
    // Every prefix of a wanted path that ends before a `.` or `[`: the walk tracks the path
    // only below these.
    let mut prefixes: HashSet<(usize, &str)> = HashSet::new();
    for (i, path) in paths.iter().enumerate() {
        let (document, rest) = match path.strip_prefix("document ") {
            Some(p) => {
                let (n, rest) = p.split_once(": ").unwrap_or((p, ""));
                match n.parse::<usize>() {
                    Ok(n) => (n, rest),
                    Err(_) => continue,
                }
            }
            None => (1, *path),
        };
        wanted.entry((document, rest)).or_default().push(i);
        prefixes.insert((document, ""));
        for (at, c) in rest.char_indices() {
            if c == '.' || c == '[' {
                prefixes.insert((document, &rest[..at]));
            }
        }
        prefixes.insert((document, rest));
    }
    if wanted.is_empty() {
        return found;
    }
    if super::looks_like_json(text) {
        let mut walk = JsonWalk {
            bytes: text.as_bytes(),
            text,
            at: 0,
            line: 1,
            wanted: &wanted,
            prefixes: &prefixes,
            found: &mut found,
            left: paths.len(),
        };
        let mut path = String::new();
        let complete = walk.value(Some(&mut path), None).is_some() || walk.left == 0;
        if complete {
            return found;
        }
        // Not JSON after all (YAML flow style, `{a: 1}`): the YAML walk reads it.
        found.iter_mut().for_each(|f| *f = None);
    }
    let mut walk = Walk {
        events: Parser::new_from_str(text),
        document: 0,
        wanted: &wanted,
        prefixes: &prefixes,
        found: &mut found,
        left: paths.len(),
    };
    let _ = walk.stream();
    found
}

/// The path of the value holding the one at `path` (`items[3].spec` for
/// `items[3].spec.containers`, `metadata.labels` for `metadata.labels["a.b/c"]`, `document 2`
/// for `document 2: spec`); `None` for a document's root.
pub(crate) fn parent(path: &str) -> Option<&str> {
    let (prefix, rest) = match path.strip_prefix("document ") {
        Some(p) => match p.split_once(": ") {
            Some((_, rest)) => (&path[..path.len() - rest.len() - 2], rest),
            None => return None,
        },
        None => ("", path),
    };
    // Where the last segment starts: a `.`, or a `[` outside a quoted key.
    let mut last = 0;
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '.' | '[' if !quoted => last = i,
            _ => {}
        }
    }
    if last == 0 {
        return if rest.is_empty() || prefix.is_empty() {
            (!rest.is_empty()).then_some("")
        } else {
            Some(prefix)
        };
    }
    Some(&path[..path.len() - rest.len() + last])
}

/// One pass over the events, recording the lines of the wanted paths.
struct Walk<'a, 'w> {
    events: Events<'a>,
    document: usize,
    wanted: &'w HashMap<(usize, &'w str), Vec<usize>>,
    prefixes: &'w HashSet<(usize, &'w str)>,
    found: &'w mut Vec<Option<usize>>,
    /// Paths not found yet (the walk stops at zero).
    left: usize,
}

impl<'a> Walk<'a, '_> {
    fn next(&mut self) -> Option<(Event<'a>, Span)> {
        self.events.next()?.ok()
    }

    fn stream(&mut self) -> Option<()> {
        loop {
            let (event, _) = self.next()?;
            match event {
                Event::StreamEnd => return Some(()),
                Event::DocumentStart(_) => {
                    let first = self.next()?;
                    if matches!(&first.0, Event::Scalar(s, ..) if s.is_empty()) {
                        continue;
                    }
                    self.document += 1;
                    let mut path = String::new();
                    self.node(first, Some(&mut path), None, 0)?;
                    if self.left == 0 {
                        return Some(());
                    }
                }
                _ => {}
            }
        }
    }

    /// Records `line` for the paths asking for `path`.
    fn record(&mut self, path: &str, line: usize) {
        if let Some(indices) = self.wanted.get(&(self.document, path)) {
            for &i in indices {
                if self.found[i].is_none() {
                    self.found[i] = Some(line);
                    self.left -= 1;
                }
            }
        }
    }

    /// Consumes one node. `path` is its path while it is a prefix of a wanted path (`None`
    /// below that: the node is only skipped); `key_line` is its key's line for a mapping
    /// value.
    fn node(
        &mut self,
        first: (Event<'a>, Span),
        path: Option<&mut String>,
        key_line: Option<usize>,
        depth: usize,
    ) -> Option<()> {
        let (event, span) = first;
        let mut path = path.filter(|p| self.prefixes.contains(&(self.document, p.as_str())));
        if let Some(p) = path.as_deref() {
            let line = key_line.unwrap_or(span.start.line());
            self.record(p, line);
        }
        if depth > 256 {
            path = None;
        }
        match event {
            Event::SequenceStart(..) => {
                let mut index = 0usize;
                loop {
                    let item = self.next()?;
                    if item.0 == Event::SequenceEnd {
                        break;
                    }
                    match path.as_deref_mut() {
                        Some(p) => {
                            let len = p.len();
                            let _ = write!(p, "[{index}]");
                            self.node(item, Some(p), None, depth + 1)?;
                            p.truncate(len);
                        }
                        None => self.node(item, None, None, depth + 1)?,
                    }
                    index += 1;
                }
            }
            Event::MappingStart(..) => loop {
                let key = self.next()?;
                if key.0 == Event::MappingEnd {
                    break;
                }
                let key_line = key.1.start.line();
                let key_text = match &key.0 {
                    Event::Scalar(s, ..) => Some(s.to_string()),
                    _ => None,
                };
                self.node(key, None, None, depth + 1)?;
                let value = self.next()?;
                match (path.as_deref_mut(), key_text) {
                    (Some(p), Some(k)) => {
                        // A key is spelled `.key` (serde's paths) or `["key"]` (validation's,
                        // for keys with dots, slashes or spaces): whichever a path asks for.
                        let len = p.len();
                        if !p.is_empty() {
                            p.push('.');
                        }
                        p.push_str(&k);
                        if !self.prefixes.contains(&(self.document, p.as_str())) {
                            p.truncate(len);
                            super::parse::push_key(p, &k);
                        }
                        self.node(value, Some(p), Some(key_line), depth + 1)?;
                        p.truncate(len);
                    }
                    _ => self.node(value, None, None, depth + 1)?,
                }
            },
            _ => {}
        }
        Some(())
    }
}

/// [`Walk`] for JSON text (one document): a scan over the bytes that tracks the line and the
/// path, and skips the values below no wanted path without looking inside them.
struct JsonWalk<'a, 'w> {
    bytes: &'a [u8],
    text: &'a str,
    /// The next byte to read.
    at: usize,
    /// The 1-based line of `at` (JSON has line breaks only between tokens).
    line: usize,
    wanted: &'w HashMap<(usize, &'w str), Vec<usize>>,
    prefixes: &'w HashSet<(usize, &'w str)>,
    found: &'w mut Vec<Option<usize>>,
    /// Paths not found yet (the walk stops at zero).
    left: usize,
}

impl JsonWalk<'_, '_> {
    /// Skips blanks, counting lines; the next byte, if any.
    fn blank(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => return Some(b),
            }
            self.at += 1;
        }
        None
    }

    /// Skips the string that starts at `at` (its `"`); its text between the quotes.
    fn string(&mut self) -> Option<std::borrow::Cow<'_, str>> {
        let start = self.at + 1;
        let mut i = start;
        let mut escaped = false;
        loop {
            match *self.bytes.get(i)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
        self.at = i + 1;
        let raw = self.text.get(start..i)?;
        if escaped {
            let quoted = self.text.get(start - 1..i + 1)?;
            serde_json::from_str::<String>(quoted).ok().map(Into::into)
        } else {
            Some(raw.into())
        }
    }

    /// Skips the value at `at` without following paths: brackets counted, strings skipped.
    fn skip(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.blank()? {
                b'"' => {
                    self.string()?;
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.at += 1;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.at += 1;
                }
                b',' | b':' if depth > 0 => self.at += 1,
                _ => {
                    // A number, `true`, `false` or `null`.
                    let rest = self.bytes.get(self.at..)?;
                    let len = rest
                        .iter()
                        .position(|b| b",:]} \t\r\n".contains(b))
                        .unwrap_or(rest.len());
                    if len == 0 {
                        return None;
                    }
                    self.at += len;
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }

    /// Records `line` for the paths asking for `path`.
    fn record(&mut self, path: &str, line: usize) {
        if let Some(indices) = self.wanted.get(&(1, path)) {
            for &i in indices {
                if self.found[i].is_none() {
                    self.found[i] = Some(line);
                    self.left -= 1;
                }
            }
        }
    }

    /// Reads one value at `path` (`None` once the path is below every wanted one: skipped);
    /// `key_line` is its key's line for a mapping value. `None` when the walk stops: every
    /// path found, or the text ends or is not JSON.
    fn value(&mut self, path: Option<&mut String>, key_line: Option<usize>) -> Option<()> {
        let first = self.blank()?;
        let Some(path) = path.filter(|p| self.prefixes.contains(&(1, p.as_str()))) else {
            return self.skip();
        };
        let line = key_line.unwrap_or(self.line);
        self.record(path, line);
        if self.left == 0 {
            return None;
        }
        match first {
            b'{' => {
                self.at += 1;
                if self.blank()? == b'}' {
                    self.at += 1;
                    return Some(());
                }
                loop {
                    if self.blank()? != b'"' {
                        return None;
                    }
                    let key_line = self.line;
                    let key = self.string()?.into_owned();
                    if self.blank()? != b':' {
                        return None;
                    }
                    self.at += 1;
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&key);
                    if !self.prefixes.contains(&(1, path.as_str())) {
                        path.truncate(len);
                        super::parse::push_key(path, &key);
                    }
                    self.value(Some(path), Some(key_line))?;
                    path.truncate(len);
                    match self.blank()? {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.at += 1;
                if self.blank()? == b']' {
                    self.at += 1;
                    return Some(());
                }
                let mut index = 0usize;
                loop {
                    let len = path.len();
                    let _ = write!(path, "[{index}]");
                    self.value(Some(path), None)?;
                    path.truncate(len);
                    index += 1;
                    match self.blank()? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            _ => self.skip(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_of;

    #[test]
    fn finds_yaml_values_by_path() {
        let yaml = "kind: PodList\nitems:\n- metadata:\n    name: a\n- metadata:\n    name: b\n  spec:\n    containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12x\n          nvidia.com/gpu: x\n";
        assert_eq!(
            line_of(yaml, "items[1].spec.containers[0].resources.requests.cpu"),
            Some(12)
        );
        assert_eq!(
            line_of(
                yaml,
                "items[1].spec.containers[0].resources.requests.nvidia.com/gpu"
            ),
            Some(13)
        );
        assert_eq!(line_of(yaml, "items[0].metadata.name"), Some(4));
        assert_eq!(line_of(yaml, "items[7]"), None);
        // Keys that are not plain may be quoted in brackets.
        assert_eq!(
            line_of(
                yaml,
                "items[1].spec.containers[0].resources.requests[\"nvidia.com/gpu\"]"
            ),
            Some(13)
        );
    }

    #[test]
    fn parents_of_paths() {
        use super::parent;
        assert_eq!(parent("items[3].spec.containers"), Some("items[3].spec"));
        assert_eq!(parent("items[3]"), Some("items"));
        assert_eq!(
            parent("metadata.labels[\"a.b/c[1]\"]"),
            Some("metadata.labels")
        );
        assert_eq!(parent("document 2: spec.x"), Some("document 2: spec"));
        assert_eq!(parent("document 2: spec"), Some("document 2"));
        assert_eq!(parent("spec"), Some(""));
        assert_eq!(parent(""), None);
        assert_eq!(parent("document 2"), None);
    }

    #[test]
    fn finds_json_values_on_one_line_and_on_many() {
        use super::lines_of;
        // Worked out by hand: line 1 holds `{"kind": "List", "items": [`, the first item
        // is on lines 2-3, the second on 4-7 (its `requests` key on line 6, `cpu` on 7).
        let json = "{\"kind\": \"List\", \"items\": [\n {\"kind\": \"Pod\",\n  \"a\\\"b\": [1, {\"x\": null}]},\n {\"kind\": \"Pod\", \"spec\": {\"containers\": [{\"name\": \"c\",\n  \"resources\": {\"limits\": {},\n  \"requests\":\n {\"cpu\": \"12x\", \"nvidia.com/gpu\": 1.5e3}}}]}}]}";
        assert_eq!(
            lines_of(
                json,
                &[
                    "items[1].spec.containers[0].resources.requests.cpu",
                    "items[1].spec.containers[0].resources.requests[\"nvidia.com/gpu\"]",
                    "items[1].spec.containers[0].resources.requests",
                    "items[0][\"a\\\"b\"][1].x",
                    "items[0].kind",
                    "items[2]",
                    "kind",
                ]
            ),
            [Some(7), Some(7), Some(6), Some(3), Some(2), None, Some(1)]
        );
        // One line: everything found is on line 1.
        let one = json.replace('\n', " ");
        assert_eq!(
            lines_of(
                &one,
                &["items[1].spec.containers[0].resources.requests.cpu"]
            ),
            [Some(1)]
        );
    }

    #[test]
    fn finds_json_values_and_later_documents() {
        let json = "{\n  \"kind\": \"Node\",\n  \"status\": {\n    \"allocatable\": {\"cpu\": \"4x\"}\n  }\n}\n";
        assert_eq!(line_of(json, "status.allocatable.cpu"), Some(4));
        let docs = "kind: Pod\nmetadata: {name: a}\n---\nkind: Pod\nmetadata:\n  name: b\nspec:\n  priority: high\n";
        assert_eq!(line_of(docs, "document 2: spec.priority"), Some(8));
    }

    #[test]
    fn finds_many_paths_in_one_pass() {
        use super::lines_of;
        let yaml = "kind: PodList\nitems:\n- metadata:\n    name: a\n- metadata:\n    name: b\n  spec:\n    containers:\n    - name: c\n      resources:\n        requests:\n          cpu: 12x\n          nvidia.com/gpu: x\n---\nkind: Pod\nspec:\n  priority: high\n";
        assert_eq!(
            lines_of(
                yaml,
                &[
                    "items[1].spec.containers[0].resources.requests.nvidia.com/gpu",
                    "items[0].metadata.name",
                    "items[7]",
                    "document 2: spec.priority",
                    "items[1].spec.containers[0].resources.requests.cpu",
                    "items[0].metadata.name",
                    "",
                ]
            ),
            [
                Some(13),
                Some(4),
                None,
                Some(17),
                Some(12),
                Some(4),
                Some(1)
            ]
        );
    }
}
