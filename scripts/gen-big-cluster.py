#!/usr/bin/env python3
"""Writes assets/scenarios/big-cluster/: 1000 nodes and 10 000 pods, the playground's
responsiveness scenario (issue 6). Deterministic: run it again and the files are identical.

Nodes: 3 zones; 900 general nodes (8 CPU, 32Gi), 80 high-memory nodes (16 CPU, 128Gi), 20 GPU
nodes tainted dedicated=gpu:NoSchedule; every 50th general node is cordoned.
Pods: 9 800 already bound (nodeName set), packed so that no general node has 6 CPU free and no
high-memory node has 6 CPU free; 200 pending: 120 web replicas, 40 low-priority batch pods, 20
critical pods of 6 CPU that must preempt, 10 GPU pods, 10 pods that want a disk no node has
until the Timeline adds one at t = 2m.
"""
import json
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "assets", "scenarios", "big-cluster")
rng = random.Random(20261130)
ZONES = ["eu-west-1a", "eu-west-1b", "eu-west-1c"]


def node(i, pool):
    name = f"node-{i:04d}"
    zone = ZONES[i % 3]
    cpu, mem = {"general": ("8", "32Gi"), "highmem": ("16", "128Gi"), "gpu": ("8", "64Gi")}[pool]
    labels = {
        "kubernetes.io/hostname": name,
        "topology.kubernetes.io/zone": zone,
        "failure-domain.beta.kubernetes.io/zone": zone,
        "node.kubernetes.io/pool": pool,
    }
    spec = {}
    alloc = {"cpu": cpu, "memory": mem, "pods": "110"}
    if pool == "gpu":
        labels["accelerator"] = "nvidia-t4"
        spec["taints"] = [{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]
        alloc["nvidia.com/gpu"] = "4"
    if pool == "general" and i % 50 == 7:
        spec["unschedulable"] = True
    obj = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}}
    if spec:
        obj["spec"] = spec
    obj["status"] = {"capacity": alloc, "allocatable": alloc}
    return obj


def pod(name, cpu_m, mem_mi, labels, node=None, priority_class=None, extra_spec=None):
    spec = {
        "containers": [
            {
                "name": "main",
                "image": "registry.example/app:1.0",
                "resources": {"requests": {"cpu": f"{cpu_m}m", "memory": f"{mem_mi}Mi"}},
            }
        ]
    }
    if node:
        spec["nodeName"] = node
    if priority_class:
        spec["priorityClassName"] = priority_class
    if extra_spec:
        spec.update(extra_spec)
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default", "labels": labels},
        "spec": spec,
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    nodes = []
    for i in range(1, 1001):
        pool = "general" if i <= 900 else ("highmem" if i <= 980 else "gpu")
        nodes.append(node(i, pool))

    pods = []
    # Bound pods: 9 800 spread over the nodes. Each general node gets CPU used in [2.5, 7.5]
    # cores, each high-memory node [10.5, 15.5]; GPU nodes stay light.
    count = 0
    apps = [f"svc-{k:02d}" for k in range(40)]
    per_node = [0] * 1000
    # First give every node its share of pods, then top up to reach exactly 9 800.
    targets = []
    for i, n in enumerate(nodes):
        pool = n["metadata"]["labels"]["node.kubernetes.io/pool"]
        targets.append(9 if pool != "gpu" else 2)
    while sum(targets) < 9800:
        targets[rng.randrange(0, 980)] += 1
    for i, n in enumerate(nodes):
        pool = n["metadata"]["labels"]["node.kubernetes.io/pool"]
        k = targets[i]
        cap = {"general": 8000, "highmem": 16000, "gpu": 8000}[pool]
        low = {"general": 2600, "highmem": 10600, "gpu": 400}[pool]
        high = {"general": 7400, "highmem": 15400, "gpu": 2000}[pool]
        total = rng.randint(low, high)
        # Split `total` millicores over k pods (at least 10m each).
        cuts = sorted(rng.sample(range(1, max(total // 10, k + 1)), k - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [total // 10])]
        for j, part in enumerate(parts):
            count += 1
            app = apps[(i * 7 + j) % len(apps)]
            cpu = max(10, part * 10)
            prio = "low" if (count % 3 == 0) else None
            pods.append(
                pod(f"{app}-{count:05d}", cpu, 256 + (count % 8) * 128, {"app": app}, n["metadata"]["name"], prio)
            )
        per_node[i] = k
    assert len(pods) == 9800, len(pods)

    pending = []
    for k in range(120):
        pending.append(pod(f"web-{k:03d}", 500, 1024, {"app": "web"}))
    for k in range(40):
        pending.append(pod(f"batch-{k:02d}", 2000, 4096, {"app": "batch"}, priority_class="low"))
    for k in range(20):
        pending.append(pod(f"critical-{k:02d}", 6000, 8192, {"app": "critical"}, priority_class="critical"))
    for k in range(10):
        pending.append(
            pod(
                f"train-{k:02d}",
                2000,
                8192,
                {"app": "train"},
                extra_spec={
                    "nodeSelector": {"accelerator": "nvidia-t4"},
                    "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}],
                },
            )
        )
    for k in range(10):
        pending.append(pod(f"fast-disk-{k:02d}", 1000, 2048, {"app": "fast-disk"}, extra_spec={"nodeSelector": {"disktype": "nvme"}}))
    # Interleave so the queue order (priority, then input order) is not just the file order.
    rng.shuffle(pending)
    pods.extend(pending)
    assert len(pods) == 10000

    classes = [
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "low"}, "value": -10},
        {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "critical"}, "value": 100000},
    ]
    nvme = node(1001, "general")
    nvme["metadata"]["labels"]["disktype"] = "nvme"
    nvme.pop("spec", None)
    timeline = {
        "apiVersion": "schedlab.dev/v1alpha1",
        "kind": "Timeline",
        "metadata": {"name": "nvme-node-joins"},
        "spec": {"changes": [{"at": "2m", "addNode": nvme}]},
    }

    def write_list(path, items, header):
        with open(path, "w") as f:
            f.write('{"apiVersion": "v1", "kind": "List", "metadata": {"description": ' + json.dumps(header) + '}, "items": [\n')
            for i, item in enumerate(items):
                f.write(json.dumps(item, separators=(",", ":")))
                f.write(",\n" if i + 1 < len(items) else "\n")
            f.write("]}\n")

    write_list(os.path.join(OUT, "nodes.json"), nodes, "1000 nodes in 3 zones: general, high-memory, GPU (tainted); every 50th general node cordoned. Generated by scripts/gen-big-cluster.py.")
    write_list(
        os.path.join(OUT, "pods.json"),
        classes + [timeline] + pods,
        "10 000 pods: 9 800 bound, 200 pending (web, batch, critical pods that preempt, GPU training, pods waiting for an nvme node). Generated by scripts/gen-big-cluster.py.",
    )


if __name__ == "__main__":
    main()
