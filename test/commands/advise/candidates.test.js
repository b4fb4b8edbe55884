import { test } from 'node:test';
import assert from 'node:assert/strict';
import { candidatesFor, planCandidates } from '../../../src/commands/advise/candidates.js';
import { armsOf } from '../../../src/commands/sweep/points.js';
import { fixesOf, loadTask } from '../../../src/tasks/index.js';
import { fixture } from '../../helpers.js';

const allocators = [
  { name: 'jemalloc', path: '/lib/libjemalloc.so.2', install: 'apt-get install libjemalloc2' },
  { name: 'tcmalloc', path: null, install: 'apt-get install libtcmalloc-minimal4' },
];

test("readfilesync's candidates on glibc: the baseline first, glibc's settings, the allocators found, the task's own fixes", async () => {
  const task = await loadTask('readfilesync');
  const { candidates, missing } = candidatesFor({ task, glibc: true, fileSize: 64 * 1024, allocators });
  assert.deepEqual(
    candidates.map((one) => [one.name, one.kind]),
    [
      ['baseline', 'baseline'],
      ['TOP_PAD 64 MiB', 'glibc'],
      ['TRIM_THRESHOLD 64 MiB', 'glibc'],
      ['ARENA_MAX 1', 'glibc'],
      ['ARENA_MAX 2', 'glibc'],
      ['jemalloc', 'allocator'],
      ['reuse-buffer', 'task'],
      ['readfilesync-into', 'task'],
      ['pool-size 256k', 'task'],
      ['semi-space 32 MiB', 'v8'],
      ['semi-space 64 MiB', 'v8'],
    ],
  );
  // V8's young generation, with the line that sets it for a thread and for a child
  const young = candidates.find((one) => one.name === 'semi-space 64 MiB');
  assert.deepEqual(young?.options, { semiSpace: 64 });
  assert.equal(
    young?.apply,
    "threads: new Worker(file, { resourceLimits: { maxYoungGenerationSizeMb: 192 } }); children: fork(file, { execArgv: ['--max-semi-space-size=64'] })",
  );
  const pad = candidates.find((one) => one.name === 'TOP_PAD 64 MiB');
  assert.deepEqual(pad?.env, { MALLOC_TOP_PAD_: '67108864' });
  assert.equal(pad?.apply, 'MALLOC_TOP_PAD_=67108864 node ...');
  assert.equal(candidates.find((one) => one.name === 'jemalloc')?.apply, 'LD_PRELOAD=/lib/libjemalloc.so.2 node ...');
  assert.deepEqual(candidates.find((one) => one.name === 'pool-size 256k')?.params, { poolSize: 262144 });
  // never installed: listed with the line that would
  assert.deepEqual(missing, [{ name: 'tcmalloc', install: 'apt-get install libtcmalloc-minimal4' }]);
});

test("glibc's mmap threshold is tried where reads reach it, above their size; no glibc setting off glibc; --node adds Nodes", async () => {
  const task = await loadTask('crypto-random');
  const large = candidatesFor({ task, glibc: true, fileSize: 1024 * 1024, allocators: [] }).candidates;
  assert.deepEqual(large.find((one) => one.name.startsWith('MMAP_THRESHOLD'))?.env, {
    MALLOC_MMAP_THRESHOLD_: '2097152',
  });
  const small = candidatesFor({ task, glibc: true, fileSize: 64 * 1024, allocators: [] }).candidates;
  assert.equal(
    small.find((one) => one.name.startsWith('MMAP_THRESHOLD')),
    undefined,
  );
  const musl = candidatesFor({ task, glibc: false, fileSize: 64 * 1024, allocators: [], nodes: ['24'] }).candidates;
  assert.deepEqual(
    musl.map((one) => one.name),
    ['baseline', 'reuse=yes', 'semi-space 32 MiB', 'semi-space 64 MiB', 'node 24'],
  );
});

test('a candidate the loader refuses is skipped with its reason; the others are planned as points', async () => {
  const task = await loadTask('readfilesync');
  const { candidates } = candidatesFor({ task, glibc: true, fileSize: 64 * 1024, allocators: [] });
  const broken = {
    ...candidates[1],
    name: 'broken',
    kind: /** @type {const} */ ('allocator'),
    env: { LD_PRELOAD: '/nonexistent/libnothing.so' },
  };
  const { planned, skipped } = await planCandidates([candidates[0], broken, candidates[1]], { k: 2, quick: true });
  assert.deepEqual(
    planned.map((point) => [point.id, point.candidate.name, point.plan.envOverrides]),
    [
      ['p1', 'baseline', {}],
      ['p2', 'TOP_PAD 64 MiB', { MALLOC_TOP_PAD_: '67108864' }],
    ],
  );
  assert.equal(skipped.length, 1);
  assert.equal(skipped[0].name, 'broken');
  assert.match(skipped[0].reason, /LD_PRELOAD=\/nonexistent\/libnothing\.so/);
});

test("a fix that runs another task takes that task's parameters; the baseline's own error is the user's", async () => {
  const task = await loadTask('readfilesync');
  const { candidates } = candidatesFor({ task, glibc: false, fileSize: 64 * 1024, allocators: [] });
  const reuse = candidates.filter((one) => one.name === 'reuse-buffer');
  const { planned } = await planCandidates([candidates[0], ...reuse], { k: 2, quick: true });
  assert.equal(planned[1].plan.task.name, 'reuse-buffer');
  await assert.rejects(
    planCandidates([candidates[0]], { k: 2, quick: true, task: 'no-such-task' }),
    /unknown task "no-such-task"/,
  );
});

test("a user's task names its fixes' modules relative to itself, whatever the working folder", async () => {
  const task = await loadTask(fixture('fixes-task.mjs'));
  const { candidates } = candidatesFor({ task, glibc: false, fileSize: 64 * 1024, allocators: [] });
  assert.deepEqual(
    candidates.map((one) => [one.name, one.task ?? null]),
    [
      ['baseline', null],
      ['throws', null],
      ['same-work', null],
      ['sibling', fixture('warms-up.js')],
      ['semi-space 32 MiB', null],
      ['semi-space 64 MiB', null],
    ],
  );
});

test("a message's candidates are the other ways to send it, each planned in the modes that can carry it; no heap setting", async () => {
  const task = await loadTask('message');
  const params = { shape: 'buffer', size: 64 * 1024, serialization: 'json' };
  const { candidates, missing } = candidatesFor({
    task,
    fixes: await fixesOf(task, params),
    glibc: true,
    fileSize: 64 * 1024,
    allocators,
  });
  assert.deepEqual(
    candidates.map((one) => [one.name, one.mode, one.params]),
    [
      ['baseline', null, {}],
      ['transfer', 'workers', { shape: 'transfer' }],
      ['SharedArrayBuffer', 'workers', { shape: 'shared' }],
      ['serialization advanced', 'procs', { serialization: 'advanced' }],
    ],
  );
  assert.deepEqual(missing, [], 'an allocator is no way to send a message: none is offered');
  const shared = { k: 2, quick: true, task: 'message', params: { shape: 'buffer', size: 64 * 1024 } };
  const { planned, skipped } = await planCandidates(candidates, shared);
  assert.deepEqual(skipped, [], 'a transfer list is refused in a compare, not in threads alone');
  assert.deepEqual(
    planned.map((point) => [
      point.candidate.name,
      point.plan.only,
      point.plan.params.shape,
      point.plan.params.serialization,
    ]),
    [
      ['baseline', null, 'buffer', 'json'],
      ['transfer', 'workers', 'transfer', 'json'],
      ['SharedArrayBuffer', 'workers', 'shared', 'json'],
      ['serialization advanced', 'procs', 'buffer', 'advanced'],
    ],
  );
  assert.deepEqual(
    planned.map((point) => armsOf(point.plan)),
    [['workers', 'procs'], ['workers'], ['workers'], ['procs']],
  );
});

test("an object's candidates: its JSON text and the other serialization; a file of messages: the serialization alone", async () => {
  const task = await loadTask('message');
  const names = async (/** @type {Record<string, unknown>} */ params) =>
    (await fixesOf(task, params)).map((fix) => `${fix.name} (${fix.mode ?? 'both'})`);
  assert.deepEqual(await names({ shape: 'object', size: 100, serialization: 'json' }), [
    'send JSON text (both)',
    'serialization advanced (procs)',
  ]);
  assert.deepEqual(await names({ shape: 'json', size: 100, serialization: 'advanced' }), [
    'send the object (both)',
    'serialization json (procs)',
  ]);
  assert.deepEqual(await names({ shape: 'object', size: 100, serialization: 'json', message: 'jobs.jsonl' }), [
    'serialization advanced (procs)',
  ]);
  // a task without fixesFor: the fixes it declares
  const readfilesync = await loadTask('readfilesync');
  assert.equal(await fixesOf(readfilesync, {}), readfilesync.fixes);
});

test("a semi-space candidate's plan gives each worker that young generation; the baseline's has V8's own", async () => {
  const task = await loadTask('readfilesync');
  const { candidates } = candidatesFor({ task, glibc: true, fileSize: 64 * 1024, allocators: [] });
  const young = candidates.filter((one) => one.kind === 'v8');
  const { planned } = await planCandidates([candidates[0], ...young], { k: 2, quick: true });
  assert.deepEqual(
    planned.map((point) => [point.candidate.name, point.plan.semiSpaceMb]),
    [
      ['baseline', null],
      ['semi-space 32 MiB', 32],
      ['semi-space 64 MiB', 64],
    ],
  );
});

test('--k-auto: the baseline at every other k up to the CPUs, named as the baseline so the sweep reads one k axis', async () => {
  const { scalingCandidates } = await import('../../../src/commands/advise/candidates.js');
  assert.deepEqual(
    scalingCandidates(2, 6).map((one) => [one.name, one.kind, one.options?.k]),
    [
      ['baseline', 'k', 1],
      ['baseline', 'k', 4],
      ['baseline', 'k', 6],
    ],
  );
  assert.deepEqual(scalingCandidates(1, 1), []);
  const task = await loadTask('readfilesync');
  const { candidates } = candidatesFor({ task, glibc: true, fileSize: 64 * 1024, allocators: [] });
  const { planned } = await planCandidates([candidates[0], ...scalingCandidates(2, 2)], { k: 2, quick: true });
  assert.deepEqual(
    planned.map((point) => [point.at.variant.name, point.at.k, point.plan.k]),
    [
      ['baseline', 2, 2],
      ['baseline', 1, 1],
    ],
  );
});

test("a fix that sets the pool the cells' Node has by default is named as its default, not measured", async () => {
  const task = await loadTask('pool-size');
  const fixes = await fixesOf(task, { poolSize: 256 * 1024 });
  const on = (/** @type {string} */ version, /** @type {number} */ poolSize) =>
    candidatesFor({ task, fixes, glibc: true, fileSize: 64 * 1024, allocators: [], node: { version, poolSize } });
  const on24 = on('v24.21.0', 64 * 1024);
  assert.ok(!on24.candidates.some((one) => one.name === 'pool-size 64k'));
  assert.deepEqual(on24.defaults, [
    { name: 'pool-size 64k', why: 'Buffer.poolSize is 64 KiB by default on Node v24.21.0, the Node the cells run on' },
  ]);
  const on22 = on('v22.23.3', 8 * 1024);
  assert.ok(
    on22.candidates.some((one) => one.name === 'pool-size 64k'),
    'on 22, 64 KiB is a fix to try',
  );
  assert.deepEqual(on22.defaults, []);
});
