/**
 * The workspace's import graph, read with the TypeScript compiler's own import scanner: no file imports itself back
 * through a circle (type-only imports included), no package imports itself back through another, the published
 * packages never import a private one, and the sandbox's domain (service, legs, store, resolver, quotes) never imports
 * its HTTP edge.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const PUBLISHED = ["client", "permit2", "bitcoin", "solana"];
const PRIVATE = ["sandbox", "testing"];

const isSource = (name: string) =>
  /\.(ts|mts|cts)$/.test(name) && !/\.(test|test-d|bench)\.ts$/.test(name) && !name.endsWith(".d.ts");

function listSources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : listSources(path);
    return isSource(name) ? [path] : [];
  });
}

/** The workspace file a relative specifier names (`./x.js` is `./x.ts`), or undefined outside the sources. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|cjs)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.mts`, `${stem}.cts`, base, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

interface Graph {
  files: string[];
  /** file -> the workspace files it imports (relative specifiers only) */
  edges: Map<string, string[]>;
  /** file -> the workspace packages it imports by name (`@swapintent/x` or a subpath of it) */
  packages: Map<string, string[]>;
}

function readGraph(): Graph {
  const roots = [...PUBLISHED, ...PRIVATE].map((p) => join(ROOT, "packages", p, "src"));
  const files = roots.flatMap(listSources);
  const edges = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const local: string[] = [];
    const named: string[] = [];
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith(".")) {
        const target = resolveRelative(file, fileName);
        if (target) local.push(target);
      }
      const match = /^@swapintent\/([a-z0-9-]+)/.exec(fileName);
      if (match) named.push(match[1]!);
    }
    edges.set(file, local);
    packages.set(file, named);
  }
  return { files, edges, packages };
}

/** The strongly connected components with more than one member, or a member importing itself (Tarjan). */
function findCircles(nodes: string[], next: (node: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let counter = 0;
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || next(node).includes(node)) circles.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return circles;
}

const graph = readGraph();
const packageOf = (file: string) => relative(join(ROOT, "packages"), file).split("/")[0]!;
const show = (files: string[]) => files.map((f) => relative(ROOT, f)).sort();

describe("the import graph", () => {
  test("is read from every package's sources", () => {
    for (const name of [...PUBLISHED, ...PRIVATE]) {
      expect(graph.files.filter((f) => packageOf(f) === name).length, name).toBeGreaterThan(3);
    }
    // the scanner sees type-only imports too: a file known to import only types has edges
    const types = graph.files.find((f) => f.endsWith(join("client", "src", "index.ts")))!;
    expect(graph.edges.get(types)!.length).toBeGreaterThan(0);
  });

  test("no source file imports itself back through a circle, type-only imports included", () => {
    const circles = findCircles(graph.files, (f) => graph.edges.get(f) ?? []).map(show);
    expect(circles).toEqual([]);
  });

  test("the circle finder finds a circle where there is one", () => {
    const edges: Record<string, string[]> = { a: ["b"], b: ["c"], c: ["a"], d: ["d"], e: ["a"] };
    const circles = findCircles(Object.keys(edges), (n) => edges[n] ?? []).map((c) => c.sort());
    expect(circles).toEqual([["a", "b", "c"], ["d"]]);
  });

  test("no package imports itself back through another package", () => {
    const imports = new Map<string, Set<string>>();
    for (const file of graph.files) {
      const from = packageOf(file);
      const set = imports.get(from) ?? new Set<string>();
      for (const to of graph.packages.get(file) ?? []) if (to !== from) set.add(to);
      imports.set(from, set);
    }
    expect(findCircles([...imports.keys()], (p) => [...(imports.get(p) ?? [])])).toEqual([]);
  });

  test("the published packages import no private package", () => {
    const offending = graph.files
      .filter((f) => PUBLISHED.includes(packageOf(f)))
      .filter((f) => (graph.packages.get(f) ?? []).some((p) => PRIVATE.includes(p)));
    expect(show(offending)).toEqual([]);
  });

  test("the sandbox's domain does not know its HTTP edge or its command line", () => {
    const src = join(ROOT, "packages", "sandbox", "src");
    const domain = ["service", "legs", "db", "resolver", "quotes", "config", "json"].map((d) => join(src, d));
    const edge = ["http", "cli"].map((d) => join(src, d));
    const inside = (file: string, dirs: string[]) => dirs.some((d) => file.startsWith(`${d}/`));
    const offending = graph.files
      .filter((f) => inside(f, domain))
      .flatMap((f) =>
        (graph.edges.get(f) ?? [])
          .filter((t) => inside(t, edge))
          .map((t) => `${show([f])[0]} -> ${show([t])[0]}`),
      );
    expect(graph.files.filter((f) => inside(f, domain)).length).toBeGreaterThan(20);
    expect(offending).toEqual([]);
  });
});
