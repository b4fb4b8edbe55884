// Entry point of one Worker thread in workers mode.
import { parentPort, workerData } from 'node:worker_threads';
import { measure, prepare } from './task-runner.js';
import { portChannel } from './parent-channel.js';

// this module runs only as the Worker workers-host.js starts, which has a parent port
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { spec, index, gate, port: parent } = workerData;
const flag = new Int32Array(gate);

// slot 0: the release; slot 1: how many threads are set up (task-runner.js says why it waits)
const prepared = await prepare(
  spec,
  index,
  'workers',
  () => {
    if (Atomics.add(flag, 1, 1) + 1 === spec.k) Atomics.notify(flag, 1);
    for (let set; (set = Atomics.load(flag, 1)) < spec.k;) Atomics.wait(flag, 1, set);
  },
  parent ? portChannel(parent) : undefined,
);
port.postMessage({ type: 'ready' });
// A blocking wait, not a message, so all K threads wake within microseconds of each other.
Atomics.wait(flag, 0, 0);
port.postMessage({ type: 'result', sample: await measure(prepared, spec.iterations) });
// Keep this thread and its heap, idle in its event loop as a pool's worker waits for work, until
// the host ends it (terminate) or exits (after the CLI has read the tree's memory).
port.on('message', () => {});
