#!/usr/bin/env node
// Sweep k and write one CSV row per point: k, each mode's median ops/s, the workers/procs ratio
// and its 95% CI. `node examples/api/sweep-to-csv.mjs [out.csv] [maxSeconds]`
import { writeFileSync } from 'node:fs';
import { sweep } from 'mmapbench';

const [out = 'sweep.csv', maxTime = '60'] = process.argv.slice(2);
const result = await sweep({ k: [1, 2, 4], task: 'readfilesync', maxTime: Number(maxTime) });
const rows = result.points.map((point) =>
  [
    point.k,
    point.workers?.throughput.median ?? '',
    point.procs?.throughput.median ?? '',
    point.ratio?.geomean ?? point.ratio?.median ?? '',
    point.ratio?.ci95?.[0] ?? '',
    point.ratio?.ci95?.[1] ?? '',
  ].join(','),
);
writeFileSync(out, ['k,workers_ops_s,procs_ops_s,ratio,ci_low,ci_high', ...rows].join('\n') + '\n');
console.log(`wrote ${out}: ${rows.length} points, ${result.status}`);
