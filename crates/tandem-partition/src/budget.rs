//! `budget_cost`: what the header and metadata budgets cost an NF, in the report's terms.
//!
//! When the transfer header (C5) or per-packet metadata (C4) does not fit, the refinement
//! moves statements to the server. This compares the plan with the one the same NF would get
//! with those two budgets unbounded, as the estimated share of packets that visit the server
//! (every branch splitting its packets evenly: a static estimate; `tandem check` measures).
//!
//! ```text
//! budget: the transfer header (20 bytes on tofino1; 24 needed) moved 3 statements to the
//!   server; estimated share of packets visiting the server 50.0% (25.0% without the limit)
//! ```

use tandem_analysis::DepInfo;
use tandem_ir::Module;

use crate::{Partition, Plan, TargetProfile};

/// The cost of the C4/C5 budgets for one plan.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetCost {
    /// Statements moved to the server by C4 (metadata) or C5 (transfer header).
    pub moved: usize,
    /// Transfer-header bytes the NF would need without the limits, and the profile's budget.
    pub header_needed: u64,
    /// The profile's transfer-header budget.
    pub header_budget: Option<u64>,
    /// Estimated share of packets visiting the server, with the plan.
    pub share: f64,
    /// The same without the C4/C5 limits.
    pub share_unbounded: f64,
}

impl BudgetCost {
    /// One report paragraph.
    pub fn to_text(&self, profile: &str) -> String {
        let budget = self
            .header_budget
            .map(|b| format!("{b} bytes on {profile}; "))
            .unwrap_or_default();
        format!(
            "budget: the transfer header and metadata limits ({budget}{} header bytes needed without them) moved {} statement(s) to the server; estimated share of packets visiting the server {:.1}% ({:.1}% without the limits; even branch odds — `tandem check` measures)\n",
            self.header_needed,
            self.moved,
            self.share * 100.0,
            self.share_unbounded * 100.0
        )
    }
}

/// The cost of `profile`'s header and metadata budgets for `plan` (made from `module`/`info`
/// for `profile`), or `None` when they moved nothing.
pub fn budget_cost(
    module: &Module,
    info: &DepInfo,
    profile: &TargetProfile,
    plan: &Plan,
) -> Option<BudgetCost> {
    let moved = plan
        .statements
        .iter()
        .filter(|s| {
            s.partition == Partition::Server
                && s.why
                    .as_ref()
                    .is_some_and(|w| w.rule == "C4" || w.rule == "C5")
        })
        .count();
    if moved == 0 {
        return None;
    }
    let parts_of =
        |p: &Plan| -> Vec<Partition> { p.statements.iter().map(|s| s.partition).collect() };
    let mut unbounded = profile.clone();
    unbounded.transfer_header_bytes = None;
    unbounded.metadata_bytes = None;
    let free = crate::partition(module, info, &unbounded).ok()?;
    Some(BudgetCost {
        moved,
        header_needed: free.resources.transfer_header.used,
        header_budget: plan.resources.transfer_header.budget,
        share: crate::build::estimated_server_share(info, &parts_of(plan)),
        share_unbounded: crate::build::estimated_server_share(info, &parts_of(&free)),
    })
}
