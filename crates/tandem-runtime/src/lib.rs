//! Reference host, server host, state sync.
