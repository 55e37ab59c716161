import { z } from "zod";
import { db } from "@/lib/server/db/database";

/** Image types the hub serves; anything else stored by mistake is not served at all. */
const SERVABLE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/webp", "image/gif", "image/svg+xml"]);

export interface TAssetContent {
  contentType: string;
  bytes: Buffer;
  sha256: string;
}

/** A stored image (tool logo) by id, or null when the id is malformed, unknown or not an image. */
export async function readAsset({ id }: { id: string }): Promise<TAssetContent | null> {
  if (!z.guid().safeParse(id).success) return null;
  const asset = await db().asset.findUnique({ where: { id }, select: { contentType: true, dataBase64: true, sha256: true } });
  if (!asset || !SERVABLE_TYPES.has(asset.contentType)) return null;
  return { contentType: asset.contentType, bytes: Buffer.from(asset.dataBase64, "base64"), sha256: asset.sha256 };
}
