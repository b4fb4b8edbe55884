// Each experiment's claims decided from constructed cells: the verdict follows the data, and an
// experiment with nothing measured says so instead of deciding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExperimentData } from '../../../src/commands/reproduce/data.js';
import { EXPERIMENTS, variantModes } from '../../../src/commands/reproduce/experiments.js';
import { TABLES } from '../../../src/reference/published.js';
import { experimentSection } from '../../../src/commands/reproduce/sections.js';

// node-fix's Nodes: the run's, without the option, and one with it
const nodes = [
  { label: "the run's Node", path: '/usr/bin/node', version: 'v20.20.2', hasOption: false, why: 'no buffer option' },
  { label: 'Node 24', path: '/cache/24/bin/node', version: 'v24.21.0', hasOption: true, why: null },
  { label: 'Node 26', path: null, version: null, hasOption: false, why: 'offline' },
];
const ctx = { jemalloc: { path: '/lib/libjemalloc.so.2' }, thp: { why: null }, nodes };
const byName = Object.fromEntries(EXPERIMENTS.map((e) => [e.name, e]));
const jitter = [0.98, 1.02, 1.0, 0.99, 1.01, 1.0];

/**
 * Cells for `rounds` rounds where throughput(variant, mode) is `rate(variant, mode)` with a little
 * noise; `rate` may also return `{ throughput, metrics }` for a task's own figures.
 */
function cells(experiment, rate, rounds = 6) {
  const out = [];
  for (let round = 1; round <= rounds; round++) {
    for (const variant of experiment.variants(ctx)) {
      for (const mode of variantModes(variant)) {
        const noise = jitter[(round + mode.length) % jitter.length];
        const given = rate(variant, mode);
        const { throughput, metrics = {}, trace } = typeof given === 'number' ? { throughput: given } : given;
        out.push({
          variant: variant.id,
          round,
          mode,
          cell: {
            throughput: throughput * noise,
            metrics: Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, value * noise])),
            // a traced cell's write waits, with the same noise
            ...(trace && {
              trace: { write: Object.fromEntries(Object.entries(trace).map(([name, value]) => [name, value * noise])) },
            }),
          },
        });
      }
    }
  }
  return out;
}

const verdicts = (name, rate) =>
  byName[name].verdicts(new ExperimentData(cells(byName[name], rate))).map((v) => v.verdict);

test("the investigation's eleven experiments and one per sibling source, each with its published table, claim and variants", () => {
  assert.deepEqual(
    EXPERIMENTS.map((e) => e.name),
    [
      'gap',
      'arena',
      'mmap-threshold',
      'jemalloc',
      'mmap-max',
      'thp',
      'pool-size',
      'pool-grid',
      'reuse',
      'node-fix',
      'async',
      'locks',
      'clog',
      'promises',
      'throttle',
    ],
  );
  for (const experiment of EXPERIMENTS) {
    // the report states each published claim as published, before its verdicts
    const section = experimentSection(experiment, experiment.variants(ctx), [], { k: 2, cores: 2 });
    assert.equal(section.model.lines[0], `claim: ${TABLES[experiment.name].claim}`, experiment.name);
    assert.match(experiment.source, experiment.k ? /nodejs\/node|Momtchev/ : /Hypothesis|step/);
    const ids = experiment.variants(ctx).map((v) => v.id);
    assert.equal(new Set(ids).size, ids.length, `${experiment.name}: variant ids are unique`);
  }
  assert.equal(byName['pool-grid'].variants(ctx).length, 7 * 7);
  assert.deepEqual(
    byName.thp.variants(ctx).map((v) => v.thp),
    ['always', 'madvise', 'never'],
  );
  assert.equal(byName.jemalloc.variants(ctx)[1].env.LD_PRELOAD, '/lib/libjemalloc.so.2');
});

test('with nothing measured every claim is inconclusive and says so', () => {
  for (const experiment of EXPERIMENTS) {
    for (const v of experiment.verdicts(new ExperimentData([]))) {
      assert.equal(v.verdict, 'inconclusive', `${experiment.name}: ${v.claim}`);
      assert.match(v.text, /no round measured both sides yet/);
    }
  }
});

test('gap: procs 1.7x faster holds both claims; procs 1.2x faster holds only the first; workers faster holds neither', () => {
  assert.deepEqual(
    verdicts('gap', (_, mode) => (mode === 'workers' ? 60 : 100)),
    ['holds', 'holds'],
  );
  assert.deepEqual(
    verdicts('gap', (_, mode) => (mode === 'workers' ? 83 : 100)),
    ['holds', 'does not hold'],
  );
  assert.deepEqual(
    verdicts('gap', (_, mode) => (mode === 'workers' ? 120 : 100)),
    ['does not hold', 'does not hold'],
  );
});

test('mmap-threshold: the ratio falling with the threshold holds; an unchanged ratio does not', () => {
  const collapse = (variant, mode) => (mode === 'procs' ? 100 : variant.id === 'default' ? 55 : 33);
  assert.deepEqual(verdicts('mmap-threshold', collapse), ['holds', 'holds']);
  assert.equal(
    verdicts('mmap-threshold', (_, mode) => (mode === 'procs' ? 100 : 60))[0],
    'inconclusive',
    'an unchanged ratio sits on the threshold',
  );
  assert.equal(
    verdicts('mmap-threshold', (variant, mode) => (mode === 'procs' ? 100 : variant.id === 'default' ? 50 : 80))[0],
    'does not hold',
  );
});

test('thp: modes within 10% of madvise hold; a 30% drop in one mode does not hold', () => {
  assert.deepEqual(
    verdicts('thp', () => 100),
    ['holds'],
  );
  assert.deepEqual(
    verdicts('thp', (variant) => (variant.id === 'never' ? 70 : 100)),
    ['does not hold'],
  );
});

test("pool-grid: a 256k pool winning at multi-KiB sizes and flat at 1 MiB holds the published claims; 64k over 8k is upstream's", () => {
  const rate = (variant) =>
    variant.grid.column === '256k' &&
    variant.grid.row !== '1m' &&
    variant.grid.row !== '512' &&
    variant.grid.row !== '2k'
      ? 130
      : 100;
  // 64k no better than 8k anywhere: upstream's claim is not shown either way
  assert.deepEqual(verdicts('pool-grid', rate), ['holds', 'holds', 'holds', 'inconclusive']);
  const regress = (variant) => (variant.grid.column === '256k' ? 70 : 100);
  assert.deepEqual(verdicts('pool-grid', regress), ['does not hold', 'does not hold', 'does not hold', 'inconclusive']);
  // the default Node 24.18 and 26.3 chose: ahead at 8k and 16k files, even elsewhere
  const upstream = (variant) => (variant.grid.column === '64k' && ['8k', '16k'].includes(variant.grid.row) ? 125 : 100);
  assert.equal(verdicts('pool-grid', upstream)[3], 'holds');
  const regresses = (variant) => (variant.grid.column === '64k' ? (variant.grid.row === '1m' ? 70 : 125) : 100);
  assert.equal(verdicts('pool-grid', regresses)[3], 'does not hold');
});

test('pool-size and pool-grid name the default pool of the Node the cells run on, and what upstream changed', () => {
  const on24 = { ...ctx, node: { version: 'v24.21.0', poolSize: 65536 } };
  const on22 = { ...ctx, node: { version: 'v22.23.3', poolSize: 8192 } };
  const grid = byName['pool-grid'];
  assert.match(
    grid.premise(on24),
    /on Node v24\.21\.0 Buffer\.poolSize is 64 KiB by default: upstream raised it from 8 KiB in 24\.18\.0 and 26\.3\.0 \(nodejs\/node#63597\)/,
  );
  assert.match(grid.premise(on22), /on Node v22\.23\.3 Buffer\.poolSize is 8 KiB by default/);
  assert.equal(grid.premise(ctx), null, 'a saved run that did not record its pool says nothing');
  const labels = (/** @type {any} */ machine) =>
    grid
      .variants(machine)
      .filter((v) => v.grid.row === '64k')
      .map((v) => v.label);
  assert.ok(labels(on24).includes("64k file, pool 64k (this Node's default)"));
  assert.ok(labels(on22).includes("64k file, pool 8k (this Node's default)"));
  const pool = byName['pool-size'].variants(on24).map((v) => v.label);
  assert.deepEqual(pool.slice(0, 2), ['Buffer.poolSize 8k (the old default)', 'Buffer.poolSize 256k']);
});

test('a round missing one side is left out of that ratio, not counted as zero', () => {
  const experiment = byName.gap;
  const some = cells(experiment, (_, mode) => (mode === 'workers' ? 60 : 100)).filter(
    (c) => !(c.round === 3 && c.mode === 'procs'),
  );
  const data = new ExperimentData(some);
  assert.equal(data.ratio('default').n, 5);
  assert.equal(data.median('default', 'workers') > 0, true);
});

test('clog: the published pattern holds all three claims; faster partitioned reads with 2.5x the zips hold only the first', () => {
  const published = (variant) => {
    const row = variant.published;
    return row
      ? { throughput: row.reads, metrics: { zipsPerSec: row.zips } }
      : { throughput: 100, metrics: { zipsPerSec: 100 } };
  };
  assert.deepEqual(verdicts('clog', published), ['holds', 'holds', 'holds']);
  // what a task that read only the first chunk of each file would show: partitioned reads faster
  const noClog = (variant) => ({
    throughput: variant.params.partition && variant.file === '16m' ? 300 : 100,
    metrics: { zipsPerSec: variant.params.partition ? 250 : 100 },
  });
  assert.deepEqual(verdicts('clog', noClog), ['holds', 'does not hold', 'does not hold']);
  for (const variant of byName.clog.variants(ctx)) {
    assert.equal(variant.k, 1);
    assert.deepEqual(variantModes(variant), ['procs']);
  }
  assert.deepEqual(
    byName.clog
      .variants(ctx)
      .filter((v) => v.params.partition)
      .map((v) => v.params.partition),
    ['8k', '8k', '8k', '8k', '512k'],
    "partitioned at the PR's 8 KiB, and once at today's 512 KiB",
  );
});

test('promises: promises 20% behind callbacks at 64 in flight and even at 1 holds all three; equal rates hold none', () => {
  const rate = (variant) => {
    const behind = variant.params.concurrency === 64 ? 0.8 : 1;
    return {
      throughput: 100,
      metrics: { promisesPerSec: 100 * behind, callbacksPerSec: 100, promisesToCallbacks: behind },
    };
  };
  assert.deepEqual(verdicts('promises', rate), ['holds', 'holds', 'holds']);
  const equal = () => ({
    throughput: 100,
    metrics: { promisesPerSec: 100, callbacksPerSec: 100, promisesToCallbacks: 1 },
  });
  assert.deepEqual(verdicts('promises', equal), ['inconclusive', 'does not hold', 'inconclusive']);
});

test('throttle: a fan-out holding every descriptor and stalling the loop holds all four; a harmless one holds the first only', () => {
  const jam = () => ({
    throughput: 100,
    metrics: {
      allFanOut: 10_000,
      allPeakFds: 10_020,
      limitPeakFds: 36,
      allLoopDelayMaxMs: 300,
      limitLoopDelayMaxMs: 5,
      allWallMs: 900,
      limitWallMs: 600,
    },
  });
  assert.deepEqual(verdicts('throttle', jam), ['holds', 'holds', 'holds', 'holds']);
  const harmless = () => ({
    throughput: 100,
    metrics: {
      allFanOut: 10_000,
      allPeakFds: 10_020,
      limitPeakFds: 5_000,
      allLoopDelayMaxMs: 5,
      limitLoopDelayMaxMs: 50,
      allWallMs: 500,
      limitWallMs: 900,
    },
  });
  assert.deepEqual(verdicts('throttle', harmless), ['holds', 'does not hold', 'does not hold', 'does not hold']);
});

test('locks: workers waiting 17x longer per write and 40x in total hold every claim; waiting half as long, none', () => {
  const contended = (variant, mode) => ({
    throughput: 100,
    trace:
      mode === 'workers'
        ? { count: 10_000, totalNs: 300e6, avgNs: 30_000 }
        : { count: 4_000, totalNs: 7.5e6, avgNs: 1_800 },
  });
  assert.deepEqual(verdicts('locks', contended), ['holds', 'holds', 'holds', 'holds']);
  const calm = (variant, mode) => ({
    throughput: 100,
    trace: { count: 1_000, totalNs: mode === 'workers' ? 0.5e6 : 1e6, avgNs: mode === 'workers' ? 500 : 1_000 },
  });
  assert.deepEqual(verdicts('locks', calm), ['does not hold', 'does not hold', 'does not hold', 'does not hold']);
  assert.ok(
    byName.locks.variants(ctx).every((variant) => variant.trace),
    'every cell is traced',
  );
  assert.equal(byName.locks.unavailable({ trace: { why: 'not root' } }), 'not root');
});

test('node-fix: each Node it found, with the option only where that Node has it; verdicts for the Nodes with it', () => {
  const fix = byName['node-fix'];
  assert.deepEqual(
    fix.variants(ctx).map((v) => `${v.id} ${v.task} ${v.file} ${v.node}`),
    [
      'v20.20.2:plain:64k readfilesync med /usr/bin/node',
      'v20.20.2:reuse:64k reuse-buffer med /usr/bin/node',
      'v20.20.2:plain:1m readfilesync large /usr/bin/node',
      'v20.20.2:reuse:1m reuse-buffer large /usr/bin/node',
      'v24.21.0:plain:64k readfilesync med /cache/24/bin/node',
      'v24.21.0:into:64k readfilesync-into med /cache/24/bin/node',
      'v24.21.0:reuse:64k reuse-buffer med /cache/24/bin/node',
      'v24.21.0:plain:1m readfilesync large /cache/24/bin/node',
      'v24.21.0:into:1m readfilesync-into large /cache/24/bin/node',
      'v24.21.0:reuse:1m reuse-buffer large /cache/24/bin/node',
    ],
  );
  assert.equal(fix.unavailable(ctx), null);
  assert.match(
    fix.unavailable({ ...ctx, nodes: [nodes[0], nodes[2]] }),
    /no Node here has readFileSync's buffer option \(the run's Node: no buffer option; Node 26: offline\)/,
  );
  // the option as fast as reuse-buffer and workers level with procs: both claims hold on Node 24
  const rate = (variant, mode) => (variant.id.includes(':plain:') ? (mode === 'workers' ? 50 : 100) : 100);
  assert.deepEqual(verdicts('node-fix', rate), ['holds', 'holds']);
  // the option no better than plain readFileSync in workers: neither holds
  const none = (variant, mode) => (variant.id.includes(':reuse:') ? 100 : mode === 'workers' ? 50 : 100);
  assert.deepEqual(verdicts('node-fix', none), ['does not hold', 'does not hold']);
  const table = fix.table(fix.variants(ctx), new ExperimentData(cells(fix, rate)));
  assert.deepEqual(table.rows[0].slice(0, 3), ['Node v20.20.2, 64 KiB', table.rows[0][1], 'not on this Node']);
  assert.equal(table.rows.length, 4);
});

test("a claim read at the rule's look: the sequence, valid at every round, or the budget's last look, each named with its confidence", async () => {
  const { lookOfRun } = await import('../../../src/commands/reproduce/bounds.js');
  const rate = (/** @type {any} */ _, /** @type {string} */ mode) => (mode === 'workers' ? 50 : 100);
  const of = (/** @type {import('../../../src/stats/sequential.js').Look} */ look, rounds = 6) =>
    new ExperimentData(cells(byName.gap, rate, rounds), { look }).ratio(
      /** @type {string} */ (byName.gap.variants(ctx)[0].id),
    );
  const fixed = /** @type {any} */ (of('fixed'));
  const sequence = /** @type {any} */ (of('sequence'));
  assert.equal(fixed.confidence, undefined, 'a fixed-n 95% interval, as files saved before read');
  assert.equal(sequence.confidence, 0.995);
  assert.ok(sequence.ci95[0] < fixed.ci95[0] && sequence.ci95[1] > fixed.ci95[1], 'the sequence is the wider');
  assert.equal(/** @type {any} */ (of('sequence', 4)).look, 'fixed', 'before its first look, the fixed one, said so');
  assert.equal(/** @type {any} */ (of('final')).confidence, 0.955);
  const section = experimentSection(byName.gap, byName.gap.variants(ctx), cells(byName.gap, rate), {
    k: 2,
    cores: 2,
    look: 'sequence',
  });
  assert.match(section.verdicts.map((v) => v.text).join('\n'), /99\.5% CI/);
  // which look: rounds fixed or a width asked for read a fixed-n interval; else the sequence, and
  // the last look at the most rounds
  assert.equal(lookOfRun({ quick: false, rounds: null, precision: null }, 7), 'sequence');
  assert.equal(lookOfRun({ quick: false, rounds: null, precision: null }, 12), 'final');
  assert.equal(lookOfRun({ quick: false, rounds: null, precision: 0.05 }, 7), 'fixed');
  assert.equal(lookOfRun({ quick: false, rounds: 4, precision: null }, 4), 'fixed');
  assert.equal(lookOfRun({ quick: true, rounds: null, precision: null }, 2), 'fixed');
});

test('the run stops once every claim is decided through the sequence; with --precision, once every interval is that narrow', async () => {
  const { reproduceStop } = await import('../../../src/commands/reproduce/runner.js');
  const experiment = byName.gap;
  const variants = experiment.variants(ctx);
  const stopAfter = (
    /** @type {any} */ options,
    /** @type {number} */ rounds,
    /** @type {(v: any, m: string) => number} */ rate,
  ) => {
    const points = [{ session: { stop: /** @type {string | null} */ (null) } }];
    reproduceStop(experiment, /** @type {any} */ (cells(experiment, rate, rounds)), variants, {
      options: { quick: false, rounds: null, maxRounds: 12, protocol: 'steady', ...options },
      progress: {},
    })(/** @type {any} */ ({ points, index: rounds }));
    return points[0].session.stop;
  };
  const twice = (/** @type {any} */ _, /** @type {string} */ mode) => (mode === 'workers' ? 50 : 100);
  const same = () => 100;
  assert.equal(stopAfter({ precision: null }, 4, twice), null, 'before the first look');
  assert.equal(stopAfter({ precision: null }, 5, twice), 'decided');
  assert.equal(
    stopAfter({ precision: null }, 6, same),
    null,
    'procs not faster, but not known to be slower: undecided',
  );
  assert.equal(stopAfter({ precision: null }, 12, same), 'rounds');
  assert.equal(stopAfter({ precision: 0.001 }, 6, twice), null, 'decided, but not that narrow');
  assert.equal(stopAfter({ precision: 0.5 }, 6, same), 'precision');
});
