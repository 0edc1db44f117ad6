import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

/**
 * npm 11 runs a dependency's install scripts only when package.json's `allowScripts` allows them,
 * and ends `npm ci` with a warning for each it was not told about: the README's first command
 * should be quiet. Every installed package with an install script is named there, allowed or not.
 */
const LIFECYCLE = ['preinstall', 'install', 'postinstall'];

function packagesWithInstallScripts(dir: string, found = new Map<string, string>()): Map<string, string> {
  if (!existsSync(dir)) return found;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      packagesWithInstallScripts(join(dir, name), found);
      continue;
    }
    const manifest = join(dir, name, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name: string;
      scripts?: Record<string, string>;
      gypfile?: boolean;
    };
    const script = LIFECYCLE.find((s) => pkg.scripts?.[s]);
    // A binding.gyp without an install script gets npm's implicit `node-gyp rebuild`.
    if (script) found.set(pkg.name, `${script}: ${pkg.scripts![script]}`);
    else if (existsSync(join(dir, name, 'binding.gyp')) && pkg.gypfile !== false)
      found.set(pkg.name, 'install: node-gyp rebuild');
    packagesWithInstallScripts(join(dir, name, 'node_modules'), found);
  }
  return found;
}

describe("npm ci's install scripts", () => {
  const allowScripts =
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> })
      .allowScripts ?? {};

  it('every installed package with an install script is allowed or denied in package.json', () => {
    const found = packagesWithInstallScripts(join(ROOT, 'node_modules'));
    expect(found.size).toBeGreaterThan(0);
    expect(
      [...found].filter(([name]) => !Object.hasOwn(allowScripts, name)).map(([name, script]) => `${name} (${script})`),
    ).toEqual([]);
  });

  it("tree-sitter-python's native build is not run: tenet loads its .wasm", () => {
    expect(allowScripts['tree-sitter-python']).toBe(false);
    expect(existsSync(join(ROOT, 'node_modules', 'tree-sitter-python', 'tree-sitter-python.wasm'))).toBe(true);
  });
});
