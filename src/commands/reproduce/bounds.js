import { SEQUENCE_ROUNDS } from '../../stats/sequential.js';
/** --quick: every path of every experiment, in about a minute on 2 cores; decides little. */
export const QUICK_EXPERIMENTS = { iterations: 200, warmup: 50, rounds: 2, timeout: 60 };
/** The default: rounds until every claim is decided, between these bounds (run/defaults.js). */
export { REPRODUCE_ROUNDS as ROUNDS } from '../../run/defaults.js';
import { REPRODUCE_ROUNDS as ROUNDS } from '../../run/defaults.js';

/** Rounds at least and at most; the run stops between them once every claim is decided. */
/** @param {{ quick: boolean, rounds?: number | null, maxRounds?: number }} options */
export const roundBounds = (options) =>
  options.quick
    ? [QUICK_EXPERIMENTS.rounds, QUICK_EXPERIMENTS.rounds]
    : options.rounds
      ? [options.rounds, options.rounds]
      : [ROUNDS.min, options.maxRounds ?? ROUNDS.max];

/**
 * The look a run's claims are read at, as compare's verdict (stats/sequential.js): a fixed-n 95%
 * interval where the rounds were fixed (--rounds, --quick) or stopped on a width (--precision);
 * else the confidence sequence the rule looked through, valid at every round (an interrupted
 * run's too), or at the most rounds the budget's last look.
 * @param {{ quick: boolean, rounds?: number | null, maxRounds?: number, precision?: number | null }} options
 * @param {number} rounds  measured
 * @returns {import('../../stats/sequential.js').Look}
 */
export function lookOfRun(options, rounds) {
  // before the sequence's first look (an interrupted run) its claims were read as fixed-n ones
  if (options.quick || options.rounds || typeof options.precision === 'number' || rounds < SEQUENCE_ROUNDS)
    return 'fixed';
  return rounds >= roundBounds(options)[1] ? 'final' : 'sequence';
}
