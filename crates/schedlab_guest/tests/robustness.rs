//! Malformed input never panics: random bytes, every truncation and byte mutations of a
//! valid guest are decoded, and whatever loads is run on a small fuel budget.

use proptest::prelude::*;
use schedlab_guest::wasm::Module;
use schedlab_guest::{Guest, GuestConfig, GuestNode, GuestPod};

fn node_number() -> Vec<u8> {
    wat::parse_str(include_str!("../guests/node_number.wat")).unwrap()
}

/// Loads and exercises a guest; only panics would fail the caller.
fn exercise(bytes: &[u8]) {
    let config = GuestConfig {
        fuel_per_call: 20_000,
        fuel_at_load: 20_000,
        memory_pages_max: 16,
        ..GuestConfig::default()
    };
    let Ok(mut guest) = Guest::load(bytes, config) else {
        return;
    };
    guest.set_nodes(&[GuestNode {
        name: "node-1".into(),
        ..GuestNode::default()
    }]);
    let pod = GuestPod {
        name: "pod-1".into(),
        ..GuestPod::default()
    }
    .to_protobuf();
    let _ = guest.prescore(&pod, &["node-1".into()]);
    let _ = guest.score(&pod, "node-1");
    let _ = guest.filter(&pod, "node-1");
    let _ = guest.enqueue();
}

#[test]
fn truncations_of_a_valid_module_never_panic() {
    let bytes = node_number();
    for len in 0..8 {
        assert!(
            Module::decode(&bytes[..len]).is_err(),
            "prefix of {len} bytes decoded"
        );
    }
    // Past the header, a prefix ending between sections can be a valid (smaller) module.
    let decoded = (8..bytes.len())
        .filter(|&len| Module::decode(&bytes[..len]).is_ok())
        .count();
    assert!(decoded < 10, "{decoded} prefixes decoded");
    for len in 8..bytes.len() {
        exercise(&bytes[..len]);
    }
    assert!(Module::decode(&bytes).is_ok());
}

#[test]
fn single_byte_mutations_never_panic() {
    let bytes = node_number();
    for at in 8..bytes.len() {
        for value in [0x00, 0x0B, 0x41, 0x7F, 0x80, 0xFF] {
            let mut mutated = bytes.clone();
            mutated[at] = value;
            exercise(&mutated);
        }
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut bytes = b"\0asm\x01\0\0\0".to_vec();
        bytes.extend_from_slice(&body);
        exercise(&bytes);
        exercise(&body);
    }

    #[test]
    fn random_splices_into_a_valid_module_never_panic(
        at in 8usize..1000,
        patch in proptest::collection::vec(any::<u8>(), 1..16),
    ) {
        let mut bytes = node_number();
        let at = at.min(bytes.len());
        let end = (at + patch.len()).min(bytes.len());
        bytes.splice(at..end, patch);
        exercise(&bytes);
    }
}
