//! A bound on YAML alias expansion, checked before the YAML is deserialised.
//!
//! An alias (`*a`) repeats its anchor's whole subtree, so a small file can describe an
//! enormous value (a "billion laughs" document, or one big anchor aliased thousands of times).
//! [`check`] walks the parser's events once, keeping for each anchor the size of what it
//! stands for (nodes and scalar bytes, nested aliases included), and refuses the file when its
//! aliases would produce more than [`MAX_EXPANDED_BYTES`] of scalars or [`MAX_EXPANDED_NODES`]
//! nodes: the limit is on what aliases produce, not on how often they appear. (What the text
//! holds literally is bounded by the file-size limit.)

use saphyr_parser::{Event, Parser};
use std::collections::HashMap;

/// The most scalar bytes the aliases of one file may produce.
pub(super) const MAX_EXPANDED_BYTES: u64 = 16 << 20;
/// The most nodes the aliases of one file may produce.
pub(super) const MAX_EXPANDED_NODES: u64 = 250_000;

/// The size of a subtree once its aliases are expanded.
#[derive(Clone, Copy, Default)]
struct Size {
    nodes: u64,
    bytes: u64,
}

impl Size {
    fn add(&mut self, other: Size) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.bytes = self.bytes.saturating_add(other.bytes);
    }
}

/// `Err((line, message))` when the file's aliases expand beyond the limits (the line of the
/// alias that crossed them). A YAML syntax error ends the check quietly: the deserialiser
/// reports it.
pub(super) fn check(text: &str) -> Result<(), (usize, String)> {
    if !text.contains('*') {
        return Ok(());
    }
    let mut anchors: HashMap<usize, Size> = HashMap::new();
    // The open collections: (anchor id, size so far).
    let mut open: Vec<(usize, Size)> = Vec::new();
    // What the aliases met so far stand for.
    let mut produced = Size::default();
    for item in Parser::new_from_str(text) {
        let Ok((event, span)) = item else {
            return Ok(());
        };
        let finished = match event {
            Event::Scalar(value, _, anchor, _) => Some((
                anchor,
                Size {
                    nodes: 1,
                    bytes: value.len() as u64,
                },
            )),
            Event::Alias(id) => {
                let size = anchors.get(&id).copied().unwrap_or_default();
                produced.add(size);
                if produced.bytes > MAX_EXPANDED_BYTES || produced.nodes > MAX_EXPANDED_NODES {
                    return Err((
                        span.start.line(),
                        format!(
                            "YAML aliases expand to more than {} MiB or {} nodes (the limit on what aliases may repeat)",
                            MAX_EXPANDED_BYTES >> 20,
                            MAX_EXPANDED_NODES
                        ),
                    ));
                }
                Some((0, size))
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                open.push((anchor, Size { nodes: 1, bytes: 0 }));
                None
            }
            Event::SequenceEnd | Event::MappingEnd => open.pop(),
            _ => None,
        };
        let Some((anchor, size)) = finished else {
            continue;
        };
        if anchor != 0 {
            anchors.insert(anchor, size);
        }
        if let Some((_, parent)) = open.last_mut() {
            parent.add(size);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_aliases_pass() {
        let yaml = "base: &b {cpu: 1, memory: 2Gi}\nitems:\n- *b\n- *b\n";
        assert_eq!(check(yaml), Ok(()));
        assert_eq!(check("no aliases: here\n"), Ok(()));
    }

    #[test]
    fn a_big_anchor_aliased_many_times_is_refused() {
        // One 1 KiB scalar aliased 20 000 times: 20 000 KiB > 16 MiB once expanded, from a
        // file of about 140 KB.
        let mut yaml = format!("a: &big {}\nlist:\n", "x".repeat(1024));
        for _ in 0..20_000 {
            yaml.push_str("- *big\n");
        }
        let (line, message) = check(&yaml).expect_err("too big once expanded");
        assert!(message.starts_with("YAML aliases expand to more than 16 MiB"));
        // The k-th alias brings what aliases produced to 1024k bytes, first above 2^24 at
        // k = 16 385; alias k is on line 2 + k.
        assert_eq!(line, 2 + 16_385);
    }

    #[test]
    fn nested_laughs_are_refused_by_node_count() {
        // Each level repeats the previous ten times: level 7 alone stands for over 10^7
        // nodes.
        let mut yaml = String::from("l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n");
        for level in 1..=7 {
            let prev = level - 1;
            let refs = vec![format!("*l{prev}"); 10].join(", ");
            yaml.push_str(&format!("l{level}: &l{level} [{refs}]\n"));
        }
        let (_, message) = check(&yaml).expect_err("ten million nodes");
        assert!(message.contains("250000 nodes"), "{message}");
    }
}
