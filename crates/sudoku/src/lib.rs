//! Sudoku boards, an exact bitboard solver, the MCTS solver of the Czech paper, and a generator.
