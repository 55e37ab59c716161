import PDFDocument from "pdfkit";
import type { TIssuedCard } from "./issue-class-cards";
import { qrMatrix } from "./qr";
import type { TCardClass } from "./require-card-class";

const MM = 72 / 25.4;
// The same layout as the HTML sheet (render-card-sheet.ts): A4, 10 mm margins, 2 × 5 cards of 92 × 52 mm.
const CARD = { width: 92 * MM, height: 52 * MM, padding: 4 * MM, qr: 42 * MM };
const GAP = { x: 4 * MM, y: 3 * MM };
const COLUMNS = 2;
const ROWS = 5;
const A4 = { width: 210 * MM, height: 297 * MM };
const LEFT = (A4.width - COLUMNS * CARD.width - (COLUMNS - 1) * GAP.x) / 2;
const TOP = 10 * MM;

/** The cards of a print as an A4 PDF (vector QR codes, the standard Helvetica: no font files). */
export function renderCardsPdf(options: { cls: TCardClass; cards: TIssuedCard[] }): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margin: 0, autoFirstPage: false, info: { Title: `Crachás da turma ${options.cls.name}`, Producer: "Hub Educacional", Creator: "Hub Educacional" } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const classLine = `Turma ${options.cls.name} · ${options.cls.periodCode}`;
  options.cards.forEach((card, i) => {
    const slot = i % (COLUMNS * ROWS);
    if (slot === 0) doc.addPage();
    const x = LEFT + (slot % COLUMNS) * (CARD.width + GAP.x);
    const y = TOP + Math.floor(slot / COLUMNS) * (CARD.height + GAP.y);
    doc.save().roundedRect(x, y, CARD.width, CARD.height, 3 * MM).dash(3, { space: 3 }).lineWidth(0.5).strokeColor("#64748b").stroke().restore();
    const textWidth = CARD.width - 2 * CARD.padding - CARD.qr - 3 * MM;
    const textX = x + CARD.padding;
    doc.fillColor("#0f172a").font("Helvetica-Bold").fontSize(13).text(card.name, textX, y + CARD.padding, { width: textWidth, height: 18 * MM, ellipsis: true });
    doc.font("Helvetica").fontSize(9).fillColor("#334155").text(classLine, { width: textWidth }).text(options.cls.institutionName, { width: textWidth, height: 10 * MM, ellipsis: true });
    doc.font("Courier").fontSize(5).fillColor("#475569").text(card.url, textX, y + CARD.height - CARD.padding - 7 * MM, { width: textWidth, lineBreak: true });
    const { size, dark } = qrMatrix(card.url);
    const unit = CARD.qr / size;
    const qrX = x + CARD.width - CARD.padding - CARD.qr;
    const qrY = y + (CARD.height - CARD.qr) / 2;
    for (const [mx, my] of dark) doc.rect(qrX + mx * unit, qrY + my * unit, unit, unit);
    doc.fillColor("#000").fill();
  });
  if (options.cards.length === 0) doc.addPage().font("Helvetica").fontSize(12).text("A turma não tem alunos matriculados.", 20 * MM, 20 * MM);
  doc.end();
  return done;
}
