import { LOGO_MAX_BYTES } from "@/lib/validations/developer";
import { sanitizeSvg } from "./sanitize-svg";

export type TLogoContentType = "image/png" | "image/jpeg" | "image/svg+xml";
export type TValidatedLogo = { ok: true; contentType: TLogoContentType; bytes: Buffer } | { ok: false; message: string };

/** Gallery cards show logos at 48–80 px; beyond this a file is not a logo (and risks a decode bomb). */
const MIN_SIDE = 16;
const MAX_SIDE = 4096;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`;
}

function checkSides(width: number, height: number): string | null {
  if (width < MIN_SIDE || height < MIN_SIDE) return `A imagem tem ${width}×${height} px; use ao menos ${MIN_SIDE}×${MIN_SIDE} px.`;
  if (width > MAX_SIDE || height > MAX_SIDE) return `A imagem tem ${width}×${height} px; o máximo é ${MAX_SIDE}×${MAX_SIDE} px.`;
  return null;
}

/** PNG: signature, IHDR first (its size gives the dimensions), IEND last (not truncated). */
function checkPng(bytes: Buffer): string | null {
  if (bytes.length < 8 + 25 + 12 || bytes.toString("latin1", 12, 16) !== "IHDR") return "O arquivo PNG está corrompido.";
  if (bytes.toString("latin1", bytes.length - 8, bytes.length - 4) !== "IEND") return "O arquivo PNG está incompleto.";
  return checkSides(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

/** JPEG: walk the marker segments up to the first start-of-frame, which holds the dimensions. */
function checkJpeg(bytes: Buffer): string | null {
  let pos = 2;
  while (pos + 4 <= bytes.length) {
    if (bytes[pos] !== 0xff) return "O arquivo JPEG está corrompido.";
    const marker = bytes[pos + 1] ?? 0;
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image / start of scan before any frame
    const length = bytes.readUInt16BE(pos + 2);
    if (length < 2 || pos + 2 + length > bytes.length) return "O arquivo JPEG está corrompido.";
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 7) return "O arquivo JPEG está corrompido.";
      return checkSides(bytes.readUInt16BE(pos + 7), bytes.readUInt16BE(pos + 5));
    }
    pos += 2 + length;
  }
  return "O arquivo JPEG está corrompido ou incompleto.";
}

function looksLikeSvg(bytes: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // The root element may follow an XML declaration, comments or (refused later) a DOCTYPE.
  return /<svg[\s>/]/.test(text.slice(0, 4096)) ? text : null;
}

/**
 * Decides what an uploaded logo is from its bytes (never from the browser's declared type or the
 * file name), checks it and returns what the hub will store. SVGs come back re-serialised by the
 * sanitiser.
 */
export function validateLogo(bytes: Uint8Array): TValidatedLogo {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length === 0) return { ok: false, message: "Selecione o arquivo do logo." };
  if (buffer.length > LOGO_MAX_BYTES) {
    return { ok: false, message: `O logo tem ${kib(buffer.length)}; o limite é ${kib(LOGO_MAX_BYTES)}.` };
  }
  if (buffer.subarray(0, 8).equals(PNG_SIGNATURE)) {
    const problem = checkPng(buffer);
    return problem ? { ok: false, message: problem } : { ok: true, contentType: "image/png", bytes: buffer };
  }
  if (buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) {
    const problem = checkJpeg(buffer);
    return problem ? { ok: false, message: problem } : { ok: true, contentType: "image/jpeg", bytes: buffer };
  }
  const svg = looksLikeSvg(buffer);
  if (svg !== null) {
    const sanitized = sanitizeSvg(svg);
    if (!sanitized.ok) return sanitized;
    const out = Buffer.from(sanitized.svg, "utf8");
    if (out.length > LOGO_MAX_BYTES) return { ok: false, message: `O logo tem mais de ${kib(LOGO_MAX_BYTES)}.` };
    return { ok: true, contentType: "image/svg+xml", bytes: out };
  }
  return { ok: false, message: "Formato não aceito: envie uma imagem PNG, JPEG ou SVG." };
}
