//! The hand-written NodeNumber guest (`guests/node_number.wat`): scores and filter answers
//! for pod/node name pairs worked out by hand.

use schedlab_guest::{
    ClusterEvent, Guest, GuestConfig, GuestLog, GuestNode, GuestPod, GuestStatus, LogSource,
};

const NODE_NUMBER: &str = include_str!("../guests/node_number.wat");

fn load(guest_config: &str) -> Guest {
    let bytes = wat::parse_str(NODE_NUMBER).expect("valid WAT");
    let config = GuestConfig {
        guest_config: guest_config.to_string(),
        ..GuestConfig::default()
    };
    let mut guest = Guest::load(&bytes, config).expect("loads");
    let nodes: Vec<GuestNode> = ["node-1", "node-2", "node-12", "node-a"]
        .iter()
        .map(|n| GuestNode {
            name: n.to_string(),
            labels: vec![("zone".into(), "z1".into())],
            ..GuestNode::default()
        })
        .collect();
    guest.set_nodes(&nodes);
    guest
}

fn pod(name: &str) -> Vec<u8> {
    GuestPod {
        name: name.into(),
        namespace: "default".into(),
        uid: format!("uid-{name}"),
        ..GuestPod::default()
    }
    .to_protobuf()
}

/// PreScore, then Score on each node: (node, score).
fn scores(guest: &mut Guest, pod: &[u8], nodes: &[&str]) -> Vec<(String, i64)> {
    let filtered: Vec<String> = nodes.iter().map(|n| n.to_string()).collect();
    assert_eq!(
        guest.prescore(pod, &filtered).unwrap(),
        GuestStatus::default()
    );
    nodes
        .iter()
        .map(|n| {
            let result = guest.score(pod, n).unwrap();
            assert_eq!(result.status.code, 0);
            (n.to_string(), result.score)
        })
        .collect()
}

fn pairs(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(n, s)| (n.to_string(), *s)).collect()
}

const NODES: [&str; 5] = ["node-1", "node-2", "node-12", "node-a", "absent-2"];

#[test]
fn scores_ten_where_the_last_digits_match() {
    let mut guest = load("");
    // pod-2 ends in 2: node-2 and node-12 end in 2; node-a has no digit; absent-2 is not in
    // the snapshot, so `node` returns nothing and its name cannot be read.
    let expected = pairs(&[
        ("node-1", 0),
        ("node-2", 10),
        ("node-12", 10),
        ("node-a", 0),
        ("absent-2", 0),
    ]);
    assert_eq!(scores(&mut guest, &pod("pod-2"), &NODES), expected);
    let expected = pairs(&[
        ("node-1", 10),
        ("node-2", 0),
        ("node-12", 0),
        ("node-a", 0),
        ("absent-2", 0),
    ]);
    assert_eq!(scores(&mut guest, &pod("web-71"), &NODES), expected);
}

#[test]
fn a_pod_name_without_a_digit_matches_every_node_as_in_the_extension_example() {
    let mut guest = load("");
    let expected = pairs(&[
        ("node-1", 10),
        ("node-2", 10),
        ("node-12", 10),
        ("node-a", 10),
        ("absent-2", 10),
    ]);
    assert_eq!(scores(&mut guest, &pod("web"), &NODES), expected);
}

#[test]
fn reverse_inverts_the_match() {
    let mut guest = load(r#"{"reverse": true}"#);
    assert_eq!(
        guest.logs(),
        [GuestLog {
            source: LogSource::Klog { severity: 0 },
            text: "NodeNumberArgs is successfully applied".into()
        }]
    );
    let expected = pairs(&[
        ("node-1", 10),
        ("node-2", 0),
        ("node-12", 0),
        ("node-a", 10),
        ("absent-2", 10),
    ]);
    assert_eq!(scores(&mut guest, &pod("pod-2"), &NODES), expected);
}

#[test]
fn filter_rejects_nodes_whose_number_differs() {
    let mut guest = load("");
    let mismatch = GuestStatus {
        code: 2,
        reason: "node number does not match".into(),
    };
    assert_eq!(guest.filter(&pod("pod-2"), "node-1").unwrap(), mismatch);
    assert_eq!(
        guest.filter(&pod("pod-2"), "node-12").unwrap(),
        GuestStatus::default()
    );
    assert_eq!(guest.filter(&pod("pod-2"), "node-a").unwrap(), mismatch);
    assert_eq!(
        guest.filter(&pod("web"), "node-1").unwrap(),
        GuestStatus::default()
    );
}

#[test]
fn a_pod_larger_than_the_first_buffer_is_read_on_the_retry() {
    let mut guest = load("");
    let labels = (0..100)
        .map(|i| (format!("label-{i:03}"), "x".repeat(20)))
        .collect();
    let big = GuestPod {
        name: "big-1".into(),
        labels,
        ..GuestPod::default()
    }
    .to_protobuf();
    assert!(big.len() > 2048, "{}", big.len());
    assert_eq!(
        scores(&mut guest, &big, &["node-1", "node-2"]),
        pairs(&[("node-1", 10), ("node-2", 0)])
    );
}

#[test]
fn prescore_logs_and_enqueue_registers_node_add() {
    let mut guest = load("");
    guest.prescore(&pod("p-1"), &[]).unwrap();
    assert_eq!(
        guest.logs()[0].text,
        "execute PreScore on NodeNumber plugin"
    );
    let events = guest.enqueue().unwrap();
    assert_eq!(
        events,
        [ClusterEvent {
            resource: "Node".into(),
            action_type: 1
        }]
    );
}
