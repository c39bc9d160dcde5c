//! `compare`, `sweep` and `capacity` (`schedlab_core::questions`) on small clusters whose
//! every figure is worked out by hand below, golden outputs for the two compare pairs the
//! issue names, and capacity checked against plain runs on every gallery scenario.
//!
//! The goldens (`tests/questions/*/expect-compare.{txt,json}`) were read line by line against
//! the hand-worked figures of the tests next to them; set `SCHEDLAB_BLESS=1` to rewrite them
//! after a deliberate change, and read the diff.

use schedlab_core::input::{read_sources, Inputs};
use schedlab_core::questions::capacity::{capacity, templates, Template};
use schedlab_core::questions::compare::{compare, Comparison, Fate};
use schedlab_core::questions::summary::Summary;
use schedlab_core::questions::sweep::{sweep, to_csv, Setting};
use schedlab_core::questions::SchedulerChoice;
use schedlab_core::scenario::SchedulerVersion;
use schedlab_core::simulation::Phase;
use schedlab_core::Source;
use schedlab_tests::{crate_dir, read_file, File};
use std::path::Path;

fn dir(name: &str) -> std::path::PathBuf {
    crate_dir().join("questions").join(name)
}

fn inputs(files: &[File]) -> Inputs {
    let sources: Vec<Source> = files
        .iter()
        .map(|f| Source {
            name: &f.name,
            text: &f.text,
        })
        .collect();
    read_sources(&sources).unwrap_or_else(|e| panic!("{e:?}"))
}

fn sources(files: &[File]) -> Vec<Source<'_>> {
    files
        .iter()
        .map(|f| Source {
            name: &f.name,
            text: &f.text,
        })
        .collect()
}

fn config_file(path: &Path) -> SchedulerChoice {
    let f = read_file(path);
    SchedulerChoice::from_inputs(&f.name, inputs(std::slice::from_ref(&f)))
        .expect("a configuration")
}

/// Runs the comparison of `cluster.yaml` in `name` under `a` and `b`.
fn compared(name: &str, a: &SchedulerChoice, b: &SchedulerChoice) -> Comparison {
    let files = vec![read_file(&dir(name).join("cluster.yaml"))];
    let cluster = inputs(&files);
    let src = sources(&files);
    let sa = a.scenario(&cluster, &src).expect("A loads");
    let sb = b.scenario(&cluster, &src).expect("B loads");
    compare((&a.label, &sa), (&b.label, &sb), 0)
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < 1e-9
}

/// Compares `text` with the golden file, or writes it under `SCHEDLAB_BLESS=1`.
fn golden(path: &Path, text: &str) {
    if std::env::var_os("SCHEDLAB_BLESS").is_some() {
        std::fs::write(path, text).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (SCHEDLAB_BLESS=1 writes it)", path.display()));
    assert_eq!(text, want, "{} differs", path.display());
}

fn total(c: &Comparison, side_a: bool, pod: &str, node: &str) -> i64 {
    let j = c.to_json();
    let d = j["placedDifferently"]
        .as_array()
        .expect("list")
        .iter()
        .find(|d| d["pod"] == pod)
        .expect("the pod differs");
    d[if side_a { "a" } else { "b" }]["decidedBy"]["nodes"][node]["total"]
        .as_i64()
        .expect("a total")
}

#[test]
fn least_allocated_and_most_allocated_place_the_pod_on_opposite_nodes() {
    // node-a: 4 CPU / 8Gi, empty; node-b: the same, running 2 CPU / 4Gi. `web` asks 1 CPU / 2Gi.
    // v1.35's default Score plugins: TaintToleration (weight 3) gives both nodes 100 (no
    // taints), NodeAffinity and ImageLocality 0, PodTopologySpread and InterPodAffinity skip.
    // NodeResourcesFit, LeastAllocated: node-a (4-1)/4 → 75 and (8-2)/8 → 75: 75; node-b
    // (4-3)/4 → 25, (8-6)/8 → 25: 25. MostAllocated: the other way round, 25 and 75.
    // BalancedAllocation: cpu and memory fractions equal on both nodes: stddev 0 → 100.
    // LeastAllocated: node-a 300 + 75 + 100 = 475, node-b 300 + 25 + 100 = 425 → node-a.
    // MostAllocated:  node-a 300 + 25 + 100 = 425, node-b 300 + 75 + 100 = 475 → node-b.
    let d = dir("least-vs-most");
    let a = config_file(&d.join("least-allocated.yaml"));
    let b = config_file(&d.join("most-allocated.yaml"));
    let c = compared("least-vs-most", &a, &b);
    assert_eq!(
        c.placed_differently().collect::<Vec<_>>(),
        vec![("default/web", "node-a", "node-b")]
    );
    assert_eq!(total(&c, true, "default/web", "node-a"), 475);
    assert_eq!(total(&c, true, "default/web", "node-b"), 425);
    assert_eq!(total(&c, false, "default/web", "node-b"), 475);
    assert_eq!(total(&c, false, "default/web", "node-a"), 425);
    // Summaries. A: node-a 1/4 CPU and 2/8 memory, node-b 2/4 and 4/8: means 0.375, stddev
    // 0.125; no empty node; largest free block on node-a: 3 CPU, 6Gi, 109 pod slots.
    let sa = &c.a.summary;
    assert!(close(sa.cpu.mean, 0.375) && close(sa.cpu.stddev, 0.125));
    assert!(close(sa.memory.mean, 0.375) && close(sa.memory.stddev, 0.125));
    assert_eq!(sa.empty_nodes, 0);
    assert_eq!(
        (
            sa.largest_free.milli_cpu,
            sa.largest_free.memory,
            sa.largest_free.pods
        ),
        (3000, 6 << 30, 109)
    );
    // B: node-a empty, node-b 3/4 and 6/8: means 0.375, stddev 0.375; node-a left empty,
    // whole (4 CPU, 8Gi, 110 slots).
    let sb = &c.b.summary;
    assert!(close(sb.cpu.mean, 0.375) && close(sb.cpu.stddev, 0.375));
    assert_eq!(sb.empty_nodes, 1);
    assert_eq!(
        (
            sb.largest_free.milli_cpu,
            sb.largest_free.memory,
            sb.largest_free.pods
        ),
        (4000, 8 << 30, 110)
    );
    golden(&d.join("expect-compare.txt"), &c.to_text());
    golden(
        &d.join("expect-compare.json"),
        &(serde_json::to_string_pretty(&c.to_json()).expect("json") + "\n"),
    );
}

#[test]
fn v117_and_v135_defaults_disagree_on_a_tainted_empty_node() {
    // node-a: 8 CPU / 16Gi, empty, taint dedicated=batch:PreferNoSchedule. node-b: 4 CPU /
    // 8Gi running 3 CPU / 512Mi. `web` asks 1 CPU / 2Gi.
    // v1.17 DefaultProvider (weight 1 each, NodePreferAvoidPods 10000 × 100 on both):
    //   SelectorSpread 100 / 100 (no selectors); LeastRequested: node-a (7000·100/8000 = 87,
    //   14Gi·100/16Gi = 87) → 87; node-b (0, 5.5Gi·100/8Gi = 68) → 34. Balanced: node-a
    //   fractions 1/8, 1/8 → 100; node-b CPU fraction 4/4 = 1 → 0 (">= 1 → 0").
    //   TaintToleration: node-a one untolerated PreferNoSchedule taint → 0, node-b → 100.
    //   node-a 100 + 87 + 100 + 0 = 287, node-b 100 + 34 + 0 + 100 = 234 (each + 1 000 000).
    // v1.35 defaults: TaintToleration weight 3: node-a 0, node-b 300. NodeResourcesFit
    //   (LeastAllocated) as above: 87, 34. BalancedAllocation 1 - stddev, fractions capped:
    //   node-a 100; node-b |1 - 0.3125| / 2 = 0.34375 → 65. node-a 187, node-b 399.
    let c = compared(
        "v117-vs-v135",
        &SchedulerChoice::defaults(SchedulerVersion::V1_17),
        &SchedulerChoice::defaults(SchedulerVersion::V1_35),
    );
    assert_eq!(c.a.scheduler, SchedulerVersion::V1_17);
    assert_eq!(c.b.scheduler, SchedulerVersion::V1_35);
    assert_eq!(
        c.placed_differently().collect::<Vec<_>>(),
        vec![("default/web", "node-a", "node-b")]
    );
    assert_eq!(total(&c, true, "default/web", "node-a"), 1_000_287);
    assert_eq!(total(&c, true, "default/web", "node-b"), 1_000_234);
    assert_eq!(total(&c, false, "default/web", "node-b"), 399);
    assert_eq!(total(&c, false, "default/web", "node-a"), 187);
    // A: node-a 1/8 CPU, 2/16 memory; node-b 3/4, 0.5/8: CPU mean 0.4375, stddev 0.3125;
    // memory mean 0.09375, stddev 0.03125. B: node-a empty, node-b 4/4 and 2.5/8: CPU mean
    // 0.5, stddev 0.5; memory 0.15625 both.
    let (sa, sb) = (&c.a.summary, &c.b.summary);
    assert!(close(sa.cpu.mean, 0.4375) && close(sa.cpu.stddev, 0.3125));
    assert!(close(sa.memory.mean, 0.09375) && close(sa.memory.stddev, 0.03125));
    assert!(close(sb.cpu.mean, 0.5) && close(sb.cpu.stddev, 0.5));
    assert!(close(sb.memory.mean, 0.15625) && close(sb.memory.stddev, 0.15625));
    let d = dir("v117-vs-v135");
    golden(&d.join("expect-compare.txt"), &c.to_text());
    golden(
        &d.join("expect-compare.json"),
        &(serde_json::to_string_pretty(&c.to_json()).expect("json") + "\n"),
    );
}

#[test]
fn a_pod_pending_under_one_configuration_only_is_listed_with_its_message() {
    // Under a Policy whose only predicate is PodFitsResources a pod asking 5 CPU fits nowhere
    // (4 CPU nodes); the same pod is pending under v1.35 too: not a difference. A pod with a
    // nodeSelector no node has is pending under v1.35 (NodeAffinity filters) and bound under
    // a Policy without MatchNodeSelector. v1.35's message has DynamicResources' PostFilter
    // word before preemption's (shared/reference/modern.md, "DynamicResources PostFilter").
    let files = vec![File {
        name: "cluster.yaml".into(),
        text: "apiVersion: v1\nkind: List\nitems:\n\
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}}\n\
- {apiVersion: v1, kind: Pod, metadata: {name: picky}, spec: {nodeSelector: {disk: ssd}, containers: [{name: c, image: i}]}}\n\
- {apiVersion: v1, kind: Pod, metadata: {name: huge}, spec: {containers: [{name: c, image: i, resources: {requests: {cpu: '5'}}}]}}\n"
            .into(),
    }, File {
        name: "policy.json".into(),
        text: r#"{"kind": "Policy", "apiVersion": "v1", "predicates": [{"name": "PodFitsResources"}]}"#.into(),
    }];
    let all = inputs(&files);
    let mut cluster = all.clone();
    let policy = SchedulerChoice::take_from(&mut cluster, None);
    let src = sources(&files);
    let v135 = SchedulerChoice::defaults(SchedulerVersion::V1_35);
    let sa = policy.scenario(&cluster, &src).expect("A");
    let sb = v135.scenario(&cluster, &src).expect("B");
    let c = compare(("policy", &sa), ("v1.35", &sb), 0);
    assert_eq!(c.differences.len(), 1, "{:?}", c.differences);
    let d = &c.differences[0];
    assert_eq!(d.pod, "default/picky");
    assert_eq!(d.a, Fate::Bound("n1".into()));
    assert_eq!(
        d.b,
        Fate::Pending(Some(
            "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.".into()
        ))
    );
    let j = c.to_json();
    assert_eq!(j["pendingOnlyUnderB"][0]["pod"], "default/picky");
    assert_eq!(j["pendingOnlyUnderA"].as_array().map(Vec::len), Some(0));
    assert_eq!(c.same, 1, "huge is pending under both");
}

#[test]
fn a_weight_sweep_moves_the_pod_once_the_taint_outweighs_the_free_room() {
    // The v117-vs-v135 cluster under v1.17's DefaultProvider, TaintTolerationPriority's weight
    // 1, 2, 3. From the totals worked out above without the taint: node-a 287 (its taint
    // scores 0 whatever the weight), node-b 134 + 100·w: 234 < 287 at w = 1 (node-a), 334 and
    // 434 > 287 at w = 2, 3 (node-b).
    // w = 1: node-a 1/8 CPU, 1/8 memory; node-b 3/4, 1/16: CPU mean 0.4375 stddev 0.3125,
    // memory mean 0.09375 stddev 0.03125; no empty node; largest free: node-a's 7 CPU, 14Gi,
    // 109 slots (node-b has 109 too).
    // w = 2, 3: node-a empty; node-b 4/4, 2.5/8: CPU mean 0.5 stddev 0.5, memory 0.15625 and
    // 0.15625; one empty node; largest free: node-a whole, 8 CPU, 16Gi, 110 slots.
    let files = vec![read_file(&dir("v117-vs-v135").join("cluster.yaml"))];
    let cluster = inputs(&files);
    let choice = SchedulerChoice::defaults(SchedulerVersion::V1_17);
    let values: Vec<String> = ["1", "2", "3"].iter().map(|s| s.to_string()).collect();
    let setting = Setting::Weight("TaintTolerationPriority".into());
    let points = sweep(&cluster, &sources(&files), &choice, &setting, &values, 0).expect("runs");
    let csv = to_csv(&setting, &points);
    let want = "weight.TaintTolerationPriority,placed,pending,preemptions,cpu_ratio_mean,cpu_ratio_stddev,memory_ratio_mean,memory_ratio_stddev,empty_nodes,largest_free_cpu_millicores,largest_free_memory_bytes,largest_free_pods\n\
1,1,0,0,0.4375,0.3125,0.09375,0.03125,0,7000,15032385536,109\n\
2,1,0,0,0.5,0.5,0.15625,0.15625,1,8000,17179869184,110\n\
3,1,0,0,0.5,0.5,0.15625,0.15625,1,8000,17179869184,110\n";
    assert_eq!(csv, want);
}

#[test]
fn a_scoring_strategy_sweep_and_a_seed_sweep_read_their_values() {
    // least-vs-most under v1.35: LeastAllocated leaves no node empty, MostAllocated one.
    let files = vec![read_file(&dir("least-vs-most").join("cluster.yaml"))];
    let cluster = inputs(&files);
    let choice = SchedulerChoice::defaults(SchedulerVersion::V1_35);
    let values = vec!["LeastAllocated".to_string(), "MostAllocated".to_string()];
    let points = sweep(
        &cluster,
        &sources(&files),
        &choice,
        &Setting::ScoringStrategy,
        &values,
        0,
    )
    .expect("runs");
    assert_eq!(points[0].summary.empty_nodes, 0);
    assert_eq!(points[1].summary.empty_nodes, 1);
    // An unknown strategy is v1.35's validation error, naming the value swept.
    let bad = sweep(
        &cluster,
        &sources(&files),
        &choice,
        &Setting::ScoringStrategy,
        &["Fewest".to_string()],
        0,
    )
    .expect_err("invalid");
    assert!(
        bad[0].to_string().contains("scoringStrategy=Fewest"),
        "{bad:?}"
    );
    // The seed is the run's seed, and a seed is a whole number.
    let seeds = sweep(
        &cluster,
        &sources(&files),
        &choice,
        &Setting::Seed,
        &["3".to_string(), "9".to_string()],
        0,
    )
    .expect("runs");
    assert_eq!((seeds[0].seed, seeds[1].seed), (3, 9));
}

fn pod_template(yaml: &str) -> Vec<Template> {
    let f = File {
        name: "pod.yaml".into(),
        text: yaml.into(),
    };
    templates(&f.name, inputs(std::slice::from_ref(&f))).expect("a template")
}

#[test]
fn capacity_counts_the_copies_that_fit_and_names_the_first_that_does_not() {
    // least-vs-most under v1.17: node-a has 4 CPU / 8Gi free, node-b 2 CPU / 4Gi. A copy asks
    // 1 CPU / 2Gi: 4 fit on node-a, 2 on node-b, 6 in all (the pending `web` takes one more
    // first: it runs before the copies, leaving 5). The 6th copy fits nowhere: both nodes lack
    // CPU and memory.
    let files = vec![read_file(&dir("least-vs-most").join("cluster.yaml"))];
    let cluster = inputs(&files);
    let t = pod_template(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {requests: {cpu: '1', memory: 2Gi}}\n",
    );
    let a = capacity(&cluster, &sources(&files), None, &t, 0).expect("answers");
    let p = &a.templates[0];
    assert_eq!(p.count, 5);
    let per_node: usize = p.per_node.iter().map(|(_, c)| c).sum();
    assert_eq!(per_node, 5);
    assert_eq!(
        p.first_failure,
        Some((
            "default/extra-6".to_string(),
            "0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory.".to_string()
        ))
    );
    // A Deployment's template counts the same, named after the Deployment.
    let d = pod_template(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: shop}\nspec:\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers:\n      - name: c\n        image: i\n        resources: {requests: {cpu: '2'}}\n",
    );
    let a = capacity(&cluster, &sources(&files), None, &d, 0).expect("answers");
    // 2 CPU each: node-a 3 free after web → 1, node-b 2 free → 1.
    assert_eq!(a.templates[0].template, "shop/api");
    assert_eq!(a.templates[0].count, 2);
    // Two templates in turn: after 2 copies of api, the 1-CPU pod fits once on node-a.
    let both: Vec<Template> = d.into_iter().chain(t).collect();
    let a = capacity(&cluster, &sources(&files), None, &both, 0).expect("answers");
    assert_eq!(
        a.templates.iter().map(|p| p.count).collect::<Vec<_>>(),
        vec![2, 1]
    );
}

#[test]
fn a_deployment_without_a_valid_template_is_an_error_with_its_path() {
    let f = File {
        name: "deploy.yaml".into(),
        text: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: i\n        resources: {requests: {cpu: 12x}}\n".into(),
    };
    let errs = templates(&f.name, inputs(std::slice::from_ref(&f))).expect_err("invalid");
    let text = errs[0].to_string();
    assert!(
        text.contains("deploy.yaml")
            && text.contains("spec.template.spec.containers[0].resources.requests.cpu"),
        "{text}"
    );
}

#[test]
fn capacity_agrees_with_plain_runs_on_every_gallery_scenario() {
    // For each gallery scenario: the count K capacity gives; then, built independently here,
    // the scenario plus K copies binds every copy, and plus K + 1 leaves the last copy Pending
    // with the message capacity reported.
    let gallery = crate_dir().join("../assets/scenarios");
    let mut names: Vec<_> = std::fs::read_dir(&gallery)
        .expect("gallery")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    names.sort();
    assert!(names.len() >= 10);
    let template_yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: probe}\nspec:\n  containers:\n  - name: c\n    image: i\n    resources: {requests: {cpu: 1500m, memory: 1Gi}}\n";
    for folder in names {
        let name = folder
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        // A scenario with JavaScript plugins (`plugins.js`) runs only where JavaScript does
        // (the browser tests run custom-plugin).
        if folder.join("plugins.js").exists() {
            continue;
        }
        let files = schedlab_tests::scenario_files(&folder);
        let cluster = inputs(&files);
        let src = sources(&files);
        let t = pod_template(template_yaml);
        let answer =
            capacity(&cluster, &src, None, &t, 0).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let k = answer.templates[0].count;
        let with = |n: usize| {
            let mut inputs = cluster.clone();
            for i in 1..=n {
                let mut pod = t[0].pod.clone();
                pod.metadata.name = format!("probe-{i}");
                inputs.pods.push((Box::new(pod), t[0].origin.clone()));
            }
            let s = schedlab_core::Scenario::from_inputs_with(inputs, &src, None).expect("loads");
            s.run(0, false)
        };
        let run = with(k);
        for i in 1..=k {
            let id = run.find_pod(&format!("probe-{i}")).expect("copy");
            assert_eq!(run.phase(id), Phase::Bound, "{name}: copy {i} of {k}");
        }
        let run = with(k + 1);
        let id = run.find_pod(&format!("probe-{}", k + 1)).expect("copy");
        assert_eq!(
            run.phase(id),
            Phase::Pending,
            "{name}: copy {} of {k}",
            k + 1
        );
        let message = run.last_cycle_of(id).and_then(|c| c.message.clone());
        assert_eq!(
            answer.templates[0]
                .first_failure
                .as_ref()
                .map(|(_, m)| m.clone()),
            message,
            "{name}"
        );
        let s = Summary::of(&run);
        assert!(s.pending >= 1, "{name}");
    }
}

#[test]
fn a_swept_configuration_written_back_reads_as_the_same_configuration() {
    // The playground opens a sweep point by writing its configuration into the editors:
    // what it writes must read back as the configuration that ran.
    use schedlab_core::questions::sweep::configure;
    let round_trip = |c: &SchedulerChoice| {
        let (policy, config) = c.documents();
        let files: Vec<File> = [("policy.json", policy), ("config.json", config)]
            .into_iter()
            .filter_map(|(name, doc)| {
                doc.map(|d| File {
                    name: name.into(),
                    text: d.to_string(),
                })
            })
            .collect();
        SchedulerChoice::from_sources(&sources(&files)).expect("reads back")
    };
    let v117 = configure(
        &SchedulerChoice::defaults(SchedulerVersion::V1_17),
        &Setting::Weight("LeastRequestedPriority".into()),
        "7",
    )
    .expect("configured");
    let v117 = configure(&v117, &Setting::PercentageOfNodesToScore, "30").expect("configured");
    let back = round_trip(&v117);
    assert_eq!(back.policies[0].0, v117.policies[0].0);
    assert_eq!(back.configs[0].0, v117.configs[0].0);
    assert_eq!(back.configs[0].0.percentage_of_nodes_to_score, 30);
    let v135 = configure(
        &SchedulerChoice::defaults(SchedulerVersion::V1_35),
        &Setting::ScoringStrategy,
        "MostAllocated",
    )
    .expect("configured");
    let back = round_trip(&v135);
    assert_eq!(back.modern_configs[0].0, v135.modern_configs[0].0);
    assert_eq!(back.version(), SchedulerVersion::V1_35);
}
