import { readFileSync } from 'node:fs';

/** mmapbench's own version, from package.json: it goes into every results document. */
export const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
