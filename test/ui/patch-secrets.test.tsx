import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../source/engine/events';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { fakeSecrets } from '../helpers/fake-secrets';
import { approvedStart, frameShows } from './helpers';

// Issue 43 item 3: the patch is the developer's code. The result screen shows it redacted, as all
// text, and says where it holds a secret's shape; what `s` saves is the patch as the engine made it.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-patch-secrets-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const TOKEN = fakeSecrets()['GitHub classic token']!.secret;
const WARNING = 'the patch holds a string shaped like a GitHub token at m.py:2';

const result = (): RunResult => ({
  type: 'result',
  sessionId: 's1',
  target: 'm.py::f',
  strategy: 'tenet',
  pass: true,
  stopReason: 'passed',
  selectedTests: { passed: 1, total: 1 },
  hiddenTests: { passed: 0, total: 0 },
  tests: { 't.py::test_a': 'passed' },
  usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
  rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
  costUsd: 0,
  costOfPass: 0,
  wallMs: 1,
  patch: `--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,3 @@\n def f():\n+    token = "${TOKEN}"\n     return 1\n`,
  patchSecrets: [WARNING],
  model: 'm',
});

describe('a patch that holds a secret shape', () => {
  it('is shown redacted with the warning, and saved by s as it was made', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of approvedStart()) controller.dispatch(event);
    void controller.acceptPatch(result());
    await frameShows(ui.lastFrame, WARNING);
    expect(ui.lastFrame()).toContain('[redacted:github-token]');
    expect(ui.lastFrame()).not.toContain(TOKEN);
    const file = join(scratch, 'saved.patch');
    // What the screen passes on `s` is the patch it shows; the file gets the engine's.
    expect(controller.savePatch(file, '(the patch as shown)')).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe(result().patch);
    ui.unmount();
  });
});
