//! Finds the line of a value from its error path (`items[3].spec.containers[0].resources`), so an
//! editor can put a type error on its line. Works for YAML and JSON (JSON is YAML flow style)
//! by walking `saphyr-parser`'s positioned events; it is only run for files that have errors.

use saphyr_parser::{Event, Parser, Span};

type Events<'a> = Parser<'a, saphyr_parser::StrInput<'a>>;

/// The 1-based line of the value at `path` (as `Diagnostic::path` spells it), if found.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let (document, rest) = match path.strip_prefix("document ") {
        Some(p) => {
            let (n, rest) = p.split_once(": ").unwrap_or((p, ""));
            (n.parse::<usize>().ok()?, rest)
        }
        None => (1, path),
    };
    let mut events = Parser::new_from_str(text);
    let mut seen = 0;
    loop {
        let (event, _) = events.next()?.ok()?;
        match event {
            Event::StreamEnd => return None,
            Event::DocumentStart(_) => {
                let first = events.next()?.ok()?;
                if matches!(&first.0, Event::Scalar(s, ..) if s.is_empty()) {
                    continue;
                }
                seen += 1;
                let target = (seen == document).then_some(rest);
                let found = node(&mut events, first, target, 0);
                if seen == document {
                    return found;
                }
            }
            _ => {}
        }
    }
}

/// What remains of the path after a key or index, or `None` if this branch is off the path.
fn descend<'p>(rest: &'p str, step: &str) -> Option<&'p str> {
    let after = rest.strip_prefix(step)?;
    if after.is_empty() || after.starts_with('[') {
        Some(after)
    } else {
        after.strip_prefix('.')
    }
}

/// Consumes one node (scalar, sequence or mapping) and returns the line of the target, when
/// `target` is on this node's path (`Some("")` is the node itself).
fn node(
    events: &mut Events,
    first: (Event, Span),
    target: Option<&str>,
    depth: usize,
) -> Option<usize> {
    let (event, span) = first;
    let mut found = (target == Some("")).then_some(span.start.line());
    if depth > 256 {
        return found;
    }
    match event {
        Event::SequenceStart(..) => {
            let mut index = 0usize;
            loop {
                let item = events.next()?.ok()?;
                if item.0 == Event::SequenceEnd {
                    break;
                }
                let sub = target.and_then(|r| descend(r, &format!("[{index}]")));
                if let Some(line) = node(events, item, sub, depth + 1) {
                    found.get_or_insert(line);
                }
                index += 1;
            }
        }
        Event::MappingStart(..) => loop {
            let key = events.next()?.ok()?;
            if key.0 == Event::MappingEnd {
                break;
            }
            let key_line = key.1.start.line();
            let key_text = match &key.0 {
                Event::Scalar(s, ..) => Some(s.to_string()),
                _ => None,
            };
            node(events, key, None, depth + 1);
            let value = events.next()?.ok()?;
            let sub = match (target, &key_text) {
                (Some(r), Some(k)) => descend(r, k),
                _ => None,
            };
            if sub == Some("") {
                // The value itself is the target: its key's line reads best.
                found.get_or_insert(key_line);
                node(events, value, None, depth + 1);
            } else if let Some(line) = node(events, value, sub, depth + 1) {
                found.get_or_insert(line);
            }
        },
        _ => {}
    }
    found
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
    }

    #[test]
    fn finds_json_values_and_later_documents() {
        let json = "{\n  \"kind\": \"Node\",\n  \"status\": {\n    \"allocatable\": {\"cpu\": \"4x\"}\n  }\n}\n";
        assert_eq!(line_of(json, "status.allocatable.cpu"), Some(4));
        let docs = "kind: Pod\nmetadata: {name: a}\n---\nkind: Pod\nmetadata:\n  name: b\nspec:\n  priority: high\n";
        assert_eq!(line_of(docs, "document 2: spec.priority"), Some(8));
    }
}
