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

test("every route that reaches the database lists the 503 of a database that is away, with Retry-After; the catalogue (served from memory) does not", () => {
  const doc = createOpenApiDocument() as {
    paths: Record<
      string,
      Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>
    >;
  };
  const reachesDatabase = [
    "post /affiliate/v1/quotes/best",
    "post /affiliate/v1/intents",
    "get /affiliate/v1/intents/{intent_id}/status",
    "post /affiliate/v1/intents/{intent_id}/approvals",
    "get /affiliate/v1/swaps/history",
  ];
  const memoryOnly = [
    "get /affiliate/v1/networks",
    "get /affiliate/v1/tokens",
    "get /affiliate/v1/openapi.json",
  ];
  const response = (route: string) => {
    const [method, path] = route.split(" ") as [string, string];
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`${route} is not documented`);
    return operation.responses["503"];
  };
  for (const route of reachesDatabase) {
    expect(response(route), route).toBeDefined();
    expect(response(route)?.headers, route).toHaveProperty("Retry-After");
  }
  for (const route of memoryOnly) expect(response(route), route).toBeUndefined();
});
