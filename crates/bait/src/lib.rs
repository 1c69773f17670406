//! The GVGAI game Bait and its DFS, depth-limited, A* and MCTS agents.
