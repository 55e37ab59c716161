import { readAsset } from "@/lib/server/tools/read-asset";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// An SVG opened directly is a document that could run script: this CSP lets it draw and nothing
// else, and nosniff keeps browsers from reinterpreting any asset as HTML.
const ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

/** GET /assets/{id}: a tool logo. Ids are never reused for other content, so it caches forever. */
export async function GET(_request: Request, { params }: { params: Promise<{ assetId: string }> }): Promise<Response> {
  const { assetId } = await params;
  const asset = await readAsset({ id: assetId });
  if (!asset) {
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return new Response(new Uint8Array(asset.bytes), {
    headers: {
      "Content-Type": asset.contentType,
      "Content-Length": String(asset.bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Security-Policy": ASSET_CSP,
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": "inline",
    },
  });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
