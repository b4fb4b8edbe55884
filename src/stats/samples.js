// What a cell's hosts send back, as the statistics read it: each thread's account of its window,
// its tenths, its warm-up, its timed ops, when its process and thread got through their phases,
// and the app's own work on the parent's main thread. run/ makes them (thread-counters.js,
// task-runner.js, main-load.js, ending.js); they are declared here, below both, so stats/
// reads them without importing run/.

/**
 * A thread's account of one window, the difference of two readings; null where not counted.
 * @typedef {object} WindowAccount
 * @property {number} wallNs
 * @property {number | null} cpuNs
 * @property {number | null} runqNs
 * @property {number | null} userNs
 * @property {number | null} systemNs
 * @property {'thread-cpu-usage' | 'ticks' | null} split  how on-CPU time was split into user and
 *   system: Node's per-thread CPU usage, or the share of /proc's 10 ms ticks
 * @property {number | null} minflt
 * @property {number | null} majflt
 * @property {number | null} voluntary
 * @property {number | null} involuntary
 * @property {number | null} gcNs  this isolate's GC pauses that began inside the window
 * @property {number | null} gcCount
 * @property {Record<string, string>} missing  why a field is null, by field
 */

/**
 * One tenth of a timed window: how long it took, its ops and the page faults taken in it (read
 * for the first and the last tenth only; null for the others).
 * @typedef {{ ns: number, ops: number, minflt: number | null }} Slice
 */

/**
 * What the main thread did over one stretch: its requests' times and the event loop's delay.
 * @typedef {object} MainStretch
 * @property {number} ms  how long it ran
 * @property {number} requests  how many requests ran
 * @property {number} p50Ns
 * @property {number} p99Ns
 * @property {number} p999Ns
 * @property {number} maxNs
 * @property {import('../stats/histogram.js').Histogram} histogram  the requests' times, at
 *   SAVED_BITS: the app alone's reads are pooled over cells
 * @property {TimerLag | null} [lag]  how late the load's timer called each request after the
 *   last (a stretch of a file saved before it has `loopDelay`: Node's monitorEventLoopDelay at
 *   1 ms resolution, the 1 ms included, a p99 of the stretch alone)
 * @property {{ p99Ns: number }} [loopDelay]  in a file saved before `lag`
 * @property {Omit<WindowAccount, 'missing'>} account  the main
 *   thread's own counters over the stretch: on a CPU, waiting for one, page faults (no GC)
 */

/**
 * @typedef {{ ops: number, ms: number, capped: boolean, ramp?: Ramp }} WarmupDone  what a worker's
 *   warmup took; capped: stopped at the cap while still getting faster; ramp: its batches' times
 * @typedef {{ from?: string, startNs?: number, batch: number, atUs: number[] }} Ramp  a fresh
 *   worker's rate over time: `batch` ops a batch, each batch's end in µs from its first op;
 *   from: the first op's time (process.hrtime.bigint() as text), as the worker sends it;
 *   startNs: once the cell is summarized, its first op after the cell's first worker's
 * @typedef {{ every: number, ops: number, histogram: import('./histogram.js').Histogram }
 *   | { untimed: string }} OpTimes  one op in every `every` timed across the window (built-in
 *   tasks): how many, and their ns as a histogram; untimed: why none was timed
 * @typedef {{ started: string, booted: string, loaded: string, go?: string, at?: string }} HostTimeline
 *   a process's start on the windows' clock, as text: when Node started, had bootstrapped and
 *   had loaded the calling module; go, at: in procs mode, when the release message arrived, and
 *   the moment it named
 * @typedef {{ loaded: string, setUp: string, warm: string }} ThreadTimeline
 *   process.hrtime.bigint() as text when the thread had loaded the harness, loaded its task and
 *   run its setup, and warmed up
 * @typedef {{ ticks: number, p50Ns: number, p99Ns: number, maxNs: number, meanNs: number,
 *   histogram: import('./histogram.js').Histogram }} TimerLag  ticks: how many times the timer
 *   called after a first call; each lag is the time since its last call less `everyMs`, 0 when
 *   it came no sooner; the histogram at SAVED_BITS, pooled over cells
 * @typedef {{ alone: MainStretch | null, during: MainStretch | null, buffersAdded: number }} CellMain
 *   alone: the app before its workers started (in the cells that read it); during: from the
 *   release to the last result; buffersAdded: bytes of ArrayBuffers the main thread held then
 *   beyond what it held before its workers started (its load's, not yet collected)
 * @typedef {{ teardownNs: number, anonBytes: number | null, heapBytes?: number | null }} EndCycle
 *   one cycle's end: from the request to the last exit event, and the host's anonymous memory and
 *   its main malloc heap's settleMs after it (heapBytes absent in files from before it was read)
 */

export {};

// One traced cell as the kernel probe (mmap-lock.bt) measured it: read by trace/parse.js, kept in
// a cell (cell.js) and summed over cells (trace/counts.js).
/**
 * @typedef {{ lowNs: number | null, highNs: number, count: number }} Bucket  lowNs null: below 0
 */

/**
 * @typedef {object} LockWaits
 * @property {number} count     successful acquisitions
 * @property {number} totalNs   summed wait, start_locking -> acquire_returned
 * @property {number | null} avgNs  null without acquisitions
 * @property {number | null} maxNs
 * @property {Bucket[]} histogram
 */

/**
 * @typedef {object} TraceSummary  one traced cell, as mmap-lock.bt measured it
 * @property {LockWaits} write
 * @property {LockWaits} read
 * @property {number} trylockFailed
 * @property {number} writeHoldNs  summed time the lock was held for write
 * @property {{ pid: number, comm: string, writes: number, writeNs: number, writeMaxNs: number, reads: number, readNs: number,
 *   main: ThreadWaits }[]} processes  per process with write acquisitions, most writes first;
 *   comm: its names, most writes first (a process that exec'd has two); main: its main thread's
 *   share (its thread id is its pid)
 * @property {{ frames: string[], count: number }[]} writeStacks  the kernel call chains of the
 *   write acquisitions (with the script's third argument), most frequent first
 * @property {{ frames: Array<{ symbol: string | null, object: string | null }>, count: number }[]} writeUserStacks
 *   their user call chains (third argument 2): each frame's symbol and the object it is in
 *   (libc, libnode, an addon's .node, a perf map's JIT code), null where unresolved
 * @property {number} writeUserStacksMissing  writes whose user stack bpftrace printed empty
 * @property {{ write: BySyscall[], read: BySyscall[] }} bySyscall  most acquisitions first
 * @property {number} [windowNs]  how long the trace ran, added by the cell
 */

/**
 * One thread's mmap_lock acquisitions and their summed waits.
 * @typedef {{ writes: number, writeNs: number, reads: number, readNs: number }} ThreadWaits
 */

/**
 * The acquisitions of one kind under one system call in flight on the thread.
 * @typedef {{ syscall: number | null, count: number, totalNs: number }} BySyscall  syscall null:
 *   none in flight (a page fault taken in user mode, or kernel work such as a thread's exit)
 */
