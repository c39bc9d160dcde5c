#!/usr/bin/env python3
"""A real scheduler extender for schedlab's tests (Python's standard library only).

It speaks `k8s.io/kube-scheduler/extender/v1` over HTTP as kube-scheduler's extenders do: JSON
with the Go field names as keys. Its answers follow the node names, so a test can work out the
expected outcome by hand:

- filter: a node whose name contains `bad` fails with the message `<node> is bad`
  (`FailedNodes`); one whose name contains `never` is unresolvable
  (`FailedAndUnresolvableNodes`, which v1.17 does not read); every other node is kept.
- prioritize: a node's score is the number its name ends with (`n7` -> 7, `n12` -> 12: not
  clamped, as upstream does not clamp), 0 when it ends with none.
- preempt: every offered node whose name does not contain `bad` is kept with its victims
  (answered as `NodeNameToMetaVictims`, UIDs only, as upstream's extenders answer).
- bind: accepted (`{"Error": ""}`), and remembered (`GET /bindings`).

The first path segment picks a mode, the rest is the verb (`/basic/filter`):

- `basic`: as above.
- `lower`: the same answers with lowercase keys (`nodenames`, `failednodes`, `error`, ...).
- `status500`: every call is answered `500 Internal Server Error`.
- `slow`: every call waits 3 s before answering (tests give the extender a 1 s httpTimeout).
- `error`: filter and bind answer with `Error: "extender says no"`.
- `garbage`: every reply is `not json`.
- `huge`: prioritize names a node that does not exist (`ghost`) and gives `n1` a score of
  9223372036854775807.

`GET /log` returns every call received (`[{"path", "body"}]`, the body as parsed JSON) and
`POST /reset` clears it. Start with `--port 0` to take a free port; the port is printed on the
first line of stdout (and written to `--port-file` when given).
"""

import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = []
BINDINGS = []
LOCK = threading.Lock()


def score_of(name):
    m = re.search(r"(\d+)$", name)
    return int(m.group(1)) if m else 0


def node_names(args):
    if args.get("NodeNames") is not None:
        return list(args["NodeNames"]), True
    nodes = args.get("Nodes") or {}
    return [n["metadata"]["name"] for n in nodes.get("items") or []], False


def filter_reply(args):
    names, by_name = node_names(args)
    kept, failed, unresolvable = [], {}, {}
    for n in names:
        if "bad" in n:
            failed[n] = f"{n} is bad"
        elif "never" in n:
            unresolvable[n] = f"{n} can never fit"
        else:
            kept.append(n)
    reply = {"FailedNodes": failed, "FailedAndUnresolvableNodes": unresolvable, "Error": ""}
    if by_name:
        reply["NodeNames"] = kept
        reply["Nodes"] = None
    else:
        items = [i for i in (args.get("Nodes") or {}).get("items") or []
                 if i["metadata"]["name"] in kept]
        reply["Nodes"] = {"metadata": {}, "items": items}
        reply["NodeNames"] = None
    return reply


def prioritize_reply(args):
    names, _ = node_names(args)
    return [{"Host": n, "Score": score_of(n)} for n in names]


def preempt_reply(args):
    out = {}
    full = args.get("NodeNameToVictims") or {}
    meta = args.get("NodeNameToMetaVictims") or {}
    for node, v in full.items():
        if "bad" not in node:
            out[node] = {
                "Pods": [{"UID": p["metadata"].get("uid", "")} for p in v.get("Pods") or []],
                "NumPDBViolations": v.get("NumPDBViolations", 0),
            }
    for node, v in meta.items():
        if "bad" not in node:
            out[node] = {"Pods": v.get("Pods") or [], "NumPDBViolations": v.get("NumPDBViolations", 0)}
    return {"NodeNameToMetaVictims": out}


def lower_keys(value):
    if isinstance(value, dict):
        return {k.lower(): lower_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lower_keys(v) for v in value]
    return value


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def send(self, status, body, content_type="application/json"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        with LOCK:
            if self.path == "/log":
                return self.send(200, json.dumps(LOG))
            if self.path == "/bindings":
                return self.send(200, json.dumps(BINDINGS))
        self.send(404, "not found", "text/plain")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode()
        if self.path == "/reset":
            with LOCK:
                LOG.clear()
                BINDINGS.clear()
            return self.send(200, "{}")
        parts = self.path.strip("/").split("/")
        if len(parts) != 2:
            return self.send(404, "not found", "text/plain")
        mode, verb = parts
        try:
            args = json.loads(raw)
        except ValueError:
            return self.send(400, "bad request body", "text/plain")
        with LOCK:
            LOG.append({"path": self.path, "body": args})
        if mode == "status500":
            return self.send(500, "boom", "text/plain")
        if mode == "slow":
            time.sleep(3)
        if mode == "garbage":
            return self.send(200, "not json", "text/plain")
        if verb == "filter":
            reply = filter_reply(args)
            if mode == "error":
                reply = {"Error": "extender says no"}
        elif verb == "prioritize":
            reply = prioritize_reply(args)
            if mode == "huge":
                reply = [{"Host": "ghost", "Score": 3}] + [
                    {"Host": h["Host"], "Score": 9223372036854775807 if h["Host"] == "n1" else h["Score"]}
                    for h in reply
                ]
        elif verb == "preempt":
            reply = preempt_reply(args)
        elif verb == "bind":
            reply = {"Error": "extender says no" if mode == "error" else ""}
            if mode != "error":
                with LOCK:
                    BINDINGS.append(args)
        else:
            return self.send(404, "no such verb", "text/plain")
        if mode == "lower":
            reply = lower_keys(reply)
        self.send(200, json.dumps(reply))


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (its httpTimeout passed) closes the connection: not an error.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    a = ap.parse_args()
    server = Server(("127.0.0.1", a.port), Handler)
    port = server.server_address[1]
    print(port, flush=True)
    if a.port_file:
        with open(a.port_file, "w") as f:
            f.write(str(port))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
