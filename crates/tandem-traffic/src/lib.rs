//! Workloads, traffic generation, pcap I/O.
