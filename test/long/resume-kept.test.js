// Nothing measured is lost: a compare keeps its document after every round, so a SIGKILL leaves
// every finished round on disk; `report` reads it as a document that did not finish, and
// `--resume` goes on with it, with the settings it was started with, on the same machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture, killedCompare, measured, namedAgain } from '../helpers.js';

// one killed run serves both tests: the first resumes it, the second refuses its copy
const killed = killedCompare(6);

test('a SIGKILLed compare keeps every finished round; report and diff read it as incomplete; --resume goes on with it', async () => {
  const { path, copy, document: kept } = await killed;
  assert.equal(kept.status, 'incomplete');
  assert.ok(
    kept.points[0].rounds.length >= 2 && kept.points[0].rounds.length < 6,
    `${kept.points[0].rounds.length} rounds kept`,
  );
  assert.ok(
    kept.points[0].rounds.every((round) => round.workers && round.procs),
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

  // through a symbolic link: the run goes on in the link's target, and the link stays a link
  const link = join(mkdtempSync(join(tmpdir(), 'mmapbench-link-')), 'link.json');
  symlinkSync(path, link);
  const resumed = await cli(['compare', '--resume', link, ...namedAgain(kept), '--json']);
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.match(
    resumed.stderr,
    new RegExp(`^mmapbench: resuming ${path}: ${kept.points[0].rounds.length} rounds kept`, 'm'),
  );
  const doc = measured(resumed.stdout);
  assert.equal(doc.status, 'complete');
  assert.equal(doc.resume, undefined, 'a finished run carries no resume');
  assert.deepEqual(
    doc.rounds.map((round) => round.index),
    [1, 2, 3, 4, 5, 6],
    'numbered on from the last kept round',
  );
  // what was kept is kept as it was measured
  for (const [i, round] of kept.points[0].rounds.entries()) assert.deepEqual(doc.rounds[i].workers, round.workers);
  assert.equal(doc.ratio.n, 6);
  assert.ok(doc.seconds > kept.seconds, 'its time goes on from the kept time');
  // the same file, now whole
  assert.deepEqual(measured(readFileSync(path, 'utf8')).rounds.length, 6);
  assert.match(resumed.stderr, new RegExp(`^mmapbench: saved ${path}$`, 'm'));
  assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
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
      ['compare', '--resume', path, '--rounds', '2'],
      /^mmapbench: --rounds cannot be used with --resume: the run goes on with the settings it was started with; drop --rounds$/,
    ],
    [
      ['compare', '--resume', path, '--task', 'json'],
      /^mmapbench: --task json is not what --resume \S+ ran with \(\S+account-probe\.js\): a resumed run goes on with the same task; drop --task, or start a new run$/,
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
      ['compare', '--resume', other, ...namedAgain(kept)],
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

test('--resume runs the kept settings only once each passes the check its option gets, and runs no binary the file alone names', async () => {
  const { document: kept } = await killed;
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-edited-'));
  /** @param {string} name @param {(resume: any) => void} edit */
  const edited = (name, edit) => {
    const document = structuredClone(kept);
    edit(document.resume);
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(document));
    return path;
  };
  const table = /** @type {Array<[(resume: any) => void, RegExp]>} */ ([
    [
      (r) => (r.k = -3),
      /resume\.k is refused as the command line would refuse it: -k -3 is invalid: it must be a whole number of 1 or more/,
    ],
    [(r) => (r.k = 'abc'), /resume\.k must be a number \(it is "abc"\)/],
    [
      (r) => (r.duration = -1),
      /resume\.duration is refused .*--duration -1 is invalid: it must be a number greater than 0/,
    ],
    [(r) => (r.rounds = 0), /resume\.rounds is refused .*--rounds 0 is invalid/],
    [(r) => (r.timeout = 1e12), /resume\.timeout is refused .*--timeout 1000000000000 is invalid/],
    [(r) => (r.warmup = 'lots'), /resume\.warmup must be a number or steady \(it is "lots"\)/],
    [
      (r) => (r.precision = 5),
      /resume\.precision is refused .*--precision 5 is invalid: it must be a fraction between 0 and 1/,
    ],
    [(r) => (r.aa = 'both'), /resume\.aa must be one of workers, procs \(it is "both"\)/],
    [(r) => (r.env = { MALLOC_ARENA_MAX: 1 }), /resume\.env\.MALLOC_ARENA_MAX must be a string \(it is 1\)/],
    [(r) => (r.cwd = 'relative'), /resume\.cwd must be an absolute path \(it is "relative"\)/],
    [(r) => (r.unknown = true), /resume\.unknown is no setting mmapbench keeps/],
    [
      (r) => (r.task = fixture('throws.js')),
      /resume names task module \S+throws\.js, which the run did not load \(it is not in "modules"\); start a new run$/,
    ],
    [
      (r) => (r.env = { ...r.env, NODE_OPTIONS: '--require ./x.cjs' }),
      /sets NODE_OPTIONS in the cells \(resume\.env\); a results file may come from anyone, so name it yourself: add --env NODE_OPTIONS='--require \.\/x\.cjs', or start a new run$/,
    ],
    [
      (r) => (r.node = '/bin/false'),
      /runs \/bin\/false \(--node\); a results file may come from anyone, so name it yourself: add --node \/bin\/false$/,
    ],
    [(r) => (r.trace = { bpftrace: '/bin/false' }), /runs \/bin\/false \(--bpftrace\).*add --bpftrace \/bin\/false$/],
  ]);
  const cases = table.map(([edit, message], i) => ({ path: edited(`edited-${i}`, edit), edit, message }));
  // what the file names to load or run, named again as the file has it, but for an edited environment
  const named = (/** @type {string} */ path) => {
    const { resume } = JSON.parse(readFileSync(path, 'utf8'));
    return namedAgain({ resume: { ...resume, env: kept.resume.env } });
  };
  // each is refused before any cell runs: checked side by side, as no measurement is
  const results = await Promise.all(
    cases.map(({ path }) => cli(['compare', '--resume', path, ...named(path)], { timeout: 20000 })),
  );
  results.forEach((result, i) => {
    assert.equal(result.exitCode, 2, `${cases[i].edit}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr.trim(), cases[i].message);
  });
  // a binary named again that is not the file's
  const nodeFile = edited('node', (r) => (r.node = '/bin/false'));
  const other = await cli(['compare', '--resume', nodeFile, '--node', '/bin/true', ...namedAgain(kept)], {
    timeout: 20000,
  });
  assert.equal(other.exitCode, 2);
  assert.match(other.stderr, /^mmapbench: --node \/bin\/true is not what --resume \S+ ran with \(\/bin\/false\)/);
  // named again, it is checked as --node would be: /bin/false is no Node
  const vouched = await cli(['compare', '--resume', nodeFile, '--node', '/bin/false', ...namedAgain(kept)], {
    timeout: 20000,
  });
  assert.equal(vouched.exitCode, 2);
  assert.match(vouched.stderr, /--node \/bin\/false/);
});

test('a resumed file that sets NODE_OPTIONS, LD_PRELOAD or LD_LIBRARY_PATH for the cells runs nothing it names', async () => {
  const { document: kept } = await killed;
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-hostile-env-'));
  const ran = join(dir, 'ran');
  const probe = join(dir, 'x.cjs');
  writeFileSync(probe, `require('node:fs').appendFileSync(${JSON.stringify(ran)}, 'x');\n`);
  const cases = [
    ['NODE_OPTIONS', `--require ${probe}`],
    ['NODE_OPTIONS', `--import=${probe}`],
    ['LD_PRELOAD', join(dir, 'x.so')],
    ['LD_LIBRARY_PATH', dir],
  ].map(([name, value], i) => {
    const document = structuredClone(kept);
    document.resume.env = { ...document.resume.env, [name]: value };
    const path = join(dir, `compare-${i}.json`);
    writeFileSync(path, JSON.stringify(document));
    return { name, value, path };
  });
  // the task module and the test's own mark named again, as a user would who trusts them; each
  // refused before anything runs, so side by side
  const results = await Promise.all(
    cases.map(({ path }) => cli(['compare', '--resume', path, ...namedAgain(kept)], { timeout: 20000 })),
  );
  results.forEach((result, i) => {
    const { name, value, path } = cases[i];
    assert.equal(result.exitCode, 2, result.stderr);
    assert.match(
      result.stderr.trim(),
      new RegExp(`^mmapbench: --resume \\S+ sets ${name} in the cells \\(resume\\.env\\)`),
    );
    assert.deepEqual(
      JSON.parse(readFileSync(path, 'utf8')).points[0].rounds,
      kept.points[0].rounds,
      `${name}=${value}: the file untouched`,
    );
  });
  assert.equal(existsSync(ran), false, 'nothing the file names ran');
});
