//! Selector answers: each expression is compiled once (per plugin instance). The allocator
//! keeps each answer per device in the device table's selector rows; an answer depends only on
//! the expression and the device, so the order in which they fill never shows.

use super::allocator::SelectorError;
use super::cel::{compile, Compiled};
use crate::model::dra::catalog::DeviceTable;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Compiled selectors by expression (a compile error is kept as its message).
#[derive(Default)]
pub(crate) struct Selectors {
    compiled: Mutex<HashMap<String, Result<Arc<Compiled>, String>>>,
}

impl Selectors {
    /// The compiled expression, or its compile error.
    pub(crate) fn compiled(&self, expr: &str) -> Result<Arc<Compiled>, String> {
        let mut map = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(expr.to_string())
            .or_insert_with(|| compile(expr).map(Arc::new))
            .clone()
    }

    /// `expr`'s answer for device `d` of `table` (not kept: the allocator keeps answers in
    /// the table's selector rows).
    pub(crate) fn evaluate(
        &self,
        table: &DeviceTable,
        expr: &str,
        d: u32,
    ) -> Result<bool, SelectorError> {
        let compiled = self.compiled(expr).map_err(SelectorError::Compile)?;
        let (device, slice) = table.device_at(d);
        compiled
            .matches(&slice.spec.driver, device)
            .map_err(SelectorError::Runtime)
    }
}
