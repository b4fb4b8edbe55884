// Whether a kept run may go on, decided from its rounds: issue rows 2, 3, 4 and 9 (an edited
// file's settings merged rounds of one task, k, file or work with new rounds of another).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptDocument } from '../../src/saved/resume.js';
import { loadSaved } from '../../src/commands/index.js';
import { checkContinues, keptPoints } from '../../src/saved/continues.js';
import { MmapbenchError } from '../../src/errors.js';
import { fixture } from '../helpers.js';

const read = (/** @type {string} */ name) => JSON.parse(readFileSync(fixture(`saved/${name}`), 'utf8'));

/** The plan a kept compare's own settings make, as buildPlan would. */
const planOf = (/** @type {any} */ config, /** @type {any} */ document) => ({
  k: config.k,
  task: { name: config.task.name, builtin: config.task.builtin, url: config.task.module },
  file: config.file,
  protocol: config.protocol,
  aa: document.aa ?? null,
  quick: config.quick,
  params: config.params,
  iterations: undefined,
  timeout: config.timeout,
  end: { cycles: 1 },
});

const refused = (/** @type {() => unknown} */ run, /** @type {RegExp} */ message) =>
  assert.throws(
    run,
    (error) => error instanceof MmapbenchError && error.code === 'usage' && message.test(error.message),
  );

test('a kept compare goes on with the plan its own settings make', () => {
  for (const name of ['compare.json', 'compare-app.json', 'compare-aa.json', 'compare-tradeoff.json']) {
    const document = read(name);
    checkContinues(document, document, /** @type {any} */ (planOf(document.config, document)), {
      path: name,
      field: 'resume',
    });
  }
});

test('row 2: a plan of another task, file, protocol, A/A arm or --quick is refused, naming the field', () => {
  const document = read('compare.json');
  const plan = planOf(document.config, document);
  const where = { path: 'F', field: 'resume' };
  for (const [change, field] of /** @type {const} */ ([
    [
      { task: { name: 'json', builtin: true, url: null } },
      /resume\.task asks for task json, but its rounds ran readfilesync/,
    ],
    [{ task: { name: 'mine', builtin: false, url: 'file:///x/mine.js' } }, /resume\.task/],
    [{ file: { path: '/etc/shadow', size: 1, label: '' } }, /resume\.file asks for file \/etc\/shadow/],
    [{ protocol: 'published' }, /resume\.protocol asks for protocol published, but its rounds ran steady/],
    [{ aa: 'workers' }, /resume\.aa is workers, but round 1's second arm ran procs/],
    [{ quick: true }, /resume\.quick asks for quick true/],
    [{ params: { size: 3 } }, /resume\.params/],
  ]))
    refused(() => checkContinues(document, document, /** @type {any} */ ({ ...plan, ...change }), where), field);
});

test("row 3: k edited in both resume.k and config.k is refused by the rounds' own worker counts", () => {
  const document = read('compare.json');
  document.config.k = 1;
  refused(
    () =>
      checkContinues(document, document, /** @type {any} */ (planOf(document.config, document)), {
        path: 'F',
        field: 'resume',
      }),
    /resume\.k asks for 1 workers, but round 1 ran 2 in workers \(the rounds' own count is the truth\)/,
  );
});

test("row 9: work the rounds did not do, or that cannot end within a cell's timeout, is refused", () => {
  const where = { path: 'F', field: 'resume' };
  for (const iterations of [1e9, 1e300, 0.5, -1]) {
    const document = read('compare.json');
    document.config.iterations = iterations;
    refused(
      () => checkContinues(document, document, /** @type {any} */ (planOf(document.config, document)), where),
      /config\.iterations/,
    );
  }
  // a fixed --iterations the file asks for that its rounds did not run
  const fixed = read('compare.json');
  refused(
    () => checkContinues(fixed, fixed, /** @type {any} */ ({ ...planOf(fixed.config, fixed), iterations: 9 }), where),
    /resume\.iterations is 9, but its rounds ran 4092 ops a worker/,
  );
  // the sizing a lengthened window's warm-up is worked from
  const scheduled = read('compare-app.json');
  scheduled.sizing = { ...scheduled.sizing, iterations: 1e12, scheduled: { scale: 2 } };
  refused(
    () => checkContinues(scheduled, scheduled, /** @type {any} */ (planOf(scheduled.config, scheduled)), where),
    /sizing\.iterations 1000000000000 lengthened 2x/,
  );
  // a kept run of no rounds yet: its calibration says how long a window of its work takes
  const early = read('compare-app.json');
  early.rounds = [];
  early.config.iterations = 1e9;
  refused(
    () => checkContinues(early, early, /** @type {any} */ (planOf(early.config, early)), where),
    /would take \d+ s a window at the \d+ ns an op it calibrated, more than a cell's --timeout 300 s/,
  );
});

/** A kept sweep's points planned again, in the order of `ks`, ids given by place. */
function replanned(/** @type {any} */ document, /** @type {number[]} */ ks) {
  return ks.map((k, i) => {
    const point = document.points.find((/** @type {any} */ one) => one.k === k) ?? { ...document.points[0], k };
    return {
      id: `p${i + 1}`,
      at: { variant: point.variant },
      plan: {
        k,
        task: { name: point.task, builtin: true, url: null },
        file: point.file,
        params: point.params,
        node: point.node,
        protocol: 'steady',
        aa: null,
        quick: document.config.quick,
        iterations: undefined,
        timeout: point.config.timeout,
        end: { cycles: point.cycles ?? 1 },
      },
    };
  });
}

test('row 4: a sweep whose k axis was reordered attaches each kept point to the plan at its own k', () => {
  const document = read('sweep.json');
  const points = keptPoints(/** @type {any} */ (replanned(document, [2, 1])), document, 'F');
  assert.deepEqual(
    points.map((point) => [point.id, point.plan.k]),
    document.points.map((/** @type {any} */ point) => [point.id, point.k]),
  );
});

test('row 4: axes that drop a measured point or ask for others are refused, and nothing measured is lost', () => {
  const document = read('sweep.json');
  refused(
    () => keptPoints(/** @type {any} */ (replanned(document, [1])), document, 'F'),
    /resume\.axes no longer asks for point p2 \(k 2, readfilesync, \S+\), which kept \d+ rounds/,
  );
  refused(
    () => keptPoints(/** @type {any} */ (replanned(document, [3, 4])), document, 'F'),
    /no longer asks for point p1/,
  );
  refused(
    () => keptPoints(/** @type {any} */ (replanned(document, [1, 2, 3])), document, 'F'),
    /asks for a point the kept run never planned \(k 3/,
  );
});

test("row 5: an interrupted advise's own file reads back, and keeps what it was asked, for --resume", () => {
  const document = {
    ...read('advise.json'),
    status: 'interrupted',
    error: { kind: 'interrupted', message: 'interrupted by SIGINT', worker: null },
  };
  const request = {
    shared: { command: 'compare', k: 1 },
    advise: { for: 'throughput', only: null, race: true, kAuto: false, node: [] },
  };
  const kept = keptDocument(document, request, false, {});
  assert.deepEqual(kept.resume, request);
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-kept-')), 'advise.json');
  writeFileSync(path, JSON.stringify(kept));
  const loaded = loadSaved(path).document;
  assert.equal(loaded.status, 'interrupted');
  assert.deepEqual(loaded.resume, request);
  // a compare's, which goes on, keeps what it was asked
  assert.deepEqual(keptDocument({ ...read('compare.json'), status: 'interrupted' }, { k: 2 }, false, {}).resume, {
    k: 2,
  });
});

/** The plan a kept pool run's own settings make: its pool, its default batch. */
const poolPlanOf = (/** @type {any} */ document) => ({
  ...planOf(document.config, document),
  pool: { name: document.pool.name, batch: null, isolate: document.pool.isolate },
});

test("round five, row 4: a kept pool run goes on: its cells' ops are whole pool tasks, however the pool gave them out", () => {
  const document = read('compare-pool-interrupted.json');
  assert.equal(document.status, 'interrupted');
  // the pool gave its workers unequal shares of the window
  assert.ok(
    document.rounds.some((/** @type {any} */ round) => round.workers?.workers[0].ops !== document.config.iterations),
  );
  checkContinues(document, document, /** @type {any} */ (poolPlanOf(document)), { path: 'F', field: 'resume' });
  // but not ops that are no whole count of its tasks
  const edited = structuredClone(document);
  edited.rounds[1].workers.workers[0].ops += 1;
  refused(
    () => checkContinues(edited, edited, /** @type {any} */ (poolPlanOf(edited)), { path: 'F', field: 'resume' }),
    /in whole pool tasks of 29 for 2, but round 2's workers cell ran 2959/,
  );
});

test('round five, row 5: a raw run resumed through a pool, a pool run without one, or through another pool, is refused', () => {
  const raw = read('compare.json');
  const pooled = read('compare-pool-interrupted.json');
  const where = { path: 'F', field: 'resume' };
  for (const name of ['tinypool', 'workerpool'])
    refused(
      () =>
        checkContinues(
          raw,
          raw,
          /** @type {any} */ ({ ...planOf(raw.config, raw), pool: { name, batch: null, isolate: false } }),
          where,
        ),
      new RegExp(`resume\\.pool asks for pool ${name}, but round 1's workers cell ran without a pool`),
    );
  refused(
    () => checkContinues(pooled, pooled, /** @type {any} */ (planOf(pooled.config, pooled)), where),
    /resume\.pool asks for no pool, but round 1's workers cell ran through one/,
  );
  for (const [pool, said] of /** @type {const} */ ([
    [{ name: 'workerpool', isolate: false }, /resume\.pool asks for pool workerpool, but its rounds ran tinypool/],
    [{ name: 'tinypool', isolate: true }, /resume\.isolate asks for isolate true, but its rounds ran false/],
  ]))
    refused(
      () =>
        checkContinues(
          pooled,
          pooled,
          /** @type {any} */ ({ ...poolPlanOf(pooled), pool: { ...pool, batch: null } }),
          where,
        ),
      said,
    );
});

test("round five, row 22: a kept file's settings a run refuses are named as the file's, not as options the user typed", async () => {
  const { measureOrResume } = await import('../../src/commands/compare/run.js');
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-kept-settings-'));
  const path = join(dir, 'kept.json');
  const document = read('compare-pool-interrupted.json');
  document.resume.fault = 'throw';
  writeFileSync(path, JSON.stringify(document));
  await assert.rejects(
    () => measureOrResume({ resume: path }, 'compare', /** @type {any} */ ({ json: false, save: false })),
    (error) =>
      error instanceof MmapbenchError &&
      error.kind === 'usage' &&
      /^--resume \S+kept\.json: its kept settings \(resume\) are refused: --pool tinypool takes no --fault yet/.test(
        error.message,
      ),
  );
});
