// System call names for the by-syscall breakdown of mmap_lock acquisitions. bpftrace gives the
// number (raw_syscalls:sys_enter's `id`); the numbers are the architecture's, so they are named
// only on x86-64, the architecture mmapbench is run and tested on, and shown as numbers elsewhere.
import { arch } from 'node:os';

// x86-64 (arch/x86/entry/syscalls/syscall_64.tbl): the calls that take mmap_lock, and the ones
// a Node process is most often inside when a fault or its exit takes it
/** @type {Record<number, string>} */
const X64 = {
  0: 'read',
  1: 'write',
  3: 'close',
  5: 'fstat',
  7: 'poll',
  9: 'mmap',
  10: 'mprotect',
  11: 'munmap',
  12: 'brk',
  16: 'ioctl',
  17: 'pread64',
  18: 'pwrite64',
  19: 'readv',
  20: 'writev',
  24: 'sched_yield',
  25: 'mremap',
  28: 'madvise',
  56: 'clone',
  59: 'execve',
  60: 'exit',
  61: 'wait4',
  89: 'readlink',
  202: 'futex',
  231: 'exit_group',
  232: 'epoll_wait',
  257: 'openat',
  262: 'newfstatat',
  281: 'epoll_pwait',
  293: 'pipe2',
  302: 'prlimit64',
  318: 'getrandom',
  330: 'pkey_alloc',
  332: 'statx',
  334: 'rseq',
  435: 'clone3',
  441: 'epoll_pwait2',
};

/** What takes the lock, in a reader's words. */
/** @type {Record<string, string>} */
const MEANING = {
  mprotect:
    'changing page protections: glibc growing a thread arena’s heap, or V8 switching its code pages between writable and executable',
  brk: 'glibc growing the main arena',
  mmap: 'a new mapping: a large allocation, a new arena heap, a thread stack',
  munmap: 'unmapping: freeing a large allocation, trimming a heap',
  madvise: 'giving memory back to the kernel',
  mremap: 'moving or growing a mapping (realloc of a large block)',
  exit: 'a thread exiting',
  exit_group: 'a process exiting',
  clone: 'starting a thread or process',
  clone3: 'starting a thread or process',
  execve: 'starting a program',
};

/**
 * @param {number | null} number  null: no system call in flight
 * @param {'write'|'read'} kind
 */
export function syscallName(number, kind, platform = arch()) {
  if (number === null) return kind === 'read' ? 'none: page faults' : 'none: kernel work';
  return (platform === 'x64' && X64[number]) || `syscall ${number}`;
}

/**
 * The x-64 number of a system call by name; null elsewhere or for a call the table lacks.
 * @param {string} name
 */
export function syscallNumber(name, platform = arch()) {
  if (platform !== 'x64') return null;
  const found = Object.entries(X64).find(([, known]) => known === name);
  return found ? Number(found[0]) : null;
}

// Kernel functions that sit directly under the syscall dispatch with no frame of the call's own
// name: sys_mmap tail-calls ksys_mmap_pgoff, which tail-calls vm_mmap_pgoff
/** @type {Record<string, string>} */
const ENTRY_FUNCTIONS = { vm_mmap_pgoff: 'mmap', ksys_mmap_pgoff: 'mmap' };

/**
 * The system call a kernel stack was taken in, from its outermost frame that names one
 * (`__x64_sys_brk`, `__do_sys_brk`, `__arm64_sys_brk`, …); null for kernel work outside any.
 * @param {string[]} frames  innermost first, offsets removed
 */
export function syscallOfKernelStack(frames) {
  for (const frame of [...frames].reverse()) {
    const named = frame.match(/^__(?:x64|ia32|arm64|do|se)_sys_(\w+)$/);
    if (named) return named[1];
    if (ENTRY_FUNCTIONS[frame]) return ENTRY_FUNCTIONS[frame];
  }
  return null;
}

/** Why that system call takes the lock, where it is one a reader would not guess; else null. */
export const syscallMeaning = (/** @type {string} */ name) => MEANING[name] ?? null;
