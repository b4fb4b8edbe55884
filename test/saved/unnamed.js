// The fields of a results document that results.schema.json does not name: a field a run writes
// must be in the one definition every reader checks a file by (docs/json.md describes them).
import { readFileSync } from 'node:fs';

const schema = JSON.parse(readFileSync(new URL('../../src/saved/results.schema.json', import.meta.url), 'utf8'));

/** The definition a `$ref` names, followed until it is one. */
const deref = (/** @type {any} */ part) => {
  while (part?.$ref)
    part = part.$ref
      .split('/')
      .slice(1)
      .reduce((/** @type {any} */ at, step) => at[step], schema);
  return part;
};

/** Every part of the schema that applies to one value: itself and its allOf, anyOf, oneOf, then and else. */
function applying(/** @type {any} */ part, /** @type {any[]} */ parts = []) {
  part = deref(part);
  if (!part || typeof part !== 'object') return parts;
  parts.push(part);
  for (const key of ['allOf', 'anyOf', 'oneOf']) for (const each of part[key] ?? []) applying(each, parts);
  for (const key of ['then', 'else']) if (part[key]) applying(part[key], parts);
  return parts;
}

/**
 * The paths of `value`'s fields that no applying part of the schema names (`rounds[].workers.pid`).
 * @param {unknown} value
 * @returns {string[]}
 */
export function unnamedFields(value, part = schema, path = '', found = new Set()) {
  const parts = applying(part);
  if (Array.isArray(value)) {
    for (const item of value)
      for (const items of parts.flatMap((p) => (p.items ? [p.items] : [])))
        unnamedFields(item, items, `${path}[]`, found);
  } else if (value && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      const named = parts.flatMap((p) => [
        ...(p.properties && Object.hasOwn(p.properties, key) ? [p.properties[key]] : []),
        ...Object.entries(p.patternProperties ?? {}).flatMap(([pattern, each]) =>
          new RegExp(pattern).test(key) ? [each] : [],
        ),
      ]);
      const rest = parts.flatMap((p) => (typeof p.additionalProperties === 'object' ? [p.additionalProperties] : []));
      const schemas = named.length ? named : rest;
      if (!schemas.length) found.add(path ? `${path}.${key}` : key);
      for (const each of schemas) unnamedFields(field, each, path ? `${path}.${key}` : key, found);
    }
  }
  return [...found];
}
