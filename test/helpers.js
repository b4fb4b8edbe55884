import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export const BIN = fileURLToPath(new URL('../bin/mmapbench.js', import.meta.url));
export const fixture = (name) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Runs the real CLI; never rejects, so a test can assert the exit code. */
export const cli = (args, options = {}) =>
  execa(process.execPath, [BIN, ...args], { reject: false, env: { NO_COLOR: '1' }, timeout: 120000, ...options });

/**
 * Pids of processes whose environment carries this marker: cells are started with
 * `--env MMAPBENCH_TEST_MARK=...`, so after the CLI exits this must come back empty.
 */
export function processesMarked(mark) {
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`MMAPBENCH_TEST_MARK=${mark}`)) found.push(Number(pid));
    } catch {}
  }
  return found;
}

let counter = 0;
export const uniqueMark = () => `${process.pid}-${Date.now()}-${counter++}`;
