import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_QUERY_PARAMETERS } from "@/lib/validations/data-api";
import { OPENAPI_PATH, buildDataApiOpenApi, renderDataApiOpenApi } from "./openapi";

describe("OpenAPI document", () => {
  it("the committed docs/api/data-api.openapi.json equals the one generated from the zod schemas", () => {
    // If this fails: npx tsx lib/server/data-api/openapi.ts
    expect(readFileSync(path.resolve(OPENAPI_PATH), "utf8")).toBe(renderDataApiOpenApi());
  });

  it("documents every query parameter, the api key and each error status", () => {
    const doc = buildDataApiOpenApi() as {
      openapi: string;
      paths: Record<string, { get: { parameters: { name: string; in: string }[]; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    const data = doc.paths["/manager/v1/data/{org_id}"]!.get;
    expect(data.parameters.map((p) => p.name)).toEqual(["org_id", ...Object.keys(DATA_QUERY_PARAMETERS)]);
    expect(Object.keys(data.responses)).toEqual(["200", "400", "401", "403", "404"]);
    expect(JSON.stringify(doc)).not.toContain('"$ref":"#"');
    for (const ref of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) {
      expect(doc.components.schemas).toHaveProperty(ref[1]!);
    }
  });
});
