// Test fixtures for the OAuth flows: a small institution tree, a person with two profiles, and
// partner applications. `hubFetch` is a fetch() that serves the hub's machine endpoints from the
// real route handlers, so tests drive them with plain Request objects exactly as a client would.
import { randomBytes } from "node:crypto";
import { GET as jwksGet } from "@/app/.well-known/jwks.json/route";
import { GET as discoveryGet } from "@/app/.well-known/openid-configuration/route";
import { POST as tokenPost } from "@/app/lti/v1/oauth2/authorize/route";
import { GET as userInfoGet, OPTIONS as userInfoOptions } from "@/app/users/v1/users/info/route";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/oauth/secret";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import type { TPersonalAttribute } from "@/lib/validations/data-api";

export const TEST_ISSUER = "http://hub.test";

export interface TTestApp {
  id: string;
  edtechId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface TOAuthWorld {
  network: string;
  /** Enabled through the network's access row: nome, idade, e-mail (anonymized). */
  schoolA: string;
  /** Its own access row: nome only. */
  schoolB: string;
  /** Another network, no contract with the edtech. */
  schoolC: string;
  personId: string;
  teacherA: string;
  guardianB: string;
  studentC: string;
  soloPersonId: string;
  soloA: string;
  app: TTestApp;
  otherApp: TTestApp;
}

export async function createTestApp(name: string, options: { edtechId?: string; redirectUris?: string[] } = {}): Promise<TTestApp> {
  const suffix = randomBytes(4).toString("hex");
  const edtechId = options.edtechId ?? (await db().edtech.create({ data: { name, slug: `${name.toLowerCase().replace(/\W+/g, "-")}-${suffix}` } })).id;
  const clientSecret = `secret-${randomBytes(16).toString("hex")}`;
  const redirectUris = options.redirectUris ?? [`https://${suffix}.app.example/callback`];
  const app = await db().oAuthApplication.create({
    data: {
      edtechId, name: `${name} App`, description: `O aplicativo ${name}.`, homepageUrl: `https://${suffix}.app.example/`,
      clientId: `client-${suffix}`, clientSecretHash: hashSecret(clientSecret), redirectUris,
    },
  });
  return { id: app.id, edtechId, clientId: app.clientId, clientSecret, redirectUri: redirectUris[0]! };
}

export async function grantApplication(
  institutionId: string,
  applicationId: string,
  allowed: TPersonalAttribute[],
  anonymized: TPersonalAttribute[] = [],
): Promise<void> {
  await db().applicationAccess.create({ data: { institutionId, applicationId, allowedAttributes: allowed, anonymizedAttributes: anonymized } });
}

export async function createOAuthWorld(): Promise<TOAuthWorld> {
  const network = (await createInstitution({ name: "Rede Teste", kind: "network" })).id;
  const schoolA = (await createInstitution({ name: "Escola A", kind: "school", parentId: network })).id;
  const schoolB = (await createInstitution({ name: "Escola B", kind: "school", parentId: network })).id;
  const otherNetwork = (await createInstitution({ name: "Rede Outra", kind: "network" })).id;
  const schoolC = (await createInstitution({ name: "Escola C", kind: "school", parentId: otherNetwork })).id;

  const person = await createPerson({ name: "Ana Teste", email: `ana-${randomBytes(3).toString("hex")}@escola.test`, cpf: "52998224725", phone: "11999990000", birthDate: "1988-04-05" });
  const teacherA = (await createProfile({ personId: person.id, institutionId: schoolA, role: "professor" })).id;
  const guardianB = (await createProfile({ personId: person.id, institutionId: schoolB, role: "responsavel" })).id;
  const studentC = (await createProfile({ personId: person.id, institutionId: schoolC, role: "aluno" })).id;
  const solo = await createPerson({ name: "Solo Teste" });
  const soloA = (await createProfile({ personId: solo.id, institutionId: schoolA, role: "aluno" })).id;

  const app = await createTestApp("Parceiro", { redirectUris: ["https://partner.example/callback", "https://partner.example/cb?keep=1"] });
  const otherApp = await createTestApp("Outro");
  for (const a of [app, otherApp]) await db().edtechLink.create({ data: { institutionId: network, edtechId: a.edtechId } });
  await grantApplication(network, app.id, ["nome_usuario", "idade", "email_usuario"], ["email_usuario"]);
  await grantApplication(schoolB, app.id, ["nome_usuario"]);
  await grantApplication(network, otherApp.id, ["nome_usuario"]);
  return { network, schoolA, schoolB, schoolC, personId: person.id, teacherA, guardianB, studentC, soloPersonId: solo.id, soloA, app, otherApp };
}

type Handler = (request: Request) => Promise<Response> | Response;

const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  "/.well-known/openid-configuration": { GET: () => discoveryGet() },
  "/.well-known/jwks.json": { GET: () => jwksGet() },
  "/lti/v1/oauth2/authorize": { POST: tokenPost },
  "/users/v1/users/info": { GET: userInfoGet, OPTIONS: () => userInfoOptions() },
};

/** fetch() for the hub's machine endpoints, served in process by the route handlers. */
export async function hubFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.origin !== TEST_ISSUER) throw new Error(`hubFetch: not the hub: ${url.origin}`);
  const handler = ROUTES[url.pathname]?.[request.method];
  if (!handler) return new Response("Not found", { status: 404 });
  return handler(request);
}
