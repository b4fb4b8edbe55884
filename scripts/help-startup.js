// How long `mmapbench --help` takes next to starting node itself (`node -e 0`): the CLI loads a
// command's modules only when that command runs, so help should cost little more than node.
// And how long a command takes to reach its handler: `compare --precision abc` is refused by the
// handler's first check, so its whole run is the start, the parse, the handler's first line and
// the exit. Interleaved runs, median of each; prints the ratio. Usage: node scripts/help-startup.js [runs]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from 'simple-statistics';

const runs = Number(process.argv[2] ?? 21);
const bin = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
/** @type {Record<string, [string, string[]]>} */
const commands = {
  'node -e 0': [process.execPath, ['-e', '0']],
  'mmapbench --help': [process.execPath, [bin, '--help']],
  'mmapbench compare --help': [process.execPath, [bin, 'compare', '--help']],
  'compare, to its handler': [process.execPath, [bin, 'compare', '--precision', 'abc']],
};

const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, [file, args]] of Object.entries(commands)) {
    const start = process.hrtime.bigint();
    try {
      execFileSync(file, args, { stdio: 'ignore' });
    } catch {
      // the handler's refusal: exit 2, as meant
    }
    times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
const base = median(times['node -e 0']);
for (const [name, samples] of Object.entries(times)) {
  const ms = median(samples);
  console.log(
    `${name.padEnd(26)} median ${ms.toFixed(0).padStart(4)} ms  ${(ms / base).toFixed(2)}x node -e 0  (${runs} runs)`,
  );
}
