import type { FakeTurn } from './fake-model-server';

/**
 * A scripted model that keeps reading a large file: what fills a context window fastest. Its turns
 * play a whole TENET session on the shop fixture (target Cart.total): 14 reads and a wrong
 * submission in pre-generation, then in each refinement attempt 13 rounds of stage 1 and one of
 * stage 2 reading, and a wrong submission in stage 3 — 15 + 5 × 15 = 90 model calls.
 */
export const WRONG = 'def total(self):\n    return 0\n';

/** A module of 600 lines of about 70 characters: each read of 400 lines is cut at the tool output cap (16,000 characters). */
export const BIG_MODULE = `${Array.from({ length: 600 }, (_, i) => `CATALOGUE_${String(i).padStart(4, '0')} = {"sku": "item-${i}", "price": ${(i * 7) % 100}, "stock": ${i % 13}}`).join('\n')}\n`;
export const BIG_MODULE_PATH = 'shop/catalogue.py';

export const readTurn = (i: number): FakeTurn => ({
  say: `Reading more of the catalogue (${i}).`,
  calls: [
    {
      name: 'read_file',
      arguments: { file_name: BIG_MODULE_PATH, start_line: 1 + (i % 3) * 100, end_line: 400 + (i % 3) * 100 },
    },
  ],
});
export const wrongSubmission: FakeTurn = {
  say: 'Submitting.',
  calls: [{ name: 'submit_implementation', arguments: { code: WRONG } }],
};

/** `blocks` of 14 reads and a submission: 6 is a whole session of the paper's budget. */
export const readingSession = (blocks = 6): FakeTurn[] =>
  Array.from({ length: blocks }, (_, block) => [
    ...Array.from({ length: 14 }, (_, i) => readTurn(block * 14 + i)),
    wrongSubmission,
  ]).flat();
