#!/usr/bin/env node
// Two checks of the app's rows (its main thread, and what it keeps when its workers end), each a
// series of whole compares run one at a time:
//   aa      --aa workers and --aa procs, `--runs` of each: how many of the app's rows' intervals
//           contain 1 (0 for a row contrasted as a difference: both arms are the same mode, so
//           nearly all should); --cycles N adds the recycling rows
//   onoff   the same compare with the app's load on and with --main off, alternating, `--runs`
//           pairs: the throughput ratio of each, and of the pairs (on / off) beside the spread
//           of the offs themselves, to see whether the load costs the workers anything
//   node scripts/main-thread-runs.js aa|onoff [--runs 10] [--seconds 20] [-k 2] [--cycles 1]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { ratioStats } from '../src/stats/ratio.js';
import { pointView } from '../src/document/points-of.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '20' },
    k: { type: 'string', short: 'k', default: '2' },
    cycles: { type: 'string', default: '1' },
  },
});
const [check] = positionals;
if (!['aa', 'onoff'].includes(check)) {
  process.stderr.write('usage: node scripts/main-thread-runs.js aa|onoff [--runs 10] [--seconds 20] [-k 2]\n');
  process.exit(2);
}
const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
const runs = Number(values.runs);

/** One compare's document. @param {string[]} extra */
async function compare(extra) {
  const { stdout } = await execa(process.execPath, [
    bin,
    'compare',
    '-k',
    values.k,
    '--max-time',
    values.seconds,
    '--json',
    '--no-save',
    '--cycles',
    values.cycles,
    ...extra,
  ]);
  return pointView(JSON.parse(stdout));
}

const ci = (/** @type {any} */ ratio) =>
  ratio?.ci95 ? `${ratio.geomean.toFixed(2)} (${ratio.ci95[0].toFixed(2)} to ${ratio.ci95[1].toFixed(2)})` : '-';
// a ratio's interval against 1, a difference's against 0
const containsNeutral = (/** @type {any} */ ratio) => {
  const neutral = ratio?.difference ? 0 : 1;
  return Boolean(ratio?.ci95 && ratio.ci95[0] <= neutral && ratio.ci95[1] >= neutral);
};

if (check === 'aa') {
  const keys = [
    ...['mainRequestP99Us', 'lagP99Ms', 'keptMemory', 'teardownMs'],
    ...(Number(values.cycles) > 1 ? ['keptLastMemory', 'keptGrowthPerCycle'] : []),
  ];
  /** @type {Record<string, { runs: number, within: number }>} */
  const tally = Object.fromEntries(keys.map((key) => [key, { runs: 0, within: 0 }]));
  for (let run = 0; run < runs; run++)
    for (const mode of ['workers', 'procs']) {
      const document = await compare(['--aa', mode]);
      const line = keys.map((key) => {
        const ratio = document.measures?.[key];
        tally[key].runs++;
        if (containsNeutral(ratio)) tally[key].within++;
        return `${key} ${ci(ratio)}`;
      });
      console.log(`A/A ${mode} run ${run + 1}: throughput ${ci(document.ratio)}; ${line.join('; ')}`);
    }
  for (const key of keys)
    console.log(`${key}: the interval contains no difference in ${tally[key].within} of ${tally[key].runs} A/A runs`);
} else {
  const on = [];
  const off = [];
  for (let run = 0; run < runs; run++)
    for (const main of run % 2 ? ['off', 'on'] : ['on', 'off']) {
      const document = await compare(['--main', main]);
      (main === 'on' ? on : off).push(document.ratio.geomean);
      console.log(
        `pair ${run + 1} --main ${main}: workers/procs ${ci(document.ratio)}, ${document.rounds.length} rounds`,
      );
    }
  const fmt = (/** @type {number[]} */ xs) => ci(ratioStats(xs));
  console.log(`workers/procs over the runs: load on ${fmt(on)}, --main off ${fmt(off)}`);
  console.log(`on / off, pair by pair: ${fmt(on.map((value, i) => value / off[i]))}`);
}
