import { expect, test } from "vitest";
import type { Core } from "../service/core.js";
import { API_PREFIX, createApp } from "./createApp.js";
import { createOpenApiDocument } from "./createOpenApiDocument.js";

const toOpenApiPath = (path: string) => path.replace(/:([a-z_]+)/g, "{$1}");

test("the OpenAPI document lists exactly the app's public routes", () => {
  const core = { networks: [], tokens: [], log: () => {} } as unknown as Core;
  const app = createApp({ core, authenticate: async () => ({ partnerId: "p" }), dev: undefined });
  const routes = new Set(
    app.routes
      .filter((r) => r.method !== "ALL" && r.path.startsWith(API_PREFIX))
      .map((r) => `${r.method} ${toOpenApiPath(r.path)}`),
  );
  const doc = createOpenApiDocument() as { openapi: string; paths: Record<string, Record<string, unknown>> };
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    ),
  );
  expect(doc.openapi).toBe("3.1.0");
  expect([...documented].sort()).toEqual([...routes].sort());
  expect(routes.size).toBe(8);
});

test("every $ref points at a defined schema", () => {
  const doc = createOpenApiDocument() as { components: { schemas: Record<string, unknown> } };
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([A-Za-z]+)"/g)].map(
    (m) => m[1],
  );
  expect(refs.length).toBeGreaterThan(0);
  for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref!);
});
