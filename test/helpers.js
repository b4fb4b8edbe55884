import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * Tests that act as another local user (a hostile one) need root; they skip elsewhere, except
 * under CI, which runs as root and must not report them as passing without running them.
 */
export const asRoot = process.getuid?.() === 0 || process.env.CI ? {} : { skip: 'needs root to act as another user (nobody)' };

/** Runs a shell command as the unprivileged user nobody, the way a hostile local user would. */
export const asNobody = (script) =>
  execa('setpriv', ['--reuid', 'nobody', '--regid', 'nogroup', '--clear-groups', 'sh', '-c', script], { env: { PATH: '/usr/bin:/bin' } });

/** A temporary folder anyone may write, like /tmp (sticky, 1777). */
export function sharedTmp() {
  const dir = mkdtempSync(join(tmpdir(), 'mmapbench-shared-'));
  chmodSync(dir, 0o1777);
  return dir;
}

/** A root-only file with known content, to show it was not touched. */
export function victim(content = 'secret: not to be overwritten\n') {
  const path = join(mkdtempSync(join(tmpdir(), 'mmapbench-victim-')), 'victim');
  writeFileSync(path, content, { mode: 0o600 });
  return { path, content };
}
