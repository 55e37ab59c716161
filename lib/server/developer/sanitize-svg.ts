/**
 * Strict SVG sanitiser for tool logos. The hub serves logos to every user's browser, so an SVG
 * is parsed with a small XML tokenizer and re-serialised from an allowlist; the bytes the edtech
 * uploaded are never stored as they are.
 *
 * Policy: constructs that can run code or load something from elsewhere (script,
 * foreignObject, event handlers, non-fragment href, external url(), DOCTYPE/entities, animation
 * that could rewrite an href) make the whole file refused with a message naming the problem —
 * a logo that carries them is suspicious, and silently "fixing" it would hide that. Harmless
 * things outside the allowlist (editor metadata, comments, unknown presentation attributes,
 * filters) are dropped.
 */

export type TSvgSanitizeResult = { ok: true; svg: string } | { ok: false; message: string };

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const MAX_NESTING = 64;
const MAX_ELEMENTS = 5000;

const ALLOWED_ELEMENTS: ReadonlySet<string> = new Set([
  "svg", "g", "defs", "symbol", "use", "title", "desc", "style",
  "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan",
  "linearGradient", "radialGradient", "stop", "clipPath", "mask",
]);

/** Lowercased local names that make the file refused (script hosts, external loads, href rewriting). */
const FORBIDDEN_ELEMENTS: ReadonlySet<string> = new Set([
  "script", "foreignobject", "image", "feimage", "iframe", "embed", "object", "a", "audio", "video",
  "animate", "animatetransform", "animatemotion", "animatecolor", "set", "handler", "listener", "discard",
]);

const ALLOWED_ATTRIBUTES: ReadonlySet<string> = new Set([
  "id", "class", "style", "transform", "d", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr",
  "width", "height", "points", "viewBox", "preserveAspectRatio", "version", "pathLength",
  "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
  "stroke-dasharray", "stroke-dashoffset", "stroke-opacity", "opacity", "color", "display", "visibility", "overflow",
  "clip-path", "clip-rule", "clipPathUnits", "mask", "maskUnits", "maskContentUnits",
  "gradientUnits", "gradientTransform", "spreadMethod", "offset", "stop-color", "stop-opacity",
  "font-family", "font-size", "font-weight", "font-style", "font-variant", "text-anchor", "dominant-baseline",
  "alignment-baseline", "baseline-shift", "letter-spacing", "word-spacing", "text-decoration", "dx", "dy", "rotate",
  "textLength", "lengthAdjust", "shape-rendering", "text-rendering", "vector-effect", "paint-order",
  "href", "xlink:href", "xml:space", "xmlns", "xmlns:xlink",
]);

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

class Refused extends Error {}

interface Element {
  name: string;
  attributes: Array<[string, string]>;
  children: Node[];
}
type Node = Element | { text: string };

function refuse(message: string): never {
  throw new Refused(message);
}

function decodeEntities(raw: string): string {
  return raw.replace(/&([^;&\s]*);?/g, (match, body: string) => {
    if (!match.endsWith(";")) refuse("O SVG tem um & solto; use &amp;.");
    const named = NAMED_ENTITIES[body];
    if (named !== undefined) return named;
    const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
    if (!numeric) refuse(`O SVG usa a entidade &${body};, que não é permitida.`);
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) refuse("O SVG tem um caractere inválido.");
    return String.fromCodePoint(code);
  });
}

function escapeText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;");
}

/** Browsers ignore control characters and blanks inside a URL scheme ("java\tscript:"). */
function squash(value: string): string {
  return value.replace(/[\x00-\x20\x7f]+/g, "").toLowerCase();
}

/** url(...) may only point inside the document (a gradient, a clip path): url(#id). */
function checkUrls(value: string, where: string): void {
  const squashed = squash(value);
  if (squashed.includes("javascript:") || squashed.includes("vbscript:")) refuse(`O SVG tem um endereço javascript: em ${where}.`);
  for (const match of squashed.matchAll(/url\(/g)) {
    const rest = squashed.slice((match.index ?? 0) + 4).replace(/^["']/, "");
    if (!rest.startsWith("#")) refuse(`O SVG referencia um endereço externo em ${where}; só url(#id) é permitido.`);
  }
}

function checkCss(css: string, where: string): void {
  const squashed = squash(css);
  // A backslash escape could spell any of the words below without matching them.
  if (css.includes("\\")) refuse(`O CSS do SVG (${where}) usa escapes (\\), que não são permitidos.`);
  if (css.includes("<")) refuse(`O CSS do SVG (${where}) contém "<".`);
  // url() is checked below; these are the other ways CSS can fetch or run something.
  for (const word of ["@import", "expression(", "behavior:", "-moz-binding", "@font-face", "image-set(", "image(", "src(", "://"]) {
    if (squashed.includes(word)) refuse(`O CSS do SVG (${where}) usa ${word}, que não é permitido.`);
  }
  checkUrls(css, where);
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(":");
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

/** The attribute as it will be written, or null to drop it. Refuses the dangerous ones. */
function sanitizeAttribute(element: string, name: string, value: string): [string, string] | null {
  const lower = name.toLowerCase();
  if (localName(lower).startsWith("on")) refuse(`O SVG tem o atributo de evento ${name} em <${element}>, que não é permitido.`);
  if (localName(lower) === "href") {
    if (lower !== "href" && lower !== "xlink:href") return null;
    if (!value.trim().startsWith("#")) refuse(`O SVG referencia um endereço externo (${name}="${value.slice(0, 60)}"); só #id é permitido.`);
  }
  if (name === "xmlns") {
    if (value !== SVG_NS) refuse(`O SVG declara o namespace ${value.slice(0, 60)}, que não é o do SVG.`);
    return null; // always written on the root by the serialiser
  }
  if (name === "xmlns:xlink") return null; // written on the root when an xlink:href is kept
  if (!ALLOWED_ATTRIBUTES.has(name)) return null;
  if (name === "style") checkCss(value, `style de <${element}>`);
  else checkUrls(value, `${name} de <${element}>`);
  return [name, value];
}

const OPEN_TAG = /<([A-Za-z_][\w.:-]*)/y;
const CLOSE_TAG = /<\/([A-Za-z_][\w.:-]*)\s*>/y;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const BLANKS = /\s*/y;

class Parser {
  private pos = 0;
  private elements = 0;
  usesXlink = false;

  constructor(private readonly src: string) {}

  /** Matches a sticky pattern at the cursor and moves past it (no slicing: logos can be 256 KiB). */
  private match(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.src);
    if (found) this.pos += found[0].length;
    return found;
  }

  parseDocument(): Element {
    let root: Element | null = null;
    while (this.pos < this.src.length) {
      if (this.skipMisc()) continue;
      if (this.src.startsWith("<", this.pos)) {
        if (root) refuse("O SVG tem mais de um elemento raiz.");
        root = this.parseElement(0);
        if (root.name !== "svg") refuse("O arquivo não é um SVG: o elemento raiz deve ser <svg>.");
        continue;
      }
      const next = this.src.indexOf("<", this.pos);
      const text = this.src.slice(this.pos, next === -1 ? undefined : next);
      if (text.trim() !== "") refuse("O SVG tem texto fora do elemento <svg>.");
      this.pos = next === -1 ? this.src.length : next;
    }
    if (!root) refuse("O arquivo não contém um elemento <svg>.");
    return root;
  }

  /** Comments, the XML declaration; refuses DOCTYPE and other processing instructions. */
  private skipMisc(): boolean {
    const s = this.src;
    if (s.startsWith("<!--", this.pos)) {
      const end = s.indexOf("-->", this.pos + 4);
      if (end === -1) refuse("O SVG tem um comentário sem fim.");
      this.pos = end + 3;
      return true;
    }
    if (s.startsWith("<?", this.pos)) {
      const end = s.indexOf("?>", this.pos + 2);
      if (end === -1) refuse("O SVG tem uma instrução <? sem fim.");
      const target = /^<\?([^\s?]+)/.exec(s.slice(this.pos, end))?.[1] ?? "";
      // <?xml-stylesheet?> would load CSS from elsewhere.
      if (target.toLowerCase() !== "xml") refuse(`O SVG tem a instrução <?${target}?>, que não é permitida.`);
      this.pos = end + 2;
      return true;
    }
    if (s.startsWith("<!", this.pos)) {
      // DOCTYPE can declare entities (billion laughs, external files); CDATA hides markup from checks.
      refuse(s.startsWith("<![CDATA[", this.pos) ? "O SVG usa CDATA, que não é permitido." : "O SVG tem DOCTYPE ou declarações de entidade, que não são permitidos.");
    }
    return false;
  }

  private parseElement(depth: number): Element {
    if (depth > MAX_NESTING) refuse("O SVG tem elementos aninhados demais.");
    if (++this.elements > MAX_ELEMENTS) refuse("O SVG tem elementos demais para um logo.");
    const open = this.match(OPEN_TAG);
    if (!open?.[1]) refuse("O SVG está malformado (esperava um elemento).");
    const name = open[1];
    if (FORBIDDEN_ELEMENTS.has(localName(name).toLowerCase())) refuse(`O SVG contém <${name}>, que não é permitido em um logo.`);
    const attributes = this.parseAttributes(name);
    const element: Element = { name, attributes, children: [] };
    if (this.src.startsWith("/>", this.pos)) {
      this.pos += 2;
      return element;
    }
    if (!this.src.startsWith(">", this.pos)) refuse(`O SVG está malformado em <${name}>.`);
    this.pos += 1;
    this.parseChildren(element, depth);
    return element;
  }

  private parseAttributes(element: string): Array<[string, string]> {
    const kept: Array<[string, string]> = [];
    const seen = new Set<string>();
    for (;;) {
      const attr = this.match(ATTRIBUTE);
      if (!attr?.[1]) break;
      const name = attr[1];
      if (seen.has(name)) refuse(`O SVG repete o atributo ${name} em <${element}>.`);
      seen.add(name);
      const value = decodeEntities(attr[2] ?? attr[3] ?? "");
      const safe = sanitizeAttribute(element, name, value);
      if (safe) {
        if (safe[0] === "xlink:href") this.usesXlink = true;
        kept.push(safe);
      }
    }
    this.match(BLANKS);
    return kept;
  }

  private parseChildren(element: Element, depth: number): void {
    const s = this.src;
    for (;;) {
      if (this.pos >= s.length) refuse(`O SVG está malformado: <${element.name}> não foi fechado.`);
      if (s.startsWith("</", this.pos)) {
        const close = this.match(CLOSE_TAG);
        if (close?.[1] !== element.name) refuse(`O SVG está malformado: esperava </${element.name}>.`);
        return;
      }
      if (this.skipMisc()) continue;
      if (s.startsWith("<", this.pos)) {
        element.children.push(this.parseElement(depth + 1));
        continue;
      }
      const next = s.indexOf("<", this.pos);
      const raw = s.slice(this.pos, next === -1 ? s.length : next);
      this.pos += raw.length;
      element.children.push({ text: decodeEntities(raw) });
    }
  }
}

/** Keeps allowlisted elements (dropping the others with their content), checks style text. */
function prune(element: Element): Element | null {
  if (!ALLOWED_ELEMENTS.has(element.name)) return null;
  const children: Node[] = [];
  for (const child of element.children) {
    if ("text" in child) {
      if (element.name === "style") checkCss(child.text, "<style>");
      children.push(child);
      continue;
    }
    const kept = prune(child);
    if (kept) children.push(kept);
  }
  return { ...element, children };
}

function serialize(node: Node, root: boolean, usesXlink: boolean): string {
  if ("text" in node) return escapeText(node.text);
  const namespaces: Array<[string, string]> = root ? [["xmlns", SVG_NS], ...(usesXlink ? [["xmlns:xlink", XLINK_NS] as [string, string]] : [])] : [];
  const attributes = [...namespaces, ...node.attributes].map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join("");
  if (node.children.length === 0) return `<${node.name}${attributes}/>`;
  return `<${node.name}${attributes}>${node.children.map((child) => serialize(child, false, usesXlink)).join("")}</${node.name}>`;
}

export function sanitizeSvg(source: string): TSvgSanitizeResult {
  try {
    const parser = new Parser(source.replace(/^\uFEFF/, ""));
    const root = prune(parser.parseDocument());
    if (!root) return { ok: false, message: "O arquivo não é um SVG." };
    return { ok: true, svg: `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root, true, parser.usesXlink)}` };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, message: error.message };
    throw error;
  }
}
