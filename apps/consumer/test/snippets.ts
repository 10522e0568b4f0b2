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

/**
 * The code of every `@example` tag in the doc comments of a declaration file, where the editor's hover and the API
 * reference show it: the fenced block(s) inside the tag, or, with no fence, the tag's whole text, its own line
 * included (typedoc shows it all as code). `line` is the declaration file's line of the doc comment.
 */
export function docExamples(declarations: string): ReadmeSnippet[] {
  const examples: ReadmeSnippet[] = [];
  for (const comment of declarations.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
    const line = declarations.slice(0, comment.index).split("\n").length;
    const lines = (comment[1] ?? "").split("\n").map((l) => l.replace(/^\s*\* ?/, ""));
    lines.forEach((text, i) => {
      if (!/^@example\b/.test(text)) return;
      const end = lines.findIndex((l, j) => j > i && /^@\w/.test(l));
      // text on the tag's own line is code too when there is no fence (with one, it is the example's title)
      const body = [text.replace(/^@example\s*/, ""), ...lines.slice(i + 1, end < 0 ? lines.length : end)];
      const fenced = readmeSnippets(body.join("\n"));
      const code = fenced.length > 0 ? fenced.map((f) => f.code) : [body.join("\n").trim()];
      for (const c of code) examples.push({ line, code: c });
    });
  }
  return examples;
}
