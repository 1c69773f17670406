//! Sokoban level generation with MCTS (Kartal et al. 2016, optimized as in the 2023 thesis).
