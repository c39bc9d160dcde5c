//! The NodeResources plugins (upstream's `noderesources/`): `NodeResourcesFit` ([`fit`]) and
//! `NodeResourcesBalancedAllocation` ([`balanced_allocation`]), over the resource allocation
//! scorer they share (`resource_allocation`).

pub(crate) mod balanced_allocation;
pub(crate) mod fit;
mod resource_allocation;
