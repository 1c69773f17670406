// A replay controller for the pages that step through numbered frames (a Sokoban solution, a
// SameGame best game, an agent's game of Bait): the position, playing or not, the timer and the
// speed. The page keeps the frames and draws them; it gives the controller callbacks:
//   showFrame(position)  show frame `position` (already clamped); may return a promise (a fetch)
//   frameCount()         how many frames there are now (0 when there is nothing to replay)
//   onChange()           re-render after playing starts or stops
//   live()               true while more frames may still arrive (a game being played): playing
//                        then waits at the last frame instead of ending there (default: never)

/** A controller at frame 0; `speedMs` is the time between frames while playing. */
export function createReplay({ showFrame, frameCount, onChange, live = () => false, speedMs, playing = false }) {
  let timer = null;
  let run = 0;           // bumped whenever the timer is cancelled: a tick from before does nothing

  const lastPosition = () => frameCount() - 1;
  const cancelTimer = () => {
    clearTimeout(timer);
    timer = null;
    run += 1;
  };

  const replay = {
    position: 0,
    playing,
    speedMs,

    /** Shows frame `position`, clamped to the frames there are; returns what showFrame returns. */
    goTo(position) {
      replay.position = Math.max(0, Math.min(position, lastPosition()));
      return showFrame(replay.position);
    },

    /** Plays on from here, or from the start when at the end of a finished replay. */
    play() {
      if (replay.position >= lastPosition() && !live()) replay.goTo(0);
      cancelTimer();
      replay.playing = true;
      replay.keepPlaying();
      onChange();
    },

    pause() {
      replay.playing = false;
      cancelTimer();
    },

    toggle() {
      if (!replay.playing) {
        replay.play();
        return;
      }
      replay.pause();
      onChange();
    },

    /** Pauses and moves `delta` frames. */
    step(delta) {
      replay.pause();
      return replay.goTo(replay.position + delta);
    },

    /** Pauses and shows frame `position` (a slider moved). */
    scrubTo(position) {
      replay.pause();
      return replay.goTo(position);
    },

    /** Back to frame 0 with no timer, playing (waiting for frames) or not. */
    reset(playingAfter = false) {
      cancelTimer();
      replay.position = 0;
      replay.playing = playingAfter;
    },

    /** Cancels the pending frame but stays playing; keepPlaying() goes on. */
    stopTimer: cancelTimer,

    /** While playing, makes the next frame due in `speedMs`; at the last frame waits while the
     * frames are live, else stops playing. Call it when frames arrive or stop arriving. */
    keepPlaying() {
      if (!replay.playing || timer !== null) return;
      if (replay.position >= lastPosition()) {
        if (!live() && frameCount() > 0) replay.playing = false;
        return;
      }
      const ticket = run;
      timer = setTimeout(async () => {
        if (ticket !== run) return;
        if (!replay.playing) {
          timer = null;
          return;
        }
        await replay.goTo(replay.position + 1);
        if (ticket !== run) return;
        timer = null;
        replay.keepPlaying();
        onChange();
      }, replay.speedMs);
    },
  };
  return replay;
}
