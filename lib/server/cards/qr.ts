// A card's QR code as dark squares (module coordinates), drawn as SVG on the sheet and as
// rectangles in the PDF from the same matrix. Error correction M: a card survives a crease.
import QRCode from "qrcode";
import { escapeHtml } from "@/lib/server/launch/html";

/** The quiet zone QR readers need around the code, in modules (ISO/IEC 18004 asks for 4). */
export const QR_QUIET_ZONE = 4;

export interface TQrMatrix {
  /** Modules per side, quiet zone included. */
  size: number;
  /** Top-left corners of the dark modules. */
  dark: [x: number, y: number][];
}

export function qrMatrix(text: string): TQrMatrix {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const dark: [number, number][] = [];
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) dark.push([x + QR_QUIET_ZONE, y + QR_QUIET_ZONE]);
  }
  return { size: modules.size + 2 * QR_QUIET_ZONE, dark };
}

/** The code as one SVG path (one `M x y h1v1h-1z` per module), scalable to any print size. */
export function qrSvg(text: string, label: string): string {
  const { size, dark } = qrMatrix(text);
  const path = dark.map(([x, y]) => `M${x} ${y}h1v1h-1z`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges" role="img" aria-label="${escapeHtml(label)}"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
