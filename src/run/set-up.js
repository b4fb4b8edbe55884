// The first thing a worker thread or child process does: load the task and run its setup, with
// nothing of the harness loaded yet. Start-up is timed from the app's request to the last setup
// (stats/phases.js), so it holds what an app's worker would do, and the harness's own modules
// (the runner, its histograms and counters) load after, untimed. It imports nothing for that
// reason.

/**
 * Where a process's start went, on the clock of the windows (process.hrtime, CLOCK_MONOTONIC,
 * which performance.now() counts on too): when Node started (performance's time origin), when
 * it had bootstrapped, and when the calling module's imports had loaded (now). Times as text.
 * @returns {import('../stats/samples.js').HostTimeline}
 */
export function hostTimeline() {
  const now = process.hrtime.bigint();
  const started = now - BigInt(Math.round(performance.now() * 1e6));
  const booted = started + BigInt(Math.round(performance.nodeTiming.bootstrapComplete * 1e6));
  return { started: String(started), booted: String(booted), loaded: String(now) };
}

/**
 * @typedef {object} SetUp  a task loaded and set up, as prepare (task-runner.js) goes on with it
 * @property {any} module  the task module's export: its default, or its named exports
 * @property {import('../tasks/index.js').TaskContext} ctx
 * @property {bigint} loaded  when the entry's own imports had loaded
 * @property {bigint} setUp  when its setup had returned
 */

/**
 * @param {{ taskUrl: string, file: string, fileSize: number, params: Record<string, any>, k: number }} spec
 * @param {number} index
 * @param {import('../tasks/index.js').TaskContext['mode']} mode
 * @param {import('./parent-channel.js').ParentChannel} [parent]
 * @returns {Promise<SetUp>}
 */
export async function setUpTask(spec, index, mode, parent) {
  const loaded = process.hrtime.bigint();
  const imported = await import(spec.taskUrl);
  const module = imported.default ?? imported;
  /** @type {import('../tasks/index.js').TaskContext} */
  const ctx = {
    file: spec.file,
    fileSize: spec.fileSize,
    params: spec.params,
    index,
    k: spec.k,
    mode,
    state: {},
    ...(parent ? { parent } : {}),
  };
  await module.setup?.(ctx);
  return { module, ctx, loaded, setUp: process.hrtime.bigint() };
}
