import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

type JsonSchema = Record<string, unknown>;
interface OpenApiDocument {
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** What one answer or request body was checked against, and what the check found (empty: it matches). */
export interface OpenApiCheck {
  /** The document's path template the URL matched, or undefined when none did. */
  template: string | undefined;
  errors: string[];
}

// ajv-formats is CommonJS: its default export is the plugin function under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

/**
 * A checker of answers and request bodies against an OpenAPI 3.1 document with ajv (JSON Schema 2020-12, formats
 * on): `response` finds the operation of a method and a URL path, and checks the body against the schema the
 * document gives for that status (an undocumented status is an error); `requestBody` checks a body against the
 * operation's request schema. `#/components/schemas/...` references resolve inside the document.
 *
 * @example const check = createOpenApiValidator({ document }).response({ method: "GET", path: "/affiliate/v1/networks", status: 200, body });
 */
export function createOpenApiValidator({ document }: { document: OpenApiDocument }) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<string, ReturnType<Ajv2020["compile"]>>();
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  const findTemplate = (path: string) => templates.find((t) => t.pattern.test(path))?.template;
  const check = (key: string, schema: JsonSchema | undefined, body: unknown): string[] => {
    if (schema === undefined) return [`${key}: not in the document`];
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: document.components });
      compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${key}: ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
    );
  };
  const operationOf = (method: string, path: string) => {
    const template = findTemplate(path);
    return { template, operation: template ? document.paths[template]?.[method.toLowerCase()] : undefined };
  };
  const jsonSchemaOf = (holder: unknown): JsonSchema | undefined =>
    (holder as { content?: { "application/json"?: { schema?: JsonSchema } } } | undefined)?.content?.[
      "application/json"
    ]?.schema;
  return {
    response({
      method,
      path,
      status,
      body,
    }: {
      method: string;
      path: string;
      status: number;
      body: unknown;
    }): OpenApiCheck {
      const { template, operation } = operationOf(method, path);
      const responses = operation?.responses as Record<string, unknown> | undefined;
      const key = `${method} ${template ?? path} ${status}`;
      return { template, errors: check(key, jsonSchemaOf(responses?.[String(status)]), body) };
    },
    requestBody({ method, path, body }: { method: string; path: string; body: unknown }): OpenApiCheck {
      const { template, operation } = operationOf(method, path);
      const key = `${method} ${template ?? path} request`;
      return { template, errors: check(key, jsonSchemaOf(operation?.requestBody), body) };
    },
  };
}
