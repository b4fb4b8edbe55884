// The API's runs that take longest, beside test/cli/api.test.js: a stop that keeps what
// finished, and a stopped run going on in its own file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, diff, report } from 'mmapbench';
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
  // a compare's one point holds its rounds, as each of a sweep's
  assert.ok(document.points[0].rounds.filter((/** @type {any} */ round) => round.complete).length >= 2);
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

test('resume goes on with a stopped run in its own file, without out', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mmapbench-api-resume-'));
  const stop = new AbortController();
  const stopped = await compare({
    k: 2,
    rounds: 3,
    duration: 0.05,
    out,
    signal: stop.signal,
    onProgress: (event) => event.round === 2 && event.mode === 'procs' && stop.abort(),
  });
  assert.equal(stopped.status, 'interrupted');
  const [file] = readdirSync(out);
  const resumed = await compare({ resume: join(out, file) });
  assert.equal(resumed.status, 'complete');
  const [before, after] = [stopped.points[0].rounds, resumed.points[0].rounds];
  assert.ok(after.length > before.length, 'more rounds');
  assert.deepEqual(after.slice(0, before.length), before, 'the kept rounds as they were');
  assert.deepEqual(readdirSync(out), [file], 'the file replaced in place, no other saved');
  // the document keeps figures; report() draws its sentences, as the CLI prints them
  assert.equal(resumed.points[0].verdict?.text, undefined);
  assert.equal(resumed.next, undefined);
  const text = await report(resumed);
  assert.match(text, /^mmapbench compare: readfilesync, med \(64 KiB\), k=2 /);
  assert.match(
    text,
    /^(workers|procs) (is|are) [\d.]+x faster|^workers and procs are equal|^inconclusive|^no significant difference|ratio [\d.]+ from/m,
  );
  assert.equal(text, await report(join(out, file)), 'the same text as its saved file');
});
