;; NodeNumber, the kube-scheduler-wasm-extension's example plugin, written by hand in WAT.
;;
;; PreScore reads the pod (k8s.io/scheduler.currentPod, protobuf v1.Pod) and keeps the last
;; digit of its name in the guest's cycle state. Score reads the node name
;; (currentNodeName), fetches the node (k8s.io/api.node, protobuf v1.Node), and returns 10
;; when the node name's last digit equals the pod's, else 0. As in the extension's example,
;; a pod name without a trailing digit scores 10 everywhere. `{"reverse": true}` in the
;; guest config inverts the match. Filter is our own variant: Unschedulable when the pod's
;; name ends in a digit and the node's does not end in the same one.
;;
;; Memory: 256 config, 1024 node name, 2048 pod (up to 30000 bytes), 32768 node (up to 30000).
(module
  (import "k8s.io/api" "node" (func $node (param i32 i32 i32 i32) (result i32)))
  (import "k8s.io/scheduler" "currentPod" (func $currentPod (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "currentNodeName" (func $currentNodeName (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "get_config" (func $get_config (param i32 i32) (result i32)))
  (import "k8s.io/scheduler" "result.status_reason" (func $status_reason (param i32 i32)))
  (import "k8s.io/scheduler" "result.cluster_events" (func $cluster_events (param i32 i32)))
  (import "k8s.io/klog" "log" (func $log (param i32 i32 i32)))

  (memory (export "memory") 1)
  (data (i32.const 0) "NodeNumberArgs is successfully applied")      ;; 38 bytes
  (data (i32.const 64) "execute PreScore on NodeNumber plugin")      ;; 37 bytes
  (data (i32.const 128) "node number does not match")                ;; 26 bytes
  (data (i32.const 192) "\01\00\00\00\01\00\00\00")                  ;; Node, Add

  (global $pos (mut i32) (i32.const 0))       ;; protobuf cursor
  (global $flen (mut i32) (i32.const 0))      ;; length of the field $field found
  (global $pod_digit (mut i32) (i32.const -1));; cycle state: the pod's last digit, or -1
  (global $reverse (mut i32) (i32.const 0))

  ;; A varint at $pos (low 32 bits), advancing $pos; stops at $end.
  (func $varint (param $end i32) (result i32)
    (local $result i32) (local $shift i32) (local $b i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (global.get $pos) (local.get $end)))
        (local.set $b (i32.load8_u (global.get $pos)))
        (global.set $pos (i32.add (global.get $pos) (i32.const 1)))
        (if (i32.lt_u (local.get $shift) (i32.const 32))
          (then (local.set $result
            (i32.or (local.get $result)
              (i32.shl (i32.and (local.get $b) (i32.const 0x7f)) (local.get $shift))))))
        (local.set $shift (i32.add (local.get $shift) (i32.const 7)))
        (br_if $next (i32.and (local.get $b) (i32.const 0x80)))))
    (local.get $result))

  ;; The start of the first length-delimited field number $field in [$start, $end), its
  ;; length in $flen; -1 when absent or malformed.
  (func $field (param $start i32) (param $end i32) (param $field i32) (result i32)
    (local $key i32) (local $len i32)
    (global.set $pos (local.get $start))
    (block $absent
      (loop $scan
        (br_if $absent (i32.ge_u (global.get $pos) (local.get $end)))
        (local.set $key (call $varint (local.get $end)))
        (block $skipped
          (block $wire5
            (block $wire2
              (block $wire1
                (block $wire0
                  (br_table $wire0 $wire1 $wire2 $absent $absent $wire5 $absent $absent
                    (i32.and (local.get $key) (i32.const 7))))
                (drop (call $varint (local.get $end)))
                (br $skipped))
              (global.set $pos (i32.add (global.get $pos) (i32.const 8)))
              (br $skipped))
            (local.set $len (call $varint (local.get $end)))
            (br_if $absent (i32.gt_u (local.get $len) (i32.sub (local.get $end) (global.get $pos))))
            (if (i32.eq (i32.shr_u (local.get $key) (i32.const 3)) (local.get $field))
              (then
                (global.set $flen (local.get $len))
                (return (global.get $pos))))
            (global.set $pos (i32.add (global.get $pos) (local.get $len)))
            (br $skipped))
          (global.set $pos (i32.add (global.get $pos) (i32.const 4))))
        (br $scan)))
    (i32.const -1))

  ;; The last digit of metadata.name (field 1 of field 1) of the object at $start, or -1.
  (func $name_digit (param $start i32) (param $len i32) (result i32)
    (local $meta i32) (local $name i32) (local $c i32)
    (local.set $meta (call $field (local.get $start) (i32.add (local.get $start) (local.get $len)) (i32.const 1)))
    (if (i32.lt_s (local.get $meta) (i32.const 0)) (then (return (i32.const -1))))
    (local.set $name (call $field (local.get $meta) (i32.add (local.get $meta) (global.get $flen)) (i32.const 1)))
    (if (i32.or (i32.lt_s (local.get $name) (i32.const 0)) (i32.eqz (global.get $flen)))
      (then (return (i32.const -1))))
    (local.set $c (i32.load8_u (i32.sub (i32.add (local.get $name) (global.get $flen)) (i32.const 1))))
    (if (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
      (then (return (i32.sub (local.get $c) (i32.const 48)))))
    (i32.const -1))

  ;; The current pod into 2048: a 2048-byte read first, retried larger (the buffer protocol).
  (func $pod_digit (result i32)
    (local $len i32)
    (local.set $len (call $currentPod (i32.const 2048) (i32.const 2048)))
    (if (i32.gt_u (local.get $len) (i32.const 2048))
      (then (local.set $len (call $currentPod (i32.const 2048) (i32.const 30000)))))
    (if (i32.gt_u (local.get $len) (i32.const 30000)) (then (return (i32.const -1))))
    (call $name_digit (i32.const 2048) (local.get $len)))

  ;; The current node's last digit, read from the node object the host serves.
  (func $node_digit (result i32)
    (local $name_len i32) (local $len i32)
    (local.set $name_len (call $currentNodeName (i32.const 1024) (i32.const 1024)))
    (if (i32.gt_u (local.get $name_len) (i32.const 1024)) (then (return (i32.const -1))))
    (local.set $len (call $node (i32.const 1024) (local.get $name_len) (i32.const 32768) (i32.const 30000)))
    (if (i32.gt_u (local.get $len) (i32.const 30000)) (then (return (i32.const -1))))
    (call $name_digit (i32.const 32768) (local.get $len)))

  ;; TinyGo's main: decode the config ("true" anywhere turns `reverse` on).
  (func (export "_start")
    (local $len i32) (local $i i32)
    (local.set $len (call $get_config (i32.const 256) (i32.const 768)))
    (if (i32.or (i32.eqz (local.get $len)) (i32.gt_u (local.get $len) (i32.const 768))) (then (return)))
    (block $done
      (loop $scan
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $len)))
        (if (i32.eq (i32.load (i32.add (i32.const 256) (local.get $i))) (i32.const 0x65757274)) ;; "true"
          (then (global.set $reverse (i32.const 1)) (br $done)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scan)))
    (call $log (i32.const 0) (i32.const 0) (i32.const 38)))

  (func (export "enqueue")
    (call $cluster_events (i32.const 192) (i32.const 8)))

  (func (export "prescore") (result i32)
    (call $log (i32.const 0) (i32.const 64) (i32.const 37))
    (global.set $pod_digit (call $pod_digit))
    (i32.const 0))

  (func (export "score") (result i64)
    (local $match i32)
    (local.set $match
      (if (result i32) (i32.lt_s (global.get $pod_digit) (i32.const 0))
        (then (i32.const 1))
        (else (i32.eq (call $node_digit) (global.get $pod_digit)))))
    (if (global.get $reverse) (then (local.set $match (i32.eqz (local.get $match)))))
    ;; score << 32 | Success
    (i64.shl (i64.extend_i32_u (i32.mul (local.get $match) (i32.const 10))) (i64.const 32)))

  (func (export "filter") (result i32)
    (local $pod i32)
    (local.set $pod (call $pod_digit))
    (if (i32.and (i32.ge_s (local.get $pod) (i32.const 0)) (i32.ne (call $node_digit) (local.get $pod)))
      (then
        (call $status_reason (i32.const 128) (i32.const 26))
        (return (i32.const 2))))
    (i32.const 0)))
