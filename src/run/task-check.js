import { runBoxed } from '../system/containment.js';

// Asks a task, on the Node its cells will run on, whether it can run there (Task.unavailable).
// A user's module, and any on a different Node, is asked in a process of its own; the answer is
// the last line of its output.
const PROBE = `
const [url, params] = process.argv.slice(1);
import(url)
  .then(async (module) => {
    const task = module.default ?? module;
    const why = await task.unavailable(JSON.parse(params));
    return why ?? null;
  })
  .catch((error) => 'its check failed: ' + String(error?.message ?? error))
  // a module's timer must not keep the probe alive once it has answered
  .then((answer) => process.stdout.write('\\n' + JSON.stringify(answer), () => process.exit(0)));
`;

// One answer per task, Node and parameters and run: reproduce's node-fix asks once per Node and
// again for each setting's plan, a sweep for each point; a probe is a process start each time.
/** @type {Map<string, Promise<string | null>>} */
const answers = new Map();

/**
 * Why `task` cannot run on `node` (its own words), or null. Tasks without `unavailable` run
 * anywhere and cost nothing here.
 * @param {import('../tasks/index.js').LoadedTask} task
 * @param {{ path: string }} node
 * @param {Record<string, unknown>} params
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<string | null>}
 */
export function taskUnavailable(task, node, params, interrupt) {
  if (!task.checksNode) return Promise.resolve(null);
  const key = JSON.stringify([task.url, node.path, params]);
  if (!answers.has(key)) {
    const answer = ask(task, node, params, interrupt);
    answers.set(key, answer);
    // an interrupted probe is asked again, should anything ask
    answer.catch(() => answers.delete(key));
  }
  return /** @type {Promise<string | null>} */ (answers.get(key));
}

/**
 * @param {import('../tasks/index.js').LoadedTask} task
 * @param {{ path: string }} node
 * @param {Record<string, unknown>} params
 * @param {AbortSignal} [interrupt]
 * @returns {Promise<string | null>}
 */
async function ask(task, node, params, interrupt) {
  // a user's module is never imported in the CLI's own process (tasks/index.js says why)
  if (node.path === process.execPath && task.builtin) {
    const module = await import(task.url);
    return (await (module.default ?? module).unavailable(params)) ?? null;
  }
  const result = await runBoxed(node.path, ['-e', PROBE, task.url, JSON.stringify(params)], {
    interrupt,
    timeout: 30000,
    env: { NODE_OPTIONS: '' },
  });
  try {
    return JSON.parse(String(result.stdout).split('\n').at(-1) ?? 'null');
  } catch {
    return `its check did not answer on ${node.path} (${result.shortMessage ?? 'no output'})`;
  }
}
