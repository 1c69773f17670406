//! Nested Rollout Policy Adaptation (Rosin 2011), SPEC §A "Other searches".
