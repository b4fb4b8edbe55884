// --resume from another folder, with a task module that changed, and two runs going on with one
// file: a killed run and resumed runs of its own, too long for `npm test`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { BIN, cli, ENV, fixture, keptIn, namedAgain, until } from '../helpers.js';

test('--resume reads the task module the run began with, from any folder, and refuses it changed unless --force; two runs going on with one file, each into its own --out, cannot', async () => {
  // a run whose task was given by a relative path, killed once two rounds are kept
  const began = mkdtempSync(join(tmpdir(), 'mmapbench-began-'));
  const module = join(began, 'task.js');
  copyFileSync(fixture('account-probe.js'), module);
  const out = join(began, 'out');
  mkdirSync(out);
  const args = ['compare', '--task', './task.js', '--param', 'kind=sleep', '--iterations', '20', '-k', '1'];
  const run = execa(process.execPath, [BIN, ...args, '--rounds', '6', '--out', out], {
    cwd: began,
    reject: false,
    env: ENV,
  });
  assert.ok(await until(() => (keptIn(out)?.document.order.length ?? 0) >= 2, 60000), 'two rounds kept');
  run.kill('SIGKILL');
  await run;
  const { path, document } = /** @type {NonNullable<ReturnType<typeof keptIn>>} */ (keptIn(out));
  assert.equal(document.resume.cwd, began);
  assert.deepEqual(Object.keys(document.modules), [module]);
  assert.match(document.modules[module], /^[0-9a-f]{64}$/);
  const copy = (/** @type {string} */ name) => {
    const to = join(began, `${name}.json`);
    copyFileSync(path, to);
    return to;
  };
  const [first, second, third] = ['first', 'second', 'third'].map(copy);

  // another folder with another ./task.js: the run goes on with the one it began with
  const elsewhere = mkdtempSync(join(tmpdir(), 'mmapbench-elsewhere-'));
  writeFileSync(join(elsewhere, 'task.js'), 'export default { run() { throw new Error("not this one"); } };\n');
  const resumed = await cli(['compare', '--resume', first, ...namedAgain(document), '--json'], { cwd: elsewhere });
  assert.equal(resumed.exitCode, 0, resumed.stderr);
  assert.equal(JSON.parse(resumed.stdout).config.task.module, pathToFileURL(module).href);

  // the module changed: refused, the file untouched; --force goes on, and says so
  writeFileSync(module, `${readFileSync(module, 'utf8')}\n// changed\n`);
  const text = readFileSync(second, 'utf8');
  const refused = await cli(['compare', '--resume', second, ...namedAgain(document)], { cwd: elsewhere });
  assert.equal(refused.exitCode, 2, refused.stderr);
  assert.match(
    refused.stderr.trim(),
    /^mmapbench: --resume \S+ ran task module \S+task\.js, which has changed since \(its SHA-256 differs\): new rounds would measure other code than the kept ones; restore it, start a new run, or pass --force to go on with it as it is$/,
  );
  assert.equal(readFileSync(second, 'utf8'), text);
  const forced = await cli(['compare', '--resume', second, ...namedAgain(document), '--force'], { cwd: elsewhere });
  assert.equal(forced.exitCode, 0, forced.stderr);
  assert.match(
    forced.stderr,
    /^mmapbench: warning: task module \S+task\.js changed since the run began; going on with it as it is \(--force\)$/m,
  );

  // two runs going on with one file into two folders: the second is refused while the first runs
  const [a, b] = ['a', 'b'].map((name) => join(began, name));
  const one = execa(
    process.execPath,
    [BIN, 'compare', '--resume', third, ...namedAgain(document), '--force', '--out', a],
    {
      reject: false,
      env: ENV,
    },
  );
  assert.ok(await until(() => existsSync(`${third}.lock`), 30000), 'the first took the file');
  const two = await cli(['compare', '--resume', third, ...namedAgain(document), '--force', '--out', b]);
  assert.equal(two.exitCode, 2, two.stderr);
  assert.match(two.stderr, /^mmapbench: --resume \S+third\.json is in use by another mmapbench run/);
  assert.equal((await one).exitCode, 0);
});
