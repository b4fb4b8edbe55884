// How long compare takes to a verdict, and which one, on tasks with a known answer and on the
// default: each run a default-length `compare` (60 s budget) of this checkout and, where given,
// of another (a checkout of an earlier commit, run the same way), one after the other, so both
// see the same minutes. The tasks: scripts/tasks/spin.mjs with its op twice as slow in a thread
// (procs ~2x faster), 1.25x, twice as slow with each worker a speed of its own (as fresh trees
// disagree), the same op in both modes (equal), and the default readfilesync.
// Prints each run's wall time, how it stopped and its verdict, then the median time and the
// outcomes per task and checkout. Nothing here is asserted: read the output.
//
//   node scripts/verdict-time.js [runs] [--base DIR] [--only NAME] [--out DIR] [-- extra compare options]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';
import { median } from 'simple-statistics';
import { pointView } from '../src/document/points-of.js';

const here = fileURLToPath(new URL('..', import.meta.url));
const spin = fileURLToPath(new URL('tasks/spin.mjs', import.meta.url));
const split = process.argv.indexOf('--');
const own = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const extra = split === -1 ? [] : process.argv.slice(split + 1);
const option = (/** @type {string} */ name) => {
  const at = own.indexOf(name);
  return at === -1 ? null : own.splice(at, 2)[1];
};
const base = option('--base');
const only = option('--only');
// where each run's results are kept (for scripts/verdict-replay.js); else none are
const outDir = option('--out');
const runs = Number(own[0] ?? 5);

/** @type {Record<string, string[]>} */
const TASKS = {
  'op 2x slower in a thread': ['--task', spin, '--param', 'thread=2'],
  'op 1.25x slower in a thread': ['--task', spin, '--param', 'thread=1.25'],
  'op 2x slower in a thread, workers of a speed of their own': [
    '--task',
    spin,
    '--param',
    'thread=2',
    '--param',
    'jitter=0.3',
  ],
  'same op in both modes': ['--task', spin, '--param', 'thread=1'],
  'default (readfilesync)': [],
};
const checkouts = { now: here, ...(base ? { base } : {}) };

/**
 * One compare, its JSON read back: wall time, how it stopped, and the verdict's outcome (a
 * checkout from before outcomes: faster, or `undecided`).
 * @param {string} dir @param {string[]} args
 */
function compare(dir, args) {
  const start = process.hrtime.bigint();
  const out = execFileSync(
    process.execPath,
    [
      `${dir}/bin/mmapbench.js`,
      'compare',
      '--json',
      ...(outDir ? ['--out', `${outDir}/${basename(dir)}`] : ['--no-save']),
      ...args,
      ...extra,
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 28,
    },
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { verdict, stop, ratio } = pointView(JSON.parse(out));
  const outcome = verdict?.outcome ?? verdict?.faster ?? 'undecided';
  return { seconds, stop, outcome, rounds: ratio?.n ?? 0, ratio: ratio?.geomean ?? null };
}

/** @type {Record<string, Record<string, Array<ReturnType<typeof compare>>>>} */
const results = {};
for (let i = 0; i < runs; i++)
  for (const [task, args] of Object.entries(TASKS)) {
    if (only && !task.includes(only)) continue;
    for (const [name, dir] of Object.entries(checkouts)) {
      const result = compare(dir, args);
      ((results[task] ??= {})[name] ??= []).push(result);
      console.log(
        `${task} · ${name}: ${result.seconds.toFixed(1)} s, ${result.rounds} rounds, stopped ${result.stop}, ${result.outcome} (w/p ${result.ratio?.toFixed(2)})`,
      );
    }
  }

console.log('\n| task | checkout | median time | outcomes |');
console.log('|---|---|---|---|');
for (const [task, byCheckout] of Object.entries(results))
  for (const [name, list] of Object.entries(byCheckout)) {
    const outcomes = Object.entries(
      list.reduce(
        (counts, { outcome }) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }),
        /** @type {Record<string, number>} */ ({}),
      ),
    )
      .map(([outcome, n]) => `${outcome} ${n}`)
      .join(', ');
    console.log(`| ${task} | ${name} | ${median(list.map((r) => r.seconds)).toFixed(0)} s | ${outcomes} |`);
  }
