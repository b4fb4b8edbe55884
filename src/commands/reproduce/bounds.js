/** --quick: every path of every experiment, in about a minute on 2 cores; decides little. */
export const QUICK_EXPERIMENTS = { iterations: 200, warmup: 50, rounds: 2, timeout: 60 };
/** The default: rounds until every claim is decided, between these bounds. */
export const ROUNDS = { min: 5, max: 12 };

/** Rounds at least and at most; the run stops between them once every claim is decided. */
/** @param {{ quick: boolean, rounds?: number | null, maxRounds?: number }} options */
export const roundBounds = (options) =>
  options.quick
    ? [QUICK_EXPERIMENTS.rounds, QUICK_EXPERIMENTS.rounds]
    : options.rounds
      ? [options.rounds, options.rounds]
      : [ROUNDS.min, options.maxRounds ?? ROUNDS.max];
