// Each command's --help lists what that command accepts, with the value each option takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BIN, cli } from '../helpers.js';
import { measureOptions } from '../../src/core/typed-options.js';

const COMMANDS = ['compare', 'sweep', 'advise', 'workers', 'procs', 'trace', 'reproduce', 'report', 'diff', 'tasks'];

/** The options a help text lists, by name, with the placeholder each takes ('' for a flag). */
const listed = (/** @type {string} */ help) =>
  new Map(
    [...help.matchAll(/^ {2}(?:-\w, )? *--([a-z][a-z-]*) +(?:<([^>]+)>)?/gm)].map((match) => [
      match[1],
      match[2] ?? '',
    ]),
  );

const camel = (/** @type {string} */ name) => name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

const helps = new Map();
const helpOf = async (/** @type {string} */ command) => {
  if (!helps.has(command)) {
    const result = await cli([command, '--help']);
    assert.equal(result.exitCode, 0, result.stderr);
    helps.set(command, result.stdout);
  }
  return helps.get(command);
};

test('workers and procs list none of the options only compare takes, and accept every option they list', async () => {
  for (const command of /** @type {const} */ (['workers', 'procs'])) {
    const options = listed(await helpOf(command));
    assert.ok(options.size > 20, `${command}: ${[...options.keys()].join(' ')}`);
    for (const only of ['aa', 'precision', 'max-time', 'fail-below', 'fail-inconclusive', 'ci'])
      assert.ok(!options.has(only), `${command} --help lists --${only}`);
    for (const [name, takes] of options) {
      if (['help', 'version', 'resume', 'protocol'].includes(name)) continue;
      const value = takes === '' ? true : takes.startsWith('count') ? '2' : 'x';
      try {
        measureOptions({ [camel(name)]: value }, command);
      } catch (error) {
        assert.doesNotMatch(String(error.message), /is for compare/, `${command} --${name}`);
      }
    }
    // and the compare-only options are still refused, in one line, if typed anyway
    const refused = await cli([command, '--precision', '5%']);
    assert.equal(refused.exitCode, 2);
  }
  assert.ok(listed(await helpOf('compare')).has('fail-below'), 'compare keeps its gate');
});

test('every value option names what it takes: a version or a path for --node, words for --only', async () => {
  for (const command of COMMANDS) {
    for (const [name, takes] of listed(await helpOf(command))) {
      if (takes === '') continue;
      assert.match(takes, /\S/, `${command} --${name}`);
      if (name === 'node') assert.equal(takes.replace(',...', ''), 'version|path', `${command} --node`);
    }
  }
  assert.equal(listed(await helpOf('advise')).get('only'), 'words');
});

/**
 * The files of this repository a command line loads, in the order Node resolves them, with its
 * own paths relative to the repository (a resolve hook registered before the CLI starts).
 * @param {string[]} args
 */
async function loaded(args) {
  const hook = `export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    if (resolved.url.startsWith('file:')) process._rawDebug('loaded ' + resolved.url);
    return resolved;
  }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const root = new URL('../../', import.meta.url).href;
  const { execa } = await import('execa');
  const result = await execa(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args],
    { reject: false },
  );
  assert.equal(result.exitCode, 0, result.stderr);
  return [...result.stderr.matchAll(/^loaded (\S+)$/gm)].map((match) => match[1].replace(root, ''));
}

test('--help loads no command: their names and descriptions only, yargs through require', async () => {
  const files = await loaded(['--help']);
  assert.ok(files.includes('src/cli/commands.js'), files.join(' '));
  for (const file of files) {
    assert.ok(!/^src\/(cli\/(?!index|commands)|run\/|core\/(?!option-spec))/.test(file), file);
    assert.ok(!/node_modules\/execa\//.test(file), file);
  }
  // its ES module entry scans the CommonJS build it wraps for exports, 12 ms of the 76 --help took
  assert.ok(!files.includes('node_modules/yargs/yargs.mjs'));
});

test("a command's --help loads that command's module and no other command's", async () => {
  const files = await loaded(['tasks', '--help']);
  assert.ok(files.includes('src/cli/tasks.js'), files.join(' '));
  // the shell's own modules and this command's: no other command's yargs module
  assert.deepEqual(
    files.filter((file) => /^src\/cli\//.test(file) && !/^src\/cli\/(index|commands|tasks)\.js$/.test(file)),
    [],
  );
  // a folder a command: nothing of another's
  assert.deepEqual(
    files.filter((file) => /^src\/commands\/[^/]+\//.test(file) && !file.startsWith('src/commands/tasks/')),
    [],
  );
});

test('compare --quick loads its own folder and what its run uses: no other command, installer or exporter', async () => {
  const files = await loaded(['compare', '--quick', '--no-save']);
  assert.ok(files.includes('src/commands/compare/run.js'), files.join(' '));
  const unasked = files.filter((file) =>
    /^src\/(commands\/(?!compare\/|trace\/model\.js)|system\/(node-release|jemalloc)\.js|saved\/export\.js|trace\/(preflight|tracer)\.js)/.test(
      file,
    ),
  );
  assert.deepEqual(unasked, []);
});
