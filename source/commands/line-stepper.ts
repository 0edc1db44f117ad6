import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { describeTurn, prettyArguments } from '../engine/agent/preview';
import type { DeveloperMessage, RequestPreview } from '../engine/protocol/decisions';
import type { ToolCall } from '../engine/protocol/messages';
import type { Stepper } from '../engine/run/pilot';

const HELP_MODEL = 'step: Enter goes on · "m TEXT" adds a message for the model · "s" ends step mode';
const HELP_TOOL =
  'step: Enter runs it · "e JSON" runs it with these arguments instead · "m TEXT" adds a message for the model · "s" ends step mode';

/**
 * Step mode in a headless run (`--step --headless`): each pause is written to `write` (stderr) with
 * what is about to happen, and one line of `input` (stdin) answers it. A script can drive it as a
 * developer would: an empty line goes on, `m TEXT` adds a message (the pause goes on waiting), `e
 * JSON` replaces a tool call's arguments, `s` turns step mode off. When the input ends, step mode
 * ends too and the run goes on by itself.
 */
export function lineStepper(input: Readable, write: (text: string) => void): Stepper & { close(): void } {
  const lines: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let ended = false;
  let on = true;
  const reader = createInterface({ input, terminal: false });
  reader.on('line', (line) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(line);
    } else lines.push(line);
  });
  reader.on('close', () => {
    ended = true;
    waiting?.(undefined);
    waiting = undefined;
  });
  const next = (): Promise<string | undefined> => {
    if (lines.length) return Promise.resolve(lines.shift());
    if (ended) return Promise.resolve(undefined);
    return new Promise((resolve) => (waiting = resolve));
  };

  const messages: DeveloperMessage[] = [];
  /** Answers until the developer goes on; the arguments they gave (tool pauses). */
  const pause = async (tool: boolean): Promise<{ edited?: string }> => {
    let edited: string | undefined;
    for (;;) {
      const line = await next();
      if (line === undefined) {
        on = false;
        write('step: the input ended; step mode is off\n');
        return edited !== undefined ? { edited } : {};
      }
      const answer = line.trim();
      if (!answer) return edited !== undefined ? { edited } : {};
      if (answer === 's') {
        on = false;
        write('step: step mode is off\n');
        return edited !== undefined ? { edited } : {};
      }
      if (answer.startsWith('m ')) {
        messages.push({ text: answer.slice(2).trim(), via: 'stdin' });
        write('step: the message goes with the next model call; Enter goes on\n');
      } else if (tool && answer.startsWith('e ')) {
        try {
          edited = JSON.stringify(JSON.parse(answer.slice(2)));
          write(`step: it will run with ${edited}; Enter runs it\n`);
        } catch (error) {
          write(
            `step: not JSON (${(error as Error).message}); send "e {…}" again, or Enter to run the model's arguments\n`,
          );
        }
      } else {
        write(`step: "${answer}" is not an answer here. ${tool ? HELP_TOOL : HELP_MODEL}\n`);
      }
    }
  };

  return {
    on: () => on,
    async pauseBeforeRequest(preview: RequestPreview) {
      write(
        `\n⏸ before model call ${preview.round}; the request adds:\n${describeTurn(preview.lastTurn)
          .map((l) => `  ${l}`)
          .join('\n')}\n${HELP_MODEL}\n`,
      );
      await pause(false);
    },
    async pauseBeforeTool(call: ToolCall) {
      write(
        `\n⏸ before tool call ${call.name}:\n${prettyArguments(call.arguments)
          .split('\n')
          .map((l) => `  ${l}`)
          .join('\n')}\n${HELP_TOOL}\n`,
      );
      return (await pause(true)).edited;
    },
    take: () => messages.splice(0),
    /** The run is over: stop reading (an open stdin would keep tenet alive). */
    close: () => {
      reader.close();
      input.pause();
    },
  };
}
