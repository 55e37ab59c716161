// The floor of bench/launch: a bare node:http server that answers every GET with the hub's own
// launch page for the same placement, its form fields signed afresh with the `oauth-1.0a`
// library (new nonce and timestamp each time), and nothing else: no session, no database.
//
//   PORT=3403 LAUNCH_PAGE=/path/to/page.json node bench/launch/floor.mjs
// page.json: { "action": "...", "consumerKey": "...", "secret": "...", "params": {...}, "before": "...", "after": "..." }
import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import OAuth from "oauth-1.0a";

const page = JSON.parse(readFileSync(process.env.LAUNCH_PAGE, "utf8"));
const oauth = new OAuth({
  consumer: { key: page.consumerKey, secret: page.secret },
  signature_method: "HMAC-SHA1",
  hash_function: (base, key) => createHmac("sha1", key).update(base).digest("base64"),
});
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);

http
  .createServer((req, res) => {
    const signed = oauth.authorize({ url: page.action, method: "POST", data: page.params });
    const fields = { ...page.params, ...signed };
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join("");
    const nonce = randomBytes(16).toString("base64");
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'`,
    });
    res.end(page.before + inputs + page.after);
  })
  .listen(Number(process.env.PORT ?? 3403));
