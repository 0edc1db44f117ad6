import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testFile } from './node-ids';
import type { Freshness } from './reach-fresh';
import { failedWhenRecorded, functionsNamed, type ReachIndex } from './reach-index';

/**
 * Which tests of a scope THM runs for a target, from the reach index: those recorded as calling
 * it, and every test the index cannot vouch for. The rest never call the target on the code as
 * it is, so with the target blank they run the same code (its first call never comes) and cannot
 * fail because of it; each keeps the outcome the index recorded.
 */
export type ReachPlan =
  | {
      used: true;
      /** The tests of the index that run: the target's and those the index cannot vouch for. */
      tests: number;
      /** The tests the index knows. */
      of: number;
      /** Of those that run, how many because their record is stale. */
      stale: number;
      /** Of those that run, how many the index records as calling the target (or importing a module that does). */
      reaching: number;
      /** Test files none of whose tests run (left uncollected), and tests left out of the others. */
      leaveOut: { files: string[]; tests: string[] };
    }
  | { used: false; why: string };

/** The target as the plan needs it. */
export interface ReachTarget {
  file: string;
  qualname: string;
  name: string;
}

export function reachPlan(index: ReachIndex, fresh: Freshness, target: ReachTarget): ReachPlan {
  if (fresh.whole) return { used: false, why: `the reach index is stale: ${fresh.whole}` };
  if (index.unwatched.includes(target.file))
    return { used: false, why: `${target.file} ran without the index's probe (loaded by other means than an import)` };
  const fns = new Set(functionsNamed(index, target.file, target.qualname));
  const atStart = [...index.atImport, ...index.outside].some((fn) => fns.has(fn));
  if (atStart)
    return {
      used: false,
      why: `${target.file}::${target.qualname} is called as modules are imported or by pytest's hooks: blank, it may fail any test`,
    };
  const mentioned = index.functions.some((fn, at) => fns.has(at) && fn.generator)
    ? mentionsOf(index, target.name)
    : { functions: new Set<number>(), files: new Set<string>() };
  if (mentioned === undefined)
    return {
      used: false,
      why: `${target.qualname} is a generator named outside any function of its repository: the index cannot tell who calls it`,
    };
  const reaches = (test: ReachIndex['tests'][string]) =>
    test.fns.some((fn) => fns.has(fn) || mentioned.functions.has(fn));
  const modules = new Set(
    Object.entries(index.modules)
      .filter(([, called]) => called.some((fn) => fns.has(fn)))
      .map(([file]) => file),
  );
  const run = new Set<string>();
  let stale = 0;
  let reaching = 0;
  for (const [nodeid, test] of Object.entries(index.tests)) {
    const file = testFile(nodeid);
    if (fresh.stale.has(nodeid)) {
      stale++;
      run.add(nodeid);
    } else if (reaches(test) || modules.has(file) || mentioned.files.has(file)) {
      reaching++;
      run.add(nodeid);
    } else if (test.spawns || failedWhenRecorded(test.outcome)) run.add(nodeid);
  }
  const byFile = new Map<string, string[]>();
  for (const nodeid of Object.keys(index.tests)) {
    const file = testFile(nodeid);
    const list = byFile.get(file);
    if (list) list.push(nodeid);
    else byFile.set(file, [nodeid]);
  }
  const files: string[] = [];
  const tests: string[] = [];
  for (const [file, ids] of byFile) {
    if (!ids.some((nodeid) => run.has(nodeid)) && !fresh.changed.includes(file)) files.push(file);
    else tests.push(...ids.filter((nodeid) => !run.has(nodeid)));
  }
  return {
    used: true,
    tests: run.size,
    of: byFile.size ? Object.keys(index.tests).length : 0,
    stale,
    reaching,
    leaveOut: { files: files.sort(), tests: tests.sort() },
  };
}

/**
 * A generator's body first runs at its first `next()`, but its blank raises at the call: a test
 * that calls it without iterating reaches it only blank. Such a call names it, so the tests that
 * reach any function whose code names it, and the test files that name it, run too. A mention in
 * a module's top level that is no import, `__all__` entry or string (an alias: `bfs = bfs_edges`)
 * hides its calls: undefined then.
 */
function mentionsOf(index: ReachIndex, name: string): { functions: Set<number>; files: Set<string> } | undefined {
  const word = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
  const functions = new Set<number>();
  const files = new Set<string>();
  const byFile = new Map<string, number[]>();
  index.functions.forEach((fn, at) => {
    const list = byFile.get(fn.file);
    if (list) list.push(at);
    else byFile.set(fn.file, [at]);
  });
  const testFiles = new Set(Object.keys(index.tests).map(testFile));
  const probed = new Set(index.probed);
  for (const file of Object.keys(index.files)) {
    // A module the tests never imported calls nothing (nor does it blank: its import is the same).
    if (!probed.has(file) && !testFiles.has(file) && !file.endsWith('conftest.py')) continue;
    let text: string;
    try {
      text = readFileSync(join(index.repo, file), 'utf8');
    } catch {
      continue;
    }
    if (!word.test(text)) continue;
    if (testFiles.has(file) || index.modules[file]) {
      files.add(file);
      continue;
    }
    // A fixture of a conftest.py may call it for any test below: the index cannot tell which.
    if (file.endsWith('conftest.py')) return undefined;
    const inFile = byFile.get(file) ?? [];
    const lines = text.split('\n');
    let importing = false;
    let quote: string | undefined; // the triple quote of a string the line starts in
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const trimmed = line.trim();
      const inString = quote !== undefined;
      for (const match of line.matchAll(/"""|'''/g))
        quote = quote === undefined ? match[0] : quote === match[0] ? undefined : quote;
      const isImport = /^(from\s+\S+\s+)?import\b/.test(trimmed);
      if (isImport) importing = trimmed.includes('(') && !trimmed.includes(')');
      if (!word.test(line)) {
        if (importing && !isImport && trimmed.includes(')')) importing = false;
        continue;
      }
      const number = i + 1;
      const holders = inFile.filter((at) => index.functions[at]!.line <= number && number <= index.functions[at]!.end);
      if (holders.length) for (const at of holders) functions.add(at);
      else if (!(inString || importing || isImport || isListing(trimmed))) return undefined;
      if (importing && !isImport && trimmed.includes(')')) importing = false;
    }
  }
  return { functions, files };
}

/** A comment, a line of `__all__`, of strings alone, or one that opens or closes a docstring: no call and no alias. */
function isListing(trimmed: string): boolean {
  return (
    trimmed.startsWith('#') ||
    /^__all__\b/.test(trimmed) ||
    /^(["'][^"']*["']\s*,?\s*)+\]?\)?$/.test(trimmed) ||
    /^[rRuU]?("""|''')/.test(trimmed) ||
    /("""|''')$/.test(trimmed)
  );
}
