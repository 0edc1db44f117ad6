import * as z from 'zod';
import { defineTool } from './tool';

export const runDebuggerCmd = defineTool({
  name: 'run_debugger_cmd',
  changesFiles: true,
  description:
    'Run a command in a persistent shell in the repository (python, pytest and the project are set up). Start pdb with e.g. `python -m pytest tests/test_x.py::test_y --pdb` or `python -m pdb script.py`; then each call sends one pdb line (`b module.py:12`, `c`, `p x`, `where`, `q`) and returns the output up to the next prompt. Send `restart` to start a fresh shell.',
  schema: z.object({ cmd: z.string().min(1).describe('A shell command, or one pdb command while pdb is running') }),
  async run({ cmd }, ctx) {
    const session = ctx.debugger();
    if (cmd.trim() === 'restart') {
      await session.restart();
      return 'A fresh shell session is ready.';
    }
    if (session.currentMode === 'shell' && ctx.approveCommand) {
      const decision = await ctx.approveCommand(cmd);
      if ('stop' in decision) throw Object.assign(new Error('stopped by the developer'), { name: 'AbortError' });
      if (!decision.run)
        return `The developer did not run this command${decision.reason ? `: ${decision.reason}` : '.'}\n[shell]`;
    }
    const output = await session.run(cmd, 'agent');
    const prompt = session.currentMode === 'pdb' ? '' : '\n[shell]';
    return (output.trim() ? output : '(no output)') + prompt;
  },
});
