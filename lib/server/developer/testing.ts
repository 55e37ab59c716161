// Test fixtures for the developer area: edtechs with members, and tiny real images.
import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import { db } from "@/lib/db";
import { createPerson } from "@/lib/server/school-data/create-person";

export interface TTestDeveloper {
  personId: string;
  edtechId: string;
}

/** A person who is a member of a fresh edtech (owner by default). */
export async function createDeveloper(name: string, role: "owner" | "member" = "owner"): Promise<TTestDeveloper> {
  const tag = randomBytes(4).toString("hex");
  const person = await createPerson({ name, email: `${name.toLowerCase().replace(/\W+/g, ".")}.${tag}@edtech.test` });
  const edtech = await db().edtech.create({ data: { name: `Edtech ${name}`, slug: `edtech-${tag}` } });
  await db().edtechMember.create({ data: { edtechId: edtech.id, personId: person.id, role } });
  return { personId: person.id, edtechId: edtech.id };
}

/** A person in no edtech at all. */
export async function createOutsider(name: string): Promise<string> {
  const tag = randomBytes(4).toString("hex");
  return (await createPerson({ name, email: `${name.toLowerCase().replace(/\W+/g, ".")}.${tag}@fora.test` })).id;
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid, solid-colour RGB PNG of the given size. */
export function pngBytes(width = 32, height = 32, rgb: [number, number, number] = [29, 95, 209]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

/** A minimal baseline JPEG header (SOI, SOF0 with the size, EOI): enough for the checks. */
export function jpegBytes(width = 32, height = 32): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

export const SVG_LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="#0f766e"/></svg>';
