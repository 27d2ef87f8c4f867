//! Diagnostics: what the front end cannot handle, with a code, the C++ location and the reason.
//!
//! Errors stop the lift (the program cannot be analysed soundly); warnings mark statements
//! that were kept but can only run on the server. `tandem explain <code>` prints
//! [`Code::explain`].

use std::fmt;

/// A position in the NF's C++ source (from LLVM debug info).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SrcLoc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for SrcLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.col)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $sev:ident, $title:literal, $explain:literal;)*) => {
        /// Every diagnostic the front end emits.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant),* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];
            /// The stable code, e.g. `L005`.
            pub fn as_str(self) -> &'static str { match self { $(Code::$variant => $code),* } }
            pub fn severity(self) -> Severity { match self { $(Code::$variant => Severity::$sev),* } }
            /// One line.
            pub fn title(self) -> &'static str { match self { $(Code::$variant => $title),* } }
            /// The page `tandem explain` prints.
            pub fn explain(self) -> &'static str { match self { $(Code::$variant => $explain),* } }
            /// Looks a code up by its text (`L005`, case-insensitive).
            pub fn parse(s: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(s))
            }
        }
    };
}

codes! {
    NoEntry = "L001", Error, "no NF registered",
"The source has no `TANDEM_NF(Type, state...)` registration, so the front end cannot find the
per-packet entry point (`tandem_nf_process_entry`, which the macro defines in the analysis
build).

Fix: end the NF's source with `TANDEM_NF(MyNf, member1, member2, ...)`, listing every state
member.";
    UnsupportedInstruction = "L002", Error, "unsupported operation",
"The per-packet code uses an operation the NF IR has no counterpart for: floating point,
SIMD vectors, atomics, exceptions or inline assembly. Network functions that run on a switch
work on integers only.

Fix: use integer arithmetic (fixed point instead of floating point), or move the work to
configure(), which always runs on the server and is not analysed.";
    FunctionPointer = "L003", Error, "call through a function pointer",
"process() calls a function through a pointer (a virtual call, std::function, or a function
pointer). The front end must see every statement the packet can execute to compute what it
reads and writes, and an indirect call hides its target.

Fix: call the function directly (templates instead of virtual dispatch).";
    Recursion = "L004", Error, "recursive call",
"process() calls a function that could not be inlined, which in the analysis build only
happens for recursion and for functions marked `noinline` (`__attribute__((noinline))`,
`[[gnu::noinline]]`); every other function is inlined. Switch programs have no call stack,
and the dependency analysis needs one flat function.

Fix: rewrite the recursion as a bounded loop; drop the noinline attribute.";
    UntraceablePointer = "L005", Error, "pointer whose target cannot be traced",
"A pointer is used whose target the front end cannot determine: it is chosen at run time
between different objects (a pointer phi or select mixing, say, a header and a local), read
from memory, or made from an integer. Every load and store must be traced to a header field,
a state object, a local variable or the payload, so that its read/write sets are exact.

Fix: branch on the condition and access each object directly, or copy values into locals.";
    UndeclaredState = "L006", Error, "state member not listed in TANDEM_NF",
"process() reads or writes a member of the element that is not listed in `TANDEM_NF(Type,
...)`. The list names the NF's state for the compiler and for state comparison.

Fix: add the member to the TANDEM_NF list.";
    DynamicMemory = "L007", Error, "dynamic memory allocation",
"process() allocates memory (new, malloc, std::vector growth, std::string, ...). Unbounded
structures cannot be placed on a switch and make the state impossible to analyse.

Fix: use tandem::HashMap / ExpiringMap / Vector with a capacity, and fixed-size locals.";
    GlobalVariable = "L008", Error, "global or static variable",
"process() uses a global or static variable (or a string literal). NF state must be members
of the element, listed in TANDEM_NF, so that the compiler can place it and the runtime can
keep switch and server copies consistent.

Fix: make it a member of the element (constants: constexpr integers are fine).";
    VariableIndex = "L009", Error, "variable index into a header, local array or state member",
"A header field, local array or element member is indexed by a value computed at run time.
Switch programs address fields statically; only the payload and the bytes after a built-in
header's fixed fields (TCP or IPv4 options, through `reinterpret_cast<uint8_t*>(tcp) + 20`)
may be indexed at run time, and those accesses always run on the server. A declared header,
or a built-in one that a declared parse edge leads to, cannot be indexed.

Fix: use a tandem::Vector for run-time indexing, or a switch over the index.";
    StateMisuse = "L010", Error, "state object used inconsistently",
"One state member is used in two incompatible ways (for example with two different key
sizes, or as both a map and a vector, or partly read as a scalar).

Fix: access each state member only through its own type's API.";
    HashMisuse = "L011", Error, "hash of something that is not an integer",
"A `tandem::crc16`, `crc32` or `identity` operand is not an integer (a struct, a pointer, a
bool, floating point), or the hash was called in a way the front end cannot follow. The hash
is defined over integer operands, each written big-endian at its own width, so that the
switch's hash unit (v1model `hash`, TNA `Hash.get`) computes the same bits.

Fix: pass integer members one by one (`crc32(k.saddr, k.daddr, k.sport)`), at most 16.";
    LpmPrefixLength = "L012", Error, "LPM prefix length out of range",
"An LpmMap insert or erase names a constant prefix length longer than the key (for a
uint32_t key, lengths are 0..=32). Natively the call would do nothing (insert returns false),
which is never what was meant.

Fix: use a length between 0 and the key's width in bits.";
    LpmKey = "L013", Error, "LPM map key is not one unsigned integer",
"An LpmMap's key must be one unsigned integer of 8, 16, 32 or 64 bits (an IPv4 address as a
host-order uint32_t): the prefix is matched from its most significant bit, and a switch's
lpm match kind takes one field. A struct key has no single bit order to match prefixes in.

Fix: key the map by the address alone (e.g. `ntohl(ip->daddr)`), or use a HashMap for exact
keys.";
    HeaderDecl = "L014", Error, "declared header or parse graph not usable",
"A header declared with TANDEM_HEADER, or the parse graph given with TANDEM_PARSE, cannot be
used: a field that is not 1 to 8 whole bytes, a header that pkt.header<H>() reads but no
TANDEM_EDGE leads to, an edge into EthHdr or out of TcpHdr, two edges leaving one header on
the same condition, or a cycle (a header type is present at most once per packet).

Fix: give every field 1 to 8 bytes (split longer ones), add the missing TANDEM_EDGE to
TANDEM_PARSE, and declare a type of its own for a second header of one kind (the Ethernet
header inside a tunnel).";
    TimerUnsupported = "L015", Error, "on_timer() does something a timer tick cannot",
"on_timer() is lifted like process() and runs on the server at every tick, against the
state alone: a tick has no packet. It may use the state API (maps, vectors, scalars), integer
arithmetic, hashes, loops and `now`; it may not call functions the front end does not know
(in process() those become opaque server-only statements, which run against the packet), nor
do anything that needs a packet.

Fix: keep on_timer() to state updates (reset a sketch with a loop of `v[i] = 0`, age
entries, bump an epoch counter); do other work in configure() or process().";
    PriorityEntry = "L016", Error, "ternary or range entry that can never be inserted",
"A TernaryMap or RangeMap insert or erase names a constant priority of 0 or above 2^31 - 1
(2147483647), or a RangeMap entry with a constant range whose low end is above its high end.
Natively the call would do nothing (insert returns false), which is never what was meant.
Priorities are P4Runtime's: positive 32-bit integers, a higher one winning.

Fix: use priorities from 1 to 2147483647, distinct per entry, and ranges with lo <= hi.";
    RangeKey = "L017", Error, "range map key is not one unsigned integer",
"A RangeMap's key must be one unsigned integer of 8, 16, 32 or 64 bits (a port as a
host-order uint16_t: `ports.find(ntohs(tcp->dport))`): a range compares the key as one
number, and a switch's range match kind takes one field.

Fix: key the map by the field alone, or use a TernaryMap for structs (masks per field).";
    MeterMisuse = "L018", Error, "meter used in a way the switch cannot",
"A `tandem::Meter` is used in a way no switch meter can follow: its rates are set in
process() (`set_rates`/`set_all` belong in configure(), whose state the runtime installs
through the switch's control plane: rates are configuration, not per-packet state), or its
size or unit is not a compile-time constant.

Fix: configure meters in configure() with `set_rates(i, {...})` or `set_all({...})`, and
call only `execute(i, pkt)` in process(); declare them as `Meter<N, MeterUnit::Bytes>` or
`Meter<N, MeterUnit::Packets>` with a constant N.";
    OpaqueCall = "L101", Warning, "call kept as an opaque server-only statement",
"process() calls a function the front end does not know (a library function such as memcmp
or strstr). The call is kept as an opaque statement that runs only on the server; it is
assumed to read and write anything, which pins the statements that depend on it to the
server too.

This is a warning: the NF still compiles, with less of it offloaded.";

    LoopNotUnrolled = "L102", Warning, "loop not unrolled: its trip count is not a small compile-time constant",
"process() has a loop the analysis build did not unroll: its trip count is not a compile-time
constant (`while (x != y)`, `for (i = 0; i < n; i++)` with `n` from the packet or state), or it
is constant but the body is too large for the default unrolling budget (a loop of 8 iterations
that reads two vectors and updates a counter). The loop and everything that depends on it run
on the server. If its exit depends on packet data or state it may never end on some packet:
`tandem host`, `run` and `check` stop with an error naming the packet after --call-timeout
seconds (default 10) instead of hanging.

Bound the loop by a constant (`for (int i = 0; i < 8 && i < n; i++)`) to have it unrolled and,
if the rest allows, offloaded; if it still is not, put `#pragma unroll` on the line before it:
clang then unrolls a constant-bounded loop in full whatever its size.

This is a warning: the NF still compiles, with the loop on the server.";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub message: String,
    pub loc: Option<SrcLoc>,
}

impl Diagnostic {
    pub fn new(code: Code, message: impl Into<String>, loc: Option<SrcLoc>) -> Self {
        Diagnostic {
            code,
            message: message.into(),
            loc,
        }
    }

    pub fn is_error(&self) -> bool {
        self.code.severity() == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.code.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if let Some(loc) = &self.loc {
            write!(f, "{loc}: ")?;
        }
        write!(
            f,
            "{sev}[{}]: {}: {}",
            self.code,
            self.code.title(),
            self.message
        )
    }
}
