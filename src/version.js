import { readFileSync } from 'node:fs';

/** mmapbench's own version, from package.json: it goes into every results document. */
/** @type {string} */
export const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/**
 * The version of the results documents' layout (docs/json.md): raised when a field is added that
 * every later document has, changes meaning or goes, with a step in saved/migrate.js that brings
 * a document of the one before to it; `report` and `diff` refuse a document from a newer
 * mmapbench rather than misread it.
 */
export const SCHEMA = 4;
