//! Each export and each result packing of the extension's ABI against small hand-written
//! WAT guests; load errors, traps and fuel as the extension words them; WASI and klog.

use schedlab_guest::{
    node_list_protobuf, ClusterEvent, Export, Guest, GuestConfig, GuestError, GuestImage, GuestLog,
    GuestNode, GuestPod, GuestStatus, LogSource,
};

/// Every k8s.io host function, imported under a short name.
const IMPORTS: &str = r#"
  (import "k8s.io/api" "node" (func $node (param i32 i32 i32 i32) (result i32)))
  (import "k8s.io/api" "nodeList" (func $nodeList (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "currentPod" (func $currentPod (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "targetPod" (func $targetPod (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "currentNodeName" (func $currentNodeName (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "filteredNodeList" (func $filteredNodeList (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "nodeToStatusMap" (func $nodeToStatusMap (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "nodeScoreList" (func $nodeScoreList (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "nodeImageStates" (func $nodeImageStates (param i32 i32 i32 i32) (result i32)))
  (import "k8s.io/scheduler" "get_config" (func $get_config (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "result.status_reason" (func $reason (param i32 i32)))
  (import "k8s.io/scheduler" "result.node_names" (func $node_names (param i32 i32)))
  (import "k8s.io/scheduler" "result.nominated_node_name" (func $nominated (param i32 i32)))
  (import "k8s.io/scheduler" "result.normalized_score_list" (func $normalized (param i32 i32)))
  (import "k8s.io/scheduler" "result.cluster_events" (func $events (param i32 i32)))
  (import "k8s.io/scheduler" "handle.eventrecorder.eventf" (func $eventf (param i32 i32)))
  (import "k8s.io/klog" "log" (func $log (param i32 i32 i32)))
  (import "k8s.io/klog" "logs" (func $logs (param i32 i32 i32 i32 i32)))
  (import "k8s.io/klog" "severity" (func $severity (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $prestat (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; Copies what a getter writes at 4096 into the status reason.
  (func $echo (param $len i32) (call $reason (i32.const 4096) (local.get $len)))
"#;

fn wat_guest(body: &str, config: GuestConfig) -> Result<Guest, GuestError> {
    let bytes = wat::parse_str(format!("(module {IMPORTS} {body})")).expect("valid WAT");
    Guest::load(&bytes, config)
}

fn guest(body: &str) -> Guest {
    wat_guest(body, GuestConfig::default()).expect("loads")
}

fn pod(name: &str) -> Vec<u8> {
    GuestPod {
        name: name.into(),
        ..GuestPod::default()
    }
    .to_protobuf()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn status(code: u32, reason: &str) -> GuestStatus {
    GuestStatus {
        code,
        reason: reason.into(),
    }
}

#[test]
fn exports_are_detected_by_their_names() {
    let g = guest(
        r#"(func (export "filter") (result i32) i32.const 0)
           (func (export "score") (result i64) i64.const 0)
           (func (export "postbind"))"#,
    );
    assert_eq!(
        g.exports(),
        [Export::Filter, Export::Score, Export::PostBind]
    );
    assert!(g.has(Export::Score) && !g.has(Export::PreScore));
}

#[test]
fn prefilter_returns_its_code_and_the_nul_separated_node_names() {
    let mut g = guest(
        r#"(data (i32.const 0) "node-a\00node-b\00")
           (func (export "prefilter") (result i32) (call $node_names (i32.const 0) (i32.const 14)) i32.const 0)"#,
    );
    let result = g.prefilter(&pod("p")).unwrap();
    assert_eq!(result.status, GuestStatus::default());
    assert_eq!(result.node_names, Some(names(&["node-a", "node-b"])));
}

#[test]
fn filter_sends_its_reason_before_returning() {
    let mut g = guest(
        r#"(data (i32.const 0) "too small")
           (func (export "filter") (result i32)
             (call $echo (call $currentNodeName (i32.const 4096) (i32.const 100)))
             i32.const 3)"#,
    );
    assert_eq!(g.filter(&pod("p"), "node-7").unwrap(), status(3, "node-7"));
}

#[test]
fn postfilter_packs_the_nominating_mode_high_and_the_code_low() {
    let mut g = guest(
        r#"(data (i32.const 0) "node-9")
           (func (export "postfilter") (result i64)
             (call $echo (call $nodeToStatusMap (i32.const 4096) (i32.const 1000)))
             (call $nominated (i32.const 0) (i32.const 6))
             ;; mode 1 (Override) << 32 | code 0
             i64.const 0x100000000)"#,
    );
    let codes = [("b".to_string(), 3), ("a".to_string(), 2)];
    let result = g.postfilter(&pod("p"), &codes).unwrap();
    // The map reaches the guest as JSON with sorted keys.
    assert_eq!(result.status, status(0, r#"{"a":2,"b":3}"#));
    assert_eq!(result.nominating_mode, 1);
    assert_eq!(result.nominated_node_name, "node-9");
}

#[test]
fn prescore_reads_the_filtered_node_names_as_json() {
    let mut g = guest(
        r#"(func (export "prescore") (result i32)
             (call $echo (call $filteredNodeList (i32.const 4096) (i32.const 1000))) i32.const 5)"#,
    );
    assert_eq!(
        g.prescore(&pod("p"), &names(&["n2", "n1"])).unwrap(),
        status(5, r#"["n2","n1"]"#)
    );
}

#[test]
fn score_packs_a_signed_score_high_and_the_code_low() {
    let mut g = guest(r#"(func (export "score") (result i64) i64.const 0xFFFFFFFF00000001)"#);
    let result = g.score(&pod("p"), "n").unwrap();
    assert_eq!((result.score, result.status.code), (-1, 1));
    let mut g = guest(r#"(func (export "score") (result i64) i64.const 0x0000004200000000)"#);
    assert_eq!(g.score(&pod("p"), "n").unwrap().score, 66);
}

#[test]
fn normalize_score_takes_the_guests_map_or_keeps_the_input() {
    let mut g = guest(
        r#"(data (i32.const 0) "{\"n1\":100,\"n2\":0}")
           (func (export "normalizescore") (result i32)
             (call $echo (call $nodeScoreList (i32.const 4096) (i32.const 1000)))
             (call $normalized (i32.const 0) (i32.const 17)) i32.const 0)"#,
    );
    let raw = [("n2".to_string(), 7), ("n1".to_string(), 3)];
    let result = g.normalize_score(&pod("p"), &raw).unwrap();
    assert_eq!(result.status.reason, r#"{"n1":3,"n2":7}"#);
    assert_eq!(
        result.scores,
        [("n1".to_string(), 100), ("n2".to_string(), 0)]
    );
    let mut keep = guest(r#"(func (export "normalizescore") (result i32) i32.const 0)"#);
    assert_eq!(keep.normalize_score(&pod("p"), &raw).unwrap().scores, raw);
}

#[test]
fn permit_packs_the_code_high_and_the_timeout_low() {
    let mut g = guest(r#"(func (export "permit") (result i64) i64.const 0x00000004000005DC)"#);
    let result = g.permit(&pod("p"), "n").unwrap();
    assert_eq!((result.status.code, result.timeout_ms), (4, 1500));
}

#[test]
fn binding_cycle_exports_return_their_codes() {
    let mut g = guest(
        r#"(func (export "reserve") (result i32) i32.const 1)
           (func (export "unreserve"))
           (func (export "prebind") (result i32) i32.const 5)
           (func (export "bind") (result i32) i32.const 0)
           (func (export "postbind"))
           (func (export "addpod") (result i32)
             (call $echo (call $targetPod (i32.const 4096) (i32.const 1000))) i32.const 0)
           (func (export "removepod") (result i32) i32.const 2)"#,
    );
    let p = pod("p");
    assert_eq!(g.reserve(&p, "n").unwrap().code, 1);
    assert!(g.unreserve(&p, "n").is_ok());
    assert_eq!(g.prebind(&p, "n").unwrap().code, 5);
    assert_eq!(g.bind(&p, "n").unwrap().code, 0);
    assert!(g.postbind(&p, "n").is_ok());
    let target = pod("t");
    let added = g.add_pod(&p, &target, "n").unwrap();
    assert_eq!(added.reason.as_bytes(), target.as_slice());
    assert_eq!(g.remove_pod(&p, &target, "n").unwrap().code, 2);
}

#[test]
fn enqueue_decodes_the_cluster_events() {
    let mut g = guest(
        r#"(data (i32.const 0) "\00\00\00\00\03\00\00\00\0a\00\00\00\3f\00\00\00\63\00\00\00\01\00\00\00")
           (func (export "enqueue") (call $events (i32.const 0) (i32.const 24)))"#,
    );
    let events = g.enqueue().unwrap();
    let expected =
        [("Pod", 3), ("*", 63), ("EventResource(99)", 1)].map(|(resource, action_type)| {
            ClusterEvent {
                resource: resource.into(),
                action_type,
            }
        });
    assert_eq!(events, expected);
}

#[test]
fn the_protobuf_pod_is_what_the_guest_reads() {
    // name "p1" -> metadata {1: "p1"}; spec and status empty: 0a 04 0a 02 70 31 12 00 1a 00.
    assert_eq!(
        pod("p1"),
        [0x0a, 0x04, 0x0a, 0x02, b'p', b'1', 0x12, 0x00, 0x1a, 0x00]
    );
    let mut g = guest(
        r#"(func (export "filter") (result i32)
             (call $echo (call $currentPod (i32.const 4096) (i32.const 1000))) i32.const 0)"#,
    );
    let reason = g.filter(&pod("p1"), "n").unwrap().reason;
    assert_eq!(reason.as_bytes(), pod("p1").as_slice());
}

#[test]
fn getters_write_nothing_when_the_buffer_is_too_small() {
    // Score = the length get_config reports; code 0 when the sentinel at 4096 survived.
    let mut g = wat_guest(
        r#"(func (export "score") (result i64) (local $len i32)
             (i32.store8 (i32.const 4096) (i32.const 0x2a))
             (local.set $len (call $get_config (i32.const 4096) (i32.const 2)))
             (i64.or
               (i64.shl (i64.extend_i32_u (local.get $len)) (i64.const 32))
               (i64.extend_i32_u (i32.ne (i32.load8_u (i32.const 4096)) (i32.const 0x2a)))))"#,
        GuestConfig {
            guest_config: r#"{"a":1}"#.into(),
            ..GuestConfig::default()
        },
    )
    .unwrap();
    let result = g.score(&pod("p"), "n").unwrap();
    assert_eq!((result.score, result.status.code), (7, 0));
}

#[test]
fn node_list_and_image_states_come_from_the_snapshot() {
    let image = |names: &[&str], size| GuestImage {
        names: self::names(names),
        size_bytes: size,
    };
    let nodes = [
        GuestNode {
            name: "n1".into(),
            images: vec![image(&["img:1", "img"], 100)],
            ..GuestNode::default()
        },
        GuestNode {
            name: "n2".into(),
            images: vec![image(&["img:1"], 100)],
            ..GuestNode::default()
        },
    ];
    let mut g = guest(
        r#"(data (i32.const 0) "n1")
           (func (export "score") (result i64)
             (call $echo (call $nodeImageStates (i32.const 0) (i32.const 2) (i32.const 4096) (i32.const 1000)))
             (i64.shl (i64.extend_i32_u (call $nodeList (i32.const 8192) (i32.const 0))) (i64.const 32)))"#,
    );
    g.set_nodes(&nodes);
    let result = g.score(&pod("p"), "n1").unwrap();
    assert_eq!(result.score, node_list_protobuf(&nodes).len() as i64);
    assert_eq!(
        result.status.reason,
        r#"{"img":{"Size":100,"NumNodes":1},"img:1":{"Size":100,"NumNodes":2}}"#
    );
}

#[test]
fn klog_lines_are_collected_per_call_above_the_severity() {
    let body = r#"(data (i32.const 0) "hello") (data (i32.const 16) "pod\00p-1\00node\00")
           (func (export "filter") (result i32)
             (call $log (i32.const 0) (i32.const 0) (i32.const 5))
             (call $logs (i32.const 2) (i32.const 0) (i32.const 5) (i32.const 16) (i32.const 14))
             (call $severity))"#;
    let mut g = guest(body);
    assert_eq!(g.filter(&pod("p"), "n").unwrap().code, 0);
    let info = LogSource::Klog { severity: 0 };
    let error = LogSource::Klog { severity: 2 };
    let expected = [
        GuestLog {
            source: info,
            text: "hello".into(),
        },
        GuestLog {
            source: error,
            text: r#"hello pod="p-1" node="(MISSING)""#.into(),
        },
    ];
    assert_eq!(g.logs(), expected);
    g.filter(&pod("p"), "n").unwrap();
    assert_eq!(g.logs().len(), 2, "lines of earlier calls are dropped");
    let mut errors_only = wat_guest(
        body,
        GuestConfig {
            log_severity: 2,
            ..GuestConfig::default()
        },
    )
    .unwrap();
    assert_eq!(errors_only.filter(&pod("p"), "n").unwrap().code, 2);
    assert_eq!(errors_only.logs().len(), 1);
}

#[test]
fn wasi_stdout_clock_random_and_stubs_are_deterministic() {
    let body = r#"(data (i32.const 0) "line one\nline") (data (i32.const 32) "\00\00\00\00\0d\00\00\00")
           (func (export "score") (result i64)
             (drop (call $fd_write (i32.const 1) (i32.const 32) (i32.const 1) (i32.const 40)))
             (drop (call $clock (i32.const 0) (i64.const 1) (i32.const 48)))
             (drop (call $random (i32.const 56) (i32.const 8)))
             ;; score = the random word's high half; code 0 when the clock read 1000
             (i64.or
               (i64.and (i64.load (i32.const 56)) (i64.const 0xFFFFFFFF00000000))
               (i64.extend_i32_u (i64.ne (i64.load (i32.const 48)) (i64.const 1000)))))
           (func (export "filter") (result i32)
             (drop (call $args_sizes (i32.const 64) (i32.const 68)))
             (i32.add (i32.load (i32.const 64)) (i32.load (i32.const 68)))
             (call $fd_close (i32.const 3)) i32.add
             (call $prestat (i32.const 3) (i32.const 72)) i32.add
             (i32.const -60) i32.add)"#;
    let run = |seed: u64| {
        let mut g = wat_guest(
            body,
            GuestConfig {
                random_seed: seed,
                ..GuestConfig::default()
            },
        )
        .unwrap();
        g.set_clock_ns(1_000);
        let value = g.score(&pod("p"), "n").unwrap();
        let lines: Vec<String> = g.logs().iter().map(|l| l.text.clone()).collect();
        assert_eq!(lines, ["line one", "line"]);
        assert!(g.logs().iter().all(|l| l.source == LogSource::Stdout));
        // 0 args + 0 bytes + ENOSYS (52) + EBADF (8) - 60 = 0.
        assert_eq!(g.filter(&pod("p"), "n").unwrap().code, 0);
        assert_eq!(value.status.code, 0);
        value.score
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}

#[test]
fn proc_exit_and_traps_become_errors_naming_the_function() {
    let mut g = guest(
        r#"(data (i32.const 0) "oops\n") (data (i32.const 32) "\00\00\00\00\05\00\00\00")
           (func (export "filter") (result i32)
             (drop (call $fd_write (i32.const 2) (i32.const 32) (i32.const 1) (i32.const 40)))
             unreachable)
           (func (export "score") (result i64) (call $exit (i32.const 3)) i64.const 0)
           (func (export "prescore") (result i32) i32.const 9)"#,
    );
    let err = g.filter(&pod("p"), "n").unwrap_err();
    assert_eq!(err.to_string(), "wasm: filter error: oops\nunreachable");
    assert_eq!(
        g.score(&pod("p"), "n").unwrap_err().to_string(),
        "wasm: score error: exit with code 3"
    );
    let bad = g.prescore(&pod("p"), &[]).unwrap_err().to_string();
    assert_eq!(
        bad,
        "wasm: prescore error: the guest returned an unknown status code 9"
    );
    let missing = g.bind(&pod("p"), "n").unwrap_err().to_string();
    assert_eq!(
        missing,
        "wasm: bind error: the guest does not export this function"
    );
}

#[test]
fn a_looping_guest_runs_out_of_fuel_the_same_way_every_time() {
    let config = GuestConfig {
        fuel_per_call: 50_000,
        ..GuestConfig::default()
    };
    let mut g = wat_guest(
        r#"(func (export "score") (result i64) (loop (br 0)) i64.const 0)"#,
        config,
    )
    .unwrap();
    let first = g.score(&pod("p"), "n").unwrap_err();
    assert_eq!(first.to_string(), "wasm: score error: out of fuel");
    assert_eq!(g.fuel_used(), 50_000);
    assert_eq!(g.score(&pod("p"), "n").unwrap_err(), first);
}

#[test]
fn load_errors_read_like_the_extensions() {
    let load = |wat: &str| {
        Guest::load(&wat::parse_str(wat).unwrap(), GuestConfig::default())
            .err()
            .map(|e| e.to_string())
    };
    assert_eq!(
        load(r#"(module (func (export "filter") (result i32) i32.const 0))"#).unwrap(),
        "wasm: guest doesn't export memory[memory]"
    );
    assert_eq!(
        load(r#"(module (memory (export "memory") 1) (func (export "other")))"#).unwrap(),
        "wasm: guest does not export any plugin functions"
    );
    assert_eq!(
        load(r#"(module (memory (export "memory") 1) (func (export "filter") (result i64) i64.const 0))"#).unwrap(),
        "wasm: guest exports the wrong signature for func[filter]. should be () -> (i32)"
    );
    assert_eq!(
        load(r#"(module (import "k8s.io/api" "pods" (func)) (memory (export "memory") 1) (func (export "postbind")))"#)
            .unwrap(),
        "wasm: guest imports an unknown function k8s.io/api.pods"
    );
    let wrong = r#"(module (import "k8s.io/api" "node" (func (param i32))) (memory (export "memory") 1) (func (export "postbind")))"#;
    assert!(load(wrong)
        .unwrap()
        .contains("k8s.io/api.node with the wrong signature"));
    let start_traps = r#"(module (memory (export "memory") 1) (func (export "_start") unreachable) (func (export "postbind")))"#;
    assert_eq!(
        load(start_traps).unwrap(),
        "wasm: error instantiating guest: _start: unreachable"
    );
    assert!(Guest::load(b"\0asm\x01\0\0\0\x01", GuestConfig::default())
        .unwrap_err()
        .to_string()
        .starts_with("wasm: error compiling guest"));
}

#[test]
fn eventf_becomes_a_log_line() {
    let json = r#"{"RegardingReference":{"Name":"p-1"},"Eventtype":"Normal","Reason":"PreScore","Action":"Skip","Note":""}"#;
    let escaped = json.replace('"', "\\\"");
    let body = format!(
        r#"(data (i32.const 0) "{escaped}")
           (func (export "prescore") (result i32) (call $eventf (i32.const 0) (i32.const {})) i32.const 0)"#,
        json.len()
    );
    let mut g = guest(&body);
    g.prescore(&pod("p"), &[]).unwrap();
    assert_eq!(
        g.logs(),
        [GuestLog {
            source: LogSource::Event,
            text: "Normal PreScore Skip  (regarding p-1)".into()
        }]
    );
}
