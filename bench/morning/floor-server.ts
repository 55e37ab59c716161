// The floors of bench/morning's steps that had none: one node:http server, no framework, answering
// the hub's own paths with only each step's durable work, done with the hub's own functions and
// statements on the hub's database (PostgreSQL: the same database; PGlite: a copy of the hub's
// directory made before the hub opened it, as one PGlite serves one process). What each keeps, and
// what it leaves out, is said at its handler. Every answer has the hub's status and the headers the
// next step needs (Location, the session cookie, sealed by the hub's own sealSession).
//
//   FLOOR_PORT=… FLOOR_LOGIN_PAGE=file <the hub's environment> node --import tsx bench/morning/floor-server.ts
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { JWT } from "next-auth/jwt";
import { env } from "@/lib/env";
import { chooseProfile } from "@/lib/server/auth/choose-profile";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { listProfiles } from "@/lib/server/auth/list-profiles";
import { openSession, sealSession, sessionCookie } from "@/lib/server/auth/session-cookie";
import { hashSecret, generateCode } from "@/lib/oauth/secret";
import { listTeacherClasses } from "@/lib/server/classes/list-teacher-classes";
import { hubSecret } from "@/lib/server/crypto/hub-secret";
import { verifyPassword } from "@/lib/server/crypto/password";
import { database } from "@/lib/server/db/database";
import { listHomeGallery } from "@/lib/server/gallery/list-home-gallery";
import { escapeHtml } from "@/lib/server/launch/html";
import { launchOf } from "@/lib/server/launch/build-launch";
import { readLaunch } from "@/lib/server/launch/read-launch";
import { renderLaunchPage } from "@/lib/server/launch/render-launch-page";
import { authorizeLti13 } from "@/lib/server/lti13/authorize-lti13";
import { findApplication } from "@/lib/server/oauth/find-application";
import { listHomeApps } from "@/lib/server/oauth/list-home-apps";
import { resolveApplicationAccess } from "@/lib/server/oauth/resolve-application-access";
import { listSignInOptions } from "@/lib/server/upstream/list-sign-in-options";
import { logSignIn } from "@/lib/server/usage/log-sign-in";

const loginPage = readFileSync(process.env.FLOOR_LOGIN_PAGE!, "utf8");
const COOKIE = sessionCookie();
const NO_STORE = { "Cache-Control": "no-store" };

type TAnswer = { status: number; headers?: Record<string, string | string[]>; body?: string };

const html = (body: string): TAnswer => ({ status: 200, headers: { "Content-Type": "text/html; charset=utf-8", ...NO_STORE }, body });
const seeOther = (location: string, status = 303): TAnswer => ({ status, headers: { Location: location, ...NO_STORE } });

async function withSession(answer: TAnswer, token: JWT): Promise<TAnswer> {
  const { name, options } = COOKIE;
  const cookie = `${name}=${await sealSession(token)}; Path=/; Max-Age=${options.maxAge}; HttpOnly; SameSite=Lax`;
  return { ...answer, headers: { ...answer.headers, "Set-Cookie": cookie } };
}

function cookieOf(req: http.IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const sessionOf = (req: http.IncomingMessage) => openSession(cookieOf(req, COOKIE.name));
const userOf = (req: http.IncomingMessage) => getRequestUser({ cookie: (name: string) => cookieOf(req, name) });

async function readBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** GET /login: the hub's page as it wrote it once (no session yet), and the network providers' buttons it reads every time. */
async function signInPage(): Promise<TAnswer> {
  await listSignInOptions({ institutionId: null });
  return html(loginPage);
}

// The person by e-mail, whether one of the two throttle keys is locked or the login has failures on
// record, and the person's profile when there is exactly one: one statement.
const PERSON_SQL = `
SELECT p.id, p.name, p.email, p."passwordHash",
       (SELECT CASE WHEN count(*) = 1 THEN json_build_object('id', min(pr.id::text), 'institutionId', min(pr."institutionId"::text), 'role', min(pr.role::text)) END
          FROM "Profile" pr WHERE pr."personId" = p.id) AS profile,
       EXISTS (SELECT 1 FROM "RateLimit" r WHERE r.key IN ($2, $3) AND r."lockedUntil" > now()) AS locked,
       EXISTS (SELECT 1 FROM "RateLimit" r WHERE r.key = $2) AS "hasFailures"
  FROM "Person" p WHERE p.email = $1`;

/**
 * POST /entrar, the password: the person's row (PERSON_SQL), the hub's verifyPassword (scrypt), the
 * login's failures cleared only when it has some, the usage count when the profile is chosen here
 * (the hub's logSignIn), the session sealed, and on to the gallery or the picker. Left out: CPF logins, the decoy hash of an unknown
 * login, the failure path, the upstream providers' home-realm discovery, the form's size and
 * media-type checks.
 */
async function passwordSignIn(req: http.IncomingMessage): Promise<TAnswer> {
  const form = await readBody(req);
  const email = (form.get("login") ?? "").trim().toLowerCase();
  const loginKey = `signin:login:${createHmac("sha256", hubSecret()).update(`hub/throttle/login/v1\0${email}`, "utf8").digest("base64url")}`;
  const [person] = await database().sql.query<{ id: string; name: string; email: string; passwordHash: string | null; profile: { id: string; institutionId: string; role: "aluno" } | null; locked: boolean; hasFailures: boolean }>(
    PERSON_SQL, [email, loginKey, "signin:ip:local"], { prepared: true },
  );
  if (!person?.passwordHash || person.locked || !(await verifyPassword(form.get("password") ?? "", person.passwordHash))) return seeOther("/login?error=CredentialsSignin");
  if (person.hasFailures) await database().sql.query(`DELETE FROM "RateLimit" WHERE key = $1`, [loginKey]);
  if (person.profile) await logSignIn({ institutionId: person.profile.institutionId, role: person.profile.role, method: "password" });
  // As the hub's choosePageAfterSignIn for the bench's callback "/": one profile (chosen here) goes
  // straight to the gallery, several to the picker.
  return withSession(seeOther(person.profile ? "/" : "/perfil?callbackUrl=%2F"), { sub: person.id, name: person.name, email: person.email, profileId: person.profile?.id ?? null, method: "password" });
}

/**
 * GET /perfil: the session's person and profile re-read (the hub's one statement); a chosen profile
 * goes on to the gallery, several profiles get the picker's form from the hub's listProfiles. (Only
 * teachers, with two profiles, come here in the morning: the sign-in sends one profile straight on.)
 */
async function profilePage(req: http.IncomingMessage): Promise<TAnswer> {
  const user = await userOf(req);
  if (!user) return seeOther("/login", 307);
  if (user.profile) return seeOther("/", 307);
  const profiles = await listProfiles({ personId: user.personId });
  const buttons = profiles.map((p) => `<li><button name="profileId" value="${p.id}">${escapeHtml(p.role)} · ${escapeHtml(p.institution.name)}</button></li>`).join("");
  return html(`<!doctype html><html lang="pt-BR"><title>Escolha o perfil</title><h1>Como você quer entrar?</h1><form method="post" action="/perfil/escolher"><input type="hidden" name="callbackUrl" value="/"><ul>${buttons}</ul></form></html>`);
}

/** POST /perfil/escolher: the hub's chooseProfile (the profile is the person's; the usage count), the session sealed again. */
async function chooseProfileStep(req: http.IncomingMessage): Promise<TAnswer> {
  const [token, form] = await Promise.all([sessionOf(req), readBody(req)]);
  const chosen = token && (await chooseProfile({ token, profileId: form.get("profileId") ?? "" }));
  if (!chosen) return seeOther("/perfil?erro=perfil");
  return withSession(seeOther("/"), chosen);
}

// The card, its person, profile and institution, and whether the address is locked out: one statement.
const CARD_SQL = `
SELECT c.id, c."profileId", c."revokedAt", p.role::text AS role, pe.id AS "personId", pe.name, pe.email,
       p."institutionId", i."cardNetworks", i."cardStudentsOnly",
       EXISTS (SELECT 1 FROM "RateLimit" r WHERE r.key = $2 AND r."lockedUntil" > now()) AS locked
  FROM "SignInCard" c JOIN "Profile" p ON p.id = c."profileId" JOIN "Person" pe ON pe.id = p."personId" JOIN "Institution" i ON i.id = p."institutionId"
 WHERE c."tokenHash" = $1`;
// The card's last use and the institution's audit row of the sign-in: one statement.
const CARD_USED_SQL = `
WITH used AS (UPDATE "SignInCard" SET "lastUsedAt" = now() WHERE id = $1::uuid)
INSERT INTO "AuditLog" (id, "actorPersonId", action, "targetType", "targetId", "institutionId", details)
VALUES (gen_random_uuid(), $2::uuid, 'card.sign_in', 'sign_in_card', $3, $4::uuid, $5::jsonb)`;

/**
 * GET /cracha/{token}: the card's row (CARD_SQL, by the token's hash), its last use and the audit
 * row (CARD_USED_SQL), the usage count (the hub's logSignIn), the session sealed. Left out: the
 * network and role checks' refusals (the bench's cards pass them), the unknown card's failure count.
 */
async function cardSignIn(token: string): Promise<TAnswer> {
  const [card] = await database().sql.query<{ id: string; profileId: string; revokedAt: Date | null; role: "aluno"; personId: string; name: string; email: string | null; institutionId: string; locked: boolean }>(
    CARD_SQL, [hashSecret(token), "card:local"], { prepared: true },
  );
  if (!card || card.revokedAt || card.locked) return seeOther("/cracha/recusado?motivo=desconhecido");
  await database().sql.query(CARD_USED_SQL, [card.id, card.personId, card.id, card.institutionId, JSON.stringify({ profileId: card.profileId, address: null })], { prepared: true });
  await logSignIn({ institutionId: card.institutionId, role: card.role, method: "card" });
  return withSession(seeOther("/"), { sub: card.personId, name: card.name, email: card.email, profileId: card.profileId, method: "card" });
}

/**
 * GET /: what the gallery page shows, read with the hub's own functions (the user, the profiles of
 * the header's switch, the cards with pins and recent tools, a teacher's classes, the application
 * cards), written as plain HTML: no React, no layout.
 */
async function gallery(req: http.IncomingMessage): Promise<TAnswer> {
  const user = await userOf(req);
  if (!user?.profile) return seeOther("/login", 307);
  const profile = { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id };
  const [profiles, { items, recent }, classes, apps] = await Promise.all([
    listProfiles({ personId: user.personId }),
    listHomeGallery({ profile, search: "" }),
    profile.role === "professor" ? listTeacherClasses({ profileId: profile.id }) : Promise.resolve([]),
    listHomeApps({ profileId: profile.id }),
  ]);
  const li = (text: string, href: string) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`;
  return html(
    `<!doctype html><html lang="pt-BR"><title>Hub Educacional</title><header>${escapeHtml(user.name)} · ${profiles.map((p) => escapeHtml(p.institution.name)).join(" · ")}</header>` +
      `<h1>Olá, ${escapeHtml(user.name.split(" ")[0]!)}</h1><ul>${classes.map((c) => li(`Turma ${c.name}`, `/turmas/${c.id}`)).join("")}</ul>` +
      `<ul>${recent.map((r) => li(r.title, `/launch/${r.placementId}`)).join("")}</ul>` +
      `<ul aria-label="Ferramentas disponíveis">${items.map((i) => li(i.title, `/launch/${i.placementId}`)).join("")}</ul>` +
      `<ul>${apps.map((a) => li(a.name, a.href)).join("")}</ul></html>`,
  );
}

/**
 * GET /launch/{placementId}, an LTI 1.0 launch or an LTI 1.3 login initiation: the session's user
 * and the placement their profile may open (the hub's one statement, readLaunch), the launch (the
 * hub's launchOf: the sharing rule, the pairwise id, for LTI 1.0 the personal fields, the OAuth 1.0a
 * signature and the access log; for LTI 1.3 the sealed message hint) and its page
 * (renderLaunchPage). What the hub's launch endpoint does, without server.mjs's per-request layer.
 * (Before 2026-11-29 the LTI 1.0 floor was bench/launch/floor.mjs, which reads no session or
 * database, and the LTI 1.3 one left out the statement.)
 */
async function launch(req: http.IncomingMessage, placementId: string): Promise<TAnswer> {
  const { user, placement } = await readLaunch({ cookie: (name) => cookieOf(req, name) }, placementId);
  if (!user?.profile || !placement) return { status: 404 };
  const page = renderLaunchPage(await launchOf(placement, { profile: { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id } }));
  return { ...html(page.html), headers: { "Content-Type": "text/html; charset=utf-8", ...NO_STORE, "Content-Security-Policy": page.csp } };
}

/**
 * POST /lti13/authorize: the hub's own authorizeLti13 (registration, sealed hint, single-use nonce,
 * the placement and sharing rule, the RS256 id token, the access log) for the session's user (the
 * hub's one statement), and renderLaunchPage: the route without Next's router and request objects.
 */
async function lti13Authorize(req: http.IncomingMessage): Promise<TAnswer> {
  const [user, params] = await Promise.all([userOf(req), readBody(req)]);
  const profile = user?.profile ? { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id } : null;
  const outcome = await authorizeLti13({ params, profile });
  if (outcome.kind !== "form") return { status: 401 };
  const page = renderLaunchPage(outcome.launch);
  return { ...html(page.html), headers: { "Content-Type": "text/html; charset=utf-8", ...NO_STORE, "Content-Security-Policy": page.csp } };
}

const CODE_SQL = `
INSERT INTO "AuthorizationCode" (id, "codeHash", "applicationId", "profileId", "redirectUri", scope, nonce, "codeChallenge", "codeChallengeMethod", "expiresAt", "createdAt")
VALUES (gen_random_uuid(), $1, $2::uuid, $3::uuid, $4, $5, $6, $7, $8, now() + interval '60 seconds', now())`;

/**
 * GET /lti/v1/oauth2/authorize for a signed-in student with a chosen profile: the session's user
 * (the hub's one statement), the application (the hub's findApplication) and its redirect URI, the
 * sharing rule for the profile's institution (the hub's resolveApplicationAccess), the code's row
 * (one insert, the hub's columns) and the redirect with code, state and iss. Left out: the request's
 * other checks and prompts, the picker, the expired rows' purge the hub runs at every issuance.
 */
async function authorizeCode(url: URL, req: http.IncomingMessage): Promise<TAnswer> {
  const q = url.searchParams;
  const [user, application] = await Promise.all([userOf(req), findApplication({ clientId: q.get("client_id") ?? undefined })]);
  const redirectUri = q.get("redirect_uri") ?? "";
  if (!user?.profile || !application || !application.redirectUris.includes(redirectUri)) return { status: 400 };
  const access = await resolveApplicationAccess({ institutionId: user.profile.institution.id, application, role: user.profile.role });
  if (!access.enabled) return { status: 403 };
  const code = generateCode();
  await database().sql.query(CODE_SQL, [
    hashSecret(code), application.id, user.profile.id, redirectUri, q.get("scope") ?? "openid", q.get("nonce"), q.get("code_challenge"), q.get("code_challenge_method"),
  ], { prepared: true });
  const location = new URL(redirectUri);
  location.searchParams.set("code", code);
  if (q.get("state")) location.searchParams.set("state", q.get("state")!);
  location.searchParams.set("iss", env().HUB_BASE_URL);
  return seeOther(location.toString(), 302);
}

async function answer(req: http.IncomingMessage): Promise<TAnswer> {
  const url = new URL(req.url ?? "/", "http://floor.invalid");
  const path = url.pathname;
  if (req.method === "GET" && path === "/login") return signInPage();
  if (req.method === "POST" && path === "/entrar") return passwordSignIn(req);
  if (req.method === "GET" && path === "/perfil") return profilePage(req);
  if (req.method === "POST" && path === "/perfil/escolher") return chooseProfileStep(req);
  if (req.method === "GET" && path.startsWith("/cracha/")) return cardSignIn(path.slice("/cracha/".length));
  if (req.method === "GET" && path === "/") return gallery(req);
  if (req.method === "GET" && path.startsWith("/launch/")) return launch(req, path.slice("/launch/".length));
  if (req.method === "POST" && path === "/lti13/authorize") return lti13Authorize(req);
  if (req.method === "GET" && path === "/lti/v1/oauth2/authorize") return authorizeCode(url, req);
  return { status: 404 };
}

http
  .createServer((req, res) => {
    answer(req).then(
      (a) => res.writeHead(a.status, a.headers).end(a.body),
      (error: unknown) => {
        console.error(error);
        res.writeHead(500).end();
      },
    );
  })
  .listen(Number(process.env.FLOOR_PORT));
