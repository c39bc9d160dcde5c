// NodeNumber, the kube-scheduler-wasm-extension's example Score plugin:
// a node whose name ends in the same digit as the pod's name scores 10,
// any other node 0 (a pod name without a trailing digit scores 10 everywhere).
// {"reverse": true} in its pluginConfig args inverts the match.
register("NodeNumber", (args) => {
  const reverse = Boolean(args && args.reverse);
  const lastDigit = (name) => (/[0-9]$/.test(name) ? name.slice(-1) : null);
  return {
    score(pod, node) {
      const want = lastDigit(pod.metadata.name);
      let match = want === null || lastDigit(node.metadata.name) === want;
      if (reverse) match = !match;
      return match ? 10 : 0;
    },
  };
});
