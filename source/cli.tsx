#!/usr/bin/env node
/** tenet's entry point: argv in, exit code out. The commands live in main.ts. */
import { describeError } from './engine/errors';
import { EXIT } from './engine/exit-codes';
import { main } from './main';

// `tenet show ID | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.pass);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tenet: ${describeError(error)}\n`);
    process.exitCode = EXIT.fail;
  },
);
