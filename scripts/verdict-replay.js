// The verdict's rule against the one before it, on rounds already measured: each saved compare's
// per-round ratios, in the order they ran, replayed through
//   width: the rule before the verdict had outcomes (stop at ±5% from round 5, else at the
//          budget; "faster" when the 95% t interval excludes 1), and
//   verdict: stats/sequential.js (stop once the sequence decides from round 5; at the budget the
//          last look at 95.5%; faster, equal within ±10%, or inconclusive).
// Both rules see the same rounds and the same budget (the rounds the run had). Then the cheap
// A/A check: each run's log ratios centred on 0 (no difference) and drawn again with replacement
// into as many rounds as it had (its spread and its tails, with no difference), replayed through
// both rules many times; a "faster" there is a false one. (Shuffling alone would not do: the mean
// of all the rounds would stay exactly 0, so the last look could never err.) A run kept twice
// (a copy) counts once. Nothing here is asserted: read the output.
//
//   node scripts/verdict-replay.js [--shuffles N] FILE.json...
import jstat from 'jstat';
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { SEQUENCE_ROUNDS, decision, lookInterval, sequenceDecides } from '../src/stats/sequential.js';
import { loadSaved } from '../src/commands/index.js';

const args = process.argv.slice(2);
const at = args.indexOf('--shuffles');
const shuffles = at === -1 ? 2000 : Number(args.splice(at, 2)[1]);

const seen = new Set();
/** The per-round ratios of a saved compare (or of each point of a sweep), in order. */
function seriesOf(/** @type {string} */ path) {
  // read as every command reads a results file: a compare's of any version has its points
  const { document } = loadSaved(path);
  const key = JSON.stringify([document.started, document.seconds, document.points[0]?.ratio?.samples?.slice(0, 3)]);
  if (seen.has(key)) return [];
  seen.add(key);
  const of = (/** @type {any} */ point) =>
    (point.rounds ?? [])
      .filter((/** @type {any} */ round) => !round.pilot && round.workers && round.procs)
      .map((/** @type {any} */ round) => round.workers.throughput / round.procs.throughput);
  return document.points.map(of);
}

/** The rule before: ±5% from round 5, else everything the budget gave; a 95% t interval. */
function widthRule(/** @type {number[]} */ ratios) {
  for (let n = 5; n <= ratios.length; n++) {
    const logs = ratios.slice(0, n).map(Math.log);
    const half = (jstat.studentt.inv(0.975, n - 1) * sampleStandardDeviation(logs)) / Math.sqrt(n);
    if (Math.exp(half) - 1 <= 0.05 || n === ratios.length) {
      const ci = [Math.exp(mean(logs) - half), Math.exp(mean(logs) + half)];
      return { n, outcome: ci[0] > 1 ? 'workers' : ci[1] < 1 ? 'procs' : 'undecided' };
    }
  }
  return { n: ratios.length, outcome: 'too few' };
}

/** The verdict's rule: the sequence from its first look, the last look at the budget. */
function verdictRule(/** @type {number[]} */ ratios, margin = 0.1) {
  for (let n = SEQUENCE_ROUNDS; n < ratios.length; n++)
    if (sequenceDecides(ratios.slice(0, n), margin))
      return { n, outcome: decision(lookInterval(ratios.slice(0, n), 'sequence'), margin) };
  if (ratios.length < 2) return { n: ratios.length, outcome: 'too few' };
  return { n: ratios.length, outcome: decision(lookInterval(ratios, 'final'), margin) ?? 'inconclusive' };
}

const resampled = (/** @type {number[]} */ values) =>
  values.map(() => values[Math.floor(Math.random() * values.length)]);

const rows = [];
const counts = { width: 0, verdict: 0, equal: 0, runs: 0 };
const falses = { width: 0, verdict: 0, replays: 0 };
for (const path of args)
  for (const ratios of seriesOf(path)) {
    if (ratios.length < 8) continue;
    const width = widthRule(ratios);
    const verdict = verdictRule(ratios);
    rows.push([
      path.replace(/.*\//, ''),
      ratios.length,
      `${width.outcome} @${width.n}`,
      `${verdict.outcome} @${verdict.n}`,
    ]);
    counts.runs++;
    if (width.outcome === 'workers' || width.outcome === 'procs') counts.width++;
    if (verdict.outcome === 'workers' || verdict.outcome === 'procs') counts.verdict++;
    if (verdict.outcome === 'equal') counts.equal++;
    // A/A: the same spread, no difference
    const logs = ratios.map(Math.log);
    const centre = mean(logs);
    for (let i = 0; i < shuffles; i++) {
      const aa = resampled(logs.map((x) => Math.exp(x - centre)));
      falses.replays++;
      if (['workers', 'procs'].includes(widthRule(aa).outcome)) falses.width++;
      if (['workers', 'procs'].includes(verdictRule(aa).outcome)) falses.verdict++;
    }
  }

console.log('| run | rounds | width rule (before) | verdict rule |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(
  `\n${counts.runs} runs: the width rule decided faster/slower in ${counts.width}; the verdict rule in ${counts.verdict}, and equal within ±10% in ${counts.equal}`,
);
const share = (/** @type {number} */ n) => `${((n / falses.replays) * 100).toFixed(2)}%`;
console.log(
  `A/A replays (each run's rounds centred and drawn again, ${shuffles} each, ${falses.replays} in all): a false "faster" from the width rule ${share(falses.width)}, from the verdict rule ${share(falses.verdict)}`,
);
