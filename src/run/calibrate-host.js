// A fresh one-thread process that times single ops of the task with tinybench, so --duration
// can be turned into a fixed iteration count that both modes then share.
import { Bench, hrtimeNow } from 'tinybench';
import { prepare, serializeError } from './task-runner.js';
import { forkedParent, loopback } from './parent-channel.js';
import { capTaskOutput } from './task-output.js';

const { spec, timeMs } = JSON.parse(process.argv[2]);
// what the task writes is held to the cap a cell's is (task-output.js): its calibration must not fail on it
capTaskOutput();
// The channel carries the harness's messages only (see proc-host.js).
const send = /** @type {NonNullable<typeof process.send>} */ (process.send).bind(process);
process.send = () => {
  throw new Error("a task must not use process.send: the channel to mmapbench is the harness's");
};

try {
  // a task that talks to its parent talks here to a child process, as the procs cells will, or,
  // for threads alone, to a port of this thread that answers at once
  const parent = !spec.parent
    ? undefined
    : spec.parentOver === 'process'
      ? forkedParent(spec.params.serialization === 'advanced' ? 'advanced' : 'json')
      : loopback();
  const prepared = await prepare(spec, 0, 'calibrate', undefined, parent);
  const { task, ctx } = prepared;
  const bench = new Bench({ time: timeMs, warmup: false, now: hrtimeNow, throws: true });
  bench.add('op', () => task.run(ctx, 1));
  await bench.run();
  await task.teardown?.(ctx);
  const { latency } = /** @type {any} */ (bench.tasks[0].result);
  const ns = (/** @type {number} */ ms) => Math.round(ms * 1e6);
  // alive until told, so the CLI can find what the task started while this process is its parent
  process.on('message', (/** @type {any} */ message) => message?.type === 'exit' && process.exit(0));
  send({
    type: 'result',
    latency: {
      p50Ns: ns(latency.p50),
      p99Ns: ns(latency.p99),
      meanNs: ns(latency.mean),
      samples: latency.samplesCount,
    },
  });
} catch (error) {
  send({ type: 'failed', worker: 0, ...serializeError(error) }, () => process.exit(1));
}
