//! N episodes of SameGame, Sudoku or Bait stepped per call over numpy buffers (the engines of
//! `puzzle_search.games_env`'s vector environments), with Gymnasium's `NEXT_STEP` auto-reset:
//! the step after an episode ends resets it. The episodes are [`crate::game_episodes`]' own,
//! the ones the single environments step, so N single environments and one vector environment
//! agree step for step.
//!
//! Which item (board, puzzle) a reset starts, and with which seed, is drawn from each episode's
//! own stream ([`draw`]), seeded by `reset` as the single environment seeds its stream, so the
//! draws cost no Python call.

use crate::game_episodes::{draw, BaitEpisode, Episode, SameGameEpisode, Step, SudokuEpisode};
use crate::games::{BaitCore, SameGameCore, SudokuCore};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use puzzle_engine::Rng;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

/// One episode's part of a step: the episode, its stream, its last step, its action, its
/// observation and its action mask.
type Slot<'a, E> = (
    (
        (((&'a mut E, &'a mut Rng), &'a mut Step), &'a i64),
        &'a mut [u8],
    ),
    &'a mut [i8],
);

/// N episodes of one game and their numpy buffers.
pub struct Batch<E: Episode> {
    game: E::Game,
    episodes: Vec<E>,
    /// Each episode's stream, which its resets draw from.
    streams: Vec<Rng>,
    /// What each episode's last step gave (an ended one is reset by the next step).
    steps: Vec<Step>,
    /// The observations, `(count, height, width)`, updated in place by every call.
    observations: Py<PyArray3<u8>>,
    /// The action masks, `(count, actions)`, updated in place by every call.
    masks: Py<PyArray2<i8>>,
    /// Episodes per rayon task (0: step on the calling thread only).
    chunk: usize,
}

impl<E: Episode> Batch<E> {
    /// `count` episodes of `game`; `threads` 1 steps them on the calling thread, more splits
    /// each call across rayon's threads.
    pub fn new(py: Python<'_>, game: E::Game, count: usize, threads: usize) -> PyResult<Self> {
        if count == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let (height, width) = E::shape(&game);
        let actions = E::actions(&game);
        let episodes = (0..count).map(|_| E::new(&game)).collect();
        let observations = PyArray3::<u8>::zeros(py, [count, height, width], false).unbind();
        let masks = PyArray2::<i8>::zeros(py, [count, actions], false).unbind();
        let chunk = if threads <= 1 {
            0
        } else {
            count.div_ceil(threads * 4).max(64)
        };
        Ok(Batch {
            game,
            episodes,
            streams: vec![Rng::new(0); count],
            steps: vec![Step::default(); count],
            observations,
            masks,
            chunk,
        })
    }

    /// Seed episode `i`'s stream with `stream_seeds[i]` and reset it to an item drawn from
    /// the stream, for every `i`; returns the observations (the batch's own array).
    pub fn reset<'py>(
        &mut self,
        py: Python<'py>,
        stream_seeds: Vec<u64>,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        crate::check_batch_lengths(self.episodes.len(), &[("seeds", stream_seeds.len())])?;
        let (height, width) = E::shape(&self.game);
        let actions = E::actions(&self.game);
        let observations = self.observations.bind(py).clone();
        let masks = self.masks.bind(py).clone();
        {
            let mut obs = observations.readwrite();
            let mut mask = masks.readwrite();
            let (obs, mask) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
            for (i, ((episode, o), m)) in self
                .episodes
                .iter_mut()
                .zip(obs.chunks_mut(height * width))
                .zip(mask.chunks_mut(actions))
                .enumerate()
            {
                let stream = &mut self.streams[i];
                *stream = Rng::new(stream_seeds[i]);
                let (index, seed) = draw::<E>(&self.game, stream, None);
                episode
                    .reset(&self.game, index, seed)
                    .map_err(PyValueError::new_err)?;
                episode.observe(&self.game, o);
                episode.mask(&self.game, m);
                self.steps[i] = Step::default();
            }
        }
        Ok(observations)
    }

    /// Step every episode with its action; an episode whose last step ended it is reset
    /// instead, to an item drawn from its stream (reward 0, not terminated, not truncated). Writes the rewards, terminations and truncations into the given arrays and
    /// returns the observations (the batch's own array, updated in place by the next call).
    pub fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        rewards: Bound<'py, PyArray1<f64>>,
        terminations: Bound<'py, PyArray1<bool>>,
        truncations: Bound<'py, PyArray1<bool>>,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let count = self.episodes.len();
        let lengths = [
            actions.len(),
            rewards.len(),
            terminations.len(),
            truncations.len(),
        ];
        crate::check_step_lengths(count, lengths)?;
        let actions = actions.as_slice()?;
        for (i, &action) in actions.iter().enumerate() {
            let ends = self.steps[i].terminated || self.steps[i].truncated;
            if !ends {
                E::check_action(&self.game, action)
                    .map_err(|e| PyValueError::new_err(format!("actions[{i}]: {e}")))?;
            }
        }
        let (height, width) = E::shape(&self.game);
        let action_count = E::actions(&self.game);
        let observations = self.observations.bind(py).clone();
        let masks = self.masks.bind(py).clone();
        {
            let mut obs = observations.readwrite();
            let mut mask = masks.readwrite();
            let (obs, mask) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
            let game = &self.game;
            let (episodes, streams, steps, chunk) = (
                &mut self.episodes,
                &mut self.streams,
                &mut self.steps,
                self.chunk,
            );
            py.detach(|| {
                let one = |(((((episode, stream), step), &action), o), m): Slot<'_, E>| {
                    if step.terminated || step.truncated {
                        let (index, seed) = draw::<E>(game, stream, None);
                        // A drawn index is in the list, and it reset before.
                        let _ = episode.reset(game, index, seed);
                        *step = Step::default();
                    } else {
                        *step = episode.step(game, action as usize);
                    }
                    episode.observe(game, o);
                    episode.mask(game, m);
                };
                if chunk == 0 {
                    episodes
                        .iter_mut()
                        .zip(streams.iter_mut())
                        .zip(steps.iter_mut())
                        .zip(actions.iter())
                        .zip(obs.chunks_mut(height * width))
                        .zip(mask.chunks_mut(action_count))
                        .for_each(one);
                } else {
                    episodes
                        .par_iter_mut()
                        .zip(streams.par_iter_mut())
                        .zip(steps.par_iter_mut())
                        .zip(actions.par_iter())
                        .zip(obs.par_chunks_mut(height * width))
                        .zip(mask.par_chunks_mut(action_count))
                        .with_min_len(chunk)
                        .for_each(one);
                }
            });
        }
        let mut rewards = rewards.readwrite();
        let mut terminations = terminations.readwrite();
        let mut truncations = truncations.readwrite();
        for (((step, r), te), tr) in self
            .steps
            .iter()
            .zip(rewards.as_slice_mut()?)
            .zip(terminations.as_slice_mut()?)
            .zip(truncations.as_slice_mut()?)
        {
            (*r, *te, *tr) = (step.reward, step.terminated, step.truncated);
        }
        Ok(observations)
    }

    /// The action masks, `(count, actions)` `int8` (the batch's own array).
    pub fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.masks.bind(py).clone()
    }
}

/// A pyclass over a [`Batch`] of one game, built from that game's single-environment core
/// (whose settings every episode shares).
macro_rules! batch_class {
    ($name:ident, $episode:ty, $core:ty, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(module = "puzzle_search._puzzle_search")]
        pub struct $name {
            batch: Batch<$episode>,
        }

        #[pymethods]
        impl $name {
            /// `count` episodes with the settings of `core`; `threads` 1 steps them on the
            /// calling thread, more splits each call across rayon's threads.
            #[new]
            fn new(
                py: Python<'_>,
                core: PyRef<'_, $core>,
                count: usize,
                threads: usize,
            ) -> PyResult<Self> {
                let game = core.game.clone();
                Ok($name {
                    batch: Batch::new(py, game, count, threads)?,
                })
            }

            /// Seed episode `i`'s stream with `seeds[i]` (as the single core's `seed`) and
            /// start an item (board, puzzle) drawn from it; returns the observations,
            /// `(count, height, width)`: the batch's own array, updated in place by the next
            /// call.
            fn reset<'py>(
                &mut self,
                py: Python<'py>,
                seeds: Vec<u64>,
            ) -> PyResult<Bound<'py, PyArray3<u8>>> {
                self.batch.reset(py, seeds)
            }

            /// Step every episode with its action (`int64`); an episode that ended on the
            /// previous step is reset instead, to an item drawn from its stream (reward 0,
            /// not terminated, not truncated). Writes the rewards (`float64`),
            /// terminations and truncations (`bool`) into the given arrays and returns the
            /// observations (the batch's own array).
            fn step<'py>(
                &mut self,
                py: Python<'py>,
                actions: PyReadonlyArray1<'py, i64>,
                rewards: Bound<'py, PyArray1<f64>>,
                terminations: Bound<'py, PyArray1<bool>>,
                truncations: Bound<'py, PyArray1<bool>>,
            ) -> PyResult<Bound<'py, PyArray3<u8>>> {
                self.batch
                    .step(py, actions, rewards, terminations, truncations)
            }

            /// The action masks, `(count, actions)` `int8`, 1 for every action that changes
            /// the position (the batch's own array, updated in place by every call).
            fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
                self.batch.masks(py)
            }
        }
    };
}

batch_class!(
    SameGameBatch,
    SameGameEpisode,
    SameGameCore,
    "N SameGame episodes stepped per call (`SameGameVectorEnv`'s engine)."
);
batch_class!(
    SudokuBatch,
    SudokuEpisode,
    SudokuCore,
    "N Sudoku episodes stepped per call (`SudokuVectorEnv`'s engine)."
);
batch_class!(
    BaitBatch,
    BaitEpisode,
    BaitCore,
    "N Bait episodes stepped per call (`BaitVectorEnv`'s engine)."
);

/// Add the vector engines to the extension module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<SameGameBatch>()?;
    module.add_class::<SudokuBatch>()?;
    module.add_class::<BaitBatch>()?;
    Ok(())
}
