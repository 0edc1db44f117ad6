import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CLI, ROOT, treeHash } from '../helpers/fixtures';
import type { RecordedDemo } from '../helpers/demo-session';

/**
 * The end-to-end project's global setup: `tenet demo` (what `npm start` runs) recorded once, as a
 * user runs it. Tests that need a whole demo session to work on (resume it, cut it, collect it)
 * copy this one (test/helpers/demo-session.ts) instead of running the demo again; the tests of
 * the demo itself read its output. Tests that kill a demo while it runs still run their own.
 */
export default async function recordDemo(project: TestProject): Promise<() => void> {
  const sessions = mkdtempSync(join(tmpdir(), 'tenet-recorded-demo-'));
  const example = join(ROOT, 'examples', 'invoicing');
  const exampleBefore = treeHash(example);
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [CLI, 'demo'],
      {
        env: {
          ...process.env,
          TENET_SESSIONS_DIR: sessions,
          OPENAI_API_KEY: '',
          ANTHROPIC_API_KEY: '',
          XDG_CONFIG_HOME: '/nonexistent',
        },
        maxBuffer: 64 << 20,
      },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out, stderr: err }),
    ),
  );
  const id = readdirSync(sessions, { withFileTypes: true }).find((entry) => entry.isDirectory())?.name;
  if (code !== 0 || !id) throw new Error(`tenet demo failed (exit ${code}) in the global setup:\n${stderr}`);
  const recorded: RecordedDemo = { sessions, id, code, stdout, stderr, exampleBefore, exampleAfter: treeHash(example) };
  project.provide('demo', recorded);
  return () => rmSync(sessions, { recursive: true, force: true });
}
