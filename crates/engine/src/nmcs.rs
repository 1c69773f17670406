//! Nested Monte Carlo Search (Cazenave 2009), SPEC §A "Other searches".
