#!/usr/bin/env node
// Does mmapbench's presence in a cell move which heap state its trees draw? A fair judge: tree by
// tree in turn, a plain tree of the task's work (an app of a few lines, no mmapbench) and a
// mmapbench cell of the same work (`compare --rounds 2`, two trees a mode: a compare's first round
// reads memory, its second times ops), per mode, k and way of
// dispatch (raw, or through tinypool). Each tree's state is read from its workers' page faults per
// timed op: slow above SLOW_FAULTS, the rule the answer reads trees by (src/stats/trees.js). The
// plain arm uses nothing of mmapbench's: raw, it is the plain app a compare runs beside its cells
// (src/run/plain-host.js, its members importing node:fs and the task alone), started on its own,
// raw or through tinypool. Per row: each arm's slow share with its 95% Wilson interval, and Fisher's exact test of
// the two shares; the row holds where the test finds no difference (p ≥ 0.05). Each compare
// also ran a plain tree a mode beside its cells (run/plain-tree.js), whose share its answer reads
// as an app's: those against the plain arm's, a second test. Nothing here is
// asserted: read the output. `--json` prints each row as one JSON object a line, for
// scripts/self-check.js.
//
//   node scripts/heap-judge.js [--trees 40] [--k 1,2] [--via raw,tinypool] [--ops 12000]
//     [--warmup 8000] [--batch 400] [--env NAME=VALUE ...] [--arm plain,mmapbench] [--json]
//     [--wrap 'setarch -R'] [--node-flag FLAG ...] [--trims]
// An arm `mmapbench+NAME=VALUE+...` is a cell with those variables in its environment (--env): a
// part of the cell switched off, to find which part draws the state (the first two arms are
// tested against each other).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
// the one rule a tree's state is read by, the answer's too (stats/trees.js argues it)
import { SLOW_FAULTS, wilson } from '../src/stats/trees.js';

export { wilson };

/** How a plain tree is started: node, or what --wrap and --node-flag make of it. */
let plainCommand = [process.execPath];
const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));

// ---- the plain tree: the run's own plain app (src/run/plain-host.js), or a plain tinypool app ----

const plainHost = fileURLToPath(new URL('../src/run/plain-host.js', import.meta.url));
const readTask = pathToFileURL(fileURLToPath(new URL('../src/tasks/readfilesync.js', import.meta.url))).href;

/**
 * A plain tree: the app the run puts beside its cells (plain-host.js), K members of the
 * readfilesync task, raw or through tinypool (tasks of `batch` reads), started by the plain
 * command (node, or what --wrap and --node-flag make of it); its ops, page faults and the
 * processes whose heaps the reads were in.
 * @param {{ mode: 'thread'|'child', k: number, job: { file: string, ops: number, warmup: number }, via?: string, batch?: number }} o
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ ops: number, faults: number, pids: number[] }>}
 */
function hostTree(o, env) {
  const spec = {
    taskUrl: readTask,
    file: o.job.file,
    fileSize: 64 * 1024,
    params: {},
    k: o.k,
    mode: o.mode === 'thread' ? 'workers' : 'procs',
    warmup: o.job.warmup,
    iterations: o.job.ops,
    ...(o.via === 'tinypool'
      ? {
          pool: {
            name: 'tinypool',
            module: fileURLToPath(import.meta.resolve('tinypool')),
            isolate: false,
            batch: o.batch,
          },
        }
      : {}),
  };
  const child = spawn(plainCommand[0], [...plainCommand.slice(1), plainHost, JSON.stringify(spec)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env,
  });
  return new Promise((resolve, reject) => {
    child.once('message', (/** @type {any} */ message) => {
      child.send({ type: 'exit' });
      if (message.type !== 'result') return reject(new Error(`the plain app failed: ${message.message}`));
      /** @type {Array<{ ops: number, minflt: number, pid: number }>} */
      const members = message.members;
      resolve({
        ops: members.reduce((sum, one) => sum + one.ops, 0),
        faults: members.reduce((sum, one) => sum + one.minflt, 0),
        pids: [...new Set(members.map((one) => one.pid))],
      });
    });
    child.once('error', reject);
  });
}

/**
 * Each process's heap trims while it runs, counted by bpftrace (root): a main arena's top given
 * back (`brk` to a lower break) and a thread heap's (`madvise(MADV_DONTNEED)`, which V8 also
 * calls on pages of its own: a thread tree's count holds both), with the bytes given back.
 */
const TRIMS = `
tracepoint:syscalls:sys_exit_brk { if (@last[pid] != 0 && args->ret < @last[pid]) { @brk[pid] = count(); @brkBytes[pid] = sum(@last[pid] - args->ret); } @last[pid] = args->ret; }
tracepoint:syscalls:sys_enter_madvise /args->behavior == 4/ { @dontneed[pid] = count(); @dontneedBytes[pid] = sum(args->len_in); }
END { clear(@last); }
`;

/** Starts the trims' counting; `stop()` resolves with them by pid. */
function countTrims() {
  const child = spawn('bpftrace', ['-e', TRIMS], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  const attached = new Promise((resolve) => child.stdout.once('data', resolve));
  return {
    attached,
    /** @returns {Promise<Map<number, Record<string, number>>>} */
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          /** @type {Map<number, Record<string, number>>} */
          const by = new Map();
          for (const [, name, pid, value] of text.matchAll(/^@(\w+)\[(\d+)\]: (\d+)$/gm)) {
            const one = by.get(Number(pid)) ?? {};
            one[name] = Number(value);
            by.set(Number(pid), one);
          }
          resolve(by);
        });
        child.kill('SIGINT');
      }),
  };
}

// ---- the statistics: a share's interval, and two shares' test ----

const logFactorials = (/** @type {number} */ n) => {
  const table = [0];
  for (let i = 1; i <= n; i++) table.push(table[i - 1] + Math.log(i));
  return table;
};

/**
 * Fisher's exact test, two-sided, of a 2 × 2 table: `a` of `n1` against `b` of `n2`. Every table
 * of the same margins as likely or less is summed.
 */
export function fisher(
  /** @type {number} */ a,
  /** @type {number} */ n1,
  /** @type {number} */ b,
  /** @type {number} */ n2,
) {
  const n = n1 + n2;
  const k = a + b;
  const lf = logFactorials(n);
  const probability = (/** @type {number} */ x) =>
    Math.exp(lf[k] + lf[n - k] + lf[n1] + lf[n2] - lf[n] - lf[x] - lf[k - x] - lf[n1 - x] - lf[n2 - k + x]);
  const observed = probability(a);
  let p = 0;
  for (let x = Math.max(0, k - n2); x <= Math.min(k, n1); x++) {
    const one = probability(x);
    if (one <= observed * (1 + 1e-9)) p += one;
  }
  return Math.min(1, p);
}

/** A tree's state by the rule. @param {{ ops: number, faults: number }} tree */
export const slowTree = (tree) => tree.faults / tree.ops > SLOW_FAULTS;

// ---- the run ----

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}

async function main() {
  // loaded here alone: this file is also the trees' own workers, whose heap the rows read
  const { pointView } = await import('../src/document/points-of.js');
  const { values } = parseArgs({
    options: {
      trees: { type: 'string', default: '40' },
      k: { type: 'string', default: '1,2' },
      via: { type: 'string', default: 'raw,tinypool' },
      ops: { type: 'string', default: '12000' },
      warmup: { type: 'string', default: '8000' },
      batch: { type: 'string', default: '400' },
      env: { type: 'string', multiple: true, default: [] },
      arm: { type: 'string', default: 'plain,mmapbench' },
      json: { type: 'boolean', default: false },
      // each plain tree's heap trims, counted (bpftrace, root), as a table of their own
      trims: { type: 'boolean', default: false },
      // the plain trees' command before the script: `setarch -R` (no ASLR), a node flag
      // (`--no-concurrent-array-buffer-sweeping`): a switch's share, read with --arm plain
      wrap: { type: 'string', default: '' },
      'node-flag': { type: 'string', multiple: true, default: [] },
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'heap-judge-'));
  const file = join(dir, 'data.bin');
  writeFileSync(file, Buffer.alloc(64 * 1024, 7));
  // the cells' environment, as the CLI gives it: its own, less what a child would pay at start
  const { NODE_EXTRA_CA_CERTS: _, ...env } = process.env;
  for (const pair of values.env) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
  const job = { file, ops: Number(values.ops), warmup: Number(values.warmup) };
  const batch = Number(values.batch);
  const arms = values.arm.split(',');
  const wrap = values.wrap.split(' ').filter(Boolean);
  plainCommand = [...wrap, process.execPath, ...values['node-flag']];
  const say = (/** @type {string} */ line) => !values.json && console.log(line);
  if (!values.json) {
    say(`slow: above ${SLOW_FAULTS} page fault per timed op; ${values.trees} trees an arm, taken in turn`);
    say(
      `| via | k | mode | ${arms.map((arm) => `${arm}: slow of trees (95% CI)`).join(' | ')} | Fisher p | holds | the run's plain trees, against plain: p, holds |`,
    );
    say(`|---|---|---|${arms.map(() => '---|').join('')}---|---|---|`);
  }
  if (values.trims) {
    await trimsTable(values, { env, job });
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  try {
    for (const via of values.via.split(','))
      for (const k of values.k.split(',').map(Number)) {
        /** @type {Record<string, Record<string, Array<{ ops: number, faults: number }>>>} */
        const trees = Object.fromEntries(arms.map((arm) => [arm, { thread: [], child: [] }]));
        // the plain trees each compare ran beside its cells (raw: one a mode, in its second
        // round): the share its answer reads as an app's without mmapbench
        /** @type {Record<string, Array<{ ops: number, faults: number }>>} */
        const beside = { thread: [], child: [] };
        // two trees a turn in each arm: a compare of two rounds, two plain trees
        for (let i = 0; i < Math.ceil(Number(values.trees) / 2); i++) {
          // the arms take turns, and which goes first alternates
          const order = i % 2 ? [...arms].reverse() : arms;
          for (const arm of order) {
            if (arm === 'plain')
              for (let tree = 0; tree < 2; tree++)
                for (const mode of /** @type {const} */ (['thread', 'child'])) {
                  trees[arm][mode].push(await hostTree({ mode, k, job, via, batch }, env));
                }
            else {
              // two rounds, as a compare has them: the first times no op and reads memory, the
              // second times ops (run/scheduler.js, timedRound); a tree each
              const args = ['compare', '-k', String(k), '--rounds', '2', '--iterations', values.ops];
              args.push('--warmup', values.warmup, '--file', file, '--main', 'off', '--json', '--no-save');
              if (via === 'tinypool') args.push('--pool', 'tinypool', '--batch', String(batch));
              for (const pair of [...values.env, ...arm.split('+').slice(1)]) args.push('--env', pair);
              const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 300000 });
              const document = pointView(JSON.parse(run.stdout));
              for (const round of document.rounds)
                for (const [mode, key] of /** @type {const} */ ([
                  ['thread', 'workers'],
                  ['child', 'procs'],
                ])) {
                  const cell = round[key];
                  const faults = cell.account?.minflt;
                  // a cell without its account (MMAPBENCH_ACCOUNT=off) has no state to read
                  if (typeof faults !== 'number') throw new Error(`arm ${arm}: a ${key} cell without its page faults`);
                  trees[arm][mode].push({ ops: cell.totalOps, faults });
                  const plain = round.plain?.[key];
                  if (plain && arm === 'mmapbench') beside[mode].push({ ops: plain.ops, faults: plain.minflt });
                }
            }
          }
        }
        for (const mode of /** @type {const} */ (['thread', 'child'])) {
          const shares = arms.map((arm) => {
            const slow = trees[arm][mode].filter(slowTree).length;
            const n = trees[arm][mode].length;
            return {
              arm,
              slow,
              trees: n,
              ci95: wilson(slow, n),
              faultsPerOp: trees[arm][mode].map((t) => t.faults / t.ops),
            };
          });
          const [a, b] = shares;
          const test = a && b && a.trees && b.trees ? fisher(a.slow, a.trees, b.slow, b.trees) : null;
          // the run's own plain trees against the judge's: whether the share the answer reads as
          // an app's is one
          const slowBeside = beside[mode].filter(slowTree).length;
          const answer = beside[mode].length
            ? { slow: slowBeside, trees: beside[mode].length, ci95: wilson(slowBeside, beside[mode].length) }
            : null;
          const plainArm = shares.find((one) => one.arm === 'plain');
          const answerP = answer && plainArm ? fisher(answer.slow, answer.trees, plainArm.slow, plainArm.trees) : null;
          const row = {
            via,
            k,
            mode,
            ...Object.fromEntries(shares.map((one) => [one.arm, one])),
            p: test,
            holds: test === null ? null : test >= 0.05,
            answer,
            answerP,
            answerHolds: answerP === null ? null : answerP >= 0.05,
          };
          if (values.json) console.log(JSON.stringify(row));
          const share = (/** @type {{ slow: number, trees: number, ci95: number[] }} */ one) =>
            `${one.slow} of ${one.trees} (${one.ci95.map((x) => `${Math.round(x * 100)}%`).join('-')})`;
          say(
            `| ${via} | ${k} | ${mode} | ${shares.map((one) => `${one.arm}: ${share(one)}`).join(' | ')} | ${test === null ? '-' : test.toFixed(3)} | ${row.holds === null ? '-' : row.holds ? 'yes' : 'NO'} | ${answer ? `${share(answer)}, p ${/** @type {number} */ (answerP).toFixed(3)} ${row.answerHolds ? 'yes' : 'NO'}` : '-'} |`,
          );
        }
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Plain trees, k=1, raw, with each one's heap trims counted: per mode, the slow trees' against the
 * fast ones' (their medians), and each tree a line.
 * @param {any} values
 * @param {{ env: NodeJS.ProcessEnv, job: { file: string, ops: number, warmup: number } }} run
 */
async function trimsTable(values, { env, job }) {
  const counting = countTrims();
  await counting.attached;
  /** @type {Record<string, Array<{ ops: number, faults: number, pids: number[] }>>} */
  const trees = { thread: [], child: [] };
  for (let i = 0; i < Number(values.trees); i++)
    for (const mode of /** @type {const} */ (['thread', 'child']))
      trees[mode].push(await hostTree({ mode, k: 1, job }, env));
  const by = await counting.stop();
  const median = (/** @type {number[]} */ xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
  };
  console.log(`${values.trees} plain trees a mode, k=1, raw; trims counted per tree (bpftrace)`);
  console.log('| mode | state | trees | faults an op | brk trims | MiB by brk | madvise DONTNEED | MiB by madvise |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const mode of /** @type {const} */ (['thread', 'child'])) {
    const rows = trees[mode].map((tree) => {
      const counts = tree.pids.map((pid) => by.get(pid) ?? {});
      const sum = (/** @type {string} */ key) => counts.reduce((total, one) => total + (one[key] ?? 0), 0);
      return {
        slow: slowTree(tree),
        faults: tree.faults / tree.ops,
        brk: sum('brk'),
        brkMiB: sum('brkBytes') / 2 ** 20,
        dontneed: sum('dontneed'),
        dontneedMiB: sum('dontneedBytes') / 2 ** 20,
      };
    });
    for (const slow of [false, true]) {
      const state = rows.filter((row) => row.slow === slow);
      if (!state.length) continue;
      const m = (/** @type {(row: typeof state[number]) => number} */ of, digits = 0) =>
        median(state.map(of)).toFixed(digits);
      console.log(
        `| ${mode} | ${slow ? 'slow' : 'fast'} | ${state.length} | ${m((r) => r.faults, 2)} | ${m((r) => r.brk)} | ${m((r) => r.brkMiB, 1)} | ${m((r) => r.dontneed)} | ${m((r) => r.dontneedMiB, 1)} |`,
      );
    }
    if (values.json) for (const row of rows) console.log(JSON.stringify({ mode, ...row }));
  }
}
