//! `numFeasibleNodesToFind`: how many feasible nodes a cycle looks for before it stops
//! filtering (`percentageOfNodesToScore`, adaptive when 0). The same formula in v1.17 and
//! v1.35 (`scores.md` 1, `modern.md` §3.3).

/// `minFeasibleNodesToFind`.
pub(crate) const MIN_FEASIBLE_NODES_TO_FIND: usize = 100;
/// `minFeasibleNodesPercentageToFind`.
pub(crate) const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND: i64 = 5;
/// `DefaultPercentageOfNodesToScore`, the base of the adaptive formula.
pub(crate) const DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE: i64 = 50;
/// `numFeasibleNodesToFind`: how many feasible nodes to look for before stopping.
pub(crate) fn num_feasible_nodes_to_find(num_all_nodes: usize, percentage: i32) -> usize {
    let n = num_all_nodes as i64;
    if num_all_nodes < MIN_FEASIBLE_NODES_TO_FIND || percentage >= 100 {
        return num_all_nodes;
    }
    let mut pct = i64::from(percentage);
    if pct <= 0 {
        pct = DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE - n / 125;
        pct = pct.max(MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND);
    }
    let found = (n * pct / 100) as usize;
    found.max(MIN_FEASIBLE_NODES_TO_FIND)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn num_feasible_nodes_to_find_follows_the_formula() {
        // Below 100 nodes: all of them.
        assert_eq!(num_feasible_nodes_to_find(99, 0), 99);
        // 100 nodes, adaptive: 50 - 100/125 = 50% -> 50, floored at 100.
        assert_eq!(num_feasible_nodes_to_find(100, 0), 100);
        // 1000 nodes: 50 - 8 = 42% -> 420.
        assert_eq!(num_feasible_nodes_to_find(1000, 0), 420);
        // 5000 nodes: 50 - 40 = 10% -> 500.
        assert_eq!(num_feasible_nodes_to_find(5000, 0), 500);
        // 6000 nodes: 50 - 48 = 2%, floored at 5% -> 300.
        assert_eq!(num_feasible_nodes_to_find(6000, 0), 300);
        // Explicit 30% of 1000 -> 300; 100% -> all.
        assert_eq!(num_feasible_nodes_to_find(1000, 30), 300);
        assert_eq!(num_feasible_nodes_to_find(1000, 100), 1000);
        // 5% of 1000 = 50, floored at 100.
        assert_eq!(num_feasible_nodes_to_find(1000, 5), 100);
    }
}
