// The developer area's server actions as the browser calls them (FormData in, form state out),
// with only the session mocked: parsing, field messages, authorization and "nothing saved".
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createDeveloper, pngBytes, type TTestDeveloper } from "@/test/fixtures/developer";
import type { TFormState } from "@/lib/validations/form";
import { setupTestDatabase } from "@/test/database";

const session = vi.hoisted(() => ({ personId: null as string | null }));
vi.mock("@/lib/server/auth/current-user", () => ({
  getCurrentUser: async () => (session.personId ? { personId: session.personId, name: "Teste", profile: null } : null),
}));
vi.mock("next/cache", () => ({ refresh: vi.fn() }));

const { createApiKeyAction, createApplicationAction, deleteApplicationAction, revokeApiKeyAction, rotateApplicationSecretAction } = await import("./aplicacoes/actions");
const { createToolAction, runLaunchTestAction, setToolStatusAction, updateToolAction } = await import("./ferramentas/actions");

const t = setupTestDatabase();
let alice: TTestDeveloper;
let bob: TTestDeveloper;
const idle = { status: "idle" } as const;

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

const toolFields = {
  title: "Mapa Mundi",
  shortDescription: "Geografia interativa.",
  longDescription: "Mapas, bandeiras e capitais.",
  siteUrl: "https://mapa.example",
  launchUrl: "https://mapa.example/lti",
  consumerKey: "mapa",
};
const logo = (bytes: Uint8Array, name = "logo.png", type = "image/png") => new File([new Uint8Array(bytes)], name, { type });

function errorsOf<R>(state: TFormState<R>): Record<string, string> {
  if (state.status !== "error") throw new Error(`expected an error, got ${state.status}`);
  return state.fieldErrors;
}

async function counts() {
  const [tools, assets, applications, keys] = await Promise.all([
    t.db.prisma.tool.count(),
    t.db.prisma.asset.count(),
    t.db.prisma.oAuthApplication.count(),
    t.db.prisma.apiKey.count(),
  ]);
  return { tools, assets, applications, keys };
}

beforeAll(async () => {
  alice = await createDeveloper("Alice Form");
  bob = await createDeveloper("Bob Form");
});

beforeEach(() => {
  session.personId = alice.personId;
});

describe("tool form", () => {
  it("missing fields: a message for each field, the typed values back, nothing saved", async () => {
    const before = await counts();
    const state = await createToolAction(idle, form({ edtechId: alice.edtechId, title: "Só o título", sharedSecret: "nao-volta-nunca-123" }));
    expect(errorsOf(state)).toEqual({
      shortDescription: "Informe a descrição curta.",
      longDescription: "Informe a descrição longa.",
      siteUrl: "Informe o site da ferramenta ou da edtech.",
      launchUrl: "Informe o endereço de lançamento LTI.",
      consumerKey: "Informe a consumer key.",
      logo: "Envie o logo da ferramenta (PNG, JPEG ou SVG).",
    });
    expect(state.status === "error" && state.values.title).toBe("Só o título");
    expect(JSON.stringify(state)).not.toContain("nao-volta-nunca");
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["an oversize logo", { logo: logo(Buffer.concat([pngBytes(), Buffer.alloc(260 * 1024)])) }, "logo", /limite é 256 KiB/],
    ["a text file called logo.png", { logo: logo(Buffer.from("not an image at all")) }, "logo", /PNG, JPEG ou SVG/],
    ["an SVG with an event handler", { logo: logo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>'), "l.svg", "image/svg+xml") }, "logo", /onload/],
    ["an http launch URL", { logo: logo(pngBytes()), launchUrl: "http://mapa.example/lti" }, "launchUrl", /https/],
    ["a relative site URL", { logo: logo(pngBytes()), siteUrl: "mapa.example" }, "siteUrl", /https/],
    ["a short shared secret", { logo: logo(pngBytes()), sharedSecret: "1234" }, "sharedSecret", /16/],
  ])("%s: the message is on that field and nothing is saved", async (_, overrides, field, message) => {
    const before = await counts();
    const state = await createToolAction(idle, form({ edtechId: alice.edtechId, ...toolFields, ...overrides }));
    expect(errorsOf(state)[field]).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  it("a complete form saves the tool and returns the generated secret once", async () => {
    const state = await createToolAction(idle, form({ edtechId: alice.edtechId, ...toolFields, logo: logo(pngBytes()) }));
    expect(state).toMatchObject({ status: "success", result: { toolId: expect.any(String), generatedSecret: expect.stringMatching(/^[\w-]{32}$/) } });
  });

  it("signed out: nothing happens", async () => {
    session.personId = null;
    const before = await counts();
    const state = await createToolAction(idle, form({ edtechId: alice.edtechId, ...toolFields, consumerKey: "x2", logo: logo(pngBytes()) }));
    expect(state).toMatchObject({ status: "error", message: expect.stringMatching(/sessão expirou/) });
    expect(await counts()).toEqual(before);
  });

  it("another edtech's member cannot create for Alice's edtech, edit, withdraw or test her tool", async () => {
    const created = await createToolAction(idle, form({ edtechId: alice.edtechId, ...toolFields, consumerKey: "da-alice", logo: logo(pngBytes()) }));
    const toolId = created.status === "success" ? created.result.toolId : "";
    session.personId = bob.personId;
    const before = await counts();
    expect(await createToolAction(idle, form({ edtechId: alice.edtechId, ...toolFields, consumerKey: "intrusa", logo: logo(pngBytes()) }))).toMatchObject({
      status: "error",
      fieldErrors: { edtechId: expect.any(String) },
    });
    expect(await updateToolAction(idle, form({ toolId, ...toolFields, consumerKey: "da-alice", title: "Invadida" }))).toMatchObject({
      status: "error",
      message: "Ferramenta não encontrada.",
    });
    expect(await setToolStatusAction(idle, form({ toolId, status: "withdrawn" }))).toMatchObject({ status: "error", message: "Ferramenta não encontrada." });
    expect(await runLaunchTestAction(idle, form({ toolId }))).toMatchObject({ status: "error", message: "Ferramenta não encontrada." });
    expect(await counts()).toEqual(before);
    expect(await t.db.prisma.tool.findUniqueOrThrow({ where: { id: toolId } })).toMatchObject({ title: toolFields.title, status: "active" });
  });
});

describe("application and key forms", () => {
  const appFields = { name: "Diário", redirectUris: "https://diario.example/cb", defaultResponseType: "code" };

  it.each([
    ["a malformed redirect URI", { redirectUris: "diario.example/cb" }, "redirectUris", /diario\.example\/cb: Informe um endereço completo/],
    ["a redirect URI with a fragment", { redirectUris: "https://diario.example/cb#top" }, "redirectUris", /fragmento/],
    ["a non-https redirect URI", { redirectUris: "http://diario.example/cb" }, "redirectUris", /https/],
    ["no name", { name: "" }, "name", /nome/],
    ["a bad response type", { defaultResponseType: "password" }, "defaultResponseType", /code, access_token ou id_token/],
  ])("%s: the message is on that field and nothing is saved", async (_, overrides, field, message) => {
    const before = await counts();
    const state = await createApplicationAction(idle, form({ edtechId: alice.edtechId, ...appFields, ...overrides }));
    expect(errorsOf(state)[field]).toMatch(message);
    expect(await counts()).toEqual(before);
  });

  it("creates, rotates, creates and revokes keys; Bob can do none of it on Alice's application", async () => {
    const created = await createApplicationAction(idle, form({ edtechId: alice.edtechId, ...appFields }));
    expect(created).toMatchObject({ status: "success", result: { clientSecret: expect.any(String), clientId: expect.stringMatching(/^app-/) } });
    const applicationId = created.status === "success" ? created.result.applicationId : "";
    expect(await rotateApplicationSecretAction(idle, form({ applicationId }))).toMatchObject({ status: "success", result: { clientSecret: expect.any(String) } });
    const key = await createApiKeyAction(idle, form({ applicationId, name: "Prod" }));
    expect(key).toMatchObject({ status: "success", result: { key: expect.stringMatching(/^hub_/) } });
    const apiKeyId = (await t.db.prisma.apiKey.findFirstOrThrow({ where: { applicationId } })).id;

    session.personId = bob.personId;
    const before = await counts();
    const notFound = { status: "error", message: "Aplicação não encontrada." };
    expect(await rotateApplicationSecretAction(idle, form({ applicationId }))).toMatchObject(notFound);
    expect(await createApiKeyAction(idle, form({ applicationId }))).toMatchObject(notFound);
    expect(await revokeApiKeyAction(idle, form({ applicationId, apiKeyId }))).toMatchObject(notFound);
    expect(await deleteApplicationAction(idle, form({ applicationId, confirmName: "Diário" }))).toMatchObject(notFound);
    expect(await counts()).toEqual(before);
    expect((await t.db.prisma.apiKey.findUniqueOrThrow({ where: { id: apiKeyId } })).revokedAt).toBeNull();

    session.personId = alice.personId;
    expect(await revokeApiKeyAction(idle, form({ applicationId, apiKeyId }))).toMatchObject({ status: "success" });
    expect(errorsOf(await deleteApplicationAction(idle, form({ applicationId, confirmName: "outro" }))).confirmName).toMatch(/Diário/);
    await expect(deleteApplicationAction(idle, form({ applicationId, confirmName: "Diário" }))).rejects.toMatchObject({ digest: expect.stringContaining("NEXT_REDIRECT") });
    expect(await t.db.prisma.oAuthApplication.findUnique({ where: { id: applicationId } })).toBeNull();
  });
});
