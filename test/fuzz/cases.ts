// Malformed requests for every route handler and page of the served hub, drawn from a seeded
// generator so a failing request can be replayed: the routes come from the build's own routes
// manifest, so a new route is fuzzed without anyone listing it here.
import { readFileSync } from "node:fs";
import path from "node:path";

export interface TFuzzRequest {
  /** The route pattern (e.g. /manager/v1/data/[orgId]), for the per-route table. */
  route: string;
  method: string;
  /** Path and query exactly as sent: may hold malformed escapes on purpose. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface TFuzzContext {
  /** Real ids the hub knows (a school, a profile...), so some requests get past "not found". */
  ids: string[];
  /** Cookie headers of signed-in sessions ("" = anonymous). */
  sessions: string[];
  /** The origin the hub is served at, for same-origin posts. */
  origin: string;
}

/** Never fuzzed: the forced-fault route exists only with HUB_TEST_FAULTS=1. */
const SKIP = new Set(["/_global-error", "/_not-found", "/test-fault"]);

/** The routes of a build (`.next/app-path-routes-manifest.json`). */
export function routesOf(distDir = path.resolve(process.cwd(), process.env.HUB_NEXT_DIST_DIR || ".next")): string[] {
  const manifest = JSON.parse(readFileSync(path.join(distDir, "app-path-routes-manifest.json"), "utf8")) as Record<string, string>;
  return [...new Set(Object.values(manifest))].filter((r) => !SKIP.has(r)).sort();
}

/** mulberry32: small, fast and seedable. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type TRandom = () => number;
const pick = <T>(r: TRandom, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

/** Parameter names the hub reads somewhere (query strings and forms). */
const PARAMS = [
  "limit", "cursor", "min_date", "max_date", "only", "code_term", "user_id", "org_id", "callbackUrl", "error", "erro",
  "client_id", "client_secret", "redirect_uri", "response_type", "scope", "state", "nonce", "prompt", "code", "code_challenge",
  "code_challenge_method", "code_verifier", "grant_type", "tipo", "validar", "login", "password", "profileId", "returnTo",
  "id_token", "access_token", "iss", "login_hint", "oauth_consumer_key", "oauth_signature", "oauth_nonce", "oauth_timestamp",
  "oauth_signature_method", "oauth_version", "lti_message_type", "lti_version", "resource_link_id", "roles", "user_id", "q", "page",
];

/** Values that have broken web apps: encodings, sizes, types, injections, redirects. */
const VALUES = [
  "", "%", "%ZZ", "%FF%FE", "%C0%AF", "%E0%80", "%00", "a%00b", "%0d%0aSet-Cookie:%20x=1", "%2F%09%2Fevil.example", "//evil.example",
  "/\\evil.example", "%5C%5Cevil.example", "javascript:alert(1)", "https://evil.example/", "http:evil.example", "%2F%2Fevil.example",
  "-1", "0", "1e309", "99999999999999999999", "NaN", "Infinity", "1.5", "0x10", "true", "null", "undefined", "[]", "{}",
  "__proto__", "constructor", "toString", "hasOwnProperty", "' OR '1'='1", "1;DROP TABLE x", "$(id)", "{{7*7}}", "${7*7}",
  "<script>alert(1)</script>", "%3Cscript%3E", "\u{1F600}", "%F0%9F%98%80", "%ED%A0%80", "ção", "2026/13/45+25:61:61",
  "2026/11/25+10:00:00", "2026-11-25T10:00:00Z", "9999/12/31+23:59:59", "0000/00/00+00:00:00", "eyJhbGciOiJub25lIn0.e30.",
  "eyJ", "a.b.c", "user,usuario,turma", "usuario", "x".repeat(300), "%41".repeat(200),
];

const CONTENT_TYPES = [
  "application/x-www-form-urlencoded", "application/json", "text/plain", "text/csv", "multipart/form-data",
  "multipart/form-data; boundary=", "multipart/form-data; boundary=----x", "application/xml", "application/json; charset=utf-16",
  "*/*", "application/x-www-form-urlencoded; charset=iso-8859-1", "", "garbage",
];

const METHODS = ["GET", "GET", "GET", "POST", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"];

const AUTHORIZATIONS = [
  "Bearer ", "Bearer x", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6IngifQ.e30.c2ln",
  "Bearer a.b.c.d.e", "Basic", "Basic %%%", "Basic Og==", "Basic " + Buffer.from("demo-app:wrong").toString("base64"),
  "Basic " + Buffer.from(":\u0000").toString("base64"), "Basic " + Buffer.from("x".repeat(5000)).toString("base64"), "Digest x", "bearer  x",
];

function fuzzValue(r: TRandom, context: TFuzzContext): string {
  const roll = r();
  if (roll < 0.15 && context.ids.length) return pick(r, context.ids);
  if (roll < 0.2) return "y".repeat(Math.floor(r() * 20_000));
  if (roll < 0.25) return encodeURIComponent(String.fromCharCode(Math.floor(r() * 0xd800)));
  return pick(r, VALUES);
}

function segmentValue(r: TRandom, context: TFuzzContext): string {
  const roll = r();
  if (roll < 0.3 && context.ids.length) return pick(r, context.ids);
  if (roll < 0.4) return crypto.randomUUID();
  return pick(r, VALUES) || "x";
}

function fillRoute(route: string, r: TRandom, context: TFuzzContext): string {
  let filled = route
    .split("/")
    .map((segment) => {
      if (/^\[\.\.\..+\]$/.test(segment)) return [pick(r, ["session", "csrf", "providers", "signin", "callback", "signout", "error"]), segmentValue(r, context)].slice(0, 1 + Math.floor(r() * 2)).join("/");
      if (/^\[.+\]$/.test(segment)) return segmentValue(r, context);
      return segment;
    })
    .join("/");
  if (r() < 0.1) filled += "/";
  if (r() < 0.05) filled += "/" + segmentValue(r, context);
  return filled || "/";
}

function query(r: TRandom, context: TFuzzContext): string {
  const n = Math.floor(r() * 5);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = r() < 0.9 ? pick(r, PARAMS) : pick(r, VALUES);
    const value = fuzzValue(r, context);
    // Mostly raw (malformed escapes stay malformed); sometimes properly encoded.
    parts.push(`${name}=${r() < 0.7 ? value : encodeURIComponent(value)}`);
    if (r() < 0.15) parts.push(`${name}=${fuzzValue(r, context)}`); // duplicated
  }
  if (r() < 0.05) parts.push("&&==&");
  return parts.length ? `?${parts.join("&")}` : "";
}

function formBody(r: TRandom, context: TFuzzContext): Buffer {
  const n = Math.floor(r() * 6);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`${pick(r, PARAMS)}=${fuzzValue(r, context)}`);
  return Buffer.from(parts.join("&"));
}

function jsonBody(r: TRandom, context: TFuzzContext): Buffer {
  const variants = [
    () => "{",
    () => "[]",
    () => "null",
    () => '"x"',
    () => JSON.stringify(Object.fromEntries(Array.from({ length: Math.floor(r() * 6) }, () => [pick(r, PARAMS), r() < 0.5 ? fuzzValue(r, context) : pick(r, [1, -1, null, true, [], {}, 1e308])]))),
    () => '{"grant_type":"authorization_code","code":' + JSON.stringify(fuzzValue(r, context)) + ',"client_id":"demo-app"}',
    () => '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
    () => "[".repeat(5000) + "]".repeat(5000),
    () => '{"a":"\\ud800"}',
  ];
  return Buffer.from(pick(r, variants)());
}

function multipartBody(r: TRandom, context: TFuzzContext): { body: Buffer; contentType: string } {
  const boundary = "fuzz" + Math.floor(r() * 1e9);
  const variants = [
    () => `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\n${fuzzValue(r, context)}\r\n--${boundary}--\r\n`,
    () => `--${boundary}\r\nContent-Disposition: form-data; name="1_$ACTION_ID_x"\r\n\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$K1"]\r\n--${boundary}--\r\n`,
    () => `--${boundary}\r\ngarbage`,
    () => `--${boundary}--`,
    () => `no boundary at all`,
    () => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${"z".repeat(Math.floor(r() * 200_000))}\r\n--${boundary}--\r\n`,
  ];
  return { body: Buffer.from(pick(r, variants)()), contentType: r() < 0.9 ? `multipart/form-data; boundary=${boundary}` : pick(r, CONTENT_TYPES) };
}

/** One malformed request for a route drawn at random. */
export function nextRequest(routes: readonly string[], r: TRandom, context: TFuzzContext): TFuzzRequest {
  const route = pick(r, routes);
  const method = pick(r, METHODS);
  const headers: Record<string, string> = {};
  const session = pick(r, context.sessions);
  if (session) headers.cookie = session;
  if (r() < 0.3) headers.authorization = pick(r, AUTHORIZATIONS);
  if (r() < 0.3) headers["x-api-key"] = pick(r, ["demo-api-key", "", "x".repeat(3000), "demo-api-key\u00e7", "' OR 1=1"]);
  if (r() < 0.2) headers["x-relationship-id"] = segmentValue(r, context);
  if (r() < 0.5) headers.origin = pick(r, [context.origin, context.origin, "https://evil.example", "null", "garbage"]);
  if (r() < 0.1) headers.rsc = "1";
  if (r() < 0.1) headers["next-action"] = pick(r, ["", "x", "0".repeat(40), "7f".repeat(21)]);
  if (r() < 0.05) headers["next-router-state-tree"] = pick(r, ["%", "[", "x"]);
  // A fresh address per request keeps the sign-in throttle of other tests' address untouched.
  headers["x-forwarded-for"] = `198.51.100.${Math.floor(r() * 250) + 1}`;
  let body: Buffer | undefined;
  if (method === "POST" || method === "PUT" || method === "PATCH" || (method === "DELETE" && r() < 0.3)) {
    const kind = r();
    if (kind < 0.35) {
      body = formBody(r, context);
      headers["content-type"] = r() < 0.85 ? "application/x-www-form-urlencoded" : pick(r, CONTENT_TYPES);
    } else if (kind < 0.65) {
      body = jsonBody(r, context);
      headers["content-type"] = r() < 0.8 ? "application/json" : pick(r, CONTENT_TYPES);
    } else if (kind < 0.85) {
      const multipart = multipartBody(r, context);
      body = multipart.body;
      headers["content-type"] = multipart.contentType;
    } else if (kind < 0.9) {
      body = Buffer.alloc(Math.floor(r() * 3_000_000), 0x61); // oversized
      headers["content-type"] = pick(r, CONTENT_TYPES);
    } else {
      body = Buffer.from([0xff, 0xfe, 0x00, 0xc0, 0xaf, 0x80]);
      headers["content-type"] = pick(r, CONTENT_TYPES);
    }
    if (!headers["content-type"]) delete headers["content-type"];
  }
  // Header values go out as Latin-1: a character past U+00FF cannot be sent at all, so escape it.
  for (const [name, value] of Object.entries(headers)) headers[name] = value.replace(/[^\t\x20-\x7e\x80-\xff]/gu, (c) => encodeURIComponent(c));
  return { route, method, path: fillRoute(route, r, context) + query(r, context), headers, ...(body ? { body } : {}) };
}
