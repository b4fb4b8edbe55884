// The built-in tasks beyond readFileSync, run by the real CLI: each runs in both modes (the quick
// compare in test/cli/integration.test.js), reports its own metrics where it declares them, and takes its
// parameters from the command line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { compareModel } from '../../src/commands/compare/model.js';
import { renderTerminal } from '../../src/view/table.js';
import { cli, measured } from '../helpers.js';

const json = (result) => JSON.parse(result.stdout);

test('tasks lists the related pitfalls with their published reference', async () => {
  const list = json(await cli(['tasks', '--json']));
  for (const name of [
    'alloc-unsafe',
    'crypto-random',
    'zlib',
    'json',
    'wasm-grow',
    'threadpool-clog',
    'fs-promises',
    'throttle',
  ]) {
    const task = list.find((t) => t.name === name);
    assert.ok(task, name);
    assert.match(task.reference, /\S/, `${name} names its source`);
  }
  assert.deepEqual(list.find((t) => t.name === 'crypto-random').params.reuse.choices, ['no', 'yes']);
  assert.equal(list.find((t) => t.name === 'threadpool-clog').params.partition.default, undefined);
  assert.match((await cli(['tasks', 'crypto-random'])).stdout, /--param reuse=no\|yes/);
  assert.match((await cli(['tasks', 'threadpool-clog'])).stdout, /--partition size/);
});

const metricTasks = [
  ['threadpool-clog', ['--file', '1m']],
  ['threadpool-clog', ['--file', '1m', '--partition', '64k']],
  ['fs-promises', ['--param', 'op=writeFile']],
  ['fs-promises', ['--param', 'op=stat', '--concurrency', '64']],
  ['throttle', ['--param', 'batch=10', '--param', 'limit=2']],
];
for (const [task, args] of metricTasks) {
  test(`${task} ${args.join(' ')}: every declared metric measured in both modes, in every cell`, async () => {
    const result = await cli(['compare', '--task', task, '--quick', '--json', ...args]);
    assert.equal(result.exitCode, 0, result.stderr);
    const doc = measured(result.stdout);
    const names = Object.keys(doc.config.task.metrics);
    assert.ok(names.length >= 2);
    for (const mode of ['workers', 'procs']) {
      for (const name of names) assert.ok(Number.isFinite(doc[mode].metrics[name].median), `${mode} ${name}`);
      for (const round of doc.rounds) {
        assert.ok(round[mode].workers.every((worker) => names.every((name) => Number.isFinite(worker.metrics[name]))));
      }
    }
    const table = renderTerminal(compareModel(doc));
    for (const name of names) assert.match(table, new RegExp(`${name}: `));
  });
}

test('throttle: the bounded queue never peaks above the unthrottled fan-out', async () => {
  const result = await cli([
    'workers',
    '-k',
    '1',
    '--task',
    'throttle',
    '--iterations',
    '400',
    '--warmup',
    '0',
    '--param',
    'batch=400',
    '--param',
    'limit=1',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  const { metrics } = measured(result.stdout).rounds[0].workers;
  // one job in flight holds one descriptor; 400 started at once hold at least that
  assert.ok(metrics.limitPeakFds <= metrics.allPeakFds, JSON.stringify(metrics));
});

test('fs-promises writeFile cleans up its temporary files', async () => {
  const before = readdirSync(tmpdir()).filter((name) => name.startsWith('mmapbench-fs-promises-'));
  const result = await cli(['compare', '--task', 'fs-promises', '--param', 'op=writeFile', '--quick']);
  assert.equal(result.exitCode, 0, result.stderr);
  const after = readdirSync(tmpdir()).filter((name) => name.startsWith('mmapbench-fs-promises-'));
  assert.deepEqual(after, before);
});

test('a task parameter outside its choices is a usage error naming them', async () => {
  const result = await cli(['compare', '--task', 'fs-promises', '--param', 'op=unlink', '--quick']);
  assert.equal(result.exitCode, 2);
  assert.equal(
    result.stderr.trim(),
    'mmapbench: --param op=unlink is not one of readFile, writeFile, stat (task fs-promises)',
  );
});

test('--size and --partition go to tasks that have them, and are refused by those that do not', async () => {
  const sized = json(await cli(['workers', '--task', 'alloc-unsafe', '--size', '1m', '--quick', '--json']));
  assert.equal(sized.config.params.size, 1024 * 1024);
  const refused = await cli(['workers', '--task', 'zlib', '--partition', '64k', '--quick']);
  assert.equal(refused.exitCode, 2);
  assert.match(refused.stderr, /task zlib has no parameter partition \(its parameters: --size\)/);
});

test('threadpool-clog defaults to a 16 MiB file; UV_THREADPOOL_SIZE is in the environment', async () => {
  const doc = json(
    await cli(['workers', '--task', 'threadpool-clog', '--quick', '--json', '--env', 'UV_THREADPOOL_SIZE=2']),
  );
  assert.equal(doc.config.file.size, 16 * 1024 * 1024);
  assert.equal(doc.environment.uvThreadpoolSize, 2);
  assert.equal(existsSync(doc.config.file.path), true);
});

test('init-task writes a task module that runs as written, and never over an existing file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-init-'));
  const wrote = await cli(['init-task', 'parse-body'], { cwd: dir });
  assert.equal(wrote.exitCode, 0, wrote.stderr);
  assert.equal(wrote.stdout, 'wrote parse-body.mjs; try it: npx mmapbench compare --task ./parse-body.mjs --quick');
  const described = JSON.parse((await cli(['tasks', '--task', './parse-body.mjs', '--json'], { cwd: dir })).stdout);
  assert.equal(described[0].name, 'parse-body');
  assert.ok(described[0].params.chunk);
  const ran = await cli(['compare', '--task', './parse-body.mjs', '--param', 'chunk=32k', '--quick', '--json'], {
    cwd: dir,
  });
  assert.equal(ran.exitCode, 0, ran.stderr);
  assert.equal(JSON.parse(ran.stdout).config.params.chunk, 32 * 1024);
  const again = await cli(['init-task', 'parse-body'], { cwd: dir });
  assert.equal(again.exitCode, 2);
  assert.equal(again.stderr, 'mmapbench: parse-body.mjs already exists; pick another name or remove it');
});
