// A task with a known answer, for checking the verdict: one op is a fixed amount of arithmetic
// (no allocation, no system call), `--param thread=F` times as much in a Worker thread. F = 1 is
// the same op in both modes (the verdict should say equal), F = 2 an op twice as slow in a
// thread (procs about 2x faster). `--param jitter=S` gives each worker a speed of its own, drawn
// once at its start (log-normal, sd S): rounds that disagree as fresh trees do, with the answer
// still known. scripts/verdict-time.js runs it.
import { isMainThread } from 'node:worker_threads';

/** @type {import('../../src/tasks/index.js').Task} */
export default {
  name: 'spin',
  description: 'a fixed amount of arithmetic per op, --param thread=F times as much in a Worker thread',
  readsFile: false,
  params: {
    thread: { description: 'how many times the work in a Worker thread', type: 'number', default: 1 },
    steps: { description: 'arithmetic steps per op', type: 'integer', default: 20000 },
    jitter: { description: "the sd of each worker's own log speed, drawn at its start", type: 'number', default: 0 },
  },
  setup(ctx) {
    // a normal draw (Box-Muller), once per worker
    const normal = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
    const own = Math.exp(ctx.params.jitter * normal);
    ctx.state.steps = Math.round(ctx.params.steps * own * (isMainThread ? 1 : ctx.params.thread));
    ctx.state.x = 1;
  },
  op(ctx) {
    let x = ctx.state.x;
    for (let i = 0; i < ctx.state.steps; i++) x = (x * 1103515245 + 12345) % 2147483648;
    ctx.state.x = x;
  },
};
