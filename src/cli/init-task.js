import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { usageError } from '../errors.js';
import { fileError } from '../system/safe-fs.js';
import { COMMON } from '../core/options.js';
import { declare } from '../core/option-spec.js';

export const builder = (/** @type {import('yargs').Argv} */ yargs) =>
  declare(yargs, COMMON).positional('name', {
    describe: 'the task name; the file is NAME.mjs in this folder',
    type: 'string',
  });

const TEMPLATE = new URL('../../examples/my-task.mjs', import.meta.url);
const MAX_NAME = 64;

/**
 * @param {Record<string, any>} argv  yargs' parsed arguments, read by readOptions
 * @param {import('./context.js').Context} [context]
 */
export function handler(argv, context = {}) {
  const name = String(argv.name);
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(name))
    throw usageError(`task name ${name} must be letters, digits and dashes, such as parse-body`);
  // a file name holds 255 bytes, .mjs included; a task's name is read in every table
  if (name.length > MAX_NAME)
    throw usageError(
      `task name ${name.slice(0, 20)}… is ${name.length} characters long; give one of at most ${MAX_NAME}, such as parse-body`,
    );
  const file = `${name}.mjs`;
  const text = readFileSync(TEMPLATE, 'utf8')
    .replaceAll('my-task.mjs', file)
    .replace("name: 'concat-chunks'", `name: '${name}'`);
  try {
    writeFileSync(file, text, { flag: 'wx' }); // never over a file of yours
  } catch (error) {
    if (error.code === 'EEXIST') throw usageError(`${file} already exists; pick another name or remove it`, error);
    throw fileError(error, resolve(file), 'init-task', 'run init-task in');
  }
  (context.stdout ?? process.stdout).write(`wrote ${file}; try it: npx mmapbench compare --task ./${file} --quick\n`);
}
