/** Length of the longest end of `text` that is a start of `pattern` (what may still become it). */
function partialTail(text: string, pattern: string): number {
  for (let n = Math.min(text.length, pattern.length - 1); n > 0; n--) {
    if (pattern.startsWith(text.slice(-n))) return n;
  }
  return 0;
}

/**
 * Takes the shell's end-of-command marker (`<marker>:<status>\n`, see session.ts) out of the
 * output of one stream: it is tenet's bookkeeping, not the program's output. The marker carries no
 * newline before it, so nothing of the program's own output (its last newline) is ever held back:
 * held, it would come out after what the other stream said meanwhile. Chunks can end anywhere,
 * inside the marker too, so a tail that may be its start is held back until the next chunk tells;
 * `flush` gives it back when the command ended some other way.
 */
export class MarkerFilter {
  private held = '';
  /** What followed the marker on the last line taken out (the shell's `$?`), without its colon; cleared by the caller. */
  status: string | undefined;

  constructor(private readonly marker: string) {}

  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = '';
    let out = '';
    for (let at = text.indexOf(this.marker); at !== -1; at = text.indexOf(this.marker)) {
      out += text.slice(0, at);
      const rest = text.slice(at + this.marker.length);
      const status = /^:?\d*\n?/.exec(rest)![0];
      if (!status.endsWith('\n') && status.length === rest.length) {
        // The status line has not all arrived yet.
        this.held = text.slice(at);
        return out;
      }
      this.status = status.replace(/^:|\n$/g, '');
      text = rest.slice(status.length);
    }
    const keep = partialTail(text, this.marker);
    this.held = text.slice(text.length - keep);
    return out + text.slice(0, text.length - keep);
  }

  /** What is held back; the marker's own unfinished line stays held, its end is still to come. */
  flush(): string {
    if (this.held.startsWith(this.marker)) return '';
    const held = this.held;
    this.held = '';
    return held;
  }
}
