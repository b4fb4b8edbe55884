// The message task through the CLI: both modes measure round trips to one parent, each op timed,
// and a message the run cannot carry is refused before anything runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, measured, roundsByTiming } from '../helpers.js';
import { nextWords } from '../../src/commands/compare/words.js';

const dir = mkdtempSync(join(tmpdir(), 'mmapbench-message-cli-'));

test('compare --task message: round trips in both modes, each mode with its latency and no word of the machine', async () => {
  const result = await cli(['compare', '--task', 'message', '--shape', 'buffer', '--size', '4k', '--quick', '--json']);
  assert.equal(result.exitCode, 0, result.stderr);
  const doc = measured(result.stdout);
  assert.equal(doc.config.task.parent, true);
  assert.deepEqual(doc.config.params, { shape: 'buffer', size: 4096, serialization: 'json' });
  for (const { round, timed } of roundsByTiming(doc))
    for (const mode of ['workers', 'procs']) {
      const cell = round[mode];
      assert.ok(cell.throughput > 0, `${mode} round trips`);
      assert.equal(cell.workers.length, 2);
      // in every other complete round, from the second; the others read memory (issue 102)
      if (!timed) {
        assert.match(cell.latency.untimed, /every other complete round/);
        continue;
      }
      assert.ok('histogram' in cell.latency, `${mode}: each round trip timed, not ${JSON.stringify(cell.latency)}`);
    }
  // the document keeps the figures; the sentence is drawn from them
  assert.equal(doc.next, undefined);
  assert.match(nextWords(doc) ?? '', /--serialization advanced sends its bytes/);
  // what answering the workers took the parent they share, in both modes
  const parent = doc.account.lines.find((/** @type {any} */ line) => line.key === 'parentNs');
  for (const mode of ['workers', 'procs'])
    assert.ok(parent?.modes[mode]?.mean > 0, `${mode}: ${JSON.stringify(parent)}`);
});

test("compare --message FILE cycles through the user's messages; the text says what to try next", async () => {
  const file = join(dir, 'jobs.jsonl');
  writeFileSync(file, '{"id":1,"op":"resize","width":640}\n{"id":2,"op":"crop","box":[1,2,3,4]}\n');
  const result = await cli([
    'compare',
    '--task',
    'message',
    '--message',
    file,
    '--quick',
    '--serialization',
    'advanced',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, /task message/);
  // the text wraps at 80 columns: read it as one line
  assert.match(
    result.stdout.replace(/\s+/g, ' '),
    /next: .*sweep --task message --size 100,4k,64k,1m --shape object,buffer/,
  );
  assert.doesNotMatch(result.stdout, /^machine: /m);
});

test('workers --shape transfer moves the buffer to the thread and back', async () => {
  const result = await cli([
    'workers',
    '--task',
    'message',
    '--shape',
    'transfer',
    '--size',
    '64k',
    '--quick',
    '--json',
  ]);
  assert.equal(result.exitCode, 0, result.stderr);
  assert.ok(measured(result.stdout).workers.throughput.median > 0);
});

test('a message the run cannot carry: one line naming the fix, exit 2, nothing run', async () => {
  const empty = join(dir, 'empty.json');
  writeFileSync(empty, '');
  for (const [args, said] of /** @type {Array<[string[], RegExp]>} */ ([
    [['--message', join(dir, 'missing.json')], /^mmapbench: --message \S+missing\.json: no such file; pass a JSON/],
    [['--message', empty], /^mmapbench: --message \S+empty\.json holds no message; put at least one message in it/],
    [['--size', '65m'], /^mmapbench: --size 65 MiB is more than a message may hold \(64 MiB/],
    [
      ['--shape', 'shared'],
      /^mmapbench: --shape shared cannot cross a process .*--shape buffer --serialization advanced/,
    ],
  ])) {
    const result = await cli(['compare', '--task', 'message', ...args, '--quick']);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.match(result.stderr, said);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.equal(result.stdout, '');
  }
});
