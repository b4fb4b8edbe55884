import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { environmentError } from '../errors.js';
import { which } from '../system/which.js';

export const TRACEFS = '/sys/kernel/tracing';
const LEGACY_TRACEFS = '/sys/kernel/debug/tracing';
const MOUNT_COMMAND = `mount -t tracefs nodev ${TRACEFS}`;
const TRACEPOINTS = ['mmap_lock_start_locking', 'mmap_lock_acquire_returned', 'mmap_lock_released'];
const MIN_BPFTRACE = [0, 16];
// Since 5.11 BPF memory is charged to the memory cgroup and RLIMIT_MEMLOCK no longer applies.
const MEMCG_ACCOUNTING = [5, 11];
const MIN_MEMLOCK = 64 * 1024 * 1024;
const CHECK_TIMEOUT_MS = 15_000;

/** What preflight reads off the machine; tests hand in a stand-in. */
const realHost = {
  platform: process.platform,
  uid: () => process.getuid?.() ?? -1,
  kernel: () => os.release(),
  exists: (/** @type {string} */ file) => existsSync(file),
  which,
  // A wedged binary or mount must not hang the run: both get a time limit and Ctrl-C.
  version: async (/** @type {string} */ bpftrace, /** @type {AbortSignal | undefined} */ cancelSignal) =>
    (await execa(bpftrace, ['--version'], { timeout: CHECK_TIMEOUT_MS, cancelSignal })).stdout,
  memlockLimit,
  mountTracefs: async (/** @type {AbortSignal | undefined} */ cancelSignal) => {
    await execa('mount', ['-t', 'tracefs', 'nodev', TRACEFS], { timeout: CHECK_TIMEOUT_MS, cancelSignal });
  },
};

/**
 * @typedef {object} TraceSetup
 * @property {string} bpftrace  its path
 * @property {string} version
 * @property {string} tracefs   where the tracepoints were found
 * @property {boolean} mounted  tracefs was mounted by this run (--mount-tracefs)
 */

/**
 * Everything `mmapbench trace` needs, checked before any cell starts, in the order a person
 * would fix them. Each failure names the exact fix.
 * @param {{ bpftrace?: string, mountTracefs?: boolean, interrupt?: AbortSignal }} options
 * @returns {Promise<TraceSetup>}
 */
export async function preflight({ bpftrace = 'bpftrace', mountTracefs = false, interrupt } = {}, host = realHost) {
  if (host.platform !== 'linux')
    throw environmentError(`tracing needs Linux (this is ${host.platform}): mmap_lock is a Linux kernel lock`);
  if (host.uid() !== 0)
    throw environmentError(
      'tracing needs root to load BPF programs: run it as root, e.g. `sudo npx mmapbench trace compare`',
    );

  const binary = host.which(bpftrace);
  if (!binary) {
    throw environmentError(
      `bpftrace not found${bpftrace === 'bpftrace' ? ' on PATH' : ` at ${bpftrace}`}: install it with \`apt-get install bpftrace\` (or point --bpftrace at it)`,
    );
  }
  const version = (await host.version(binary, interrupt).catch(() => '')).trim();
  const parsed = /v?(\d+)\.(\d+)(\.\d+)?/.exec(version);
  if (!parsed || older([Number(parsed[1]), Number(parsed[2])], MIN_BPFTRACE)) {
    throw environmentError(
      `${binary} reports version "${version || 'none'}"; mmap-lock.bt needs bpftrace 0.16 or newer: \`apt-get install bpftrace\` from a newer release`,
    );
  }

  const { tracefs, mounted } = await tracefsOf(host, mountTracefs, interrupt);

  const kernel = host.kernel();
  const missing = TRACEPOINTS.filter((name) => !host.exists(path.join(tracefs, 'events', 'mmap_lock', name)));
  if (missing.length) {
    throw environmentError(
      `kernel ${kernel} has no tracepoint mmap_lock:${missing[0]}: it needs Linux 5.11 or newer built with CONFIG_TRACING; trace on a newer kernel`,
    );
  }
  if (!host.exists('/sys/kernel/btf/vmlinux')) {
    throw environmentError(
      `kernel ${kernel} exposes no BTF at /sys/kernel/btf/vmlinux: mmap-lock.bt reads each thread's parent process ` +
        'from it to trace only the measured run; use a kernel built with CONFIG_DEBUG_INFO_BTF=y',
    );
  }
  const release = /^(\d+)\.(\d+)/.exec(kernel);
  if (release && older([Number(release[1]), Number(release[2])], MEMCG_ACCOUNTING)) {
    const limit = host.memlockLimit();
    if (limit !== null && limit < MIN_MEMLOCK) {
      throw environmentError(
        `RLIMIT_MEMLOCK is ${Math.round(limit / 1024)} KiB and kernel ${kernel} counts BPF maps against it: run \`ulimit -l unlimited\` in this shell first`,
      );
    }
  }
  return { bpftrace: binary, version: `${parsed[0].replace(/^v/, '')}`, tracefs, mounted };
}

/**
 * Where tracefs is mounted, mounting it where asked (--mount-tracefs).
 * @param {typeof realHost} host
 * @param {boolean} mountTracefs
 * @param {AbortSignal | undefined} interrupt
 * @returns {Promise<{ tracefs: string, mounted: boolean }>}
 */
async function tracefsOf(host, mountTracefs, interrupt) {
  let mounted = false;
  let tracefs = [TRACEFS, LEGACY_TRACEFS].find((dir) => host.exists(path.join(dir, 'events')));
  if (!tracefs && mountTracefs) {
    try {
      await host.mountTracefs(interrupt);
    } catch (error) {
      throw environmentError(`\`${MOUNT_COMMAND}\` failed: ${error.shortMessage ?? error.message}`, error);
    }
    mounted = true;
    tracefs = host.exists(path.join(TRACEFS, 'events')) ? TRACEFS : undefined;
  }
  if (!tracefs) {
    throw environmentError(
      `tracefs is not mounted at ${TRACEFS}, so no tracepoint can be attached: run \`${MOUNT_COMMAND}\` or pass --mount-tracefs`,
    );
  }
  return { tracefs, mounted };
}

/** @param {number[]} version @param {number[]} wanted */
const older = ([major, minor], [wantMajor, wantMinor]) =>
  major < wantMajor || (major === wantMajor && minor < wantMinor);

/** The hard RLIMIT_MEMLOCK in bytes (what root may raise the soft one to), null if unlimited. */
function memlockLimit() {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max locked memory'));
    const hard = line?.trim().split(/\s{2,}/)[2];
    return hard === undefined || hard === 'unlimited' ? null : Number(hard);
  } catch {
    return null;
  }
}
