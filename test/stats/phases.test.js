import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHASES, cellPhases, phasesSummary } from '../../src/stats/phases.js';
import { phaseLines } from '../../src/cli/finish.js';

const ms = (/** @type {number} */ n) => String(BigInt(Math.round(n * 1e6)));

/** A workers cell: one host process, two threads; times in ms after the spawn at 1000 ms. */
const workersCell = () => ({
  spawned: BigInt(1000e6),
  hosts: [{ started: ms(1010), booted: ms(1030), loaded: ms(1040) }],
  samples: [
    {
      start: ms(1200),
      end: ms(1300),
      timeline: { loaded: ms(1070), setUp: ms(1072), warm: ms(1180) },
    },
    {
      start: ms(1201),
      end: ms(1310),
      timeline: { loaded: ms(1075), setUp: ms(1076), warm: ms(1190) },
    },
  ],
  received: [BigInt(1315e6)],
  exited: BigInt(1325e6),
});

test("a cell's phases end when its last member got through each, and add up to its time", () => {
  const phases = /** @type {Record<string, number>} */ (/** @type {unknown} */ (cellPhases(workersCell())));
  const expected = {
    spawn: 10,
    node: 20,
    load: 10,
    threads: 35,
    setup: 1,
    warmup: 114,
    barrier: 10,
    window: 110,
    report: 5,
    exit: 10,
  };
  for (const name of PHASES) assert.equal(phases[`${name}Ns`], expected[name] * 1e6, name);
  assert.equal(phases.totalNs, 325e6);
  assert.equal(
    PHASES.reduce((sum, name) => sum + phases[`${name}Ns`], 0),
    phases.totalNs,
  );
  assert.equal(phases.spareNs, undefined, 'no release moment in workers mode');
});

test('in procs mode the parent forks K children: their start is the threads phase, start-up runs from its request, and the release says how much lead was spare', () => {
  const cell = {
    spawned: BigInt(0),
    // the parent, which asked for its first child 1 ms after it loaded
    hosts: [{ started: ms(10), booted: ms(30), loaded: ms(40), requested: ms(41) }],
    released: [0, 1].map((i) => ({
      started: ms(50 + i),
      booted: ms(70 + i),
      loaded: ms(85 + i),
      go: ms(150 + i),
      at: ms(157),
    })),
    samples: [0, 1].map((i) => ({
      start: ms(157),
      end: ms(257 + i),
      timeline: { loaded: ms(90 + i), setUp: ms(95 + i), warm: ms(140 + i) },
    })),
    received: [BigInt(261e6)],
    exited: BigInt(270e6),
  };
  const phases = /** @type {import('../../src/stats/phases.js').Phases} */ (cellPhases(cell));
  assert.equal(phases.threadsNs, 51e6, "from the parent's loading to the last child's harness");
  assert.equal(phases.setupNs, 5e6);
  assert.equal(phases.startUpNs, 55e6, 'from the request to the last child set up');
  assert.equal(phases.barrierNs, 16e6);
  assert.equal(phases.spareNs, 6e6, 'the last message came 6 ms before the moment');
  assert.equal(phases.totalNs, 270e6);
});

test('a host that did not report its timeline gives no phases rather than made-up ones', () => {
  const cell = workersCell();
  const { timeline, ...rest } = cell.samples[1];
  assert.equal(cellPhases({ ...cell, samples: [cell.samples[0], /** @type {any} */ (rest)] }), null);
  assert.equal(cellPhases({ ...cell, hosts: [] }), null);
});

test("a run's phases: means per mode, and a round's time with its traced cells and the CLI's work between", () => {
  const phasesOf = (windowMs, betweenMs) => {
    const phases = /** @type {any} */ (cellPhases(workersCell()));
    phases.windowNs = windowMs * 1e6;
    phases.totalNs = 300e6;
    phases.betweenNs = betweenMs * 1e6;
    return phases;
  };
  const round = (/** @type {number} */ index, /** @type {number} */ windowMs, traced = false) => ({
    index,
    cells: {
      workers: /** @type {any} */ ({ phases: phasesOf(windowMs, 1) }),
      procs: /** @type {any} */ ({ phases: phasesOf(windowMs, 1) }),
    },
    ...(traced ? { traced: { workers: /** @type {any} */ ({ phases: phasesOf(windowMs, 1) }) } } : {}),
  });
  const summary = /** @type {import('../../src/stats/phases.js').PhasesSummary} */ (
    phasesSummary([round(1, 100), round(2, 120), round(3, 140, true)], ['workers', 'procs'])
  );
  assert.equal(summary.rounds, 3);
  assert.equal(summary.modes.workers.windowNs, 120e6);
  assert.equal(summary.modes.procs.betweenNs, 1e6);
  // rounds of two cells of 300 ms and 1 ms before each; the third also traced one
  assert.equal(summary.roundNs, (602e6 + 602e6 + 903e6) / 3);
  assert.equal(summary.windowsNs, 240e6, 'the untraced windows only');
  assert.equal(summary.overheadNs, summary.roundNs - summary.windowsNs);
  assert.equal(phasesSummary([{ index: 1, cells: { workers: /** @type {any} */ ({}) } }], ['workers']), null);

  // a row per phase, a column per mode: 80 columns whatever the names
  const lines = phaseLines(summary, ['workers', 'procs']);
  assert.equal(lines.length, 2 + PHASES.length + 3);
  assert.match(lines[0], /^mmapbench: where a round's time went \(ms per cell, mean of 3 rounds\):$/);
  assert.equal(lines[1], 'mmapbench:   phase    workers    procs');
  const rows = lines.slice(2, -1).map((line) =>
    line
      .replace(/^mmapbench: {3}/, '')
      .trim()
      .split(/ +/),
  );
  assert.deepEqual(
    rows.map((row) => row[0]),
    [...PHASES, 'between', 'cell'],
  );
  assert.deepEqual(rows[0], ['spawn', '10', '10']);
  assert.deepEqual(rows[4], ['setup', '1.0', '1.0'], 'below 10 ms, a decimal');
  assert.deepEqual(rows.at(-1), ['cell', '300', '300']);
  assert.ok(
    lines.slice(1, -1).every((line) => line.length === lines[1].length),
    'columns line up',
  );
  assert.ok(lines.every((line) => line.length <= 80));
  assert.equal(lines.at(-1), 'mmapbench:   a round took 0.70 s: timed windows 0.24 s (34%), the rest 0.46 s');
});
