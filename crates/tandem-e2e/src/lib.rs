//! End-to-end tests from C++ source, and nothing else: each test compiles an NF through the
//! front end (clang, LLVM IR, the lifter), partitions it, generates the switch program and
//! `server.cc`, runs the pair on Tandem's switch and server host and `check`s every packet and
//! the final state against the NF's native build (`tests/`).
//!
//! The runtime's own tests (`tandem-offload/tests`) start from the lifter's golden IR, so the
//! runtime builds and tests without LLVM; whatever must start from C++ lives here.
