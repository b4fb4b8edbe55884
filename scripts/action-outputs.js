#!/usr/bin/env node
// action.yml's outputs from a saved run, as $GITHUB_OUTPUT's `name=value` lines: the ratio and
// its 95% CI (a compare's), the verdict as the run printed it, and the file.
import { readFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
const document = JSON.parse(readFileSync(file, 'utf8'));
const { ratio } = document;
const one = (/** @type {unknown} */ value) => String(value ?? '').replace(/[\r\n]+/g, ' ');
const outputs = {
  ratio: ratio ? (ratio.geomean ?? ratio.median) : '',
  low: ratio?.ci95?.[0] ?? '',
  high: ratio?.ci95?.[1] ?? '',
  verdict: document.verdict?.text ?? (document.command === 'sweep' ? `${document.points.length} points` : ''),
  'results-file': file,
};
process.stdout.write(
  Object.entries(outputs)
    .map(([name, value]) => `${name}=${one(value)}\n`)
    .join(''),
);
