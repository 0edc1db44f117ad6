import { closeSync, openSync, readSync, statSync } from 'node:fs';

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size;
  } catch {
    return 0; // not there yet: everything written once it is counts
  }
};

/**
 * `--message-file F`: the lines written to F while a run goes on, each a message from the developer
 * for the model. What F holds when the run starts is not sent (it may be an earlier run's). The file
 * is read when the engine asks, just before a model call, so a line written before the call always
 * goes with it; a line still being written (no newline yet) waits for the next call.
 */
export class MessageFile {
  private offset: number;
  /** Bytes after the last newline: a line still being written (kept as bytes, a character may be cut). */
  private partial = Buffer.alloc(0);

  constructor(readonly path: string) {
    this.offset = sizeOf(path);
  }

  /** The whole lines written since the last call, empty ones left out. */
  take(): string[] {
    const size = sizeOf(this.path);
    if (size < this.offset) {
      // Truncated or replaced: what it holds now is new.
      this.offset = 0;
      this.partial = Buffer.alloc(0);
    }
    if (size === this.offset) return [];
    const buffer = Buffer.alloc(size - this.offset);
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return [];
    }
    try {
      const read = readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset += read;
      const bytes = Buffer.concat([this.partial, buffer.subarray(0, read)]);
      const end = bytes.lastIndexOf(0x0a) + 1;
      this.partial = Buffer.from(bytes.subarray(end));
      return bytes
        .subarray(0, end)
        .toString('utf8')
        .split('\n')
        .map((line) => line.replace(/\r$/, '').trim())
        .filter(Boolean);
    } finally {
      closeSync(fd);
    }
  }
}
