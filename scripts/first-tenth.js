// How each window's first tenth runs against the rest: runs `compare` RUNS times per task, one
// after another, and prints, per mode, the time per op of each tenth (the run's regime: the
// median over its cells of the workers' tenths summed), the first tenth over the median of the
// other nine, and the fifth tenth's (whose ops are timed one by one for the latency) the same
// way. Nothing here is asserted: read the output.
//
//   node scripts/first-tenth.js [--runs N] [--max-time S] [--tasks a,b] [--bin PATH] [-- extra compare options]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from 'simple-statistics';
import { pointView } from '../src/document/points-of.js';

const split = process.argv.indexOf('--');
const { values } = parseArgs({
  args: split === -1 ? process.argv.slice(2) : process.argv.slice(2, split),
  options: {
    runs: { type: 'string', default: '5' },
    'max-time': { type: 'string' },
    tasks: { type: 'string', default: 'reuse-buffer,readfilesync' },
    // another tree's CLI, to set this one's beside it
    bin: { type: 'string', default: fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url)) },
  },
});
const extra = split === -1 ? [] : process.argv.slice(split + 1);
const tasks = values.tasks.split(',');
// a fixed count of rounds (`-- --rounds 2`) runs every round asked for: no budget beside it
const budget = extra.includes('--rounds') ? [] : ['--max-time', values['max-time'] ?? '15'];

console.log(`${values.runs} compare(s) per task, ${[...budget, ...extra].join(' ')}, ${values.bin}:`);
/** @type {Record<string, number[]>} */
const firsts = {};
for (let run = 0; run < Number(values.runs); run++) {
  for (const task of tasks) {
    const out = execFileSync(process.execPath, [values.bin, 'compare', '--task', task, ...budget, '--json', ...extra], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 28,
    });
    const document = pointView(JSON.parse(out));
    for (const mode of ['workers', 'procs']) {
      /** @type {number[] | undefined} */
      const tenths = document.account?.regime?.[mode]?.tenths;
      if (!tenths?.length) {
        console.log(`  ${task.padEnd(14)} ${mode.padEnd(8)} no tenths (no account, or too few ops)`);
        continue;
      }
      const rest = median(tenths.slice(1));
      const first = tenths[0] / rest;
      const fifth = tenths[4] / median([...tenths.slice(1, 4), ...tenths.slice(5)]);
      (firsts[`${task} ${mode}`] ??= []).push(first);
      console.log(
        `  ${task.padEnd(14)} ${mode.padEnd(8)} tenths (ns/op) ${tenths.map((ns) => Math.round(ns)).join(' ')}; ` +
          `first/rest ${first.toFixed(2)}, fifth/rest ${fifth.toFixed(2)} (${document.ratio?.n ?? 0} rounds)`,
      );
    }
  }
}
console.log('first tenth / the rest, median over runs [range]:');
for (const [name, ratios] of Object.entries(firsts))
  console.log(
    `  ${name.padEnd(24)} ${median(ratios).toFixed(2)} [${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}]`,
  );
