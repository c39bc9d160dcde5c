#!/usr/bin/env python3
"""Writes scheduler_perf's SchedulingBasic workload as kubectl-style JSON (and YAML) lists.

The same shape as `schedlab bench` builds in memory (crates/schedlab_core/src/workloads.rs):
5000 nodes (4 CPU, 32Gi, 110 pods), 5000 pods already bound round-robin, 50 000 pending pods
of 100m / 500Mi. Written as the lists `kubectl get -o json` prints (`kind: List`, sorted keys), each on one
line (`--indent 4` for kubectl's own layout): nodes.json and pods.json, 17 MB together; with
--yaml also nodes.yaml and pods.yaml (the same objects in block style, as `kubectl get -o yaml`
prints them; 17 MB together).

    python3 scripts/gen-basic-workload.py OUT_DIR [--nodes 5000] [--bound 5000]
        [--pending 50000] [--indent N] [--yaml]
"""
import argparse
import json
import os


def node(i):
    name = f"node-{i}"
    res = {"cpu": "4", "memory": "32Gi", "pods": "110"}
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"labels": {"kubernetes.io/hostname": name}, "name": name},
        "spec": {},
        "status": {"allocatable": dict(res), "capacity": dict(res)},
    }


def pod(name, node_name=None):
    spec = {
        "containers": [
            {
                "image": "registry.k8s.io/pause:3.1",
                "name": "pause",
                "resources": {"requests": {"cpu": "100m", "memory": "500Mi"}},
            }
        ],
        "schedulerName": "default-scheduler",
    }
    if node_name is not None:
        spec["nodeName"] = node_name
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "default"},
        "spec": spec,
    }


def kubectl_list(items):
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


def yaml_scalar(v):
    if isinstance(v, str):
        # Quote what YAML would read as something else, as kubectl does.
        plain = v and v[0] not in "-?:,[]{}#&*!|>'\"%@`" and ": " not in v and " #" not in v
        if plain and v not in ("true", "false", "null", "~", "yes", "no", "on", "off") and not v.replace(".", "", 1).isdigit():
            return v
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return json.dumps(v)


def yaml_lines(v, indent, out):
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            return False
        for k in sorted(v):
            x = v[k]
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{yaml_scalar(k)}:")
                yaml_lines(x, indent + (2 if isinstance(x, dict) else 0), out)
            else:
                empty = "{}" if isinstance(x, dict) else "[]" if isinstance(x, list) else yaml_scalar(x)
                out.append(f"{pad}{yaml_scalar(k)}: {empty}")
    else:
        for x in v:
            sub = []
            yaml_lines(x, indent + 2, sub)
            sub[0] = pad + "- " + sub[0][indent + 2:]
            out.extend(sub)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--bound", type=int, default=5000)
    ap.add_argument("--pending", type=int, default=50_000)
    ap.add_argument("--indent", type=int, default=None)
    ap.add_argument("--yaml", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    nodes = kubectl_list([node(i) for i in range(a.nodes)])
    pods = [pod(f"bound-{i}", f"node-{i % a.nodes}") for i in range(a.bound)]
    pods += [pod(f"pending-{i}") for i in range(a.pending)]
    pods = kubectl_list(pods)
    for name, doc in (("nodes", nodes), ("pods", pods)):
        with open(os.path.join(a.out, name + ".json"), "w") as f:
            json.dump(doc, f, indent=a.indent, sort_keys=True)
            f.write("\n")
        if a.yaml:
            out = []
            yaml_lines(doc, 0, out)
            with open(os.path.join(a.out, name + ".yaml"), "w") as f:
                f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
