#!/usr/bin/env node
/** tenet's entry point: argv in, exit code out. The commands live in main.ts. */
import { describeError, EXIT } from './engine/errors';
import { main } from './main';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tenet: ${describeError(error)}\n`);
    process.exitCode = EXIT.fail;
  },
);
