// Saved results: written whole and never over anything; read back only when they are what
// mmapbench wrote; and the diff of two of them, on documents whose answer is known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resultsFolder, saveResults } from '../../src/saved/save.js';
import { loadSaved } from '../../src/commands/index.js';
import { diffResults } from '../../src/commands/diff/files.js';
import { diffModel } from '../../src/commands/diff/model.js';
import { renderTerminal } from '../../src/view/table.js';
import { changeBetween } from '../../src/stats/ratio.js';
import { fixture } from '../helpers.js';
import { SCHEMA } from '../../src/version.js';
import { victim } from '../helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-saved-'));

/** A compare document as mmapbench writes it, with these per-round throughputs. */
function compareDocument({ workers, procs, node = 'v20.20.2', k = 2, file = 65536, env = {}, kernel = '6.18.44' }) {
  return {
    mmapbench: '0.1.0',
    schema: SCHEMA,
    command: 'compare',
    status: 'complete',
    config: {
      task: { name: 'readfilesync' },
      params: {},
      file: { path: '/f', size: file, label: `${file} B` },
      k,
      env,
      protocol: 'steady',
      quick: false,
    },
    environment: {
      node: { version: node, path: '/usr/bin/node' },
      kernel,
      glibc: '2.36',
      cpu: { model: 'cpu', logicalCores: 2, physicalCores: 2 },
      thp: 'madvise',
      uvThreadpoolSize: 4,
      allocatorEnv: {},
      date: '2026-11-22T00:00:00.000Z',
    },
    order: workers.map((_, i) => ({ index: i + 1, points: ['p1'] })),
    points: [
      {
        id: 'p1',
        rounds: workers.map((w, i) => ({
          index: i + 1,
          order: ['workers', 'procs'],
          workers: { throughput: w },
          procs: { throughput: procs[i] },
        })),
      },
    ],
  };
}

function saved(document) {
  const dir = folder();
  const path = join(dir, 'r.json');
  writeFileSync(path, JSON.stringify(document));
  return loadSaved(path);
}

test('changeBetween: the ratio of geometric means with a Welch t interval on the logs (scipy agrees)', () => {
  // scipy.stats.ttest_ind(log(b), log(a), equal_var=False).confidence_interval(), exponentiated
  const { change, ci95, df } = changeBetween([0.8, 0.85, 0.78, 0.83, 0.81], [0.95, 1.02, 0.99, 1.04]);
  assert.ok(Math.abs(change - 1.2283291330576762) < 1e-12);
  assert.ok(Math.abs(ci95[0] - 1.156199746631185) < 1e-9);
  assert.ok(Math.abs(ci95[1] - 1.3049583028489544) < 1e-9);
  assert.ok(Math.abs(df - 5.931599265215917) < 1e-9);
  assert.equal(changeBetween([1], [2, 2]).ci95, null, 'no interval from one round');
});

test('a saved document is complete under its final name, never written over another file', () => {
  const dir = folder();
  const now = new Date('2026-11-22T08:46:17.123Z');
  const first = saveResults({ command: 'compare', n: 1 }, dir, { now });
  const second = saveResults({ command: 'compare', n: 2 }, dir, { now });
  assert.equal(first, join(dir, 'compare-20261122T084617.123Z.json'));
  assert.equal(second, join(dir, 'compare-20261122T084617.123Z-2.json'));
  assert.equal(JSON.parse(readFileSync(first, 'utf8')).n, 1);
  assert.equal(JSON.parse(readFileSync(second, 'utf8')).n, 2);
  assert.deepEqual(readdirSync(dir).sort(), [
    'compare-20261122T084617.123Z-2.json',
    'compare-20261122T084617.123Z.json',
  ]);
});

test('a link planted under the name a save would take is left alone, and its target untouched', () => {
  const dir = folder();
  const { path: target, content } = victim();
  const now = new Date('2026-11-22T08:46:17.123Z');
  symlinkSync(target, join(dir, 'trace-20261122T084617.123Z.json'));
  const path = saveResults({ command: 'compare' }, dir, { now, name: 'trace' });
  assert.equal(path, join(dir, 'trace-20261122T084617.123Z-2.json'));
  assert.equal(readFileSync(target, 'utf8'), content);
});

test('--out that is a file, or a link, is refused before a run', () => {
  const dir = folder();
  const file = join(dir, 'file');
  writeFileSync(file, 'x');
  assert.throws(() => resultsFolder(file), { kind: 'usage', message: /--out .*file.*pass --out a folder/ });
  symlinkSync(dir, join(dir, 'link'));
  assert.throws(() => resultsFolder(join(dir, 'link')), { kind: 'usage', message: /symbolic link/ });
});

test('a file that is not a results document is a usage error naming the file and the fix', () => {
  const dir = folder();
  const write = (name, text) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const cases = [
    [join(dir, 'missing.json'), /missing\.json: no such file; pass a results file/],
    [write('text.json', 'hello'), /not an mmapbench results document \(not JSON\)/],
    [
      write('cut.json', JSON.stringify(compareDocument({ workers: [1], procs: [1] })).slice(0, 200)),
      /cut off or damaged/,
    ],
    [write('other.json', '{"name": "package"}'), /no "mmapbench" version field/],
    [
      write('newer.json', JSON.stringify({ ...compareDocument({ workers: [1], procs: [1] }), schema: SCHEMA + 1 })),
      new RegExp(`from a newer mmapbench .*schema ${SCHEMA + 1}.*upgrade mmapbench`),
    ],
    [write('nocommand.json', '{"mmapbench": "0.1.0", "command": "dance"}'), /"command" is "dance"/],
    [
      write('norounds.json', '{"mmapbench": "0.1.0", "command": "compare", "status": "complete"}'),
      /norounds\.json: config is missing; the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it/,
    ],
  ];
  for (const [path, message] of cases) assert.throws(() => loadSaved(path), { kind: 'usage', message }, path);
});

test('a saved figure that is not one (a word, a negative number, null) is refused naming the first bad field, never read as NaN', () => {
  const dir = folder();
  for (const [value, words] of [
    ['fast', 'must be a number (it is "fast")'],
    [-5, 'must be a number > 0 (it is -5)'],
    [null, 'must be a number (it is null)'],
  ]) {
    const document = compareDocument({ workers: [800, 850, 780], procs: [1000, 1000, 1000] });
    document.points[0].rounds[1].workers.throughput = value;
    const path = join(dir, `bad-${String(value)}.json`);
    writeFileSync(path, JSON.stringify(document));
    assert.throws(
      () => loadSaved(path, `report ${path}`),
      {
        kind: 'usage',
        message: `report ${path}: points[0].rounds[1].workers.throughput ${words}; the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it (docs/json.md, src/saved/results.schema.json)`,
      },
      String(value),
    );
  }
  const missing = compareDocument({ workers: [800], procs: [1000] });
  delete missing.points[0].rounds[0].procs.throughput;
  writeFileSync(join(dir, 'missing.json'), JSON.stringify(missing));
  assert.throws(() => loadSaved(join(dir, 'missing.json')), {
    message: /: points\[0\]\.rounds\[0\]\.procs\.throughput is missing; /,
  });
  // a compare of this layout keeps its figures in its one point, never at its top level
  const { points, order, ...flat } = compareDocument({ workers: [800], procs: [1000] });
  writeFileSync(join(dir, 'flat.json'), JSON.stringify({ ...flat, rounds: points[0].rounds }));
  assert.throws(() => loadSaved(join(dir, 'flat.json')), { message: /: points is missing; / });
});

test('every saved fixture, of every kind, passes the schema', () => {
  const saved = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
  for (const name of readdirSync(saved).filter((file) => file.endsWith('.json'))) loadSaved(join(saved, name));
});

test('diff: a ratio that moved from 0.8 to 1.0 with procs unchanged narrowed the gap, with the change inside its CI', () => {
  const base = saved(compareDocument({ workers: [800, 850, 780, 830, 810], procs: [1000, 1000, 1000, 1000, 1000] }));
  const next = saved(
    compareDocument({ workers: [950, 1020, 990, 1040], procs: [1000, 1000, 1000, 1000], node: 'v24.21.0' }),
  );
  const diff = diffResults(base, next);
  assert.equal(diff.command, 'diff');
  assert.deepEqual(diff.differences, [{ fact: 'Node', base: 'v20.20.2', new: 'v24.21.0' }]);
  const [point] = diff.points;
  assert.equal(point.verdict, 'gap narrowed');
  assert.ok(Math.abs(point.ratioChange.change - 1.2283291330576762) < 1e-12);
  assert.ok(point.ratioChange.ci95[0] > 1);
  assert.equal(point.throughputChange.procs.change, 1);
  assert.ok(point.throughputChange.workers.ci95[0] > 1);
  assert.deepEqual(point.rounds, { base: 5, new: 4 });
  assert.deepEqual(diff.onlyIn, { base: [], new: [] });
});

test('diff: the gap widens when the ratio moves away from 1, either way, and noise is no significant change', () => {
  const procs = [1000, 1000, 1000, 1000];
  const at = (workers) => saved(compareDocument({ workers, procs }));
  assert.equal(diffResults(at([900, 910, 890, 905]), at([700, 720, 690, 710])).points[0].verdict, 'gap widened');
  assert.equal(
    diffResults(at([1100, 1110, 1090, 1105]), at([1400, 1420, 1390, 1410])).points[0].verdict,
    'gap widened',
  );
  assert.equal(
    diffResults(at([900, 1100, 950, 1050]), at([1000, 1080, 920, 990])).points[0].verdict,
    'no significant change',
  );
  assert.equal(diffResults(at([900, 910]), at([700, 720])).points[0].verdict, 'too few rounds');
  // a change whose whole interval lies within ±10%: no change, as compare says equal
  assert.equal(diffResults(at([1000, 1010, 990, 1005]), at([1002, 1008, 992, 1003])).points[0].verdict, 'no change');
});

test('diff of three rounds a side whose ratio interval is all but open: still a table in 80 columns, its bounds short, k=2 whole', () => {
  const base = saved(compareDocument({ workers: [1, 1000, 3], procs: [1000, 1, 500] }));
  const next = saved(compareDocument({ workers: [900, 2, 800], procs: [3, 1000, 2] }));
  const diff = diffResults(base, next);
  assert.ok(diff.points[0].ratioChange.ci95[1] > 1e6, 'the case: an upper bound past a million');
  const text = renderTerminal(diffModel(diff), { width: 80 });
  assert.ok(Math.max(...text.split('\n').map((line) => [...line].length)) <= 80, text);
  assert.match(text, /│ point +│ +ratio( change)? +│/, text);
  assert.match(text, /\d\.\d\de\+\d+\)/, 'a bound past a million in three significant figures');
  assert.match(text, /k=2/, text);
});

test('diff: points are matched by task, file size, k and environment; the rest is listed, and none in common is an error', () => {
  const base = saved(compareDocument({ workers: [1, 1, 1], procs: [1, 1, 1], k: 2 }));
  const otherK = saved(compareDocument({ workers: [1, 1, 1], procs: [1, 1, 1], k: 8, kernel: '6.1.0' }));
  assert.throws(() => diffResults(base, otherK), { kind: 'usage', message: /have no point in common/ });
  const otherEnv = saved(compareDocument({ workers: [1, 1, 1], procs: [1, 1, 1], env: { MALLOC_ARENA_MAX: '1' } }));
  assert.throws(() => diffResults(base, otherEnv), { kind: 'usage', message: /no point in common/ });

  const sweep = {
    mmapbench: '0.1.0',
    schema: SCHEMA,
    command: 'sweep',
    status: 'complete',
    config: { quick: false },
    environment: compareDocument({ workers: [], procs: [] }).environment,
    axes: { node: [{ version: 'v20.20.2' }], variant: [{ name: 'default' }], cycles: [1] },
    points: [2, 4].map((k) => ({
      id: `p${k}`,
      task: 'readfilesync',
      file: { size: 65536, label: 'med (64 KiB)' },
      k,
      params: {},
      config: { env: {} },
      node: { version: 'v20.20.2' },
      variant: { name: 'default' },
      rounds: [1, 2, 3].map((index) => ({
        index,
        order: ['workers', 'procs'],
        workers: { throughput: 1 },
        procs: { throughput: 1 },
      })),
    })),
  };
  const diff = diffResults(base, saved(sweep));
  assert.equal(diff.points.length, 1);
  assert.match(diff.points[0].label, /k=2/);
  assert.deepEqual(diff.onlyIn.base, []);
  assert.equal(diff.onlyIn.new.length, 1);
  assert.match(diff.onlyIn.new[0], /k=4/);
});

test('an audit (trace --pid) is read back for report, and diff says it has nothing to diff', () => {
  const audit = saved({
    mmapbench: '0.1.0',
    schema: SCHEMA,
    command: 'trace',
    status: 'complete',
    target: { pid: 1 },
    trace: { write: { count: 0, totalNs: 0 }, read: { count: 0, totalNs: 0 } },
    environment: compareDocument({ workers: [], procs: [] }).environment,
  });
  assert.equal(audit.kind.name, 'audit');
  const base = saved(compareDocument({ workers: [1, 1, 1], procs: [1, 1, 1] }));
  assert.throws(() => diffResults(base, audit), {
    kind: 'usage',
    message: /is an audit .* no workers\/procs rounds to diff/,
  });
});

test('a file nested thousands deep, or holding millions of values, is refused in one short line as a usage error', () => {
  const fixtureText = readFileSync(
    fileURLToPath(new URL('../fixtures/saved/compare-quick.json', import.meta.url)),
    'utf8',
  );
  const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
  const dir = folder();
  /** @param {string} name @param {string} text */
  const refusal = (name, text) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    try {
      loadSaved(path);
    } catch (error) {
      return error;
    }
    assert.fail(`${name} loaded`);
  };
  for (const [name, text] of [
    ['deep-extra.json', fixtureText.replace(/^\{/, `{"extra": ${deep},`)],
    ['deep-figure.json', fixtureText.replace(/"throughput": [\d.]+/, `"throughput": ${deep}`)],
    ['deep-reproduce.jsonl', `{"type":"run","options":{}}\n{"type":"result","experiment":"x","extra":${deep}}\n`],
  ]) {
    const error = refusal(name, text);
    assert.equal(error.kind, 'usage', `${name}: ${error.message}`);
    assert.match(error.message, /nest(ed|s) more than 64 deep/);
  }
  const document = JSON.parse(fixtureText);
  document.rounds[0].workers.throughput = Array(2_000_000).fill(1);
  const big = refusal('big.json', JSON.stringify(document));
  assert.equal(big.kind, 'usage');
  assert.match(big.message, /rounds\[0\]\.workers\.throughput must be a number \(it is an array of 2000000 items\)/);
  assert.ok(big.message.length < 400, `${big.message.length} characters`);
  document.rounds[0].workers.throughput = 'x'.repeat(1_000_000);
  assert.ok(refusal('long.json', JSON.stringify(document)).message.length < 400);
});

test('every figure a view draws is checked to its range, and every string to a length, naming the field', () => {
  const dir = folder();
  const saved = () => JSON.parse(readFileSync(fixture('saved/compare-end.json'), 'utf8'));
  for (const [edit, words] of /** @type {Array<[(d: any) => void, string]>} */ ([
    [(d) => (d.workers.keptMemory = 'lots'), 'workers.keptMemory must be an object (it is "lots")'],
    [
      (d) => (d.procs.keptLastMemory.samples[0] = 'lots'),
      'procs.keptLastMemory.samples[0] must be a number (it is "lots")',
    ],
    [(d) => (d.measures.keptMemory.median = 'lots'), 'measures.keptMemory.median must be a number (it is "lots")'],
    [
      (d) => (d.measures.readyMs.ci95 = [1]),
      'measures.readyMs.ci95 must hold at least 2 items (it is an array of 1 item)',
    ],
    [(d) => (d.config.rounds = -3), 'config.rounds must be a number >= 1 (it is -3)'],
    [
      (d) => (d.noise = { rounds: 11, sd: 0.48, trees: 1.5, windows: 0.2, drift: 0, floor: null, seconds: null }),
      'noise.trees must be <= 1 (it is 1.5)',
    ],
    [
      (d) => (d.noise = { rounds: 11, sd: 0.48, trees: 0.8, windows: 0.2, drift: 0, floor: { scale: 1 }, seconds: 9 }),
      'noise.floor.seconds is missing',
    ],
    [
      (d) =>
        (d.sizing = {
          ...d.sizing,
          scheduled: { after: 9, rounds: 8, trees: 0.3, windows: 0.7, scale: 'x', seconds: 80, floorSeconds: 30 },
        }),
      'sizing.scheduled.scale must be a number (it is "x")',
    ],
    [(d) => (d.sizing = { ...d.sizing, calibrated: -1 }), 'sizing.calibrated must be a number >= 0 (it is -1)'],
    [(d) => (d.config.k = 2.5), 'config.k must be a whole number (it is 2.5)'],
    [(d) => (d.config.end.cycles = 1e9), 'config.end.cycles must be <= 64 (it is 1000000000)'],
    [(d) => (d.config.main.everyMs = 0), 'config.main.everyMs must be a number > 0 (it is 0)'],
    [
      (d) => (d.config.task.name = 'x'.repeat(20000)),
      'config.task.name is 20000 characters long; mmapbench saves at most 16384 in a field',
    ],
    [
      (d) => (d.environment.kernel = 'x'.repeat(1e7)),
      'environment.kernel is 10000000 characters long; mmapbench saves at most 16384 in a field',
    ],
  ])) {
    const document = saved();
    edit(document);
    const path = join(dir, 'edited.json');
    writeFileSync(path, JSON.stringify(document));
    assert.throws(() => loadSaved(path, 'report FILE'), {
      kind: 'usage',
      message: `report FILE: ${words}; the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it (docs/json.md, src/saved/results.schema.json)`,
    });
  }
  // JSON's 1e999 is read as Infinity: no figure
  const path = join(dir, 'infinite.json');
  writeFileSync(path, JSON.stringify(saved()).replace(/"median":[\d.e+-]+/, '"median":1e999'));
  assert.throws(() => loadSaved(path, 'report FILE'), {
    kind: 'usage',
    message: /must be a number \(it is Infinity\)/,
  });
});

test('an advise file whose ranking is not what advise saved is refused naming the field, never a crash inside a reader', () => {
  const dir = folder();
  const saved = () => JSON.parse(readFileSync(fixture('saved/advise.json'), 'utf8'));
  const row = { name: 'x', kind: 'task', status: 'measured', gain: { workers: null, procs: null } };
  for (const [edit, words] of /** @type {Array<[(d: any) => void, string]>} */ ([
    [(d) => (d.advice = 5), 'advice must be an object (it is 5)'],
    [(d) => (d.advice.rows = 5), 'advice.rows must be an array (it is 5)'],
    [(d) => (d.advice.rows = [5]), 'advice.rows[0] must be an object (it is 5)'],
    [(d) => (d.advice.rows = [{ ...row, gain: { workers: 5, procs: null } }]), 'advice.rows[0].gain.workers'],
    [(d) => (d.advice.rows = [{ ...row, mode: 'threads' }]), 'advice.rows[0].mode'],
    [(d) => (d.advice.for = 'speed'), 'advice.for'],
    [(d) => (d.scaling = [5]), 'scaling[0] must be an object (it is 5)'],
    [(d) => (d.resume = { axes: 5 }), 'resume.axes must be an object (it is 5)'],
  ])) {
    const document = saved();
    edit(document);
    const path = join(dir, 'edited.json');
    writeFileSync(path, JSON.stringify(document));
    assert.throws(
      () => loadSaved(path, 'report FILE'),
      (error) =>
        error.kind === 'usage' &&
        error.message.startsWith(`report FILE: ${words}`) &&
        error.message.endsWith(
          'the file was changed or damaged after mmapbench saved it: pass the file as mmapbench saved it (docs/json.md, src/saved/results.schema.json)',
        ),
      words,
    );
  }
});

test('round five, row 6: diff never pairs a raw run with one through a pool: no point in common, named so', () => {
  const raw = loadSaved(fixture('saved/compare.json'));
  const pooled = loadSaved(fixture('saved/compare-pool-interrupted.json'));
  assert.throws(() => diffResults(raw, pooled), {
    kind: 'usage',
    message: /have no point in common \(same task, file, k, --cycles, pool, /,
  });
});
