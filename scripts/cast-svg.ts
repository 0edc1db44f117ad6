// One frame of an asciinema cast, drawn as SVG. The cast is played into a headless terminal emulator
// (xterm.js's own parser and screen buffer), so the picture is what a terminal shows at that frame, colours
// and all: nothing is laid out by hand but the cells the emulator reports.
import xterm from '@xterm/headless';

type Terminal = InstanceType<typeof xterm.Terminal>;
type Cell = NonNullable<ReturnType<NonNullable<ReturnType<Terminal['buffer']['active']['getLine']>>['getCell']>>;

/** A dark theme for the 16 named colours (VS Code's terminal colours), with its default foreground and background. */
const THEME = {
  foreground: '#cccccc',
  background: '#1e1e1e',
  named: [
    '#000000',
    '#cd3131',
    '#0dbc79',
    '#e5e510',
    '#2472c8',
    '#bc3fbc',
    '#11a8cd',
    '#e5e5e5',
    '#666666',
    '#f14c4c',
    '#23d18b',
    '#f5f543',
    '#3b8eea',
    '#d670d6',
    '#29b8db',
    '#e5e5e5',
  ],
};

/** The cell grid: a 14 px monospace font, 8.4 px a column, 18 px a row, inside a 16 px margin. */
const FONT_SIZE = 14;
const CELL_WIDTH = 8.4;
const ROW_HEIGHT = 18;
const MARGIN = 16;

/** The colour of palette entry `index`: the named 16, then xterm's 6×6×6 cube, then its 24 greys. */
function paletteColour(index: number): string {
  if (index < 16) return THEME.named[index]!;
  const hex = (value: number) => value.toString(16).padStart(2, '0');
  if (index >= 232) {
    const grey = 8 + 10 * (index - 232);
    return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
  }
  const levels = [0, 95, 135, 175, 215, 255];
  const cube = index - 16;
  return `#${hex(levels[Math.floor(cube / 36)]!)}${hex(levels[Math.floor(cube / 6) % 6]!)}${hex(levels[cube % 6]!)}`;
}

/** How a cell is drawn; cells with equal styles side by side are drawn as one run. */
interface Style {
  fg: string;
  bg: string | undefined; // undefined: the window's background shows
  bold: boolean;
  dim: boolean;
  underline: boolean;
}

function styleOf(cell: Cell): Style {
  const colour = (rgb: boolean, palette: boolean, value: number) =>
    rgb ? `#${value.toString(16).padStart(6, '0')}` : palette ? paletteColour(value) : undefined;
  let fg = colour(cell.isFgRGB(), cell.isFgPalette(), cell.getFgColor()) ?? THEME.foreground;
  let bg = colour(cell.isBgRGB(), cell.isBgPalette(), cell.getBgColor());
  if (cell.isInverse()) [fg, bg] = [bg ?? THEME.background, fg];
  return { fg, bg, bold: !!cell.isBold(), dim: !!cell.isDim(), underline: !!cell.isUnderline() };
}

const sameStyle = (a: Style, b: Style) =>
  a.fg === b.fg && a.bg === b.bg && a.bold === b.bold && a.dim === b.dim && a.underline === b.underline;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The screen's rows as plain text, to find the frame asked for. */
function screenText(terminal: Terminal): string {
  const rows: string[] = [];
  for (let y = 0; y < terminal.rows; y++) rows.push(terminal.buffer.active.getLine(y)?.translateToString(true) ?? '');
  return rows.join('\n');
}

/** The screen as SVG elements: a rectangle per run with a background of its own, a text per run with glyphs. */
function drawScreen(terminal: Terminal): string[] {
  const elements: string[] = [];
  const cell = terminal.buffer.active.getNullCell();
  for (let y = 0; y < terminal.rows; y++) {
    const line = terminal.buffer.active.getLine(y);
    if (!line) continue;
    const runs: { x: number; width: number; text: string; style: Style }[] = [];
    for (let x = 0; x < terminal.cols; x++) {
      line.getCell(x, cell);
      const width = cell.getWidth();
      if (width === 0) continue; // the second half of a wide character
      const style = styleOf(cell);
      const last = runs.at(-1);
      if (last && sameStyle(last.style, style)) {
        last.text += cell.getChars() || ' ';
        last.width += width;
      } else runs.push({ x, width, text: cell.getChars() || ' ', style });
    }
    const top = MARGIN + y * ROW_HEIGHT;
    for (const run of runs) {
      const left = MARGIN + run.x * CELL_WIDTH;
      const span = run.width * CELL_WIDTH;
      if (run.style.bg)
        elements.push(
          `<rect x="${left.toFixed(1)}" y="${top}" width="${span.toFixed(1)}" height="${ROW_HEIGHT}" fill="${run.style.bg}"/>`,
        );
      const text = run.text.trimEnd();
      if (!text.trim()) continue;
      // Stretched to the columns its glyphs take (trailing spaces are one column each), so runs stay on the grid.
      const glyphs = (run.width - (run.text.length - text.length)) * CELL_WIDTH;
      const attributes = [
        `x="${left.toFixed(1)}"`,
        `y="${top + FONT_SIZE}"`,
        `textLength="${glyphs.toFixed(1)}"`,
        'lengthAdjust="spacingAndGlyphs"',
        'xml:space="preserve"',
        `fill="${run.style.fg}"`,
        run.style.bold ? 'font-weight="bold"' : '',
        run.style.dim ? 'fill-opacity="0.6"' : '',
        run.style.underline ? 'text-decoration="underline"' : '',
      ].filter(Boolean);
      elements.push(`<text ${attributes.join(' ')}>${escapeXml(text)}</text>`);
    }
  }
  return elements;
}

/**
 * The first frame of `cast` (asciicast v2 text) whose screen shows `wanted`, as an SVG picture titled `title`.
 * Throws when no frame shows it, naming the text: a picture of the wrong moment is worse than none.
 */
export async function castFrameSvg(cast: string, wanted: string, title: string): Promise<string> {
  const [headerLine, ...eventLines] = cast.trim().split('\n');
  const header = JSON.parse(headerLine ?? '{}') as { width?: number; height?: number };
  if (!header.width || !header.height) throw new Error('not an asciicast v2 recording: its header has no size');
  const terminal = new xterm.Terminal({ cols: header.width, rows: header.height, allowProposedApi: true });
  try {
    for (const line of eventLines) {
      const [, kind, text] = JSON.parse(line) as [number, string, string];
      if (kind !== 'o') continue;
      await new Promise<void>((done) => terminal.write(text, done));
      if (!screenText(terminal).includes(wanted)) continue;
      const width = 2 * MARGIN + header.width * CELL_WIDTH;
      const height = 2 * MARGIN + header.height * ROW_HEIGHT;
      return [
        `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"`,
        `  font-family="ui-monospace, SFMono-Regular, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="${FONT_SIZE}">`,
        `<title>${escapeXml(title)}</title>`,
        `<rect width="${width}" height="${height}" rx="8" fill="${THEME.background}"/>`,
        ...drawScreen(terminal),
        '</svg>',
        '',
      ].join('\n');
    }
  } finally {
    terminal.dispose();
  }
  throw new Error(`no frame of the cast shows "${wanted}": pick a text the frame you want shows (--frame-with)`);
}
