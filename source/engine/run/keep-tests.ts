import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { EventSink } from '../events';
import type { AgentTests } from './pilot';

/** A path in the checkout that holds no file yet: `dir/name.py`, else `dir/name_2.py`, `_3`… */
export function freePath(repoDir: string, rel: string): string {
  const { dir, name, ext } = posix.parse(rel);
  for (let n = 1; ; n++) {
    const candidate = posix.join(dir, n === 1 ? `${name}${ext}` : `${name}_${n}${ext}`);
    if (!existsSync(join(repoDir, candidate))) return candidate;
  }
}

/**
 * After a TDD run, the agent's test module as the developer may keep it: where it would go in
 * the checkout (where it ran in the workspace, beside the repository's tests; never over a file
 * that is there) and what writing it does. Written whole or not at all, and recorded.
 */
export function agentTestsToKeep(repoDir: string, workspacePath: string, code: string, emit: EventSink): AgentTests {
  const path = freePath(repoDir, workspacePath);
  return {
    path,
    code,
    async keep() {
      // The checkout may have changed while the question was open: find a free name again.
      const to = freePath(repoDir, path);
      const file = join(repoDir, to);
      mkdirSync(dirname(file), { recursive: true });
      const temporary = `${file}.tenet-${process.pid}.tmp`;
      writeFileSync(temporary, code);
      renameSync(temporary, file);
      emit({ type: 'tests.kept', file: to });
      return to;
    },
  };
}
