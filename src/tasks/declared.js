/** What starts the load probe's answer on its stdout, apart from whatever the module prints. */
export const MARK = 'mmapbench-task:';

const HOOKS = ['run', 'op', 'setup', 'teardown', 'unavailable', 'request'];

/**
 * What a module declares, and the type of each hook: what loadTask checks, whichever process
 * imported it.
 * @typedef {{ task: Record<'run'|'op'|'setup'|'teardown'|'unavailable'|'request', string> & { declared: Record<string, any> },
 *   exports: string }} Described
 */

/**
 * @param {any} task  a module's default export (or the module)
 * @returns {Described}
 */
export function describeExport(task) {
  const object = task !== null && typeof task === 'object';
  /** @type {any} */
  const kinds = Object.fromEntries(HOOKS.map((hook) => [hook, typeof task?.[hook]]));
  const { name, description, params, metrics, defaultFile, readsFile, reference, fixes, parent } = object ? task : {};
  return {
    task: {
      ...kinds,
      declared: { name, description, params, metrics, defaultFile, readsFile, reference, fixes, parent },
    },
    exports: object ? Object.keys(task).join(', ') || 'nothing' : typeof task,
  };
}
