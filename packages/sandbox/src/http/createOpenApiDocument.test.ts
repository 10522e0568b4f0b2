import { compileErrors, validate } from "@readme/openapi-parser";
import { expect, test } from "vitest";
import type { Core } from "../service/core.js";
import { API_PREFIX, createApp } from "./createApp.js";
import { createOpenApiDocument } from "./createOpenApiDocument.js";
import type { DevControls } from "./routes/devRoutes.js";

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

test("with dev routes on, the document lists exactly the app's routes, the dev ones under the sandbox tag", () => {
  const core = { networks: [], tokens: [], log: () => {} } as unknown as Core;
  const dev = {} as DevControls;
  const app = createApp({ core, authenticate: async () => ({ partnerId: "p" }), dev });
  const routes = new Set(
    app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${toOpenApiPath(r.path)}`),
  );
  const doc = createOpenApiDocument({ dev: true }) as {
    paths: Record<string, Record<string, { tags: string[]; security?: unknown[] }>>;
    tags: { name: string }[];
  };
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
  );
  expect(documented.map((d) => d.route).sort()).toEqual([...routes].sort());
  const devRoutes = documented.filter((d) => d.route.split(" ")[1]!.startsWith("/sandbox/"));
  expect(devRoutes.map((d) => d.route).sort()).toEqual(
    [
      "GET /sandbox/chains",
      "GET /sandbox/status",
      "GET /sandbox/intents/{intent_id}",
      "POST /sandbox/faucet",
      "GET /sandbox/balance",
      "GET /sandbox/clock",
      "POST /sandbox/clock",
      "GET /sandbox/faults",
      "POST /sandbox/faults",
      "POST /sandbox/smart-accounts",
    ].sort(),
  );
  for (const { route, op } of devRoutes) {
    expect(op.tags, route).toEqual(["sandbox"]);
    expect(op.security, route).toEqual([]);
  }
  expect(doc.tags.map((t) => t.name)).toContain("sandbox");
  const publicDoc = createOpenApiDocument() as { tags: { name: string }[] };
  expect(publicDoc.tags.map((t) => t.name)).not.toContain("sandbox");
});

test.each([
  ["without", false],
  ["with", true],
])("the document %s dev routes passes an OpenAPI 3.1 validator", async (_, dev) => {
  const result = await validate(createOpenApiDocument({ dev }) as never);
  expect(result.valid ? [] : compileErrors(result)).toEqual([]);
  expect(result.valid).toBe(true);
});

test("the document links the approvals contract and describes each mechanism's params_to_sign and approval body", () => {
  const doc = createOpenApiDocument() as {
    externalDocs: { url: string };
    info: { description: string };
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  expect(doc.externalDocs.url).toMatch(/apps\/docs\/pages\/reference\/approvals\.md$/);
  expect(doc.info.description).toContain(doc.externalDocs.url);
  const { schemas } = doc.components;
  const creation = schemas.IntentCreation as { oneOf: { properties: Record<string, unknown> }[] };
  expect(creation.oneOf.map((v) => v.properties.params_to_sign)).toEqual([
    { $ref: "#/components/schemas/Permit2Params" },
    { $ref: "#/components/schemas/HtlcParams" },
    { $ref: "#/components/schemas/CosignParams" },
  ]);
  const permit2 = JSON.stringify(schemas.Permit2Params);
  for (const part of ["domain", "types", "witness", "witness_type_string", "witness_hash", "SwapWitness"])
    expect(permit2).toContain(part);
  expect(JSON.stringify(schemas.HtlcParams)).toContain("tapInternalKey");
  expect(JSON.stringify(schemas.CosignParams)).toContain("TransferChecked");
  const approval = schemas.ApprovalRequest as { oneOf: { properties: { type: unknown } }[] };
  expect(approval.oneOf.map((v) => v.properties.type)).toEqual([
    { type: "string", const: "permit2" },
    { type: "string", enum: ["psbt", "htlc"] },
    { type: "string", const: "cosign" },
  ]);
});

test("the public key's formats are stated: 33-byte compressed for Bitcoin, 32 bytes for Solana, 0x optional", () => {
  const doc = createOpenApiDocument() as { components: { schemas: Record<string, Record<string, unknown>> } };
  const key = (
    doc.components.schemas.IntentRequest as {
      properties: Record<string, { anyOf: { title: string; pattern: string }[] }>;
    }
  ).properties.user_source_public_key!;
  const pattern = (title: string) => new RegExp(key.anyOf.find((v) => v.title === title)!.pattern);
  const compressed = `02${"ab".repeat(32)}`;
  expect(pattern("Bitcoin").test(compressed)).toBe(true);
  expect(pattern("Bitcoin").test(`0x${compressed}`)).toBe(true);
  expect(pattern("Bitcoin").test(`04${"ab".repeat(64)}`)).toBe(false);
  expect(pattern("Solana").test("ab".repeat(32))).toBe(true);
  expect(pattern("Solana").test(`0x${"ab".repeat(32)}`)).toBe(true);
  expect(pattern("Solana").test("ab".repeat(33))).toBe(false);
});

test("the validator is not a formality: a document whose answer lacks its description is refused", async () => {
  const doc = createOpenApiDocument() as {
    paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
  };
  delete doc.paths["/affiliate/v1/networks"]!.get!.responses["200"]!.description;
  expect((await validate(doc as never)).valid).toBe(false);
});
