import { escapeHtml } from "@/lib/server/launch/html";
import type { TIssuedCard } from "./issue-class-cards";
import { qrSvg } from "./qr";
import type { TCardClass } from "./require-card-class";

// A4 portrait, 10 mm margins: two columns of five 92 × 52 mm cards (ten per sheet), cut along the
// dashed borders. On screen the same cards, with the buttons above them.
const STYLE = `
@page{size:A4 portrait;margin:10mm}
*{box-sizing:border-box}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#0f172a;background:#f8fafc}
main{max-width:210mm;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
p{margin:.5rem 0}
.tools{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0 1.5rem}
.button{display:inline-block;border:0;border-radius:.375rem;background:#1d5fd1;color:#fff;font:inherit;font-weight:600;padding:.5rem 1rem;cursor:pointer;text-decoration:none}
.button.secondary{background:#fff;color:#0f2a5c;border:1px solid #94a3b8}
a{color:#174ba6}
.sheet{display:grid;grid-template-columns:repeat(2,92mm);gap:3mm 4mm;justify-content:center}
.card{width:92mm;height:52mm;background:#fff;border:1px dashed #64748b;border-radius:3mm;padding:4mm;display:flex;gap:3mm;break-inside:avoid;page-break-inside:avoid}
.who{flex:1;min-width:0;display:flex;flex-direction:column}
.name{font-size:13pt;font-weight:700;line-height:1.15;margin:0}
.meta{font-size:9pt;margin:1.5mm 0 0;color:#334155}
.url{margin-top:auto;font-size:5.5pt;color:#475569;word-break:break-all;font-family:ui-monospace,Menlo,monospace}
.qr{width:42mm;height:42mm;flex:none;align-self:center}
.qr svg{width:100%;height:100%;display:block}
@media print{body{background:#fff}main{padding:0;max-width:none}.noprint{display:none}.sheet{gap:3mm 4mm}}
`;

/**
 * The printable sheet of a class's new cards, as a whole HTML document (answered by the print
 * route, which must show the tokens exactly once). `pdf` is the same cards as a PDF, offered as a
 * download link so printing and downloading share one set of cards.
 */
export function renderCardSheet(options: { cls: TCardClass; cards: TIssuedCard[]; pdf: Buffer; backHref: string }): string {
  const { cls, cards } = options;
  const classLine = `Turma ${cls.name} · ${cls.periodCode}`;
  const items = cards
    .map((card) => {
      const label = `Código QR do crachá de ${card.name}`;
      return `<li class="card" data-card-url="${escapeHtml(card.url)}">
  <div class="who"><p class="name">${escapeHtml(card.name)}</p><p class="meta">${escapeHtml(classLine)}</p><p class="meta">${escapeHtml(cls.institutionName)}</p><p class="url">${escapeHtml(card.url)}</p></div>
  <div class="qr">${qrSvg(card.url, label)}</div>
</li>`;
    })
    .join("\n");
  const title = `Crachás da turma ${cls.name}`;
  const fileName = `crachas-${cls.name.normalize("NFD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase() || "turma"}.pdf`;
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Hub Educacional</title><style>${STYLE}</style></head>
<body><main>
<div class="noprint">
<h1>${escapeHtml(title)}</h1>
<p>${cards.length === 1 ? "1 crachá novo" : `${cards.length} crachás novos`}. Os crachás impressos antes para estes alunos deixaram de valer.</p>
<p>Cada crachá entra no Hub como o aluno indicado: guarde-os com a turma e recolha os que sobrarem.</p>
<div class="tools">
<button type="button" class="button" onclick="window.print()">Imprimir</button>
<a class="button secondary" download="${escapeHtml(fileName)}" href="data:application/pdf;base64,${options.pdf.toString("base64")}">Baixar PDF</a>
<a href="${escapeHtml(options.backHref)}">Voltar à turma</a>
</div>
</div>
${cards.length === 0 ? `<p>A turma não tem alunos matriculados.</p>` : `<ul class="sheet" aria-label="Crachás" style="list-style:none;margin:0;padding:0">\n${items}\n</ul>`}
</main></body></html>`;
}
