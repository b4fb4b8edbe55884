// How long `compare` takes to reach its precision target on the calm settings: each setting's
// default compare (±5%, within --max-time), RUNS times, settings alternated; per run its wall
// time, rounds, half-width and why it stopped, then each setting's median time. Nothing here is
// asserted: read the output.
//
//   node scripts/time-to-target.js [--runs N] [--max-time S] [--only NAME] [--bin PATH] [-- extra compare options]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from 'simple-statistics';

const split = process.argv.indexOf('--');
const { values } = parseArgs({
  args: split === -1 ? process.argv.slice(2) : process.argv.slice(2, split),
  options: {
    runs: { type: 'string', default: '5' },
    'max-time': { type: 'string', default: '60' },
    only: { type: 'string' }, // the settings whose name contains this
    // another tree's CLI, to set this one's beside it
    bin: { type: 'string', default: fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url)) },
  },
});
const extra = split === -1 ? [] : process.argv.slice(split + 1);

/** @type {Record<string, string[]>} */
const SETTINGS = {
  json: ['--task', 'json'],
  'reuse-buffer': ['--task', 'reuse-buffer'],
  'readfilesync, MALLOC_TOP_PAD_=64 MiB': ['--env', 'MALLOC_TOP_PAD_=67108864'],
};
const chosen = Object.entries(SETTINGS).filter(([name]) => !values.only || name.includes(values.only));

console.log(`${values.runs} compare(s) per setting, --max-time ${values['max-time']}, alternated, ${values.bin}:`);
/** @type {Record<string, number[]>} */
const times = {};
for (let run = 0; run < Number(values.runs); run++) {
  for (const [name, args] of chosen) {
    const started = process.hrtime.bigint();
    const out = execFileSync(
      process.execPath,
      [values.bin, 'compare', '--max-time', values['max-time'], '--json', ...args, ...extra],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 },
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const document = JSON.parse(out);
    (times[name] ??= []).push(seconds);
    const half = document.ratio?.halfWidth;
    const round = document.phases ? `; a round ${(document.phases.roundNs / 1e9).toFixed(2)} s` : '';
    const pilot = document.sizing?.resized ? '; a pilot round' : '';
    console.log(
      `  ${name.padEnd(38)} ${seconds.toFixed(1).padStart(5)} s  ${String(document.ratio?.n ?? 0).padStart(3)} rounds  ` +
        `±${half ? (half * 100).toFixed(1) : '-'}%  stop ${document.stop}${round}${pilot}`,
    );
  }
}
console.log('median wall time [range]:');
for (const [name, seconds] of Object.entries(times))
  console.log(
    `  ${name.padEnd(38)} ${median(seconds).toFixed(1)} s [${Math.min(...seconds).toFixed(1)}-${Math.max(...seconds).toFixed(1)}]`,
  );
