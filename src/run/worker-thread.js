// Entry point of one Worker thread in workers mode: the task loaded and set up first, as an
// app's worker would, then the harness (set-up.js says why).
import { parentPort, workerData } from 'node:worker_threads';
import { setUpTask } from './set-up.js';
import { capTaskOutput } from './task-output.js';

// what the task writes is queued in this thread's heap: held to a cap, the rest counted
const dropped = capTaskOutput();

// this module runs only as the Worker workers-host.js starts, which has a parent port
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { spec, index, gate, port: channelPort } = workerData;
const flag = new Int32Array(gate);

const parent = channelPort ? (await import('./parent-channel.js')).portChannel(channelPort) : undefined;
const set = await setUpTask(spec, index, 'workers', parent);
const { measure, prepare } = await import('./task-runner.js');
// slot 0: the release; slot 1: how many threads are set up (task-runner.js says why it waits)
const prepared = await prepare(
  spec,
  index,
  'workers',
  () => {
    if (Atomics.add(flag, 1, 1) + 1 === spec.k) Atomics.notify(flag, 1);
    for (let count; (count = Atomics.load(flag, 1)) < spec.k;) Atomics.wait(flag, 1, count);
  },
  parent,
  set,
);
port.postMessage({ type: 'ready' });
// A blocking wait, not a message, so all K threads wake within microseconds of each other.
Atomics.wait(flag, 0, 0);
// a fault round's failing worker runs part of its window, then fails (fault.js)
const fault = spec.fault?.worker === index ? spec.fault : null;
const sample = await measure(prepared, fault ? fault.afterOps : spec.iterations);
if (fault) await (await import('./fault.js')).failAs(fault.kind, async (message) => port.postMessage(message));
if (dropped()) sample.droppedOutput = dropped();
// Its window is over; the sample crosses to the app's main thread only once every window is, so
// the app's load is not read with the harness's messages on its thread (workers-host.js).
const collect = new Promise((resolve) =>
  port.on('message', (message) => message?.type === 'collect' && resolve(undefined)),
);
port.postMessage({ type: 'done', end: sample.end });
await collect;
port.postMessage({ type: 'result', sample });
// Keep this thread and its heap, idle in its event loop as a pool's worker waits for work, until
// the host ends it (terminate) or exits (after the CLI has read the tree's memory).
port.on('message', () => {});
