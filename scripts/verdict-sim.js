// The verdict's rule (stats/sequential.js) on simulated rounds: log ratios drawn normal, or with
// heavy tails (Student t with 3 degrees of freedom, scaled to the same sd), looked at as compare
// looks (the sequence from its first look, the last look at the budget). For each true ratio it
// prints the outcomes and the median round the run stopped at; an A/A (ratio 1) "faster" is a
// false one. Then the sequence alone over many looks: how often it ever misses the true ratio.
// Nothing here is asserted: read the output.
//
//   node scripts/verdict-sim.js [runs] [--rounds N] [--sd S]
import { SEQUENCE_ROUNDS, decision, lookInterval } from '../src/stats/sequential.js';

const args = process.argv.slice(2);
const option = (/** @type {string} */ name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args.splice(at, 2)[1]);
};
const budget = option('--rounds', 44); // what the default's 60 s gives the default task here
const sd = option('--sd', 0.36); // a round's log-ratio sd, as the default task's here
const runs = Number(args[0] ?? 10_000);

const normal = () => Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
// Student t(3) has variance 3: divided by √3 it has the sd of a normal draw
const heavy = () => normal() / Math.sqrt((normal() ** 2 + normal() ** 2 + normal() ** 2) / 3) / Math.sqrt(3);

/** One run: rounds until the sequence decides, else the last look at the budget. */
function run(/** @type {number} */ ratio, /** @type {number} */ spread, /** @type {() => number} */ draw) {
  const ratios = [];
  for (let n = 1; n <= budget; n++) {
    ratios.push(ratio * Math.exp(spread * draw()));
    if (n === budget) return { n, outcome: decision(lookInterval(ratios, 'final'), 0.1) ?? 'inconclusive' };
    if (n >= SEQUENCE_ROUNDS) {
      const decided = decision(lookInterval(ratios, 'sequence'), 0.1);
      if (decided) return { n, outcome: decided };
    }
  }
  throw new Error('unreachable');
}

const CASES = [
  ['A/A (ratio 1)', 1, sd],
  ['ratio 0.5, sd 0.3', 0.5, 0.3],
  ['ratio 0.7', 0.7, sd],
  ['ratio 0.87', 0.87, sd],
  ['ratio 1, sd 0.08', 1, 0.08],
];
console.log(`${runs} runs of at most ${budget} rounds each, sd ${sd} unless said\n`);
console.log('| rounds | case | outcomes | median round |');
console.log('|---|---|---|---|');
for (const [name, draw] of /** @type {const} */ ([
  ['normal', normal],
  ['heavy tails', heavy],
]))
  for (const [label, ratio, spread] of CASES) {
    /** @type {Record<string, number>} */
    const outcomes = {};
    const rounds = [];
    for (let i = 0; i < runs; i++) {
      const { n, outcome } = run(/** @type {number} */ (ratio), /** @type {number} */ (spread), draw);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      rounds.push(n);
    }
    rounds.sort((a, b) => a - b);
    const shares = Object.entries(outcomes)
      .map(([outcome, n]) => `${outcome} ${((n / runs) * 100).toFixed(1)}%`)
      .join(', ');
    console.log(`| ${name} | ${label} | ${shares} | ${rounds[runs >> 1]} |`);
  }

// the sequence alone: over looks from its first to the 200th round, how often its interval ever
// leaves out the true ratio (1)
const misses = (/** @type {() => number} */ draw) => {
  let missed = 0;
  for (let i = 0; i < runs; i++) {
    const ratios = [];
    for (let n = 1; n <= 200; n++) {
      ratios.push(Math.exp(draw()));
      if (n < SEQUENCE_ROUNDS) continue;
      const [low, high] = /** @type {[number, number]} */ (lookInterval(ratios, 'sequence'));
      if (low > 1 || high < 1) {
        missed++;
        break;
      }
    }
  }
  return `${((missed / runs) * 100).toFixed(2)}%`;
};
console.log(
  `\nthe sequence ever misses, looks ${SEQUENCE_ROUNDS}-200: normal ${misses(normal)}, heavy tails ${misses(heavy)}`,
);
