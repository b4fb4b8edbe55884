// Nothing measured is lost: a compare keeps its document after every round, so a SIGKILL leaves
// every finished round on disk; `report` reads it as a document that did not finish, and
// `--resume` goes on with it, with the settings it was started with, on the same machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, killedCompare } from '../helpers.js';

// one killed run serves both tests: the first resumes it, the second refuses its copy
const killed = killedCompare(6);

test('a SIGKILLed compare keeps every finished round; report and diff read it as incomplete; --resume goes on with it', async () => {
  const { path, copy, document: kept } = await killed;
  assert.equal(kept.status, 'incomplete');
  assert.ok(kept.rounds.length >= 2 && kept.rounds.length < 6, `${kept.rounds.length} rounds kept`);
  assert.ok(
    kept.rounds.every((round) => round.workers && round.procs),
    'whole rounds only',
  );
  assert.equal(kept.resume.command, 'compare');
  assert.equal(kept.resume.rounds, 6);

  const report = await cli(['report', path]);
  assert.equal(report.exitCode, 0, report.stderr);
  assert.match(report.stdout, /^mmapbench compare: account-probe,[\s\S]* — INCOMPLETE\s+after\s+\d+ of 6\s+rounds$/m);
  assert.match(report.stdout, /^incomplete: kept after every round of a run that did not finish/m);
  const verbose = await cli(['report', path, '--verbose']);
  assert.match(verbose.stdout, /^mmapbench compare: task account-probe, .* — INCOMPLETE after\s+\d+ of 6\s+rounds$/m);
  assert.match(report.stdout, /mmapbench compare --resume FILE/);

  const diff = await cli(['diff', copy, path]);
  assert.equal(diff.exitCode, 0, diff.stderr);
  assert.match(diff.stdout, /^base \(compare, [\d-]+ [\d:]+ UTC, INCOMPLETE\):/m, 'diff says so too');

  const resumed = await cli(['compare', '--resume', path, '--json']);
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`^mmapbench: resuming ${path}: ${kept.rounds.length} rounds kept`, 'm'));
  const doc = JSON.parse(resumed.stdout);
  assert.equal(doc.status, 'complete');
  assert.equal(doc.resume, undefined, 'a finished run carries no resume');
  assert.deepEqual(
    doc.rounds.map((round) => round.index),
    [1, 2, 3, 4, 5, 6],
    'numbered on from the last kept round',
  );
  // what was kept is kept as it was measured
  for (const [i, round] of kept.rounds.entries()) assert.deepEqual(doc.rounds[i].workers, round.workers);
  assert.equal(doc.ratio.n, 6);
  assert.ok(doc.seconds > kept.seconds, 'its time goes on from the kept time');
  // the same file, now whole
  assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')).rounds.length, 6);
  assert.match(resumed.stderr, new RegExp(`^mmapbench: saved ${path}$`, 'm'));
});

test('--resume refuses what it cannot go on with: one line each, exit 2, the file untouched', async () => {
  const { copy: path, document: kept } = await killed;
  const text = readFileSync(path, 'utf8');
  const other = join(mkdtempSync(join(tmpdir(), 'mmapbench-other-')), 'compare.json');
  writeFileSync(other, JSON.stringify({ ...kept, environment: { ...kept.environment, kernel: '4.19.0-other' } }));
  const finished = join(mkdtempSync(join(tmpdir(), 'mmapbench-done-')), 'compare.json');
  writeFileSync(finished, JSON.stringify({ ...kept, status: 'complete' }));
  for (const [args, message] of [
    [
      ['compare', '--resume', path, '--task', 'json'],
      /^mmapbench: --task cannot be used with --resume: the run goes on with the settings it was started with; drop --task$/,
    ],
    [
      ['sweep', '--resume', path],
      /^mmapbench: --resume \S+ is a compare run; resume it with `mmapbench compare --resume`$/,
    ],
    [
      ['compare', '--resume', finished],
      /^mmapbench: --resume \S+ finished \(status complete\): there is nothing to go on with; start a new run$/,
    ],
    [
      ['compare', '--resume', other],
      /^mmapbench: --resume \S+ was measured on another machine or setting \(kernel 4\.19\.0-other then, \S+ now\): its rounds and new ones would not compare; start a new run$/,
    ],
  ]) {
    const result = await cli(args);
    assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr.trim(), message);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  }
  assert.equal(readFileSync(path, 'utf8'), text);
});
