import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';
import { sourceFiles } from '../helpers/import-graph';

/**
 * A name says one thing: two exported `RunResult`s (a task's verdict and a process's exit) or two
 * `describeFailure`s made a reader check the import to know which was meant. Every name exported
 * from source/ is exported by one file only.
 */
describe('one name, one thing', () => {
  it('no two files of source/ export the same name', () => {
    const owners = new Map<string, string[]>();
    for (const file of sourceFiles(join(ROOT, 'source'))) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(
        /^export (?:declare )?(?:async )?(?:abstract )?(?:function|const|let|class|interface|type|enum)\s+(\w+)/gm,
      )) {
        owners.set(name!, [...(owners.get(name!) ?? []), relative(ROOT, file)]);
      }
    }
    expect(owners.size).toBeGreaterThan(300);
    expect(
      [...owners].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`),
    ).toEqual([]);
  });
});
