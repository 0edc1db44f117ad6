import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

const biome = join(ROOT, 'node_modules', '.bin', 'biome');

/** What Biome, with this repository's biome.json, makes of `text` given as the file `path`. */
function formatted(path: string, text: string): string {
  const run = spawnSync(biome, ['format', `--stdin-file-path=${path}`], { cwd: ROOT, input: text, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('one formatter', () => {
  it('npm test runs biome check (and tsc) beside the tests, and fails when it fails, so CI fails on unformatted code', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.lint).toBe('biome check .');
    expect(scripts.typecheck).toMatch(/^tsc --noEmit/);
    expect(scripts['test:run']).toBe('vitest run');
    // run-p runs them at once; --continue-on-error lets each finish, and exits non-zero if any failed.
    expect(scripts.test).toMatch(/run-p --continue-on-error typecheck lint test:run$/);
  });

  it('writes the house style: single quotes, semicolons, 2 spaces, lines up to 120 columns', () => {
    expect(formatted('source/x.ts', 'const a = "x"\nif (a) {\n      console.log(a)\n}\n')).toBe(
      "const a = 'x';\nif (a) {\n  console.log(a);\n}\n",
    );
    const long = `export const words = [${Array.from({ length: 30 }, (_, i) => `'w${i}'`).join(', ')}];\n`;
    expect(
      formatted('source/x.ts', long)
        .split('\n')
        .every((line) => line.length <= 120),
    ).toBe(true);
  });

  it('leaves the inside of template literals alone', () => {
    const text = 'export const s = `a  ${"b"}   c\n    d`;\n';
    expect(formatted('source/x.ts', text)).toBe("export const s = `a  ${'b'}   c\n    d`;\n");
  });

  it("checks the code (the session page's script too) and leaves Python, Markdown (the prompts are read at run time), fixtures and the page's style alone", () => {
    const run = spawnSync(
      biome,
      [
        'format',
        '--max-diagnostics=0',
        'source/python',
        'prompts',
        'README.md',
        'test/fixtures',
        'source/engine/session/page/page.css',
        'source/engine/session/page/player.ts',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(`${run.stdout}${run.stderr}`).toMatch(/Checked 1 file/);
  });
});
