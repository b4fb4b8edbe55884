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
import { compare, diff, EXIT_CODES, MmapbenchError, report, sweep, trace } from 'mmapbench';
import { cli } from '../helpers.js';
import { usableCpus } from '../../src/system/cpus.js';
import { oversubscribed as oversubscribed_ } from '../../src/run/plan.js';

const API = fileURLToPath(new URL('../../src/api.js', import.meta.url));
const CONTAINMENT = fileURLToPath(new URL('../../src/system/containment.js', import.meta.url));

test('compare resolves with the document --json prints; nothing is written or saved; progress after every cell', async () => {
  // in a process of its own, so that anything it wrote would show: only the script's own line may
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-api-'));
  // one k more than this process may use: a warning, which reaches the caller, not stderr
  const k = usableCpus().usable + 1;
  const script = `
    import { compare } from ${JSON.stringify(pathToFileURL(API).href)};
    const events = [];
    const warned = [];
    const document = await compare({
      quick: true,
      k: ${k},
      env: { MMAPBENCH_API: 1 },
      onProgress: (event) => events.push(event),
      onWarning: (warning) => warned.push(warning),
    });
    // what contained its trees ends when the call settles, not when this process exits
    const { readdirSync, readFileSync } = await import('node:fs');
    const { ownCgroup } = await import(${JSON.stringify(pathToFileURL(CONTAINMENT).href)});
    const field = (pid, i) => { try { return readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' ')[i]; } catch { return null; } };
    const watchers = () => readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid) && field(pid, 1) === String(process.pid) && field(pid, 0) !== 'Z');
    const groups = () => { const { dir } = ownCgroup(); return dir ? readdirSync(dir).filter((name) => name.startsWith('mmapbench-' + process.pid + '-')) : []; };
    for (let i = 0; i < 200 && (watchers().length || groups().length); i++) await new Promise((r) => setTimeout(r, 10));
    const left = { watchers: watchers().length, groups: groups() };
    process.stdout.write(JSON.stringify({ document, events, warned, left }));
  `;
  const { MMAPBENCH_RESULTS, ...env } = process.env;
  const summary = join(mkdtempSync(join(tmpdir(), 'mmapbench-summary-')), 'summary.md');
  const child = await execa(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: { ...env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: summary },
    extendEnv: false,
    reject: false,
  });
  assert.equal(child.exitCode, 0, child.stderr);
  assert.equal(child.stderr, '', 'nothing on stderr');
  assert.equal(existsSync(summary), false, 'nothing appended to $GITHUB_STEP_SUMMARY');
  const { document, events, warned, left } = JSON.parse(child.stdout);
  assert.deepEqual(left, { watchers: 0, groups: [] }, 'no watcher or cgroup left once the call settled');
  const oversubscribed = { code: 'oversubscribed', text: oversubscribed_(k, k - 1) };
  assert.deepEqual(warned, [oversubscribed], 'onWarning, as it happened');
  assert.deepEqual(document.warnings, [oversubscribed], 'and in the document');
  assert.equal(document.command, 'compare');
  assert.equal(document.status, 'complete');
  assert.equal(document.config.env.MMAPBENCH_API, '1');
  assert.equal(events.length, 2 * document.points[0].rounds.length, 'two cells a round');
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
  await assert.rejects(compare({ env: 'A=1' }), /env must be an object \(it is "A=1"\); see docs\/api\.md$/);
});

test('every bad option is a usage error naming it, before anything runs or is saved', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-api-bad-'));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    /** @type {Array<[() => Promise<unknown>, RegExp]>} */
    const cases = [
      [() => compare({ '': 'x' }), /^compare has no option ''; see docs\/api\.md for its options$/],
      [() => compare({ help: true }), /^compare has no option 'help'/],
      [() => compare({ version: true }), /^compare has no option 'version'/],
      [() => compare({ maxTme: 5 }), /^compare has no option 'maxTme' \(did you mean maxTime\?\)/],
      [() => compare({ task: '--help' }), /--help/],
      [() => compare({ signal: /** @type {any} */ ('yes') }), /^signal must be an AbortSignal/],
      [() => compare({ onProgress: /** @type {any} */ (5) }), /^onProgress must be a function$/],
      [() => compare({ json: true }), /^json is the command line's: the API returns the document$/],
      [() => compare({ k: /** @type {any} */ (true) }), /^k must be a number \(it is true\); see docs\/api\.md$/],
      [() => compare({ k: /** @type {any} */ ('2') }), /^k must be a number \(it is "2"\); see docs\/api\.md$/],
      [
        () => compare({ quick: /** @type {any} */ ('yes') }),
        /^quick must be a boolean \(it is "yes"\); see docs\/api\.md$/,
      ],
      [() => compare({ maxTime: /** @type {any} */ ('abc') }), /^maxTime must be a number \(it is "abc"\)/],
      [() => compare({ maxTime: -1 }), /^--max-time -1 is invalid/],
      [() => compare(/** @type {any} */ ('fast')), /^the options must be an object/],
      [
        () => sweep({ k: /** @type {any} */ ([1, {}]) }),
        /^k\[1\] must be a number \(it is an object\); see docs\/api\.md$/,
      ],
      [() => trace({ mode: /** @type {any} */ ('both') }), /^mode both is invalid/],
      [() => diff(/** @type {any} */ (1), 'b.json'), /^diff takes the paths of two results files/],
      [() => report([]), /^report takes the path of a results file/],
      [
        () => sweep({ cycles: [] }),
        /^cycles is an empty list: give it one value or more, or leave it out for the default$/,
      ],
      [() => sweep({ k: [], task: ['json'] }), /^k is an empty list/],
      [
        () => report(/** @type {any} */ ({ command: 'compare' })),
        /^report\(document\) is not a document an mmapbench function returned \(no "mmapbench" version field\)/,
      ],
      [
        () => report(/** @type {any} */ ({ mmapbench: '0.1.0', command: 'compare', status: 'complete' })),
        /^report\(document\): config is missing; /,
      ],
    ];
    for (const [call, message] of cases) {
      const error = await call().then(
        () => assert.fail(`resolved: ${message}`),
        (/** @type {unknown} */ caught) => caught,
      );
      assert.ok(error instanceof MmapbenchError, String(error));
      assert.equal(error.code, 'usage', error.message);
      assert.match(error.message, message);
    }
    assert.deepEqual(readdirSync(dir), [], 'nothing ran, nothing saved');
  } finally {
    process.chdir(cwd);
  }
});
