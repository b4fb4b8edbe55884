// Entry point of one child process in procs mode: the task loaded and set up first, as an app's
// child would, then the harness (set-up.js says why); prepare, report ready, block until the
// parent's release message, run the timed loop, report, exit when told (the CLI reads the
// tree's memory first).
import { hostTimeline, setUpTask } from './set-up.js';
import { capTaskOutput } from './task-output.js';

const host = hostTimeline();
// what the task writes is queued on the socket the host gave it: held to a cap, the rest counted
const dropped = capTaskOutput();

const [specJson, indexArg] = process.argv.slice(2);
/** @type {import('./task-runner.js').RunnerSpec} */
const spec = JSON.parse(specJson);
const index = Number(indexArg);

// The channel carries the harness's messages only: a task flooding it would flood the CLI.
// A host is started with one, so process.send is there.
const send = /** @type {NonNullable<typeof process.send>} */ (process.send).bind(process);
process.send = () => {
  throw new Error("a task must not use process.send: the channel to mmapbench is the harness's");
};

// The harness's own way out, taken before the task loads: a task may replace process.exit.
const exit = process.exit.bind(process);
// Without a parent there is nobody to release us or read the result.
process.on('disconnect', () => exit(0));
// Ctrl-C reaches the whole process group; the CLI decides how the cell ends and reports it.
process.on('SIGINT', () => {});

try {
  const parent = spec.parent ? (await import('./parent-channel.js')).ipcChannel(send) : undefined;
  const set = await setUpTask(spec, index, 'procs', parent);
  const { measure, prepare, usageBetween } = await import('./task-runner.js');
  // every child waits for the parent's word that all K are set up (task-runner.js says why)
  const prepared = await prepare(
    spec,
    index,
    'procs',
    () => {
      const allSetUp = new Promise((resolve) =>
        process.on('message', function onMessage(/** @type {any} */ message) {
          if (message?.type !== 'set-up') return;
          process.off('message', onMessage);
          resolve(undefined);
        }),
      );
      send({ type: 'set-up' });
      return allSetUp;
    },
    parent,
    set,
  );
  const released = new Promise((resolve) => {
    process.on('message', function onMessage(/** @type {any} */ message) {
      if (message?.type !== 'go') return;
      process.off('message', onMessage);
      host.go = String(process.hrtime.bigint());
      host.at = message.at;
      untilDeadline(BigInt(message.at)).then(resolve);
    });
  });
  send({ type: 'ready' });
  await released;
  const before = process.resourceUsage();
  // a fault round's failing child runs part of its window, then fails (fault.js)
  const fault = spec.fault?.worker === index ? spec.fault : null;
  const sample = await measure(prepared, fault ? fault.afterOps : spec.iterations);
  if (fault)
    await (
      await import('./fault.js')
    ).failAs(fault.kind, (message) => new Promise((resolve) => send(message, () => resolve())));
  if (dropped()) sample.droppedOutput = dropped();
  const usage = usageBetween(before, process.resourceUsage());
  // Alive until the CLI has read the tree's memory, then exit explicitly: a handle the task
  // left open must not keep the cell alive.
  process.on('message', (/** @type {any} */ message) => message?.type === 'exit' && exit(0));
  // Its window is over; the result crosses to the app's main thread only once every window is,
  // so the app's load is not read with the harness's messages on its thread (procs-host.js).
  const collect = new Promise((resolve) =>
    process.on('message', (/** @type {any} */ message) => message?.type === 'collect' && resolve(undefined)),
  );
  send({ type: 'done', end: sample.end });
  await collect;
  send({ type: 'result', samples: [sample], usage, host });
} catch (error) {
  const { serializeError } = await import('./task-runner.js');
  send({ type: 'failed', worker: index, ...serializeError(error) }, () => exit(1));
}

/**
 * The release names a moment on CLOCK_MONOTONIC, shared by every process on the host, rather
 * than meaning "now": messages to K processes arrive one after another, and the first child to
 * start would take the CPU the parent needs to send the rest. Sleep most of the way, then spin.
 * @param {bigint} at
 */
async function untilDeadline(at) {
  const sleepMs = Number(at - process.hrtime.bigint()) / 1e6 - 2;
  if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
  while (process.hrtime.bigint() < at);
}
