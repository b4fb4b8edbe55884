import { readFileSync } from 'node:fs';

/** mmapbench's own version, from package.json: it goes into every results document. */
/** @type {string} */
export const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/**
 * The version of the results documents' layout (docs/json.md): raised when a field changes
 * meaning or goes, so `report` and `diff` refuse a document from a newer mmapbench rather than
 * misread it.
 */
export const SCHEMA = 1;
