// Records sessions/demo: `tenet demo` with the scripted demo model, saved where `tenet replay demo`
// finds it. Run it again after changing the demo, the prompts or the engine's events.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-demo-session-'));
try {
  execFileSync(process.execPath, ['dist/tenet.js', 'demo'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, TENET_SESSIONS_DIR: scratch, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
  });
  const [id] = readdirSync(scratch, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  mkdirSync('sessions/demo', { recursive: true });
  cpSync(join(scratch, id, 'events.jsonl'), 'sessions/demo/events.jsonl');
  console.log(`sessions/demo/events.jsonl recorded from session ${id}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
