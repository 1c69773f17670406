//! Sokoban rules, XSB/LURD formats, deadlocks, A*/IDA*/BFS/greedy and genetic solvers.
