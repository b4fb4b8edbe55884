// Files and values that misbehave on purpose, run in-process: a device or a FIFO named as an
// output, a results file that would choose what runs or where it writes, a file edited into
// shapes a reader would trip on, control characters meant for the terminal. Each is refused by
// name (exit 2) or shown as text; nothing is written into a device, nothing runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { run } from '../src/cli/index.js';
import { loadSaved } from '../src/commands/index.js';
import { keptOptions } from '../src/core/typed-options.js';
import { shortBudgetText } from '../src/document/sentences.js';
import { upgraded } from '../src/saved/migrate.js';
import { fixture } from './helpers.js';

const folder = () => mkdtempSync(join(tmpdir(), 'mmapbench-hostile-'));
const saved = (/** @type {string} */ name) => JSON.parse(readFileSync(fixture(`saved/${name}`), 'utf8'));

/** A stream that keeps what is written. */
function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
}

/** Runs the CLI in-process: what it printed, or the error it threw. */
async function cli(/** @type {string[]} */ args) {
  const out = capture();
  const err = capture();
  try {
    await run(args, { stdout: out.stream, stderr: err.stream });
    return { stdout: out.text(), stderr: err.text(), error: null };
  } catch (error) {
    return { stdout: out.text(), stderr: err.text(), error };
  }
}

/** Asserts a usage error (exit 2) of one line matching `message`. */
const refusedWith = (/** @type {any} */ result, /** @type {RegExp} */ message) => {
  assert.ok(result.error, `refused: ${result.stdout}`);
  assert.equal(result.error.exitCode, 2, result.error.message);
  assert.match(result.error.message, message);
  assert.doesNotMatch(result.error.message, /\n/);
};

/** A character device like /dev/full (1, 7), made in a folder of the test's own. */
function device(dir = folder()) {
  const path = join(dir, 'full');
  execFileSync('mknod', [path, 'c', '1', '7']);
  return path;
}

test('a device or a FIFO named as an output is refused (exit 2) and left as it was', async () => {
  const dir = folder();
  const node = device(dir);
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const file = fixture('saved/compare.json');
  for (const [args, message] of /** @type {Array<[string[], RegExp]>} */ ([
    [
      ['report', file, '--html', node],
      /^--html \S+full is a character device, not a regular file; .*pass a file name$/,
    ],
    [
      ['report', file, '--export', `github-action-benchmark=${fifo}`],
      /fifo is a FIFO \(named pipe\), not a regular file/,
    ],
    [['compare', '--quick', '--export', `bencher=${node}`], /full is a character device, not a regular file/],
  ])) {
    refusedWith(await cli(args), message);
  }
  assert.ok(statSync(node).isCharacterDevice(), 'the device is still a device');
  assert.ok(statSync(fifo).isFIFO(), 'the FIFO is still a FIFO');
});

test('a step summary that is a device is not written into: a warning, the exit code unchanged', async () => {
  const node = device();
  const file = fixture('saved/compare.json');
  const before = process.env.GITHUB_STEP_SUMMARY;
  process.env.GITHUB_STEP_SUMMARY = node;
  try {
    const result = await cli(['diff', file, file, '--ci']);
    assert.equal(result.error, null, result.error?.message);
    assert.match(
      result.stderr,
      /^mmapbench: warning: not appended to \$GITHUB_STEP_SUMMARY \S+full: it is a character device, not a regular file; point it at a file$/m,
    );
  } finally {
    if (before === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    else process.env.GITHUB_STEP_SUMMARY = before;
  }
  assert.ok(statSync(node).isCharacterDevice());
});

/** A compare that was stopped after its rounds at k=2, with `resume` edited to `edit`. */
function stoppedCompare(/** @type {Record<string, unknown>} */ edit) {
  const document = saved('compare.json');
  document.status = 'interrupted';
  document.resume = { command: 'compare', task: 'readfilesync', cwd: '/tmp', ...edit };
  const path = join(folder(), 'compare.json');
  writeFileSync(path, JSON.stringify(document));
  return path;
}

test("a resumed run goes on at its rounds' k, and only the user's --force lifts the cap", async () => {
  refusedWith(
    await cli(['compare', '--resume', stoppedCompare({ k: 300, force: true })]),
    /: resume\.k \(300\) is not the k its rounds ran at \(config\.k 2\); start a new run$/,
  );
  // the file's own force is not the user's: with the rounds at 300 too, the cap holds
  const path = stoppedCompare({ k: 300, force: true });
  const document = JSON.parse(readFileSync(path, 'utf8'));
  document.config.k = 300;
  writeFileSync(path, JSON.stringify(document));
  refusedWith(
    await cli(['compare', '--resume', path]),
    /^--resume \S+: resume\.k 300 is more than \d+ \(4 × the \d+ CPUs here, or 256, whichever is larger\); add --force to go on at this k, or start a new run$/,
  );
  const given = { force: true };
  assert.equal(keptOptions({ command: 'compare', k: 300 }, { path, field: 'resume', given, k: 300 }).force, true);
  assert.equal(
    keptOptions({ command: 'compare', k: 300, force: true }, { path, field: 'resume', given: {} }).force,
    false,
  );
});

test("a resumed sweep's or advise's k past the cap is refused naming the file's field and the fix", async () => {
  const shared = { command: 'compare', task: 'readfilesync', cwd: '/tmp', env: {}, params: {} };
  const axes = { node: [null], task: [null], variant: [{ name: 'default', env: {} }], file: [null], params: {} };
  for (const [command, resume, field] of [
    ['sweep', { axes: { ...axes, k: [300], cycles: [null] }, shared }, 'resume\\.axes\\.k'],
    [
      'advise',
      { shared: { ...shared, k: 300 }, advise: { for: 'throughput', only: null, race: true, kAuto: false, node: [] } },
      'resume\\.shared\\.k',
    ],
  ]) {
    const document = saved(`${command}${command === 'sweep' ? '-quick' : ''}.json`);
    document.status = 'interrupted';
    document.resume = resume;
    const path = join(folder(), `${command}.json`);
    writeFileSync(path, JSON.stringify(document));
    refusedWith(
      await cli([command, '--resume', path]),
      new RegExp(
        `^--resume \\S+: ${field} 300 is more than \\d+ \\(4 × the \\d+ CPUs here, or 256, whichever is larger\\); add --force to go on at this k, or start a new run$`,
      ),
    );
  }
});

test("a resumed file's built-in key names are names like any other: refused as no setting", async () => {
  for (const [name, value] of [
    ['__proto__', '{}'],
    ['constructor', '1'],
    ['toString', '1'],
  ]) {
    const path = stoppedCompare({});
    // as a file has it: JSON.parse keeps "__proto__" as an own key
    const text = readFileSync(path, 'utf8');
    writeFileSync(
      path,
      text.replace('"resume":{"command":"compare"', `"resume":{"command":"compare","${name}":${value}`),
    );
    refusedWith(await cli(['compare', '--resume', path]), new RegExp(`resume\\.${name} is no setting mmapbench keeps`));
  }
});

test('a folder a results file names for the fixtures is used only when the user names it again', async () => {
  refusedWith(
    await cli(['compare', '--resume', stoppedCompare({ fixturesDir: '/tmp/elsewhere' })]),
    /runs \/tmp\/elsewhere \(--fixtures-dir\); a results file may come from anyone, so name it yourself: add --fixtures-dir \/tmp\/elsewhere$/,
  );
  const dir = folder();
  const file = join(dir, 'results.jsonl');
  const [header, ...rest] = readFileSync(fixture('saved/reproduce.jsonl'), 'utf8').split('\n');
  const edited = { ...JSON.parse(header), options: { ...JSON.parse(header).options, fixturesDir: '/tmp/elsewhere' } };
  // a run that was killed: no end record
  writeFileSync(file, [JSON.stringify(edited), ...rest.filter((line) => !line.includes('"type":"end"'))].join('\n'));
  refusedWith(
    await cli(['reproduce', '--resume', file]),
    /runs \/tmp\/elsewhere \(--fixtures-dir\); a results file may come from anyone, so name it yourself: add --fixtures-dir \/tmp\/elsewhere$/,
  );
});

/** Writes `document` (or text) to a file of its own and loads it as report would. */
function load(/** @type {unknown} */ document, name = 'edited.json') {
  const path = join(folder(), name);
  writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document));
  try {
    return { document: loadSaved(path).document, error: null };
  } catch (error) {
    return { document: null, error };
  }
}

test('a file at this schema needs every field the migration fills for an older one', () => {
  // as this mmapbench saves them
  const advise = upgraded(saved('advise.json'));
  const sweep = upgraded(saved('sweep.json'));
  for (const [document, edit, field] of /** @type {Array<[any, (d: any) => void, string]>} */ ([
    [advise, (d) => delete d.advice.for, 'advice.for is missing'],
    [advise, (d) => delete d.advice.defaults, 'advice.defaults is missing'],
    [sweep, (d) => delete d.axes.cycles, 'axes.cycles is missing'],
  ])) {
    const copy = structuredClone(document);
    edit(copy);
    const { error } = load(copy);
    refusedWith({ error }, new RegExp(`^\\S+: ${field.replace('.', '\\.')}; the file was changed or damaged`));
    // at schema 1 the migration fills it
    delete copy.schema;
    assert.equal(load(copy).error, null);
  }
});

test('an invalid "schema" says what to pass', () => {
  for (const value of ['0', '-1', 'true', '[2]', '"1.5"', '1e309']) {
    const text = JSON.stringify({ ...saved('compare.json'), schema: 'X' }).replace('"schema":"X"', `"schema":${value}`);
    refusedWith(
      load(text),
      /has an invalid "schema" \(.+\): mmapbench writes a whole number from 1 to \d+; pass the file as mmapbench saved it$/,
    );
  }
});

test('a summary or a round edited out of shape is refused by name, never printed as NaN', () => {
  const compare = saved('compare-end.json');
  compare.workers.keptMemory = {};
  refusedWith(load(compare), /: workers\.keptMemory\.median is missing; the file was changed or damaged/);
  const rounds = saved('compare.json');
  delete rounds.rounds[1].order;
  refusedWith(load(rounds), /: rounds\[1\]\.order is missing/);
});

test("a reproduce run's results file, as lines of an earlier mmapbench, is checked field by field", () => {
  const [header, ...lines] = readFileSync(fixture('saved/reproduce.jsonl'), 'utf8').trimEnd().split('\n');
  const cell = JSON.parse(lines[0]);
  for (const [edit, message] of /** @type {Array<[(lines: any[]) => void, RegExp]>} */ ([
    [(all) => (all[1].cell.throughput = 'fast'), /records\[0\]\.cell\.throughput must be a number \(it is "fast"\)/],
    [(all) => (all[1].cell.throughput = -5), /records\[0\]\.cell\.throughput must be a number > 0 \(it is -5\)/],
    [(all) => (all[1].cell.workers = 'x'), /records\[0\]\.cell\.workers must be an array \(it is "x"\)/],
    [(all) => (all[0].environment = {}), /: environment\.node is missing/],
  ])) {
    const all = [JSON.parse(header), structuredClone(cell)];
    edit(all);
    refusedWith(load(all.map((one) => JSON.stringify(one)).join('\n'), 'results.jsonl'), message);
  }
});

test('control characters from a file are shown escaped, never sent to the terminal', async () => {
  const document = saved('compare.json');
  document.config.task.name = '\u001b]0;pwn\u0007\u001b[2J';
  document.environment.kernel = '6.1\u001b[31m\nforged line';
  const path = join(folder(), 'compare.json');
  writeFileSync(path, JSON.stringify(document));
  const result = await cli(['report', path, '--verbose']);
  assert.equal(result.error, null, result.error?.message);
  const controls = [...result.stdout].filter((c) => (c < ' ' && c !== '\n') || c === '\u007f');
  assert.deepEqual(controls, [], 'no control character but newlines');
  assert.match(result.stdout, /\\u001b\]0;pwn\\u0007\\u001b\[2J/);
  assert.match(result.stdout, /6\.1\\u001b\[31m\\nforged line/);
  assert.doesNotMatch(result.stdout, /^forged line/m);
});

test('a budget is quoted as it was given', () => {
  const short = { maxTime: 1.5, counted: 0, roundSeconds: 4.2, pilot: false, suggestMaxTime: 9 };
  assert.match(shortBudgetText(short, 5), /^no round counted within the 1\.5 s budget: the first round took 4 s;/);
});
