#!/usr/bin/env python3
"""Writes a JSON List on one line: 50 nodes and N pods (default 20 000; about 2.9 KB a pod, so
58 MB), the pod in the middle with the bad quantity `cpu: "12x"` (`--valid` writes `100m`
there instead). For issue 40's memory figures (docs/benchmarks.md):

    python3 scripts/gen-one-line-list.py 20000 > /tmp/big.json
    /usr/bin/time -v target/release/schedlab validate /tmp/big.json
"""
import json, sys
args = [a for a in sys.argv[1:] if a != "--valid"]
n = int(args[0]) if args else 20000
valid = "--valid" in sys.argv[1:]
bad = n // 2
items = []
for i in range(50):
    items.append({"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}", "labels": {"kubernetes.io/hostname": f"node-{i}", "topology.kubernetes.io/zone": f"z{i%3}"}},
                  "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "500"}}})
for i in range(n):
    cpu = "12x" if i == bad and not valid else "100m"
    items.append({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": f"web-{i}", "namespace": "default", "uid": f"00000000-0000-0000-0000-{i:012d}",
                     "labels": {"app": "web", "tier": "frontend", "release": "stable", "pod-template-hash": "abcdef0123"},
                     "annotations": {"description": "x" * 600, "kubectl.kubernetes.io/last-applied-configuration": "y" * 600},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-abcdef0123", "uid": "11111111-2222-3333-4444-555555555555", "controller": True}]},
        "spec": {"containers": [{"name": "app", "image": "registry.example.com/team/web:1.2.3",
                                  "env": [{"name": f"VAR_{k}", "value": f"value-{k}-" + "z" * 20} for k in range(12)],
                                  "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                                  "resources": {"requests": {"cpu": cpu, "memory": "128Mi"}, "limits": {"cpu": "500m", "memory": "256Mi"}}}],
                 "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"}],
                 "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}}]}}},
        "status": {"phase": "Pending"}})
sys.stdout.write(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, separators=(",", ":")))
