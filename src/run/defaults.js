// What a measuring command does where an option is not given, in one place: the plan is built
// from these (plan.js), and each option's help says its default from here (core/options.js).
// It imports nothing, so the help's table loads it for nothing.

/** A cell where nothing is given, and a run that is asked for fixed rounds. */
export const DEFAULTS = {
  task: 'readfilesync',
  file: 'med',
  // target seconds a cell, where the rounds are fixed (a run that stops on its own: ADAPTIVE)
  duration: 1,
  // workers and procs: cells one after another
  rounds: 1,
  // seconds a cell may take
  timeout: 300,
  // the app's load: a request every 2 ms that allocates and fills 64 KiB
  everyMs: 2,
  requestBytes: 64 * 1024,
  // what an app has left once its workers ended is read this long after their last exit event:
  // by hand, a parent's anonymous memory read at once and 500 ms later differed by 0.1 MiB at
  // most, and every cell pays the wait (docs/how-it-measures.md, "What ending a worker returns",
  // and "Figures behind the defaults"); `npm run bench:self` sets the figure beside a script
  settleMs: 10,
  cycles: 1,
};

/**
 * A compare, sweep or advise that stops on its own (no --rounds): rounds until its verdict is
 * decided or its ratio known to ± precision, at least minRounds, within maxSeconds, and cells of
 * 0.1 s, as many fresh trees are what make the interval narrow (plan.js says why, beside where it
 * reads these).
 */
export const PRECISION = { precision: 0.05, maxSeconds: 60, minRounds: 5, duration: 0.1 };

/** advise without --rounds: the whole race's budget, every candidate together, in seconds. */
export const ADVISE_SECONDS = 60;

/** compare, workers, procs and sweep --quick: cells of a few ms that prove every path works and measure nothing. */
export const SMOKE_CELLS = { iterations: 20, warmup: 2, rounds: 2, k: 2, timeout: 60 };

/** reproduce without --rounds: rounds until every claim is decided, between these bounds. */
export const REPRODUCE_ROUNDS = { min: 5, max: 12 };

/** reproduce's --protocol choices, as results.schema.json's reproduceOptions keeps them (a test holds them alike). */
export const PROTOCOL_CHOICES = /** @type {const} */ (['fresh', 'steady', 'published', 'both']);
