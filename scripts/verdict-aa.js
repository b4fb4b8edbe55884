// A/A, as the proof of the verdict's rule: default-length compares (60 s budget) with both arms
// the same mode (`--aa workers`, `--aa procs`), the modes taking turns, each run's outcome
// appended to a JSON Lines file as it ends so that a stopped script keeps what it ran. A true
// error rate of 5% gives more than 9 false verdicts (faster or slower) in 100 runs 2.8% of the
// time. Prints each run, then per mode: runs, false verdicts, equal, inconclusive, median time.
// Nothing here is asserted: read the output.
//
//   node scripts/verdict-aa.js [runs per mode] [--file PATH] [-- extra compare options]
//
// Run again with the same --file, it counts the runs already there and runs the rest.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { pointView } from '../src/document/points-of.js';

const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
const split = process.argv.indexOf('--');
const own = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const extra = split === -1 ? [] : process.argv.slice(split + 1);
const at = own.indexOf('--file');
const file = at === -1 ? 'verdict-aa.jsonl' : own.splice(at, 2)[1];
const runs = Number(own[0] ?? 100);
const MODES = /** @type {const} */ (['workers', 'procs']);

/** @typedef {{ mode: string, outcome: string, seconds: number, rounds: number, stop: string, interval: number[] | null }} Run */
/** @type {Run[]} */
const done = existsSync(file)
  ? readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
const count = (/** @type {string} */ mode) => done.filter((run) => run.mode === mode).length;

/** One A/A compare of `mode`, its JSON read back. @param {string} mode @returns {Run} */
function aa(mode) {
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, [bin, 'compare', '--aa', mode, '--json', '--no-save', ...extra], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 1 << 28,
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { verdict, stop, ratio } = pointView(JSON.parse(out));
  return { mode, outcome: verdict.outcome, seconds, rounds: ratio?.n ?? 0, stop, interval: verdict.interval };
}

while (MODES.some((mode) => count(mode) < runs)) {
  const mode = /** @type {string} */ (MODES.find((m) => count(m) === Math.min(...MODES.map(count))));
  const run = aa(mode);
  done.push(run);
  appendFileSync(file, `${JSON.stringify(run)}\n`);
  const shown = run.interval ? run.interval.map((x) => x.toFixed(2)).join('-') : '';
  console.log(
    `--aa ${mode} #${count(mode)}: ${run.outcome} (${shown}), ${run.rounds} rounds, ${run.seconds.toFixed(0)} s, stopped ${run.stop}`,
  );
}

console.log('\n| --aa | runs | false verdicts (faster or slower) | equal | inconclusive | median time |');
console.log('|---|---|---|---|---|---|');
for (const mode of MODES) {
  const list = done.filter((run) => run.mode === mode);
  const of = (/** @type {(outcome: string) => boolean} */ pick) => list.filter((run) => pick(run.outcome)).length;
  console.log(
    `| ${mode} | ${list.length} | ${of((o) => o !== 'equal' && o !== 'inconclusive')} | ${of((o) => o === 'equal')} | ${of((o) => o === 'inconclusive')} | ${list.length ? median(list.map((run) => run.seconds)).toFixed(0) : '-'} s |`,
  );
}
