//! `KubeSchedulerConfiguration` `kubescheduler.config.k8s.io/v1`: read, defaulted, merged with
//! v1.35's default plugins and validated as upstream does (reference §1–2).
