// Each command's --help lists what that command accepts, with the value each option takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from '../helpers.js';
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
