// Where a run's precision is decided: how much log(workers/procs) varies from round to round
// (each round two fresh process trees), for the default task and for settings that change what
// varies. Each setting gets one `compare` with the same budget, one after another; for each, the
// rounds it took, the spread of its rounds (standard deviation of the log ratio), its half-width,
// the rounds that spread needs for ±5% (t = 2), and what each mode's cell-to-cell spread goes
// with most (the run's `spread`: a figure of the account, its share and which cells have more).
// Nothing here is asserted: read the output.
//
//   node scripts/spread.js [--max-time S] [--repeat N] [--only NAME] [-- extra compare options]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sampleStandardDeviation } from 'simple-statistics';
import { pointView } from '../src/document/points-of.js';

const split = process.argv.indexOf('--');
const { values } = parseArgs({
  args: split === -1 ? process.argv.slice(2) : process.argv.slice(2, split),
  options: {
    'max-time': { type: 'string', default: '30' },
    repeat: { type: 'string', default: '1' },
    only: { type: 'string' }, // the settings whose name contains this
  },
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

const chosen = Object.entries(settings).filter(([name]) => !values.only || name.includes(values.only));
const runs = chosen.flatMap((setting) => Array.from({ length: Number(values.repeat) }, () => setting));
console.log(`${values.repeat} compare(s) per setting, --max-time ${values['max-time']}, one after another:`);
for (const [name, args] of runs) {
  const started = process.hrtime.bigint();
  const out = execFileSync(
    process.execPath,
    [bin, 'compare', '--json', '--max-time', String(values['max-time']), ...args, ...extra],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const doc = pointView(JSON.parse(out));
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
  const goesWith = ['workers', 'procs'].flatMap((mode) => {
    const figures = doc.spread?.[mode]?.figures ?? [];
    const [top] = figures;
    const faults = figures.find((/** @type {any} */ figure) => figure.key === 'minflt');
    const also = faults && faults !== top ? `, page faults ${faults.share.toFixed(2)}` : '';
    return top ? [`${mode} ${top.key} ${top.share.toFixed(2)} (${top.direction} cells have more)${also}`] : [];
  });
  if (goesWith.length) console.log(`  ${''.padEnd(38)} the cells' spread goes most with: ${goesWith.join('; ')}`);
}
