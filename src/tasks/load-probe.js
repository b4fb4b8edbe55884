// Imports a user's task module in a process of its own and prints what it declares as one last
// line of JSON: the CLI never runs a user's top level itself, so a module that never settles or
// spins at load costs a timeout and a kill, not a CLI that Ctrl-C cannot end.
import { describeExport, MARK } from './declared.js';

/** @param {unknown} answer */
const reply = (answer) => process.stdout.write(`\n${MARK}${JSON.stringify(answer)}\n`, () => process.exit(0));

try {
  const module = await import(/** @type {string} */ (process.argv[2]));
  reply(describeExport(module.default ?? module));
} catch (error) {
  reply({ error: String(/** @type {any} */ (error)?.message ?? error) });
}
