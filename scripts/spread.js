// Where a run's precision is decided: how much log(workers/procs) varies from round to round
// (each round two fresh process trees), for the default task and for settings that change what
// varies. Each setting gets one `compare` with the same budget, one after another; for each, the
// rounds it took, the spread of its rounds (standard deviation of the log ratio), its half-width,
// and the rounds that spread needs for ±5% (t = 2). Nothing here is asserted: read the output.
//
//   node scripts/spread.js [--max-time S] [-- extra compare options]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sampleStandardDeviation } from 'simple-statistics';

const split = process.argv.indexOf('--');
const { values } = parseArgs({
  args: split === -1 ? process.argv.slice(2) : process.argv.slice(2, split),
  options: { 'max-time': { type: 'string', default: '30' } },
});
const extra = split === -1 ? [] : process.argv.slice(split + 1);
const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));

/** @type {Record<string, string[]>} */
const settings = {
  'readfilesync (default)': [],
  'readfilesync, --aa workers': ['--aa', 'workers'],
  'readfilesync, MALLOC_TOP_PAD_=64 MiB': ['--env', 'MALLOC_TOP_PAD_=67108864'],
  'reuse-buffer': ['--task', 'reuse-buffer'],
  json: ['--task', 'json'],
};

console.log(`one compare per setting, --max-time ${values['max-time']}, one after another:`);
for (const [name, args] of Object.entries(settings)) {
  const started = process.hrtime.bigint();
  const out = execFileSync(
    process.execPath,
    [bin, 'compare', '--json', '--max-time', String(values['max-time']), ...args, ...extra],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const doc = JSON.parse(out);
  /** @type {number[]} */
  const logs = doc.rounds
    .filter((/** @type {any} */ round) => round.complete && !round.pilot)
    .map((/** @type {any} */ round) => Math.log(round.workers.throughput / round.procs.throughput));
  const sd = logs.length > 1 ? sampleStandardDeviation(logs) : null;
  // half-width ≈ exp(t·sd/√n) − 1 ≤ 5%  ⇔  n ≥ (t·sd / ln 1.05)²
  const needed = sd === null ? null : Math.ceil(((2 * sd) / Math.log(1.05)) ** 2);
  const width = doc.ratio?.halfWidth;
  console.log(
    `  ${name.padEnd(38)} ${seconds.toFixed(0).padStart(3)} s  rounds ${String(logs.length).padStart(3)}  ` +
      `spread ${sd === null ? '  -  ' : sd.toFixed(3)}  half-width ${typeof width !== 'number' ? '   -  ' : `${(width * 100).toFixed(1).padStart(4)}%`}  ` +
      `±5% needs ~${needed ?? '-'} rounds  stop ${doc.stop}`,
  );
}
