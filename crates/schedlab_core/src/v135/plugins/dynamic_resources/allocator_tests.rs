//! The allocator vectors of reference `dra.md` §5.2 (upstream's `allocator_testing.go`),
//! fixture F-A: expected results worked out from the search's order by hand.

use super::allocator::{allocate, diagnose, AllocError, NodeRef, SelectorError, World};
use super::selectors::Selectors;
use crate::model::dra::catalog::DraCatalog;
use crate::model::dra::{
    apply_request_defaults, AllocationResult, DeviceClass, ResourceClaim, ResourceSlice,
};
use crate::model::Labels;
use crate::trace::v135::ClaimAnswer;
use serde_json::{json, Value};
use std::sync::Arc;

fn class(name: &str, driver: &str) -> Value {
    json!({"metadata": {"name": name},
           "spec": {"selectors": [{"cel": {"expression": format!("device.driver == \"{driver}\"")}}]}})
}

/// `slice(name, node selection, pool, driver, devices)`, pool count `count`, generation `gen`.
fn slice(name: &str, on: Value, pool: &str, driver: &str, devices: Value) -> Value {
    slice_gen(name, on, pool, driver, devices, 1, 1)
}

fn slice_gen(
    name: &str,
    on: Value,
    pool: &str,
    driver: &str,
    devices: Value,
    count: i64,
    gen: i64,
) -> Value {
    let mut spec = json!({"driver": driver, "pool": {"name": pool, "generation": gen, "resourceSliceCount": count},
                          "devices": devices});
    for (k, v) in on.as_object().expect("node selection").clone() {
        spec[k] = v;
    }
    json!({"metadata": {"name": name}, "spec": spec})
}

fn node1() -> Value {
    json!({"nodeName": "node-1"})
}

fn devs(names: &[&str]) -> Value {
    Value::Array(names.iter().map(|n| json!({"name": n})).collect())
}

fn request(name: &str, class: &str, n: i64) -> Value {
    json!({"name": name, "exactly": {"deviceClassName": class, "allocationMode": "ExactCount", "count": n}})
}

fn claim(name: &str, requests: Value) -> Value {
    json!({"metadata": {"name": name, "namespace": "default"}, "spec": {"devices": {"requests": requests}}})
}

struct Fixture {
    classes: Vec<Value>,
    slices: Vec<Value>,
    allocated: Vec<(String, String, String)>,
}

impl Fixture {
    fn new(slices: Vec<Value>) -> Fixture {
        Fixture {
            classes: vec![class("class-a", "driver-a"), class("class-b", "driver-b")],
            slices,
            allocated: Vec::new(),
        }
    }

    fn allocated(mut self, ids: &[(&str, &str, &str)]) -> Fixture {
        self.allocated = ids
            .iter()
            .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
            .collect();
        self
    }

    fn run(
        &self,
        node: &str,
        claims: Vec<Value>,
    ) -> (Result<Option<Vec<AllocationResult>>, AllocError>, u64) {
        self.with_world(node, claims, |world, node, claims| {
            allocate(world, node, claims)
        })
    }

    /// The allocator's answer claim by claim (`explain`'s).
    fn diagnose(&self, node: &str, claims: Vec<Value>) -> Vec<ClaimAnswer> {
        self.with_world(node, claims, diagnose)
    }

    fn with_world<T>(
        &self,
        node: &str,
        claims: Vec<Value>,
        f: impl FnOnce(&World, &NodeRef, &[&ResourceClaim]) -> T,
    ) -> T {
        let mut cat = DraCatalog::default();
        for c in &self.classes {
            let c: DeviceClass = serde_json::from_value(c.clone()).expect("class");
            cat.classes.insert(c.metadata.name.clone(), Arc::new(c));
        }
        let slices: Vec<Arc<ResourceSlice>> = self
            .slices
            .iter()
            .map(|s| Arc::new(serde_json::from_value(s.clone()).expect("slice")))
            .collect();
        cat.set_slices(slices);
        for (i, (d, p, n)) in self.allocated.iter().enumerate() {
            let holder: ResourceClaim = serde_json::from_value(json!({
                "metadata": {"name": format!("holder-{i}")},
                "status": {"allocation": {"devices": {"results": [{"request": "r", "driver": d, "pool": p, "device": n}]}}}
            })).expect("holder");
            cat.add_claim(holder, false);
        }
        let claims: Vec<ResourceClaim> = claims
            .into_iter()
            .map(|c| {
                let mut c: ResourceClaim = serde_json::from_value(c).expect("claim");
                apply_request_defaults(&mut c.spec);
                c
            })
            .collect();
        let refs: Vec<&ResourceClaim> = claims.iter().collect();
        let selectors = Selectors::default();
        let table = Arc::clone(cat.table());
        let in_use = |k: u32| cat.in_use(k);
        let selector =
            |e: &str, d: u32| -> Result<bool, SelectorError> { selectors.evaluate(&table, e, d) };
        let world = World {
            table: &table,
            classes: &cat.classes,
            in_use: &in_use,
            selector: &selector,
        };
        let labels: Labels = match node {
            "node-1" => [("region", "region-1"), ("planet", "earth")],
            _ => [("region", "region-2"), ("planet", "earth")],
        }
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        f(
            &world,
            &NodeRef {
                name: node,
                labels: &labels,
            },
            &refs,
        )
    }
}

/// Each claim's results as `request driver/pool/device`.
fn short(
    r: &Result<Option<Vec<AllocationResult>>, AllocError>,
) -> Result<Option<Vec<Vec<String>>>, AllocError> {
    r.clone().map(|o| {
        o.map(|claims| {
            claims
                .iter()
                .map(|a| {
                    a.devices
                        .results
                        .iter()
                        .map(|x| {
                            let admin = if x.admin_access == Some(true) {
                                " admin"
                            } else {
                                ""
                            };
                            format!("{} {}/{}/{}{admin}", x.request, x.driver, x.pool, x.device)
                        })
                        .collect()
                })
                .collect()
        })
    })
}

fn ok(claims: &[&[&str]]) -> Result<Option<Vec<Vec<String>>>, AllocError> {
    Ok(Some(
        claims
            .iter()
            .map(|c| c.iter().map(|s| s.to_string()).collect())
            .collect(),
    ))
}

const NONE: Result<Option<Vec<Vec<String>>>, AllocError> = Ok(None);

#[test]
fn a1_one_device_on_the_node_is_allocated_and_pins_the_node() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    let (r, _) = f.run(
        "node-1",
        vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))],
    );
    assert_eq!(short(&r), ok(&[&["req-0 driver-a/pool-1/device-1"]]));
    let sel = r.unwrap().unwrap()[0].node_selector.clone().unwrap();
    assert_eq!(
        serde_json::to_value(sel).unwrap(),
        json!({"nodeSelectorTerms": [{"matchExpressions": [], "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]})
    );
}

#[test]
fn a2_only_the_class_matching_driver_on_the_other_node_is_taken() {
    let f = Fixture::new(vec![
        slice(
            "slice-1",
            node1(),
            "pool-1",
            "driver-b",
            devs(&["device-1"]),
        ),
        slice(
            "slice-2",
            json!({"nodeName": "node-2"}),
            "pool-2",
            "driver-a",
            devs(&["device-1"]),
        ),
    ]);
    let c = || vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))];
    assert_eq!(
        short(&f.run("node-2", c()).0),
        ok(&[&["req-0 driver-a/pool-2/device-1"]])
    );
    assert_eq!(short(&f.run("node-1", c()).0), NONE);
}

fn mem_request(name: &str, min: &str) -> Value {
    json!({"name": name, "exactly": {"deviceClassName": "class-a", "count": 1,
        "selectors": [{"cel": {"expression": format!("device.capacity[\"driver-a\"].memory.compareTo(quantity(\"{min}\")) >= 0")}}]}})
}

fn mem_dev(name: &str, mem: &str) -> Value {
    json!({"name": name, "capacity": {"memory": {"value": mem}}})
}

#[test]
fn a3_a4_a_small_and_a_large_request_backtrack_to_fit() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        json!([mem_dev("device-2", "2Gi"), mem_dev("device-1", "1Gi")]),
    )]);
    let (r, _) = f.run(
        "node-1",
        vec![claim(
            "claim-0",
            json!([mem_request("req-0", "1Gi"), mem_request("req-1", "2Gi")]),
        )],
    );
    assert_eq!(
        short(&r),
        ok(&[&[
            "req-0 driver-a/pool-1/device-1",
            "req-1 driver-a/pool-1/device-2"
        ]])
    );
    let (r, _) = f.run(
        "node-1",
        vec![
            claim("claim-0", json!([mem_request("req-0", "1Gi")])),
            claim("claim-1", json!([mem_request("req-1", "2Gi")])),
        ],
    );
    assert_eq!(
        short(&r),
        ok(&[
            &["req-0 driver-a/pool-1/device-1"],
            &["req-1 driver-a/pool-1/device-2"]
        ])
    );
}

#[test]
fn a5_devices_come_from_two_pools_in_pool_order() {
    let f = Fixture::new(vec![
        slice(
            "slice-1",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-1"]),
        ),
        slice(
            "slice-2",
            node1(),
            "pool-2",
            "driver-a",
            devs(&["device-1"]),
        ),
    ]);
    let (r, _) = f.run(
        "node-1",
        vec![claim("claim-0", json!([request("req-0", "class-a", 2)]))],
    );
    assert_eq!(
        short(&r),
        ok(&[&[
            "req-0 driver-a/pool-1/device-1",
            "req-0 driver-a/pool-2/device-1"
        ]])
    );
}

#[test]
fn a6_too_few_devices_or_devices_in_use_leave_claims_unallocated() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    let two = vec![
        claim("claim-0", json!([request("req-0", "class-a", 1)])),
        claim("claim-1", json!([request("req-0", "class-a", 1)])),
    ];
    assert_eq!(short(&f.run("node-1", two).0), NONE);
    let f = f.allocated(&[("driver-a", "pool-1", "device-1")]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))]
            )
            .0
        ),
        NONE
    );
}

fn all(name: &str, class: &str) -> Value {
    json!({"name": name, "exactly": {"deviceClassName": class, "allocationMode": "All"}})
}

#[test]
fn a7_all_devices_of_one_driver_and_one_of_another() {
    let f = Fixture::new(vec![
        slice(
            "slice-1",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-1", "device-2"]),
        ),
        slice(
            "slice-1",
            node1(),
            "pool-1",
            "driver-b",
            devs(&["device-1"]),
        ),
    ]);
    let (r, _) = f.run(
        "node-1",
        vec![
            claim("claim-0", json!([all("req-0", "class-a")])),
            claim("claim-1", json!([request("req-0", "class-b", 1)])),
        ],
    );
    assert_eq!(
        short(&r),
        ok(&[
            &[
                "req-0 driver-a/pool-1/device-1",
                "req-0 driver-a/pool-1/device-2"
            ],
            &["req-0 driver-b/pool-1/device-1"]
        ])
    );
}

#[test]
fn a8_all_devices_with_one_in_use_fails_unless_admin() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1", "device-2"]),
    )])
    .allocated(&[("driver-a", "pool-1", "device-1")]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([all("req-0", "class-a")]))]
            )
            .0
        ),
        NONE
    );
    let admin = json!([{"name": "req-0", "exactly": {"deviceClassName": "class-a", "allocationMode": "All", "adminAccess": true}}]);
    assert_eq!(
        short(&f.run("node-1", vec![claim("claim-0", admin)]).0),
        ok(&[&[
            "req-0 driver-a/pool-1/device-1 admin",
            "req-0 driver-a/pool-1/device-2 admin"
        ]])
    );
}

#[test]
fn a9_all_devices_of_an_incomplete_pool_is_an_error_exact_count_is_not() {
    let f = Fixture::new(vec![slice_gen(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
        2,
        1,
    )]);
    assert_eq!(
        f.run("node-1", vec![claim("claim-0", json!([all("req-0", "class-a")]))]).0,
        Err(AllocError::Error("claim default/claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated".into()))
    );
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))]
            )
            .0
        ),
        NONE
    );
}

#[test]
fn a10_all_devices_after_another_claim_took_one_has_no_solution() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![
                    claim("claim-1", json!([request("req-0", "class-a", 1)])),
                    claim("claim-0", json!([all("req-0", "class-a")]))
                ]
            )
            .0
        ),
        NONE
    );
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        json!([]),
    )]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([all("req-0", "class-a")]))]
            )
            .0
        ),
        NONE
    );
}

#[test]
fn a11_a12_network_attached_devices_merge_their_selectors() {
    let region1 = json!({"nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "region", "operator": "In", "values": ["region-1"]}]}]}});
    let f = Fixture::new(vec![slice(
        "slice-1",
        region1.clone(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    let c = || vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))];
    let (r, _) = f.run("node-1", c());
    assert_eq!(short(&r), ok(&[&["req-0 driver-a/pool-1/device-1"]]));
    let want: crate::model::NodeSelector =
        serde_json::from_value(region1["nodeSelector"].clone()).unwrap();
    assert_eq!(r.unwrap().unwrap()[0].node_selector, Some(want));
    assert_eq!(short(&f.run("node-2", c()).0), NONE);
    // Four pools: region, allNodes, planet, and a metadata.name field selector.
    let planet = json!({"nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "planet", "operator": "In", "values": ["earth"]}]}]}});
    let by_name = json!({"nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]}});
    let f = Fixture::new(vec![
        slice(
            "slice-1",
            region1,
            "pool-1",
            "driver-a",
            devs(&["device-1"]),
        ),
        slice(
            "slice-2",
            json!({"allNodes": true}),
            "pool-2",
            "driver-a",
            devs(&["device-1"]),
        ),
        slice("slice-3", planet, "pool-3", "driver-a", devs(&["device-1"])),
        slice(
            "slice-4",
            by_name,
            "pool-4",
            "driver-a",
            devs(&["device-1"]),
        ),
    ]);
    let (r, _) = f.run(
        "node-1",
        vec![claim("claim-0", json!([request("req-0", "class-a", 4)]))],
    );
    let a = r.unwrap().unwrap();
    assert_eq!(a[0].devices.results.len(), 4);
    assert_eq!(
        serde_json::to_value(&a[0].node_selector).unwrap(),
        json!({"nodeSelectorTerms": [{
        "matchExpressions": [{"key": "region", "operator": "In", "values": ["region-1"]}, {"key": "planet", "operator": "In", "values": ["earth"]}],
        "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]})
    );
}

fn attr_dev(name: &str, version: &str, s: &str) -> Value {
    json!({"name": name, "attributes": {"driverVersion": {"version": version}, "stringAttribute": {"string": s}, "numa": {"int": 1}, "boolAttribute": {"bool": true}}})
}

#[test]
fn a13_match_attribute_constraints_hold_or_leave_the_claim_unallocated() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        json!([
            attr_dev("device-1", "1.0.0", "x"),
            attr_dev("device-2", "1.0.0", "x")
        ]),
    )]);
    let constraints: Vec<Value> = ["numa", "driverVersion", "stringAttribute", "boolAttribute"]
        .iter()
        .map(|a| json!({"matchAttribute": format!("driver-a/{a}")}))
        .collect();
    let c = json!({"metadata": {"name": "claim-0", "namespace": "default"}, "spec": {"devices": {
        "requests": [request("req-0", "class-a", 1), request("req-1", "class-a", 1)], "constraints": constraints}}});
    assert_eq!(
        short(&f.run("node-1", vec![c]).0),
        ok(&[&[
            "req-0 driver-a/pool-1/device-1",
            "req-1 driver-a/pool-1/device-2"
        ]])
    );
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        json!([
            attr_dev("device-1", "1.0.0", "x"),
            attr_dev("device-2", "2.0.0", "x")
        ]),
    )]);
    let c = json!({"metadata": {"name": "claim-0", "namespace": "default"}, "spec": {"devices": {
        "requests": [request("req-0", "class-a", 2)], "constraints": [{"matchAttribute": "driver-a/driverVersion"}]}}});
    assert_eq!(short(&f.run("node-1", vec![c]).0), NONE);
}

#[test]
fn a14_a_constraint_on_one_request_backtracks_the_other() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        json!([
            attr_dev("device-1", "1.0.0", "a"),
            attr_dev("device-2", "2.0.0", "b"),
            attr_dev("device-3", "3.0.0", "b")
        ]),
    )]);
    let c = json!({"metadata": {"name": "claim-0", "namespace": "default"}, "spec": {"devices": {
        "requests": [request("req-0", "class-a", 1), request("req-1", "class-a", 1)],
        "constraints": [{"requests": ["req-0"], "matchAttribute": "driver-a/driverVersion"}, {"matchAttribute": "driver-a/stringAttribute"}]}}});
    assert_eq!(
        short(&f.run("node-1", vec![c]).0),
        ok(&[&[
            "req-0 driver-a/pool-1/device-2",
            "req-1 driver-a/pool-1/device-3"
        ]])
    );
}

#[test]
fn a15_all_devices_that_break_a_constraint_is_an_error() {
    let d = |n: &str, numa: i64| json!({"name": n, "attributes": {"numa": {"int": numa}}});
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        json!([d("device-1", 1), d("device-2", 2)]),
    )]);
    let c = json!({"metadata": {"name": "claim-0", "namespace": "default"}, "spec": {"devices": {
        "requests": [all("req-0", "class-a")], "constraints": [{"matchAttribute": "driver-a/numa"}]}}});
    assert_eq!(f.run("node-1", vec![c]).0, Err(AllocError::Error(
        "claim default/claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied".into())));
}

#[test]
fn a16_class_configs_are_copied_per_class() {
    let mut f = Fixture::new(vec![
        slice(
            "slice-1",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-0", "device-1"]),
        ),
        slice(
            "slice-2",
            node1(),
            "pool-1",
            "driver-b",
            devs(&["device-1"]),
        ),
    ]);
    f.classes[0]["spec"]["config"] = json!([{"opaque": {"driver": "driver-a", "parameters": {"classAttribute-A": "classAttribute-AValue"}}}]);
    f.classes[1]["spec"]["config"] = json!([{"opaque": {"driver": "driver-b", "parameters": {"classAttribute-B": "classAttribute-BValue"}}}]);
    let (r, _) = f.run(
        "node-1",
        vec![claim(
            "claim-0",
            json!([
                request("req-0", "class-a", 1),
                request("req-1", "class-a", 1),
                request("req-2", "class-b", 1)
            ]),
        )],
    );
    let a = &r.unwrap().unwrap()[0];
    let cfg: Vec<(String, Vec<String>)> = a
        .devices
        .config
        .iter()
        .map(|c| (c.source.clone(), c.requests.clone()))
        .collect();
    assert_eq!(
        cfg,
        vec![
            (
                "FromClass".to_string(),
                vec!["req-0".to_string(), "req-1".to_string()]
            ),
            ("FromClass".to_string(), vec!["req-2".to_string()])
        ]
    );
}

fn first_available(name: &str, subs: Value) -> Value {
    json!({"name": name, "firstAvailable": subs})
}

#[test]
fn a17_the_first_available_subrequest_that_fits_is_taken() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    let subs = json!([{"name": "subReq-0", "deviceClassName": "class-b", "count": 1}, {"name": "subReq-1", "deviceClassName": "class-a", "count": 1}]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([first_available("req-0", subs)]))]
            )
            .0
        ),
        ok(&[&["req-0/subReq-1 driver-a/pool-1/device-1"]])
    );
    let subs = json!([{"name": "subReq-0", "deviceClassName": "class-b", "count": 2}, {"name": "subReq-1", "deviceClassName": "class-a", "count": 2}]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([first_available("req-0", subs)]))]
            )
            .0
        ),
        NONE
    );
}

#[test]
fn a18_a_prioritized_list_backtracks_to_its_second_choice() {
    let f = Fixture::new(vec![
        slice(
            "slice-1",
            node1(),
            "pool-1",
            "driver-a",
            json!([mem_dev("device-1", "8Gi")]),
        ),
        slice(
            "slice-2",
            node1(),
            "pool-2",
            "driver-a",
            json!([mem_dev("device-2", "4Gi")]),
        ),
    ]);
    let sub = |n: &str, m: &str| {
        json!({"name": n, "deviceClassName": "class-a", "count": 1,
        "selectors": [{"cel": {"expression": format!("device.capacity[\"driver-a\"].memory.compareTo(quantity(\"{m}\")) >= 0")}}]})
    };
    let c = claim(
        "claim-0",
        json!([
            first_available(
                "req-0",
                json!([sub("subReq-0", "8Gi"), sub("subReq-1", "4Gi")])
            ),
            mem_request("req-1", "8Gi")
        ]),
    );
    assert_eq!(
        short(&f.run("node-1", vec![c]).0),
        ok(&[&[
            "req-0/subReq-1 driver-a/pool-2/device-2",
            "req-1 driver-a/pool-1/device-1"
        ]])
    );
}

#[test]
fn a19_an_all_subrequest_with_a_device_in_use_falls_back_to_the_next() {
    let subs = json!([{"name": "subReq-0", "deviceClassName": "class-a", "allocationMode": "All"}, {"name": "subReq-1", "deviceClassName": "class-a", "count": 1}]);
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1", "device-2"]),
    )])
    .allocated(&[("driver-a", "pool-1", "device-1")]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim(
                    "claim-0",
                    json!([first_available("req-0", subs.clone())])
                )]
            )
            .0
        ),
        ok(&[&["req-0/subReq-1 driver-a/pool-1/device-2"]])
    );
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1", "device-2"]),
    )])
    .allocated(&[("driver-a", "pool-1", "device-2")]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([first_available("req-0", subs)]))]
            )
            .0
        ),
        ok(&[&["req-0/subReq-1 driver-a/pool-1/device-1"]])
    );
}

#[test]
fn a21_admin_access_shares_devices_in_use() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )])
    .allocated(&[
        ("driver-a", "pool-1", "device-1"),
        ("driver-a", "pool-1", "device-2"),
    ]);
    let admin = |n: &str| {
        claim(
            n,
            json!([{"name": "req-0", "exactly": {"deviceClassName": "class-a", "count": 1, "adminAccess": true}}]),
        )
    };
    assert_eq!(
        short(&f.run("node-1", vec![admin("claim-0")]).0),
        ok(&[&["req-0 driver-a/pool-1/device-1 admin"]])
    );
    assert_eq!(
        short(&f.run("node-1", vec![admin("claim-0"), admin("claim-1")]).0),
        ok(&[
            &["req-0 driver-a/pool-1/device-1 admin"],
            &["req-0 driver-a/pool-1/device-1 admin"]
        ])
    );
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![
                    claim("claim-0", json!([request("req-0", "class-a", 1)])),
                    admin("claim-1")
                ]
            )
            .0
        ),
        ok(&[
            &["req-0 driver-a/pool-1/device-1"],
            &["req-0 driver-a/pool-1/device-1 admin"]
        ])
    );
}

#[test]
fn a22_a_newer_generation_replaces_or_obsoletes_a_pool() {
    let f = Fixture::new(vec![
        slice_gen(
            "slice-1",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-1"]),
            2,
            1,
        ),
        slice_gen(
            "slice-2",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-2"]),
            2,
            2,
        ),
    ]);
    let c = || vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))];
    assert_eq!(short(&f.run("node-1", c()).0), NONE);
    let f = Fixture::new(vec![
        slice_gen(
            "slice-1",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-1"]),
            2,
            1,
        ),
        slice_gen(
            "slice-2",
            json!({"nodeName": "node-2"}),
            "pool-1",
            "driver-a",
            devs(&["device-2"]),
            2,
            2,
        ),
    ]);
    assert_eq!(short(&f.run("node-1", c()).0), NONE);
}

#[test]
fn a23_a_duplicate_device_makes_the_pool_invalid() {
    let dup = vec![
        slice_gen(
            "slice-1",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-1"]),
            2,
            1,
        ),
        slice_gen(
            "slice-2",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-1"]),
            2,
            1,
        ),
    ];
    let c = || vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))];
    let invalid = Err(AllocError::OnNode(
        "invalid resource pools were encountered".into(),
    ));
    assert_eq!(Fixture::new(dup.clone()).run("node-1", c()).0, invalid);
    let mut more = dup;
    more.push(slice(
        "slice-3",
        node1(),
        "pool-2",
        "driver-a",
        devs(&["device-2"]),
    ));
    assert_eq!(
        short(&Fixture::new(more.clone()).run("node-1", c()).0),
        ok(&[&["req-0 driver-a/pool-2/device-2"]])
    );
    let f = Fixture::new(more).allocated(&[("driver-a", "pool-2", "device-2")]);
    assert_eq!(f.run("node-1", c()).0, invalid);
}

#[test]
fn a24_a_complete_older_generation_on_this_node_is_still_used() {
    let f = Fixture::new(vec![
        slice_gen(
            "slice-1",
            json!({"nodeName": "node-2"}),
            "pool-1",
            "driver-a",
            devs(&["device-1"]),
            2,
            1,
        ),
        slice_gen(
            "slice-2",
            node1(),
            "pool-1",
            "driver-a",
            devs(&["device-2"]),
            2,
            1,
        ),
    ]);
    assert_eq!(
        short(
            &f.run(
                "node-1",
                vec![claim("claim-0", json!([request("req-0", "class-a", 1)]))]
            )
            .0
        ),
        ok(&[&["req-0 driver-a/pool-1/device-2"]])
    );
}

#[test]
fn a25_a26_limits_and_bad_selectors_are_errors() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    assert_eq!(
        f.run(
            "node-1",
            vec![claim(
                "claim-0",
                json!([
                    request("req-0", "class-a", 32),
                    request("req-1", "class-a", 1)
                ])
            )]
        )
        .0,
        Err(AllocError::Error(
            "claim default/claim-0: number of requested devices 33 exceeds the claim limit of 32"
                .into()
        ))
    );
    let bad = json!([{"name": "req-0", "exactly": {"deviceClassName": "class-a", "count": 1, "selectors": [{"cel": {"expression": "noSuchVar"}}]}}]);
    let Err(AllocError::Error(e)) = f.run("node-1", vec![claim("claim-0", bad)]).0 else {
        panic!("an error")
    };
    assert!(
        e.starts_with(
            "claim default/claim-0: selector #0: CEL compile error: compilation failed: "
        ),
        "{e}"
    );
    assert!(e.contains("undeclared reference to 'noSuchVar'"), "{e}");
    let mode = json!([{"name": "req-0", "exactly": {"deviceClassName": "class-a", "allocationMode": "future-mode"}}]);
    assert_eq!(
        f.run("node-1", vec![claim("claim-0", mode)]).0,
        Err(AllocError::Error(
            "claim default/claim-0, request req-0: unsupported count mode future-mode".into()
        ))
    );
    let empty = json!({"metadata": {"name": "claim-0", "namespace": "default"}, "spec": {"devices": {"requests": [request("req-0", "class-a", 1)], "constraints": [{}]}}});
    assert_eq!(
        f.run("node-1", vec![empty]).0,
        Err(AllocError::Error(
            "claim default/claim-0, constraint #0: empty constraint (unsupported constraint type?)"
                .into()
        ))
    );
}

fn many(n: usize) -> Value {
    Value::Array(
        (0..n)
            .map(|i| json!({"name": format!("device-{i}")}))
            .collect(),
    )
}

#[test]
fn a28_an_all_subrequest_over_the_limit_falls_back_in_42_invocations() {
    let f = Fixture::new(vec![
        slice("slice-1", node1(), "pool-1", "driver-a", many(31)),
        slice("slice-2", node1(), "pool-2", "driver-b", many(2)),
    ]);
    let subs = json!([{"name": "subReq-0", "deviceClassName": "class-a", "allocationMode": "All"}, {"name": "subReq-1", "deviceClassName": "class-a", "count": 2}]);
    let (r, n) = f.run(
        "node-1",
        vec![claim(
            "claim-0",
            json!([
                first_available("req-0", subs),
                request("req-1", "class-b", 2)
            ]),
        )],
    );
    assert_eq!(
        short(&r),
        ok(&[&[
            "req-0/subReq-1 driver-a/pool-1/device-0",
            "req-0/subReq-1 driver-a/pool-1/device-1",
            "req-1 driver-b/pool-2/device-0",
            "req-1 driver-b/pool-2/device-1"
        ]])
    );
    assert_eq!(n, 42);
}

#[test]
fn a29_two_prioritized_lists_share_the_limit_in_75_invocations() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        many(64),
    )]);
    let subs = json!([{"name": "subReq-0", "deviceClassName": "class-a", "count": 32}, {"name": "subReq-1", "deviceClassName": "class-a", "count": 16}]);
    let (r, n) = f.run(
        "node-1",
        vec![claim(
            "claim-0",
            json!([
                first_available("req-0", subs.clone()),
                first_available("req-1", subs)
            ]),
        )],
    );
    let a = r.unwrap().unwrap();
    let got: Vec<String> = a[0]
        .devices
        .results
        .iter()
        .map(|x| format!("{} {}", x.request, x.device))
        .collect();
    let want: Vec<String> = (0..16)
        .map(|i| format!("req-0/subReq-1 device-{i}"))
        .chain((16..32).map(|i| format!("req-1/subReq-1 device-{i}")))
        .collect();
    assert_eq!(got, want);
    assert_eq!(n, 75);
}

// `explain`'s answers (not upstream's: schedlab's own words), worked out from the fixture:
// what each request asks for against the devices the node sees.

fn failed(why: &str) -> ClaimAnswer {
    ClaimAnswer::Failed(why.to_string())
}

fn devices(list: &[(&str, &str)]) -> ClaimAnswer {
    ClaimAnswer::Devices(
        list.iter()
            .map(|(r, d)| (r.to_string(), d.to_string()))
            .collect(),
    )
}

#[test]
fn explain_too_few_devices_counts_what_the_node_has() {
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    let c = claim("claim-0", json!([request("req-0", "class-a", 2)]));
    assert_eq!(
        f.diagnose("node-1", vec![c.clone()]),
        [failed(
            "request req-0 asks for 2 device(s) of class class-a: the node has 1, 1 free"
        )]
    );
    // node-2 sees no slice at all.
    assert_eq!(
        f.diagnose("node-2", vec![c]),
        [failed("no ResourceSlice offers devices to this node")]
    );
    // The one device held by another claim: none free.
    let held = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )])
    .allocated(&[("driver-a", "pool-1", "device-1")]);
    let c = claim("claim-0", json!([request("req-0", "class-a", 1)]));
    assert_eq!(
        held.diagnose("node-1", vec![c]),
        [failed(
            "request req-0 asks for 1 device(s) of class class-a: the node has 1, 0 free"
        )]
    );
}

#[test]
fn explain_names_the_claim_the_allocator_stopped_at() {
    // A6: two claims of one device each, one device: claim-0 takes it, claim-1 fits alone.
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    let c0 = claim("claim-0", json!([request("req-0", "class-a", 1)]));
    let c1 = claim("claim-1", json!([request("req-0", "class-a", 1)]));
    let c2 = claim("claim-2", json!([request("req-0", "class-b", 1)]));
    assert_eq!(
        f.diagnose("node-1", vec![c0.clone(), c1.clone()]),
        [
            devices(&[("req-0", "driver-a/pool-1/device-1")]),
            failed("it would fit on its own, but not once default/claim-0 before it in spec.resourceClaims is allocated on this node"),
        ]
    );
    // claim-2 (class-b, no driver-b device) fails first; claim-1 after it would fit alone.
    assert_eq!(
        f.diagnose("node-1", vec![c2, c1]),
        [
            failed("request req-0 asks for 1 device(s) of class class-b: the node has none"),
            ClaimAnswer::NotReached,
        ]
    );
}

#[test]
fn explain_constraints_and_prioritized_lists() {
    // A13's second case: two devices, versions 1.0.0 and 2.0.0, one request of two with
    // matchAttribute driverVersion.
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        json!([
            attr_dev("device-1", "1.0.0", "a"),
            attr_dev("device-2", "2.0.0", "a")
        ]),
    )]);
    let mut c = claim("claim-0", json!([request("req-0", "class-a", 2)]));
    c["spec"]["devices"]["constraints"] = json!([{"matchAttribute": "driver-a/driverVersion"}]);
    assert_eq!(
        f.diagnose("node-1", vec![c]),
        [failed("each request has enough free devices, but no choice of them has the same driver-a/driverVersion (matchAttribute)")]
    );
    // A prioritized list where neither choice fits: class-b has no device, class-a one of two.
    let f = Fixture::new(vec![slice(
        "slice-1",
        node1(),
        "pool-1",
        "driver-a",
        devs(&["device-1"]),
    )]);
    let c = claim(
        "claim-0",
        json!([first_available(
            "req-0",
            json!([
            {"name": "subReq-0", "deviceClassName": "class-b", "allocationMode": "ExactCount", "count": 1},
            {"name": "subReq-1", "deviceClassName": "class-a", "allocationMode": "ExactCount", "count": 2}])
        )]),
    );
    assert_eq!(
        f.diagnose("node-1", vec![c]),
        [failed("request req-0: none of its 2 choices fits (request req-0/subReq-0 asks for 1 device(s) of class class-b: the node has none; request req-0/subReq-1 asks for 2 device(s) of class class-a: the node has 1, 1 free)")]
    );
}

#[test]
fn a20_a_constraint_on_the_parent_request_holds_for_the_subrequest_chosen() {
    // pool-1: device-1 (8Gi, 1.0.0); pool-2: device-2 (2Gi, 2.0.0), device-3 (1Gi, 1.0.0).
    // req-0 (>= 8Gi) takes device-1 (version 1.0.0). req-1's subReq-0 (>= 2Gi) could only take
    // device-2, whose version 2.0.0 breaks the constraint on [req-0, req-1]; subReq-1 (>= 1Gi)
    // skips device-2 for the same reason and takes device-3.
    let dev = |name: &str, mem: &str, version: &str| {
        json!({"name": name, "capacity": {"memory": {"value": mem}},
               "attributes": {"driverVersion": {"version": version}}})
    };
    let slices = |with_device_3: bool| {
        let mut pool2 = vec![dev("device-2", "2Gi", "2.0.0")];
        if with_device_3 {
            pool2.push(dev("device-3", "1Gi", "1.0.0"));
        }
        Fixture::new(vec![
            slice(
                "slice-1",
                node1(),
                "pool-1",
                "driver-a",
                json!([dev("device-1", "8Gi", "1.0.0")]),
            ),
            slice(
                "slice-2",
                node1(),
                "pool-2",
                "driver-a",
                Value::Array(pool2),
            ),
        ])
    };
    let sub = |n: &str, m: &str| {
        json!({"name": n, "deviceClassName": "class-a", "count": 1,
        "selectors": [{"cel": {"expression": format!("device.capacity[\"driver-a\"].memory.compareTo(quantity(\"{m}\")) >= 0")}}]})
    };
    let claim_with = |names: Value| {
        let mut c = claim(
            "claim-0",
            json!([
                mem_request("req-0", "8Gi"),
                first_available(
                    "req-1",
                    json!([sub("subReq-0", "2Gi"), sub("subReq-1", "1Gi")])
                )
            ]),
        );
        c["spec"]["devices"]["constraints"] =
            json!([{"requests": names, "matchAttribute": "driver-a/driverVersion"}]);
        c
    };
    assert_eq!(
        short(
            &slices(true)
                .run("node-1", vec![claim_with(json!(["req-0", "req-1"]))])
                .0
        ),
        ok(&[&[
            "req-0 driver-a/pool-1/device-1",
            "req-1/subReq-1 driver-a/pool-2/device-3"
        ]])
    );
    // Naming req-1/subReq-0 instead: the constraint does not bind subReq-1, and without
    // device-3 subReq-1 takes device-2 (2.0.0) beside device-1 (1.0.0).
    assert_eq!(
        short(
            &slices(false)
                .run(
                    "node-1",
                    vec![claim_with(json!(["req-0", "req-1/subReq-0"]))]
                )
                .0
        ),
        ok(&[&[
            "req-0 driver-a/pool-1/device-1",
            "req-1/subReq-1 driver-a/pool-2/device-2"
        ]])
    );
}
