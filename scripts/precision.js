// What the default `compare` buys: the old defaults (5 rounds of ~1 s cells), the precision
// engine (rounds until ±5% or 60 s) and the same with cells of 0.05 s, run alternately on this
// machine, each run's half-width, wall time and round cost printed; then A/A runs (both arms the
// same mode), counting how many 95% intervals contain 1 (about 95% of them should). Nothing
// here is asserted: read the output.
//
//   node scripts/precision.js [pairs] [aaRuns] [--aa-max-time S] [-- extra compare options]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';
import { pointView } from '../src/document/points-of.js';

const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
const split = process.argv.indexOf('--');
const own = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const extra = split === -1 ? [] : process.argv.slice(split + 1);
const aaAt = own.indexOf('--aa-max-time');
const aaMaxTime = aaAt === -1 ? '20' : own.splice(aaAt, 2)[1];
const [pairs = 3, aaRuns = 20] = own.map(Number);

const runs = {
  'old defaults (--rounds 5 --duration 1)': ['--rounds', '5', '--duration', '1'],
  'precision engine (defaults)': [],
  'shorter cells (--duration 0.05)': ['--duration', '0.05'],
};

function compare(args) {
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, [bin, 'compare', '--json', ...args, ...extra], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const doc = pointView(JSON.parse(out));
  return { seconds, doc };
}

const pct = (x) => (x === null || x === undefined ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);
const results = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
if (pairs > 0) console.log(`${pairs} runs of each, alternating:`);
for (let i = 0; i < pairs; i++) {
  for (const [name, args] of Object.entries(runs)) {
    const { seconds, doc } = compare(args);
    results[name].push({ seconds, width: doc.ratio?.halfWidth ?? null });
    const ci = doc.ratio?.ci95 ? `${doc.ratio.ci95.map((v) => v.toFixed(2)).join('-')}` : '-';
    // what a round cost, and how much of it was the timed windows (docs/how-it-measures.md)
    const round = doc.phases
      ? `  round ${(doc.phases.roundNs / 1e9).toFixed(2)} s, windows ${Math.round((100 * doc.phases.windowsNs) / doc.phases.roundNs)}%`
      : '';
    console.log(
      `  ${name.padEnd(40)} ${seconds.toFixed(0).padStart(4)} s  rounds ${String(doc.ratio?.n ?? 0).padStart(3)}  ratio ${doc.ratio?.median.toFixed(2)} (${ci})  half-width ${pct(doc.ratio?.halfWidth)}  stop ${doc.stop}${round}`,
    );
  }
}
// with 0 pairs, the A/A runs alone
for (const [name, list] of Object.entries(results).filter(([, list]) => list.length)) {
  const widths = list.map((r) => r.width).filter((w) => w !== null);
  console.log(
    `median of ${name}: ${median(list.map((r) => r.seconds)).toFixed(0)} s, half-width ${pct(widths.length ? median(widths) : null)}`,
  );
}

if (aaRuns > 0) {
  console.log(`\n${aaRuns} A/A runs (--aa workers and --aa procs by turns, --max-time ${aaMaxTime}):`);
  /** per mode, how many throughput intervals contained 1 */
  const covered = new Map();
  /** every further measure (memory per added worker, start-up, p99): how often its interval held 1 */
  const measures = new Map();
  for (let i = 0; i < aaRuns; i++) {
    const mode = i % 2 ? 'procs' : 'workers';
    const { seconds, doc } = compare(['--aa', mode, '--max-time', aaMaxTime]);
    const [low, high] = doc.ratio.ci95;
    const hit = low <= 1 && 1 <= high;
    covered.set(mode, (covered.get(mode) ?? 0) + (hit ? 1 : 0));
    console.log(
      `  ${String(i + 1).padStart(2)} ${mode.padEnd(7)} ${seconds.toFixed(0).padStart(3)} s  rounds ${String(doc.ratio.n).padStart(3)}  A/B ${doc.ratio.median.toFixed(3)} (${low.toFixed(3)}-${high.toFixed(3)})  ${hit ? 'contains 1' : 'MISSES 1'}`,
    );
    for (const [key, ratio] of Object.entries(doc.measures ?? {})) {
      // a figure contrasted as a difference (workers − procs: kept memory, time to full speed)
      // is judged against 0, a ratio against 1
      const none = ratio.difference ? 0 : 1;
      const held = ratio.ci95 ? ratio.ci95[0] <= none && none <= ratio.ci95[1] : null;
      const seen = measures.get(`${key}, --aa ${mode}`) ?? { held: 0, runs: 0 };
      measures.set(`${key}, --aa ${mode}`, {
        held: seen.held + (held ? 1 : 0),
        runs: seen.runs + (held === null ? 0 : 1),
      });
      console.log(
        `       ${key}: ${ratio.difference ? 'A−B' : 'A/B'} ${ratio.geomean.toFixed(3)} (${ratio.ci95 ? ratio.ci95.map((end) => end.toFixed(3)).join(' to ') : 'no interval'})  ${held === null ? '' : held ? `contains ${none}` : `MISSES ${none}`}`,
      );
    }
  }
  for (const [mode, held] of covered)
    console.log(
      `${held} of ${Math.ceil(aaRuns / 2)} A/A intervals of throughput, --aa ${mode}, contain 1 (nominal 95%)`,
    );
  for (const [key, { held, runs }] of [...measures].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${held} of ${runs} A/A intervals of ${key} hold no difference`);
}
