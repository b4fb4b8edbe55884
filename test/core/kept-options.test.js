// A results file is data: --resume runs nothing the file alone names. What it would load or run
// (a task module, an environment for the cells) must be named again by the user; glibc's malloc
// settings and an allocator this machine has are what the run's own checks know.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { keptAdvice, keptOptions, keptSweep } from '../../src/core/typed-options.js';
import { MmapbenchError } from '../../src/errors.js';
import { flagsGivenAgain } from '../../src/saved/given-again.js';
import { findAllocators } from '../../src/system/allocators.js';

const path = '/tmp/kept.json';
const compare = (resume, given = {}) => keptOptions(resume, { path, field: 'resume', given });
const refused = (run, message) =>
  assert.throws(run, (error) => error instanceof MmapbenchError && error.exitCode === 2 && message.test(error.message));

test('a kept environment that loads or runs code is refused unless named again with --env', () => {
  for (const [name, value] of [
    ['NODE_OPTIONS', '--require ./x.cjs'],
    ['NODE_OPTIONS', '--import=./x.mjs'],
    ['LD_PRELOAD', '/tmp/x.so'],
    ['LD_LIBRARY_PATH', '/tmp/lib'],
    ['MALLOC_ARENA_MAX', 'one'],
    ['GLIBC_TUNABLES', 'glibc.rtld.audit=x'],
  ]) {
    const resume = { command: 'compare', task: 'json', env: { MALLOC_ARENA_MAX: '1', [name]: value } };
    refused(
      () => compare(resume),
      new RegExp(
        `^--resume /tmp/kept\\.json sets ${name} in the cells \\(resume\\.env\\); a results file may come from anyone, so name it yourself: add --env \\S.*, or start a new run$`,
      ),
    );
    assert.equal(compare(resume, { env: [`${name}=${value}`] }).env[name], value, 'named again, it runs');
  }
  refused(
    () => compare({ command: 'compare', task: 'json', env: { NODE_OPTIONS: '--require ./x.cjs' } }),
    /add --env NODE_OPTIONS='--require \.\/x\.cjs', or start a new run$/,
  );
});

test("glibc's malloc settings, the libuv pool and an allocator found here need no naming", () => {
  const library = findAllocators().find((allocator) => allocator.path)?.path;
  const env = {
    MALLOC_ARENA_MAX: '1',
    MALLOC_TRIM_THRESHOLD_: '-1',
    GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072',
    UV_THREADPOOL_SIZE: '8',
    ...(library ? { LD_PRELOAD: library } : {}),
  };
  assert.deepEqual(compare({ command: 'compare', task: 'json', env }).env, env);
});

test('--env with --resume names only what the run was started with', () => {
  refused(
    () => compare({ command: 'compare', task: 'json', env: { MALLOC_ARENA_MAX: '1' } }, { env: ['FOO=1'] }),
    /^--env FOO=1 is not what --resume \/tmp\/kept\.json ran with: a resumed run goes on with the same environment; drop it, or start a new run$/,
  );
  refused(
    () => compare({ command: 'compare', task: 'json', env: { FOO: '1' } }, { env: ['FOO=2'] }),
    /sets FOO in the cells/,
  );
});

test('a task module the file names by path loads only when named again with --task', () => {
  const resume = { command: 'compare', task: './my-task.mjs', cwd: '/work/app' };
  refused(
    () => compare(resume),
    /^--resume \/tmp\/kept\.json runs \/work\/app\/my-task\.mjs \(--task\); a results file may come from anyone, so name it yourself: add --task \.\/my-task\.mjs$/,
  );
  refused(() => compare(resume, { task: '/elsewhere/my-task.mjs' }), /^--task \/elsewhere\/my-task\.mjs is not what/);
  assert.equal(compare(resume, { task: '/work/app/my-task.mjs' }).task, './my-task.mjs');
  // a built-in task names no module
  assert.equal(compare({ command: 'compare', task: 'json' }).task, 'json');
  refused(() => compare({ command: 'compare', task: 'json' }, { task: resolve('x.mjs') }), /is not what/);
});

test("a kept sweep's variants and shared environment are checked the same way", () => {
  const request = (variant, shared = {}) => ({
    axes: {
      node: [null],
      task: ['json'],
      variant: [null, variant],
      file: [null],
      params: {},
      k: [1],
      cycles: [null],
    },
    shared: { command: 'compare', ...shared },
  });
  refused(
    () => keptSweep(request({ name: 'x', env: { NODE_OPTIONS: '--require ./x.cjs' } }), { path, given: {} }),
    /sets NODE_OPTIONS in the cells \(resume\.axes\.variant\[1\]\.env\)/,
  );
  refused(
    () =>
      keptSweep(request({ name: 'arena1', env: { MALLOC_ARENA_MAX: '1' } }, { env: { LD_LIBRARY_PATH: '/x' } }), {
        path,
        given: {},
      }),
    /sets LD_LIBRARY_PATH in the cells \(resume\.shared\.env\)/,
  );
  const kept = keptSweep(request({ name: 'arena1', env: { MALLOC_ARENA_MAX: '1' } }), { path, given: {} });
  assert.deepEqual(kept.axes.variant, [undefined, { name: 'arena1', env: { MALLOC_ARENA_MAX: '1' } }]);
  refused(
    () =>
      keptSweep(
        {
          ...request({ name: 'a', env: { MALLOC_ARENA_MAX: '1' } }),
          axes: { ...request({ name: 'a', env: { MALLOC_ARENA_MAX: '1' } }).axes, task: ['./t.mjs'] },
        },
        { path, given: {} },
      ),
    /runs \S+t\.mjs \(--task\)/,
  );
});

test('each kept field an option sets is checked as that option is typed; a field none sets is refused', () => {
  const base = { command: 'compare', task: 'json' };
  for (const [field, value, message] of [
    [
      'fixturesDir',
      5,
      /^--resume \/tmp\/kept\.json: resume\.fixturesDir must be a string \(it is 5\); start a new run$/,
    ],
    ['force', 'yes', /resume\.force must be a boolean \(it is "yes"\)/],
    ['fixturesDir', '', /resume\.fixturesDir must hold at least 1 character/],
    ['k', '2', /resume\.k must be a number \(it is "2"\)/],
    ['env', { '': 'x' }, /resume\.env holds a name mmapbench never saves \(""\)/],
    ['warmup', 'lots', /resume\.warmup must be a number or steady \(it is "lots"\)/],
    ['main', 'sideways', /resume\.main must be one of on, off \(it is "sideways"\)/],
    ['k', 0, /resume\.k is refused as the command line would refuse it: -k/],
    ['requestSize', '64q', /resume\.requestSize is refused as the command line would refuse it: --request-size/],
    ['json', true, /resume\.json is no setting mmapbench keeps/],
  ])
    refused(() => compare({ ...base, [field]: value }), message);
  // read as the command line reads it: a size with its unit
  const kept = compare({ ...base, requestSize: '64k', k: 2, main: 'on' });
  assert.deepEqual([kept.requestSize, kept.k, kept.main], [65536, 2, 'on']);
});

test("a kept advise's own settings are checked as its options are typed; a Node binary is named again", () => {
  const advise = { for: 'throughput', only: null, race: true, kAuto: false, node: [] };
  const request = (/** @type {Record<string, unknown>} */ own, shared = {}) => ({
    shared: { command: 'compare', cwd: '/tmp', k: 1, ...shared },
    advise: { ...advise, ...own },
  });
  const kept = (/** @type {unknown} */ one, given = {}) => keptAdvice(one, { path, given });
  assert.deepEqual(kept(request({ only: 'TOP_PAD' })).advise, { ...advise, only: 'TOP_PAD' });
  for (const [one, message] of /** @type {Array<[unknown, RegExp]>} */ ([
    [request({ for: 'speed' }), /resume\.advise\.for must be one of throughput, memory, kept-memory, main-latency/],
    [request({ race: 'yes' }), /resume\.advise\.race must be/],
    [request({ kAuto: 1 }), /resume\.advise\.kAuto must be/],
    [request({ only: 7 }), /resume\.advise\.only must be/],
    [request({ node: [7] }), /resume\.advise\.node/],
    [request({ extra: 1 }), /resume\.advise\.extra is no setting advise keeps/],
    [{ shared: {} }, /resume\.advise must be the settings the advise run was started with/],
    [request({}, { k: 0 }), /resume\.shared\.k/],
    [request({}, { task: './mine.mjs' }), /--task/],
  ]))
    refused(() => kept(one), message);
  // a Node it names by path runs only when named again; a version is the registry's
  refused(() => kept(request({ node: ['/opt/node/bin/node'] })), /runs \/opt\/node\/bin\/node \(--node\)/);
  assert.deepEqual(kept(request({ node: ['/opt/node/bin/node'] }), { node: ['/opt/node/bin/node'] }).advise.node, [
    '/opt/node/bin/node',
  ]);
  assert.deepEqual(kept(request({ node: ['24'] })).advise.node, ['24']);
});

/**
 * Flags as the command line reads them into options (only those flagsGivenAgain writes).
 * @param {string[]} flags
 * @param {boolean} lists  a sweep's or an advise's: --node and --task are lists
 */
function givenBy(flags, lists) {
  /** @type {Record<string, any>} */
  const given = {};
  for (let i = 0; i < flags.length; i += 2) {
    const name = {
      '--node': 'node',
      '--task': 'task',
      '--env': 'env',
      '--fixtures-dir': 'fixturesDir',
      '--bpftrace': 'bpftrace',
    }[flags[i]];
    assert.ok(name, flags[i]);
    if (name === 'env' || (lists && (name === 'node' || name === 'task'))) (given[name] ??= []).push(flags[i + 1]);
    else given[name] = flags[i + 1];
  }
  return given;
}

test('the line that says how to finish an interrupted run names what its --resume must be given again, and it is taken', () => {
  const resume = {
    command: 'compare',
    cwd: '/work/app',
    task: './my-task.mjs',
    node: '/opt/node/bin/node',
    fixturesDir: 'files',
    env: { MALLOC_ARENA_MAX: '1', NODE_OPTIONS: '--require ./x.cjs' },
    trace: { bpftrace: '/opt/bpftrace' },
  };
  const flags = flagsGivenAgain(resume);
  assert.deepEqual(flags, [
    ...['--node', '/opt/node/bin/node', '--task', '/work/app/my-task.mjs', '--fixtures-dir', 'files'],
    ...['--bpftrace', '/opt/bpftrace', '--env', 'NODE_OPTIONS=--require ./x.cjs'],
  ]);
  assert.equal(compare(resume, givenBy(flags, false)).task, './my-task.mjs');
  // a built-in task, a Node by version and known settings alone: nothing to give again
  assert.deepEqual(
    flagsGivenAgain({ command: 'compare', task: 'json', node: '24', env: { UV_THREADPOOL_SIZE: '8' } }),
    [],
  );
  const sweep = {
    axes: {
      node: [null, '/opt/node/bin/node', '24'],
      task: ['json', './my-task.mjs'],
      variant: [
        { name: 'default', env: {} },
        { name: 'mine', env: { LD_LIBRARY_PATH: '/opt/lib' } },
      ],
      file: [null],
      params: {},
      k: [1],
      cycles: [null],
    },
    shared: { command: 'compare', cwd: '/work/app', env: {} },
  };
  const swept = flagsGivenAgain(sweep);
  assert.deepEqual(swept, [
    '--node',
    '/opt/node/bin/node',
    '--task',
    '/work/app/my-task.mjs',
    '--env',
    'LD_LIBRARY_PATH=/opt/lib',
  ]);
  assert.equal(keptSweep(sweep, { path, given: givenBy(swept, true) }).axes.task[1], './my-task.mjs');
  const advise = {
    shared: { command: 'compare', cwd: '/work/app', k: 1 },
    advise: { for: 'throughput', only: null, race: true, kAuto: false, node: ['24', '/opt/node/bin/node'] },
  };
  const advised = flagsGivenAgain(advise);
  assert.deepEqual(advised, ['--node', '/opt/node/bin/node']);
  assert.deepEqual(keptAdvice(advise, { path, given: givenBy(advised, true) }).advise.node, [
    '24',
    '/opt/node/bin/node',
  ]);
});
