// The API as a project uses it: `import { compare } from 'mmapbench'`, the same checks and
// errors as the CLI, nothing on stdout or stderr, nothing saved unless asked, a stop that keeps
// what finished.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, diff, EXIT_CODES, MmapbenchError, report } from 'mmapbench';
import { cli } from '../helpers.js';

const API = fileURLToPath(new URL('../../src/api.js', import.meta.url));

test('compare resolves with the document --json prints; nothing is written or saved; progress after every cell', async () => {
  // in a process of its own, so that anything it wrote would show: only the script's own line may
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-api-'));
  const script = `
    import { compare } from ${JSON.stringify(pathToFileURL(API).href)};
    const events = [];
    const document = await compare({ quick: true, k: 2, env: { MMAPBENCH_API: 1 }, onProgress: (event) => events.push(event) });
    process.stdout.write(JSON.stringify({ document, events }));
  `;
  const { MMAPBENCH_RESULTS, ...env } = process.env;
  const child = await execa(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: { ...env, NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
  });
  assert.equal(child.exitCode, 0, child.stderr);
  assert.equal(child.stderr, '', 'nothing on stderr');
  const { document, events } = JSON.parse(child.stdout);
  assert.equal(document.command, 'compare');
  assert.equal(document.status, 'complete');
  assert.equal(document.config.env.MMAPBENCH_API, '1');
  assert.equal(document.rounds.length, 2);
  assert.equal(events.length, 4, 'two rounds of two cells');
  assert.deepEqual(Object.keys(events[0]).sort(), ['command', 'mode', 'round', 'soFar']);
  assert.ok(events.at(-1).soFar.ratio > 0);
  assert.deepEqual(readdirSync(dir), [], 'nothing saved');
});

test('a value the CLI refuses is refused with its message, as a MmapbenchError whose code names the kind', async () => {
  const error = await compare({ precision: 'abc' }).catch((/** @type {unknown} */ caught) => caught);
  assert.ok(error instanceof MmapbenchError);
  assert.equal(error.code, 'usage');
  assert.equal(EXIT_CODES[error.code], 2);
  const line = (await cli(['compare', '--precision', 'abc'])).stderr;
  assert.equal(`mmapbench: ${error.message}`, line);
  await assert.rejects(compare({ env: 'A=1' }), /env must be an object of NAME: value/);
});

test('a signal stops the run: it resolves with the rounds that finished, marked interrupted; out saves it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-api-out-'));
  const stop = new AbortController();
  const document = await compare({
    k: 2,
    maxTime: 60,
    duration: 0.05,
    out,
    signal: stop.signal,
    onProgress: (event) => {
      // after two rounds that count (the first sizes the cells)
      if (event.round === 4) stop.abort();
    },
  });
  assert.equal(document.status, 'interrupted');
  assert.ok(document.rounds.filter((/** @type {any} */ round) => round.complete).length >= 2);
  const [file] = readdirSync(out);
  assert.match(file, /^compare-.*\.json$/);
  // report and diff read what it saved
  const text = await report(join(out, file));
  assert.match(text, /^mmapbench compare: readfilesync, [\s\S]*—\s+INTERRUPTED/);
  const changed = await diff(join(out, file), join(out, file));
  assert.equal(changed.command, 'diff');
  assert.equal(changed.points.length, 1);
  assert.ok(existsSync(join(out, file)));
});
