// A project that uses mmapbench, as TypeScript sees it: compiled against the declarations
// `npm pack` ships (dist/types), through the package's own name. Never run.
import {
  compare,
  workers,
  trace,
  sweep,
  advise,
  report,
  MmapbenchError,
  type Task,
  type ProgressEvent,
} from 'mmapbench';

export const task: Task = {
  name: 'parse-body',
  params: { chunk: { type: 'size', default: 16384, description: 'bytes a chunk holds' } },
  run(ctx, iterations) {
    for (let i = 0; i < iterations; i++) JSON.parse(String(ctx.params.chunk));
  },
};

export async function gate(): Promise<boolean> {
  const seen: ProgressEvent[] = [];
  const result = await compare({
    task: './bench/parse-body.mjs',
    k: 2,
    maxTime: 30,
    env: { MALLOC_ARENA_MAX: 1 },
    signal: AbortSignal.timeout(60_000),
    onProgress: (event) => seen.push(event),
  });
  // what a run resolves with is typed: its figures, and nothing it does not hold
  const [point] = result.points;
  const lower: number | undefined = point?.ratio?.ci95?.[0];
  const faster: 'workers' | 'procs' | null | undefined = point?.verdict?.faster;
  // @ts-expect-error a misspelled field is refused
  point?.ratoi;
  // @ts-expect-error a compare's figures are its point's, as a sweep's are
  result.ratio;
  // @ts-expect-error a ratio's interval holds numbers
  const wrong: string | undefined = point?.ratio?.ci95?.[0];
  try {
    const swept = await sweep({ k: [1, 2, 4] });
    const ks: number[] = swept.points.map((point) => point.k);
    const advised = await advise({ task: './bench/parse-body.mjs', maxTime: 60 });
    const best: string | null = advised.advice.best;
    await report('mmapbench-results/compare-ci.json', { verbose: true });
  } catch (error) {
    if (error instanceof MmapbenchError) return error.code === 'usage';
  }
  return lower !== undefined && lower > 0.8 && seen.length > 0;
}

// @ts-expect-error k is a number
compare({ k: 'two' });
// @ts-expect-error k is a number, not a number's text (refused at run time too, naming k)
compare({ k: '2' });
// @ts-expect-error maxTime is seconds, a number
compare({ maxTime: 'abc' });
// @ts-expect-error a sweep's k is a number or a list of numbers
sweep({ k: 'x' });
// @ts-expect-error no command takes an option it does not have
compare({ maxTme: 30 });
// @ts-expect-error the API returns the document: --json is the command line's
compare({ json: true });
// @ts-expect-error advise ranks by one of four costs
advise({ for: 'speed' });
// what each option takes, as the command line reads it
sweep({ k: [1, 2, 4], file: ['4k', '1m'], precision: '2%', variant: ['a:MALLOC_ARENA_MAX=1'] });
compare({
  precision: 0.02,
  size: '64k',
  warmup: 'steady',
  env: { MALLOC_ARENA_MAX: 1 },
  onWarning: (warning) => warning.code,
});
// @ts-expect-error a task's op is a function
export const notATask: Task = { name: 'nothing', op: 5 };
// @ts-expect-error a task gives an op or a loop: a name alone measures nothing
export const noOp = { name: 'y' } satisfies Task;
// @ts-expect-error a task gives an op or a loop, not both
export const both = { op() {}, run() {} } satisfies Task;
export const anOp = { name: 'x', op() {} } satisfies Task;
export const aLoop = {
  run(ctx, iterations) {
    void ctx.file;
    void iterations;
  },
} satisfies Task;
// each command's own options: workers has no A/A nor a list of k; trace's audit is the CLI's
// @ts-expect-error workers runs one mode: no A/A
workers({ aa: 'workers' });
// @ts-expect-error only a sweep takes a list of k
workers({ k: [1, 2] });
// @ts-expect-error an audit of another process is `mmapbench trace --pid`
trace({ pid: 3 });
// @ts-expect-error a hidden option is no option of the API
compare({ smoke: true });
// @ts-expect-error main is on or off
compare({ main: 'maybe' });
sweep({ node: ['24', '26'], cycles: [1, 2], poolSize: ['8k', 65536] });
compare({ main: 'off', poolSize: '64k', failBelow: 0.8, export: 'bencher=x.json' });
