// A task that floods its stdout must not break a run, and a failure shows the last of what it
// printed, capped (moved from test/cli/hostile.test.js: six runs, too long for npm test's budget).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, fixture } from '../helpers.js';

const LIMIT = { timeout: 30000 };

test(
  'a task that floods stdout: the run passes with or without --verbose, and a failure shows the last of it, capped',
  LIMIT,
  async () => {
    const flood = [
      '--task',
      fixture('floods-stdout.js'),
      '-k',
      '2',
      '--iterations',
      '10',
      '--rounds',
      '1',
      '--no-save',
    ];
    for (const mode of ['workers', 'procs']) {
      for (const verbose of [[], ['--verbose']]) {
        const result = await cli([mode, ...flood, ...verbose]);
        assert.equal(result.exitCode, 0, `${mode} ${verbose}: ${result.stderr.slice(0, 500)}`);
        assert.ok(result.stderr.length < 4096, `${mode} ${verbose}: ${result.stderr.length} bytes on stderr`);
      }
      const failed = await cli([mode, ...flood, '--verbose', '--env', 'FLOOD_THEN_EXIT=1']);
      assert.equal(failed.exitCode, 1);
      assert.match(failed.stderr, /^mmapbench: (worker|process) \d exited with code 3 before finishing/m);
      assert.match(
        failed.stderr,
        /^(the workers host process|the procs parent process) stdout:\n\[\d+ bytes before this left out\]\nx+$/m,
      );
      assert.ok(failed.stderr.length < 200 * 1024, `${failed.stderr.length} bytes on stderr`);
    }
  },
);
