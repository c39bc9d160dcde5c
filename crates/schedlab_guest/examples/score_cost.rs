//! Prints the cost of one NodeNumber Score call (the hand-written WAT guest):
//! `cargo run --release -p schedlab_guest --example score_cost`.
//! A benchmark that times calls, so it reads the wall clock.
#![allow(clippy::disallowed_methods)]

use schedlab_guest::{Guest, GuestConfig, GuestNode, GuestPod};

fn main() {
    let bytes = wat::parse_str(include_str!("../guests/node_number.wat")).expect("valid WAT");
    let mut guest = Guest::load(&bytes, GuestConfig::default()).expect("loads");
    let nodes: Vec<GuestNode> = (0..100)
        .map(|i| GuestNode {
            name: format!("node-{i}"),
            ..GuestNode::default()
        })
        .collect();
    guest.set_nodes(&nodes);
    let pod = GuestPod {
        name: "pod-2".into(),
        namespace: "default".into(),
        ..GuestPod::default()
    }
    .to_protobuf();
    guest.prescore(&pod, &[]).expect("prescore");
    let calls = 200_000u32;
    let start = std::time::Instant::now();
    let mut total = 0;
    for i in 0..calls {
        let node = &nodes[i as usize % nodes.len()].name;
        total += guest.score(&pod, node).expect("score").score;
    }
    let per_call = start.elapsed() / calls;
    println!(
        "NodeNumber score: {per_call:?} per call ({} fuel per call, total score {total})",
        guest.fuel_used()
    );
}
