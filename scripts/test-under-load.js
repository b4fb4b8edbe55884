#!/usr/bin/env node
// `npm test` on a busy machine: runs it RUNS times (default 5) with SPINNERS processes (default
// 2, one per CPU here) spinning beside it, and prints each run's exit code, wall time and the
// test runner's pass and fail counts, with the names of the tests that failed. A test that
// passes only on a quiet machine shows here. The spinners are killed however the script ends.
//   node scripts/test-under-load.js [RUNS] [SPINNERS]
import { spawn, spawnSync } from 'node:child_process';

const runs = Number(process.argv[2] ?? 5);
const spinners = Number(process.argv[3] ?? 2);
// unref'd: they keep nothing alive; killed at exit
const children = Array.from({ length: spinners }, () => {
  const child = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
  child.unref();
  return child;
});
const stop = () => children.forEach((child) => child.kill('SIGKILL'));
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

console.log(`npm test, ${runs} runs, ${spinners} spinning processes beside it`);
for (let run = 1; run <= runs; run++) {
  const started = Date.now();
  const result = spawnSync('npm', ['test'], { encoding: 'utf8', maxBuffer: 256 << 20, env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const output = `${result.stdout}${result.stderr}`;
  const counts = (/** @type {string} */ name) =>
    [...output.matchAll(new RegExp(`^# ${name} ([\\d.]+)$`, 'gm'))].map((m) => m[1]);
  const failed = [...output.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => m[1]);
  // the runner's own durations: the unit half, then the end-to-end half
  const halves = counts('duration_ms').map((ms) => `${(Number(ms) / 1000).toFixed(1)} s`);
  console.log(
    `run ${run}: exit ${result.status}, ${seconds} s (unit ${halves[0] ?? '-'}, end to end ${halves[1] ?? '-'}); ` +
      `pass ${counts('pass').join(' + ')}, fail ${counts('fail').join(' + ')}` +
      (failed.length ? `; failed: ${failed.join(' | ')}` : ''),
  );
}
