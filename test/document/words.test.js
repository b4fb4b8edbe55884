// A run saves figures, not sentences: the verdict, the account's words and `next` are drawn
// when the document is shown (commands/compare/words.js, document/sentences.js). A file saved before kept its sentences, and
// prints them as it did (test/view/outputs.test.js: every kept output unchanged). Here: every
// fixture with its sentences taken out prints exactly as it does with the sentences this code
// would have saved put in their place, so no reader still looks for a saved sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadSaved, renderSaved } from '../../src/commands/index.js';
import { nextStep, verdictText } from '../../src/commands/compare/words.js';
import { wordsOfAccount } from '../../src/document/account-text.js';

const SAVED = fileURLToPath(new URL('../fixtures/saved/', import.meta.url));
const pipe = { columns: undefined, isTTY: false };

/** A document without the sentences it kept: as a run saves it now. */
function figuresOnly(/** @type {any} */ document) {
  const bare = structuredClone(document);
  for (const holder of [bare, ...(bare.points ?? [])]) {
    if (holder.verdict) delete holder.verdict.text;
    if (holder.account) delete holder.account.words;
    delete holder.next;
  }
  return bare;
}

/** The same document with the sentences this code would have saved in it, as runs did. */
function withSentences(/** @type {any} */ bare) {
  const said = structuredClone(bare);
  for (const holder of [said, ...(said.points ?? [])]) {
    const run = holder === said ? said : { ...said, ...holder };
    if (holder.verdict && holder === said) holder.verdict.text = verdictText(holder.ratio, holder.verdict, run);
    if (holder.account)
      holder.account.words = wordsOfAccount(holder.account, holder === said ? said : { aa: null, config: said.config });
  }
  if (said.ratio && !said.points) said.next = nextStep(said);
  return said;
}

test('every saved fixture prints the same with its sentences drawn from its figures', () => {
  const names = readdirSync(SAVED).filter((name) => name.endsWith('.json'));
  let drawn = 0;
  for (const name of names) {
    const saved = loadSaved(`${SAVED}${name}`);
    const bare = { ...saved, document: figuresOnly(saved.document) };
    const said = { ...saved, document: withSentences(bare.document) };
    if (JSON.stringify(bare.document) !== JSON.stringify(said.document)) drawn++;
    for (const [format, verbose] of /** @type {const} */ ([
      ['terminal', false],
      ['terminal', true],
      ['markdown', true],
    ]))
      assert.equal(
        renderSaved(bare, format, pipe, { verbose }),
        renderSaved(said, format, pipe, { verbose }),
        `${name} ${format}${verbose ? ' --verbose' : ''}`,
      );
  }
  assert.ok(drawn >= 10, `${drawn} fixtures kept sentences to draw`);
});
