// Each missing piece gets its own message with the exact fix; a stand-in host plays the machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { preflight, TRACEFS } from '../../src/trace/preflight.js';

const EVENTS = `${TRACEFS}/events`;
const TRACEPOINTS = ['mmap_lock_start_locking', 'mmap_lock_acquire_returned', 'mmap_lock_released'].map(
  (name) => `${EVENTS}/mmap_lock/${name}`,
);

function host(overrides = {}) {
  const files = new Set([EVENTS, ...TRACEPOINTS, '/sys/kernel/btf/vmlinux']);
  const machine = {
    platform: 'linux',
    uid: () => 0,
    kernel: () => '6.18.0',
    exists: (file) => files.has(file),
    which: (name) => (name === 'bpftrace' ? '/usr/bin/bpftrace' : null),
    version: async () => 'bpftrace v0.17.0',
    memlockLimit: () => 8 * 1024 * 1024,
    mounts: 0,
    mountTracefs: async () => {
      machine.mounts++;
      files.add(EVENTS);
    },
    files,
    ...overrides,
  };
  return machine;
}

const fails = (promise, kind, pattern) =>
  assert.rejects(promise, (error) => {
    assert.equal(error.kind, kind);
    assert.equal(error.exitCode, 3);
    assert.match(error.message, pattern);
    assert.doesNotMatch(error.message, /\n/);
    return true;
  });

test('a machine with everything passes and says what it found', async () => {
  assert.deepEqual(await preflight({}, host()), {
    bpftrace: '/usr/bin/bpftrace',
    version: '0.17.0',
    tracefs: TRACEFS,
    mounted: false,
  });
});

test('not root', () =>
  fails(preflight({}, host({ uid: () => 1000 })), 'environment', /needs root.*sudo npx mmapbench trace/));

test('bpftrace missing: the apt-get line', () =>
  fails(
    preflight({}, host({ which: () => null })),
    'environment',
    /bpftrace not found on PATH: install it with `apt-get install bpftrace`/,
  ));

test('--bpftrace pointing nowhere names the path', () =>
  fails(
    preflight({ bpftrace: '/opt/bt' }, host({ which: () => null })),
    'environment',
    /bpftrace not found at \/opt\/bt/,
  ));

test('bpftrace too old', () =>
  fails(
    preflight({}, host({ version: async () => 'bpftrace v0.12.1' })),
    'environment',
    /needs bpftrace 0\.16 or newer/,
  ));

test('tracefs not mounted: the mount command and --mount-tracefs', async () => {
  const machine = host();
  machine.files.delete(EVENTS);
  await fails(
    preflight({}, machine),
    'environment',
    /tracefs is not mounted at \/sys\/kernel\/tracing.*`mount -t tracefs nodev \/sys\/kernel\/tracing` or pass --mount-tracefs/,
  );
  assert.equal(machine.mounts, 0, 'nothing is mounted unless asked');
});

test('--mount-tracefs mounts it, once, and says so', async () => {
  const machine = host();
  machine.files.delete(EVENTS);
  const setup = await preflight({ mountTracefs: true }, machine);
  assert.equal(machine.mounts, 1);
  assert.equal(setup.mounted, true);
});

test('--mount-tracefs where mount fails carries the reason', () =>
  fails(
    preflight(
      { mountTracefs: true },
      host({
        exists: () => false,
        mountTracefs: async () => {
          throw new Error('permission denied');
        },
      }),
    ),
    'environment',
    /`mount -t tracefs nodev \/sys\/kernel\/tracing` failed: permission denied/,
  ));

test('tracepoints absent: the kernel is named', async () => {
  const machine = host({ kernel: () => '5.4.0-generic' });
  machine.files.delete(TRACEPOINTS[1]);
  await fails(
    preflight({}, machine),
    'environment',
    /kernel 5\.4\.0-generic has no tracepoint mmap_lock:mmap_lock_acquire_returned/,
  );
});

test('no BTF', async () => {
  const machine = host();
  machine.files.delete('/sys/kernel/btf/vmlinux');
  await fails(preflight({}, machine), 'environment', /no BTF at \/sys\/kernel\/btf\/vmlinux.*CONFIG_DEBUG_INFO_BTF/);
});

test('RLIMIT_MEMLOCK too low on a kernel that still counts BPF maps against it', () =>
  fails(
    preflight({}, host({ kernel: () => '5.10.0' })),
    'environment',
    /RLIMIT_MEMLOCK is 8192 KiB.*`ulimit -l unlimited`/,
  ));

test('RLIMIT_MEMLOCK does not matter from 5.11 on, nor when it is unlimited', async () => {
  await preflight({}, host({ kernel: () => '5.11.0' }));
  await preflight({}, host({ kernel: () => '5.10.0', memlockLimit: () => null }));
});

test('not Linux', () =>
  fails(preflight({}, host({ platform: 'darwin' })), 'environment', /needs Linux \(this is darwin\)/));
