import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { setupTestDatabase } from "@/test/database";
import { GET } from "./route";

setupTestDatabase();
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#123"/><script>alert(1)</script></svg>`;
const ids = { svg: "", png: "", html: "" };

beforeAll(async () => {
  const create = (contentType: string, data: string | Buffer) =>
    db().asset.create({ data: { contentType, dataBase64: Buffer.from(data).toString("base64"), sha256: "t" } });
  ids.svg = (await create("image/svg+xml", svg)).id;
  ids.png = (await create("image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47]))).id;
  ids.html = (await create("text/html", "<p>hi</p>")).id;
});

const get = (id: string) => GET(new Request(`http://hub.test/assets/${id}`), { params: Promise.resolve({ assetId: id }) });

describe("GET /assets/{id}", () => {
  it("serves an SVG logo with its type, immutable caching and a CSP that lets it draw and nothing else", async () => {
    const response = await get(ids.svg);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(svg);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("serves the bytes of a PNG unchanged", async () => {
    const response = await get(ids.png);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it("is 404 for an unknown id, a malformed id and a stored non-image", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "../etc/passwd", ids.html]) {
      const response = await get(id);
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });
});
