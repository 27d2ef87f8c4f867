//! Software P4-16 (v1model) switch with specialised tables and atomic control.
