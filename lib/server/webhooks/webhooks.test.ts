// The developer's side of webhooks: the SSRF guard on the address, the secret shown once and kept
// sealed, "send a test event", "send again" with the batch's own webhook-id, and an endpoint that
// keeps failing is disabled with a reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { setupTestDatabase } from "@/test/database";
import { createPartner, grantAccess, linkEdtech } from "@/test/fixtures/data-api";
import { createDeveloper, createOutsider, type TTestDeveloper } from "@/test/fixtures/developer";
import { startReceiver, type TReceiver } from "@/test/fixtures/webhooks";
import { backoffMs, deliverNextBatch, DEFAULT_DELIVERY_SETTINGS } from "./deliver-next-batch";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { replayWebhookAttempt } from "./replay-webhook-attempt";
import { sendTestWebhook } from "./send-test-webhook";
import { setWebhookEndpointState } from "./set-webhook-endpoint-state";

setupTestDatabase();
let developer: TTestDeveloper;
let applicationId = "";
let receiver: TReceiver;
const privateAddress = async () => [{ address: "10.1.2.3", family: 4 }];
const publicAddress = async () => [{ address: "93.184.215.14", family: 4 }];

beforeAll(async () => {
  process.env.HUB_SECRET = "webhook-services-test-secret-0123456789";
  resetEnvCache();
  developer = await createDeveloper("Ganchos");
  applicationId = (await createPartner("Ganchos", developer.edtechId)).applicationId;
  const school = (await createInstitution({ name: "Escola Gancho", kind: "school" })).id;
  await linkEdtech(school, developer.edtechId);
  await grantAccess(school, applicationId, { allowed: ["nome_usuario"], anonymized: [] });
  await createPeriod({ institutionId: school, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const failure = async (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe("creating an endpoint", () => {
  it("refuses an address that resolves to a private network outside demo mode, naming the field", async () => {
    const error = await failure(createWebhookEndpoint({ actorPersonId: developer.personId, applicationId, fields: { url: "https://hooks.example.com/x" }, allowPrivateNetwork: false, lookup: privateAddress }));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fields?.url).toMatch(/endereços públicos/);
    expect(await db().webhookEndpoint.count()).toBe(0);
  });

  it("refuses plain http off loopback and unknown entities", async () => {
    const error = await failure(createWebhookEndpoint({ actorPersonId: developer.personId, applicationId, fields: { url: "http://hooks.example.com/x" }, lookup: publicAddress }));
    expect(String(error)).toMatch(/https/);
    const bad = await failure(createWebhookEndpoint({ actorPersonId: developer.personId, applicationId, fields: { url: "https://hooks.example.com/x", entities: ["aluno"] }, lookup: publicAddress }));
    expect(String(bad)).toMatch(/Entidade desconhecida/);
  });

  it("is the application's edtech's only: anyone else gets not found", async () => {
    const outsider = await createOutsider("Intruso");
    const error = await failure(createWebhookEndpoint({ actorPersonId: outsider, applicationId, fields: { url: "https://hooks.example.com/x" }, lookup: publicAddress }));
    expect((error as AppError).code).toBe("not_found");
  });

  it("returns a whsec_ secret once and keeps it sealed, with a cursor for the enabled institution", async () => {
    const { endpointId, secret } = await createWebhookEndpoint({ actorPersonId: developer.personId, applicationId, fields: { url: "https://hooks.example.com/x", entities: "usuario" }, lookup: publicAddress });
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(row.secretSealed).not.toContain(secret.slice(6, 20));
    expect(row.entities).toEqual(["usuario"]);
    expect(await db().webhookCursor.count({ where: { endpointId } })).toBe(1);
    await setWebhookEndpointState({ actorPersonId: developer.personId, applicationId, endpointId, state: "deleted" });
  });
});

describe("sending", () => {
  let endpointId = "";
  beforeAll(async () => {
    const created = await createWebhookEndpoint({ actorPersonId: developer.personId, applicationId, fields: { url: receiver.url }, allowPrivateNetwork: true });
    endpointId = created.endpointId;
    receiver.setSecret(created.secret);
  });

  it("sends a signed test event and logs the attempt without its body", async () => {
    const result = await sendTestWebhook({ actorPersonId: developer.personId, applicationId, endpointId, allowPrivateNetwork: true });
    expect(result).toMatchObject({ ok: true, status: 204 });
    expect(receiver.received.at(-1)!.payload.type).toBe("webhook.teste");
    const attempt = await db().webhookAttempt.findFirstOrThrow({ where: { endpointId, trigger: "test" } });
    expect(attempt).toMatchObject({ ok: true, responseStatus: 204, eventCount: 0 });
  });

  it("does not send the test event to a private address outside demo mode", async () => {
    const result = await sendTestWebhook({ actorPersonId: developer.personId, applicationId, endpointId, allowPrivateNetwork: false });
    expect(result).toMatchObject({ ok: false, status: null });
  });

  it("sends a batch again under its webhook-id, with the same events, and leaves the cursor where it was", async () => {
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, worker: "test", allowPrivateNetwork: true };
    expect(await deliverNextBatch(settings)).toBe("delivered");
    const first = receiver.received.at(-1)!;
    const cursor = await db().webhookCursor.findFirstOrThrow({ where: { endpointId } });
    const attempt = await db().webhookAttempt.findFirstOrThrow({ where: { endpointId, trigger: "delivery" } });
    const result = await replayWebhookAttempt({ actorPersonId: developer.personId, applicationId, attemptId: attempt.id, allowPrivateNetwork: true });
    expect(result.ok).toBe(true);
    const again = receiver.received.at(-1)!;
    expect(again.id).toBe(first.id);
    expect(again.payload.data.dados).toEqual(first.payload.data.dados);
    expect((await db().webhookCursor.findFirstOrThrow({ where: { endpointId } })).position).toBe(cursor.position);
  });

  it("retries with growing, jittered waits, and disables an endpoint that keeps failing, saying why", async () => {
    expect(backoffMs(1, { backoffBaseMs: 1000, backoffCapMs: 60_000 }, () => 0)).toBe(500);
    expect(backoffMs(3, { backoffBaseMs: 1000, backoffCapMs: 60_000 }, () => 1)).toBe(4000);
    expect(backoffMs(30, { backoffBaseMs: 1000, backoffCapMs: 60_000 }, () => 1)).toBe(60_000);
    await createPeriod({ institutionId: (await db().webhookCursor.findFirstOrThrow({ where: { endpointId } })).institutionId, code: "2027", name: "2027", startsOn: "2027-02-01", endsOn: "2027-12-01" });
    receiver.failWith = 503;
    await db().webhookCursor.updateMany({ where: { endpointId }, data: { dueAt: new Date(0) } }); // due now, not after the idle wait
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, worker: "test", allowPrivateNetwork: true, backoffBaseMs: 1, backoffCapMs: 1, disableAfterMs: 300 };
    // The new event reaches the feed once it is below the horizon: a transaction that began before
    // it and is still running anywhere the horizon cannot place (parallel test files on this server)
    // holds it back for a moment, and the cursor then reads "caught_up" and waits its idle time.
    await expect.poll(() => deliverNextBatch(settings), { timeout: 10_000, interval: 100 }).toBe("failed");
    await new Promise((r) => setTimeout(r, 400));
    expect(await deliverNextBatch(settings)).toBe("failed");
    const endpoint = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(endpoint.disabledAt).not.toBeNull();
    expect(endpoint.disabledReason).toMatch(/Desativado após 2 tentativas.*Respondeu 503/);
    expect(await deliverNextBatch(settings)).toBe("none");
    receiver.failWith = null;
    await setWebhookEndpointState({ actorPersonId: developer.personId, applicationId, endpointId, state: "enabled" });
    expect(await deliverNextBatch(settings)).toBe("delivered");
  });

  it("disables at once an endpoint whose receiver answers 410 Gone, saying so, without waiting the window", async () => {
    await createPeriod({ institutionId: (await db().webhookCursor.findFirstOrThrow({ where: { endpointId } })).institutionId, code: "2028", name: "2028", startsOn: "2028-02-01", endsOn: "2028-12-01" });
    receiver.failWith = 410;
    await db().webhookCursor.updateMany({ where: { endpointId }, data: { dueAt: new Date(0) } });
    // A day's window: only the 410 can disable it now.
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, worker: "test", allowPrivateNetwork: true };
    await expect.poll(() => deliverNextBatch(settings), { timeout: 10_000, interval: 100 }).toBe("failed");
    const endpoint = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(endpoint.disabledAt).not.toBeNull();
    expect(endpoint.disabledReason).toMatch(/410 Gone/);
    expect((await db().webhookCursor.findFirstOrThrow({ where: { endpointId } })).failures).toBe(1);
    receiver.failWith = null;
    await setWebhookEndpointState({ actorPersonId: developer.personId, applicationId, endpointId, state: "enabled" });
    expect(await deliverNextBatch(settings)).toBe("delivered");
  });
});

describe("a caught-up cursor", () => {
  it("is put back unread until its institution or one below it has a new event, which it then delivers", async () => {
    const owner = await createDeveloper("Ganchos Rede");
    const app = (await createPartner("Ganchos Rede", owner.edtechId)).applicationId;
    const network = (await createInstitution({ name: "Rede Gancho", kind: "network" })).id;
    const school = (await createInstitution({ name: "Escola da Rede Gancho", kind: "school", parentId: network })).id;
    const elsewhere = (await createInstitution({ name: "Escola de Fora", kind: "school" })).id;
    await linkEdtech(network, owner.edtechId);
    await grantAccess(network, app, { allowed: ["nome_usuario"], anonymized: [] });
    const created = await createWebhookEndpoint({ actorPersonId: owner.personId, applicationId: app, fields: { url: receiver.url }, allowPrivateNetwork: true });
    receiver.setSecret(created.secret);
    const where = { endpointId: created.endpointId };
    // Only this cursor is due: the other endpoints' cursors wait.
    await db().webhookCursor.updateMany({ where: { endpointId: { not: created.endpointId } }, data: { dueAt: new Date("2999-01-01") } });
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, worker: "test", allowPrivateNetwork: true };
    const step = async () => {
      await db().webhookCursor.updateMany({ where, data: { dueAt: new Date(0) } });
      return deliverNextBatch(settings);
    };

    // Never read: read at once (the network has no event yet).
    expect(await step()).toBe("caught_up");
    const read = await db().webhookCursor.findFirstOrThrow({ where });
    expect(await step()).toBe("idle");
    // An event outside the network: still unread, the position where the read left it.
    await createPeriod({ institutionId: elsewhere, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
    expect(await step()).toBe("idle");
    const after = await db().webhookCursor.findFirstOrThrow({ where });
    expect(after.position).toBe(read.position);
    expect(after.leaseToken).toBeNull();
    expect(after.dueAt.getTime()).toBeGreaterThan(Date.now());
    // An event of a school below the network wakes the cursor, and the event is delivered.
    const received = receiver.received.length;
    await createPeriod({ institutionId: school, code: "2027", name: "2027", startsOn: "2027-02-01", endsOn: "2027-12-01" });
    // Below the horizon once every transaction that began before it has ended (see the test above).
    await expect.poll(step, { timeout: 10_000, interval: 100 }).toBe("delivered");
    const delivery = receiver.received.at(-1)!;
    expect(receiver.received.length).toBe(received + 1);
    expect(delivery.payload.instituicaoId).toBe(network);
    expect(JSON.stringify(delivery.payload.data.dados)).toContain("2027");
    expect(await step()).toBe("idle");
    // A cursor showing an error (as one that lost its access does) is read, and the read clears it.
    await db().webhookCursor.updateMany({ where, data: { lastError: "Sem acesso aos dados da instituição: teste" } });
    expect(await step()).toBe("caught_up");
    expect((await db().webhookCursor.findFirstOrThrow({ where })).lastError).toBeNull();
    expect(await step()).toBe("idle");
  });
});
