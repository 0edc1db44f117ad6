import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { Lexer, marked, type Token } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

/** The project's own Markdown that people read: the README, the contributors' pages and docs/. */
function documentation(root: string): string[] {
  const docs = join(root, 'docs');
  const pages = existsSync(docs) ? readdirSync(docs).filter((name) => name.endsWith('.md')) : [];
  return [
    ...['README.md', 'CONTRIBUTING.md', 'AGENTS.md'].filter((name) => existsSync(join(root, name))),
    ...pages.map((name) => join('docs', name)),
  ];
}

/** A heading's text as GitHub reads it for its anchor: code spans by their content, markup dropped. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && token.tokens?.length) return plainText(token.tokens);
      return token.type === 'html' ? '' : ((token as { text?: string }).text ?? '');
    })
    .join('');
}

/** The relative links (and images) of one Markdown text, and the anchors its headings make. */
function readMarkdown(text: string): { links: string[]; anchors: Set<string> } {
  const tokens = Lexer.lex(text);
  const links: string[] = [];
  const anchors = new Set<string>();
  const slugger = new GithubSlugger(); // one per file: a repeated heading gets -1, -2 as on GitHub
  marked.walkTokens(tokens, (token) => {
    if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens ?? [])));
    if ((token.type === 'link' || token.type === 'image') && !/^[a-z][a-z0-9+.-]*:/i.test(token.href))
      links.push(token.href);
  });
  return { links, anchors };
}

/** Every relative link in `files` (paths under `root`) that names no file, or an anchor its page lacks. */
function brokenLinks(root: string, files: readonly string[]): string[] {
  const pages = new Map<string, ReturnType<typeof readMarkdown>>();
  const page = (path: string) => {
    if (!pages.has(path)) pages.set(path, readMarkdown(readFileSync(path, 'utf8')));
    return pages.get(path)!;
  };
  const broken: string[] = [];
  for (const file of files) {
    const from = join(root, file);
    for (const link of page(from).links) {
      const [path = '', anchor] = link.split('#', 2);
      const target = path ? resolve(dirname(from), decodeURIComponent(path)) : from;
      if (!existsSync(target)) broken.push(`${file}: ${link} (no file ${relative(root, target)})`);
      else if (anchor !== undefined && target.endsWith('.md') && !page(target).anchors.has(decodeURIComponent(anchor)))
        broken.push(`${file}: ${link} (no heading #${anchor} in ${relative(root, target)})`);
    }
  }
  return broken;
}

describe("the documentation's links", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tenet-docs-links-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('every relative link in README.md, CONTRIBUTING.md, AGENTS.md and docs/ resolves, anchors included', () => {
    const files = documentation(ROOT);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'AGENTS.md', 'docs/safety.md']));
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });

  it('finds a link to a missing page, a missing heading, and a page or heading that is there', () => {
    writeFileSync(
      join(scratch, 'README.md'),
      [
        '# Start',
        'See [gone](docs/gone.md), [here](docs/here.md#the-local-sandbox-bwrap), [nowhere](docs/here.md#nowhere),',
        '[up](#start), [off](#off), ![a picture](docs/missing.svg) and [the web](https://example.org/x.md).',
        '```',
        '[inside a code block](not-a-link.md)',
        '```',
      ].join('\n'),
    );
    const here = join(scratch, 'docs', 'here.md');
    mkdirSync(dirname(here));
    writeFileSync(here, '# Here\n\n## The local sandbox (`bwrap`)\n\nBack to [the start](../README.md#start).\n');
    expect(documentation(scratch)).toEqual(['README.md', 'docs/here.md']);
    expect(brokenLinks(scratch, documentation(scratch))).toEqual([
      'README.md: docs/gone.md (no file docs/gone.md)',
      'README.md: docs/here.md#nowhere (no heading #nowhere in docs/here.md)',
      'README.md: #off (no heading #off in README.md)',
      'README.md: docs/missing.svg (no file docs/missing.svg)',
    ]);
  });
});
