//! Selector answers, cached: each expression is compiled once (per plugin instance), and its
//! answer for each device once per device table (the table's `selector_results`). An answer
//! depends only on the expression and the device, so the order in which the cache fills never
//! shows.

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

    /// `expr`'s answer for device `d` of `table`.
    pub(crate) fn evaluate(
        &self,
        table: &DeviceTable,
        expr: &str,
        d: u32,
    ) -> Result<bool, SelectorError> {
        {
            let cache = table
                .selector_results
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(v) = cache.get(expr).and_then(|v| v.get(d as usize)) {
                if *v != 0 {
                    return Ok(*v == 2);
                }
            }
        }
        let compiled = self.compiled(expr).map_err(SelectorError::Compile)?;
        let (device, slice) = table.device_at(d);
        let answer = compiled
            .matches(&slice.spec.driver, device)
            .map_err(SelectorError::Runtime)?;
        let mut cache = table
            .selector_results
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let row = cache
            .entry(Arc::from(expr))
            .or_insert_with(|| vec![0; table.keys.len()]);
        if let Some(slot) = row.get_mut(d as usize) {
            *slot = if answer { 2 } else { 1 };
        }
        Ok(answer)
    }
}
