//! SameGame rules, formats, SP-MCTS with playout heuristics, NMCS/NRPA, DBS, A*/IDA*.
