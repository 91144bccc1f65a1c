//! Solver (work in progress).
