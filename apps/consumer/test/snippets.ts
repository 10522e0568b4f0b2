/** One TypeScript code block of a README. */
export interface ReadmeSnippet {
  /** The README line of the block's first line of code (1-based). */
  line: number;
  code: string;
  /** The file an `<!-- embed: path -->` marker right above the block says it is a copy of. */
  embeds?: string;
}

/**
 * Every fenced `ts`/`typescript` block of a Markdown text, in order. A block whose fence follows an
 * `<!-- embed: path -->` line (scripts/sync-readme.mjs keeps it equal to that file) carries the path.
 */
export function readmeSnippets(markdown: string): ReadmeSnippet[] {
  const lines = markdown.split("\n");
  const snippets: ReadmeSnippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] ?? "")) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`the code block at line ${i + 1} is never closed`);
    const embeds = /^<!-- embed: (\S+) -->$/.exec(lines[i - 1] ?? "")?.[1];
    snippets.push({ line: i + 2, code: lines.slice(i + 1, end).join("\n"), ...(embeds ? { embeds } : {}) });
    i = end;
  }
  return snippets;
}
