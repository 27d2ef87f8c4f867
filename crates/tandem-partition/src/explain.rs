//! What each partitioning reason code in a report means, for `tandem explain R2`.
//!
//! The report says why a line of the NF does not run on the switch with a code — `[R2]`,
//! `[C3]`, `[unsupported]` — and the root cause's line. These texts say what the code means in
//! the NF's terms and what a user can change in the C++ to get the line onto the switch.
//!
//! Before: `tandem explain R2` → `unknown code R2; known codes: L001, …`.
//! After:  `R2 (partitioning): depends on something that cannot run before the server` and the
//! paragraph below.

use crate::Rule;

impl Rule {
    /// Every rule and constraint, in code order.
    pub const ALL: [Rule; 14] = [
        Rule::Unsupported,
        Rule::R1,
        Rule::R2,
        Rule::R3,
        Rule::R4,
        Rule::R5,
        Rule::R6,
        Rule::R7,
        Rule::R8,
        Rule::Memory,
        Rule::Stages,
        Rule::SingleAccess,
        Rule::Metadata,
        Rule::TransferHeader,
    ];

    /// The rule with this code (`R2`, `c3`, `unsupported`; case-insensitive).
    pub fn parse(code: &str) -> Option<Rule> {
        Rule::ALL
            .into_iter()
            .find(|r| r.code().eq_ignore_ascii_case(code.trim()))
    }

    /// One line.
    pub fn title(self) -> &'static str {
        match self {
            Rule::Unsupported => "the target cannot do this operation",
            Rule::R1 => "something after it must run on the server, so it cannot wait for post",
            Rule::R2 => "it depends on something that cannot run before the server",
            Rule::R3 => "an earlier access to the same state already runs before the server",
            Rule::R4 => "a later access to the same state already runs after the server",
            Rule::R5 => "it is in a loop, or decided by one",
            Rule::R6 => "the server writes this state, so the switch may only read its copy",
            Rule::R7 => "a read-modify-write of one register runs in one place",
            Rule::R8 => "it changes how the frame parses (header push/pop, select field)",
            Rule::Memory => "constraint 1: the switch's memory is full",
            Rule::Stages => {
                "constraint 2: the chain of dependent steps is longer than the pipeline"
            }
            Rule::SingleAccess => "constraint 3: one access per state object on the switch",
            Rule::Metadata => "constraint 4: the per-packet metadata budget is used up",
            Rule::TransferHeader => "constraint 5: the transfer header to the server is full",
        }
    }

    /// A paragraph: what it means and what to change in the NF.
    pub fn explain(self) -> &'static str {
        match self {
            Rule::Unsupported => {
                "The target profile (--profile) has no way to do this operation in the switch \
pipeline: division or remainder by a value that is not a constant power of two, multiplication \
other than by a power of two, arithmetic wider than its ALUs, a kind of table it lacks, reading \
the payload, a loop, a library call the front end keeps opaque, or \
an operation wider than the profile allows. The line runs on the server, and what depends on \
it follows (R2). Use a power-of-two size (`h & (n - 1)` instead of `h % n`), a constant, or a \
table lookup filled in configure()."
            }
            Rule::R1 => {
                "Gallium's rule 1: the switch runs a packet in three parts, pre (before the \
server) → server → post (after it). A statement whose result a server-side statement needs must \
run before the server, so it cannot be left for post. It may still run in pre; if it does \
not, see the reason given for pre."
            }
            Rule::R2 => {
                "Gallium's rule 2: pre runs before the server, so a statement that uses a value \
only the server computes (directly or through a chain of statements) cannot run in pre. The \
report names the root cause (`from sN ... at file:line`): move that computation onto the \
switch (see its own reason) and this line follows."
            }
            Rule::R3 => {
                "Gallium's rule 3: two dependent accesses to the same state object (a map, \
vector or scalar) must see each other's effects in program order. When the earlier one runs \
in pre, the later one cannot also run in pre unless the target can do both in one pipeline \
pass (duplicate read-only tables, one register read-modify-write); it runs on the server or \
in post."
            }
            Rule::R4 => {
                "Gallium's rule 4, the mirror of R3: when the later of two dependent accesses to \
the same state runs in post, the earlier one cannot also run in post."
            }
            Rule::R5 => {
                "A loop the analysis build could not unroll (its trip count is not a small \
constant, or its body is too large for the default budget; `tandem lift` warns with L102) runs \
on the server, and so does every statement whose execution depends on a branch inside it. Bound \
the loop by a constant to have it unrolled, and put `#pragma unroll` before a larger one."
            }
            Rule::R6 => {
                "State that the server writes (an insert, an erase, an update of a value) is kept \
on the server as the primary copy and replicated to the switch, which may only read it: the \
switch-side writes would race the server's. Statements that write such state run on the server; \
reads can stay on the switch."
            }
            Rule::R7 => {
                "A register read-modify-write (`x = counter; counter = x + 1`, or a vector get \
and set of the same element) is one stateful-ALU action on the switch, so its read and write \
must run in the same place: if one of them cannot run on the switch, neither does the other."
            }
            Rule::R8 => {
                "A header push or pop, or a write to a field the parse graph selects on \
(EtherType, IPv4 protocol or IHL, a declared header's select field), changes which headers the \
frame has. It never runs in pre, because the server and post re-parse the frame they are \
handed; header code after a server-side relayout runs on the server too."
            }
            Rule::Memory => {
                "Constraint 1: the switch's SRAM/TCAM, table count or stateful ALUs in the \
profile are used up by the tables and registers placed so far. The state object (and its \
accesses) that did not fit stays on the server. A larger profile, smaller map capacities, or \
--max-table-size (entries beyond it stay on the server) change this."
            }
            Rule::Stages => {
                "Constraint 2: the dependent operations on the switch form a chain longer than \
the profile's pipeline stages (each table, register access and dependent ALU step takes a \
stage). The statements at the end of the chain move to the server. Shorter dependency chains \
(independent lookups, fewer steps between a lookup and its use) fit better."
            }
            Rule::SingleAccess => {
                "Constraint 3: a switch table or register can be accessed once per packet (one \
stage holds it). When the NF accesses the same state object at several places on one path, \
only one access stays on the switch; the others go to the server."
            }
            Rule::Metadata => {
                "Constraint 4: values carried between switch statements live in per-packet \
metadata, and the profile's metadata budget is used up. Statements whose values did not fit \
move to the server."
            }
            Rule::TransferHeader => {
                "Constraint 5: values that pre hands to the server and the server hands to post \
travel in the transfer header, whose size the profile limits. Statements whose values did not \
fit move to the side that needs them."
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_parses_back_and_is_explained() {
        for r in Rule::ALL {
            assert_eq!(Rule::parse(r.code()), Some(r));
            assert_eq!(Rule::parse(&r.code().to_lowercase()), Some(r));
            assert!(r.title().len() > 10 && r.explain().len() > 100, "{r:?}");
        }
        assert_eq!(Rule::parse("R9"), None);
    }
}
