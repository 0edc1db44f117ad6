import { createTwoFilesPatch } from 'diff';
import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TenetError } from '../errors';
import { encodeSource, type SourceText } from '../python-source/source-text';

/** The change as a unified diff of the target file (git-style a/ and b/ paths). */
export function unifiedPatch(file: string, before: string, after: string): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, '', '', { context: 3 });
  // jsdiff starts with a '=====' rule that git does not write; `git apply` reads from the '---' line.
  return patch.slice(patch.indexOf('--- '));
}

/**
 * Writes the result into the user's checkout, only if the file is still what the run started
 * from (otherwise the developer changed it meanwhile, and their edit wins). Written to a temporary
 * file and renamed, so a crash leaves either the old or the new file.
 */
export function applyToCheckout(repoDir: string, file: string, startedFrom: SourceText, result: string): void {
  const path = join(repoDir, file);
  const current = existsSync(path) ? readFileSync(path) : undefined;
  const expected = encodeSource(startedFrom);
  if (!current?.equals(expected)) {
    throw new TenetError(
      `${file} changed in the checkout since the run started; the patch was not applied.`,
      'apply the printed patch by hand (git apply), or re-run tenet',
    );
  }
  const temporary = `${path}.tenet-${process.pid}.tmp`;
  writeFileSync(temporary, encodeSource({ text: result, encoding: startedFrom.encoding }));
  chmodSync(temporary, statSync(path).mode);
  renameSync(temporary, path);
}
