//! The plugin vectors of reference `dra.md` §5.1 (upstream's `TestPlugin`), fixture F-P.

use super::*;
use serde_json::json;

fn errors(v: serde_json::Value) -> Vec<String> {
    crate::v135::plugins::testkit::build_errors(build, v)
}

#[test]
fn args_are_read_strictly_and_ignored() {
    assert!(errors(json!({})).is_empty());
    assert!(errors(json!({"kind": "DynamicResourcesArgs",
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "filterTimeout": "10s", "bindingTimeout": "600s"}))
    .is_empty());
    let e = errors(json!({"filterTimeOut": "1s"}));
    assert_eq!(e.len(), 1);
    assert!(e[0].contains("unknown field `filterTimeOut`"), "{e:?}");
}
