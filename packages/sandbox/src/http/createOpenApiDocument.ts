import { z } from "zod";
import {
  API_OPERATIONS,
  DEV_OPERATIONS,
  type WireErrorStatus,
  type WireOperation,
} from "./wire/operations.js";
import { ErrorSchema } from "./wire/responseSchemas.js";

type JsonSchema = Record<string, unknown>;

/** The wire contract of every approval mechanism, in the project's docs. */
export const APPROVALS_DOC_URL =
  "https://github.com/swapintent/swapintent/blob/main/apps/docs/pages/reference/approvals.md";

const ERROR_DESCRIPTIONS: Record<WireErrorStatus, string> = {
  400: "Malformed request: a missing or invalid field (`type` names it, the message names the field), a body that is not a JSON object or over 1 MiB, text a database cannot store.",
  401: "Missing or invalid credentials.",
  404: "No such id for this caller.",
  422: "Well formed, but refused: a business rule, or the engine refused the approval (`type` is the reason).",
  429: "Rate limited: retry after `Retry-After` seconds.",
  503: "`SERVICE_UNAVAILABLE`: the database is unavailable (a PostgreSQL server restarting or unreachable, or this sandbox lost its resolver lock); a write happened whole or not at all (its outcome may be unknown): read before retrying, after `Retry-After` seconds. `ENGINES_UNAVAILABLE` (approvals): the intent's funds are on engines another sandbox runs.",
};

/**
 * Every schema the operations name, converted together (input side: what travels on the wire), so a schema with an
 * `id` becomes one component that every use refers to.
 */
function convertSchemas(operations: readonly WireOperation[]): {
  of: (schema: z.ZodType) => JsonSchema;
  components: Record<string, JsonSchema>;
} {
  const all = new Map<z.ZodType, string>([[ErrorSchema, "error"]]);
  for (const op of operations)
    for (const schema of [op.body, op.query, op.response])
      if (schema && !all.has(schema)) all.set(schema, `s${all.size}`);
  const bundle = z.object(Object.fromEntries([...all].map(([schema, key]) => [key, schema])));
  const converted = z.toJSONSchema(bundle, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
  }) as { properties: Record<string, JsonSchema>; $defs?: Record<string, JsonSchema> };
  const relink = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as T;
  const properties = relink(converted.properties);
  return {
    of: (schema) => properties[all.get(schema) as string] as JsonSchema,
    components: relink(converted.$defs ?? {}),
  };
}

/** The `responses` of an operation: its answer and the `Error` body of each status it may refuse with. */
function describeResponses(op: WireOperation, schema: JsonSchema): JsonSchema {
  const retryAfter = {
    "Retry-After": {
      schema: { type: "integer", minimum: 0 },
      description: "Seconds to wait before retrying.",
    },
  };
  const errors = Object.fromEntries(
    op.errors.map((status) => [
      String(status),
      {
        description: ERROR_DESCRIPTIONS[status],
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
      },
    ]),
  );
  return { 200: { description: "OK", content: { "application/json": { schema } } }, ...errors };
}

/** The `parameters` of an operation: its path's intent id and its query's fields. */
function describeParameters(op: WireOperation, query: JsonSchema | undefined): JsonSchema[] {
  const parameters: JsonSchema[] = [];
  if (op.intentIdParameter)
    parameters.push({
      name: "intent_id",
      in: "path",
      required: true,
      schema: { type: "string", format: "uuid" },
    });
  const properties = (query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query?.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(properties)) {
    const { description, ...rest } = schema;
    parameters.push({
      name,
      in: "query",
      required: required.has(name),
      schema: rest,
      ...(description === undefined ? {} : { description }),
      ...(rest.type === "array" ? { style: "form", explode: true } : {}),
    });
  }
  return parameters;
}

/** The document's `paths`: each operation with its parameters, body, answers and security. */
function describePaths(operations: readonly WireOperation[], of: (schema: z.ZodType) => JsonSchema) {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    const parameters = describeParameters(op, op.query ? of(op.query) : undefined);
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, JsonSchema>)[op.method] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description === undefined ? {} : { description: op.description }),
      operationId: `${op.method}${op.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      ...(op.authenticated ? {} : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.body
        ? { requestBody: { required: true, content: { "application/json": { schema: of(op.body) } } } }
        : {}),
      responses: describeResponses(op, of(op.response)),
    };
  }
  return paths;
}

/**
 * The OpenAPI 3.1 document of the sandbox, built from the wire schemas that validate its requests
 * (`wire/operations.ts`): the `/affiliate/v1` API, and with `dev` the `/sandbox/*` dev endpoints under their own tag.
 * Served at `/affiliate/v1/openapi.json` (with the dev endpoints when the sandbox runs with them).
 *
 * @example const document = createOpenApiDocument({ dev: true });
 */
export function createOpenApiDocument({ dev = false }: { dev?: boolean } = {}): Record<string, unknown> {
  const operations = dev ? [...API_OPERATIONS, ...DEV_OPERATIONS] : API_OPERATIONS;
  const { of, components } = convertSchemas(operations);
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Swap intent service (sandbox)",
      version: "1.0.0",
      description: `Quotes, intents, approvals, status, networks, tokens and swap history. Errors are \`{code, message, entity, type}\`: \`code\` is the HTTP status, \`type\` a stable string code. What the user signs for each approval mechanism (\`params_to_sign\`) and what a signer must check: [approvals](${APPROVALS_DOC_URL}).`,
    },
    externalDocs: {
      description: "What the sandbox asks users to sign, per mechanism",
      url: APPROVALS_DOC_URL,
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    tags: [
      { name: "quotes", description: "Prices (spec 2.1)." },
      { name: "intents", description: "Intents, approvals and status (spec 2.2-2.4, 4)." },
      { name: "catalogue", description: "Networks and tokens." },
      { name: "history", description: "Swap history." },
      { name: "document", description: "This document." },
      ...(dev
        ? [
            {
              name: "sandbox",
              description:
                "Dev endpoints (a sandbox started with dev routes): engine facts (escrow, Permit2 and resolver addresses and keys), faucet, balances, clock, faults, smart accounts. No credentials.",
            },
          ]
        : []),
    ],
    paths: describePaths(operations, of),
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "X-Api-Key",
          description:
            "The partner's key. A partner with a signing key also sends X-Api-Signature, X-Api-Timestamp and X-Api-Nonce.",
        },
      },
      schemas: components,
    },
  };
}
