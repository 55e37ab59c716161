import { describe, expect, it } from "vitest";
import { sanitizeSvg } from "./sanitize-svg";

const wrap = (inner: string, rootAttrs = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"') => `<svg ${rootAttrs}>${inner}</svg>`;

function ok(source: string): string {
  const result = sanitizeSvg(source);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.svg;
}

function refused(source: string): string {
  const result = sanitizeSvg(source);
  if (result.ok) throw new Error(`accepted: ${result.svg}`);
  return result.message;
}

describe("sanitizeSvg: keeps a plain logo", () => {
  it("the seed's logo shape survives with its attributes", () => {
    const svg = ok(
      wrap('<rect width="96" height="96" rx="20" fill="#1d5fd1"/><text x="48" y="62" font-family="sans-serif" font-size="44" text-anchor="middle" fill="#fff">D</text>'),
    );
    expect(svg).toContain('<rect width="96" height="96" rx="20" fill="#1d5fd1"/>');
    expect(svg).toContain('<text x="48" y="62" font-family="sans-serif" font-size="44" text-anchor="middle" fill="#fff">D</text>');
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });
  it("adds the SVG namespace when missing (an <img> needs it)", () => {
    expect(ok("<svg viewBox='0 0 1 1'><path d='M0 0h1'/></svg>")).toContain('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">');
  });
  it("keeps gradients referenced by url(#id) and fragment hrefs", () => {
    const svg = ok(
      wrap(
        '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient><symbol id="s"><circle r="1"/></symbol></defs>' +
          '<rect fill="url( \'#g\' )" width="1" height="1"/><use xlink:href="#s"/><use href="#s"/>',
        'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"',
      ),
    );
    expect(svg).toContain('xmlns:xlink="http://www.w3.org/1999/xlink"');
    expect(svg).toContain('<use xlink:href="#s"/>');
    expect(svg).toContain("fill=\"url( '#g' )\"");
  });
  it("drops comments, the XML declaration, editor metadata and unknown attributes", () => {
    const svg = ok(
      '<?xml version="1.0"?><!-- made by hand -->' +
        wrap(
          '<metadata><rdf:RDF/></metadata><sodipodi:namedview pagecolor="#fff"/><g inkscape:label="Camada" data-x="1" id="l1"><path d="M0 0"/></g>',
          'xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"',
        ),
    );
    expect(svg).not.toMatch(/made by hand|metadata|namedview|inkscape|data-x/);
    expect(svg).toContain('<g id="l1"><path d="M0 0"/></g>');
  });
  it("re-escapes text and attribute values", () => {
    const svg = ok(wrap('<title>A &amp; B &lt;3 &#65;</title><g id="a&quot;b"/>'));
    expect(svg).toContain("<title>A &amp; B &lt;3 A</title>");
    expect(svg).toContain('id="a&quot;b"');
  });
  it("keeps a <style> without external references", () => {
    expect(ok(wrap("<style>.a { fill: url(#g); } .b > .c { opacity: .5 }</style>"))).toContain("<style>.a { fill: url(#g); } .b &gt; .c { opacity: .5 }</style>");
  });
});

describe("sanitizeSvg: refuses what could run code or load something", () => {
  it.each([
    ["<script>", wrap("<script>alert(1)</script>"), /<script>/],
    ["<SCRIPT> in another case", wrap("<SCRIPT>alert(1)</SCRIPT>"), /SCRIPT/],
    ["a namespaced script", wrap('<html:script xmlns:html="http://www.w3.org/1999/xhtml">x</html:script>'), /script/],
    ["<foreignObject>", wrap("<foreignObject><div/></foreignObject>"), /foreignObject/],
    ["an onload handler", wrap('<rect width="1" height="1"/>', 'xmlns="http://www.w3.org/2000/svg" onload="alert(1)"'), /onload/],
    ["an onclick on a child", wrap('<rect onclick="x()"/>'), /onclick/],
    ["an external href", wrap('<use href="https://evil.example/s.svg#a"/>'), /externo/],
    ["a javascript: xlink:href", wrap('<use xlink:href="javascript:alert(1)"/>'), /externo/],
    ["<image>", wrap('<image href="https://evil.example/x.png"/>'), /<image>/],
    ["<a>", wrap('<a href="#x"><rect/></a>'), /<a>/],
    ["<animate> (can rewrite href)", wrap('<animate attributeName="href" to="javascript:alert(1)"/>'), /animate/],
    ["<set>", wrap('<set attributeName="href" to="x"/>'), /<set>/],
    ["an external url() in fill", wrap('<rect fill="url(https://evil.example/#g)"/>'), /externo/],
    ["an external url() in style", wrap('<rect style="fill:url(//evil.example/a)"/>'), /externo/],
    ["@import in <style>", wrap("<style>@import 'https://evil.example/a.css';</style>"), /@import/],
    ["a CSS escape", wrap("<style>.a { background: u\\72l(x) }</style>"), /escapes/],
    ["a DOCTYPE with entities", `<!DOCTYPE svg [<!ENTITY a "aaaa">]>${wrap("<text>&a;</text>")}`, /DOCTYPE/],
    ["an undeclared entity", wrap("<text>&a;</text>"), /&a;/],
    ["CDATA", wrap("<style><![CDATA[.a{}]]></style>"), /CDATA/],
    ["<?xml-stylesheet?>", `<?xml-stylesheet href="https://evil.example/a.css"?>${wrap("")}`, /xml-stylesheet/],
    ["a foreign default namespace", `<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>`, /namespace/],
  ])("%s", (_, source, message) => {
    expect(refused(source)).toMatch(message);
  });
  it("refuses a file that is not SVG or is malformed", () => {
    expect(refused("<html><body/></html>")).toMatch(/<svg>/);
    expect(refused(wrap("<g><rect></g>"))).toMatch(/malformado/);
    expect(refused("<svg><rect/>")).toMatch(/não foi fechado/);
    expect(refused(`${wrap("")}${wrap("")}`)).toMatch(/mais de um/);
    expect(refused(`${wrap("")}texto`)).toMatch(/fora/);
  });
  it("refuses absurd nesting", () => {
    expect(refused(wrap(`${"<g>".repeat(100)}${"</g>".repeat(100)}`))).toMatch(/aninhados/);
  });
});
