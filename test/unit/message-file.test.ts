import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MessageFile } from '../../source/engine/run/message-file';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-message-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('MessageFile (--message-file)', () => {
  it('takes whole lines written after it opened; a line still being written waits, even cut inside a character', () => {
    const file = join(scratch, 'a.txt');
    writeFileSync(file, 'from before\n');
    const messages = new MessageFile(file);
    expect(messages.take()).toEqual([]);
    appendFileSync(file, 'first\n\n  second  \nthird, half');
    expect(messages.take()).toEqual(['first', 'second']);
    const euro = Buffer.from('€');
    appendFileSync(file, Buffer.concat([Buffer.from(' written, 5 '), euro.subarray(0, 1)]));
    expect(messages.take()).toEqual([]);
    appendFileSync(file, Buffer.concat([euro.subarray(1), Buffer.from('\r\n')]));
    expect(messages.take()).toEqual(['third, half written, 5 €']);
    expect(messages.take()).toEqual([]);
  });

  it('a file that appears later counts from its start; one truncated or replaced counts again from its start', () => {
    const file = join(scratch, 'b.txt');
    const messages = new MessageFile(file);
    expect(messages.take()).toEqual([]);
    writeFileSync(file, 'hello\n');
    expect(messages.take()).toEqual(['hello']);
    writeFileSync(file, 'new\n');
    expect(messages.take()).toEqual(['new']);
  });
});
