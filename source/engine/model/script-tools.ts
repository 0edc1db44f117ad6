import { TenetError } from '../errors';
import { closestTools, TOOLS } from '../tools/registry';
import type { Script } from './scripted';

/**
 * A model script whose turn calls a tool tenet does not have (`submit_code` for
 * `submit_implementation`) is refused as it is loaded, naming the turn, the name, the closest tool
 * and every tool: played, the call only failed at run time, turns later, and the script's run was
 * wasted. A name is valid if it is a tool of tenet at all: which tools a turn may call depends on the
 * strategy and the stage (TDD's and TENET's differ), and a script may be played by either, so a
 * call out of its stage is still the agent's to answer as it does a model's.
 */
export function checkScriptTools(script: Script, file: string): void {
  const names = TOOLS.map((tool) => tool.name);
  for (const [index, turn] of script.turns.entries()) {
    for (const call of turn.calls) {
      if (names.includes(call.name)) continue;
      const closest = closestTools(call.name, names);
      throw new TenetError(
        `Model script ${file}, turn ${index + 1}: no tool ${call.name}${closest.length ? ` (closest: ${closest.join(' or ')})` : ''}.`,
        `call one of tenet's tools: ${names.join(', ')}`,
      );
    }
  }
}
