import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';
import { sourceFiles } from '../helpers/import-graph';

describe('source/ has no dead code behind an export', () => {
  it('every exported name is used: by another file, or at least in its own', () => {
    const files = ['source', 'test', 'perf', 'scripts'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    const texts = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
    const dead: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'source'))) {
      const text = texts.get(file)!;
      for (const [, name] of text.matchAll(
        /^export (?:declare )?(?:async )?(?:abstract )?(?:function|const|let|class|interface|type|enum)\s+(\w+)/gm,
      )) {
        const word = new RegExp(`\\b${name}\\b`);
        const elsewhere = [...texts].some(([other, body]) => other !== file && word.test(body));
        if (!elsewhere && text.match(new RegExp(word, 'g'))!.length === 1)
          dead.push(`${relative(ROOT, file)}: ${name}`);
      }
    }
    expect(dead).toEqual([]);
  });
});
